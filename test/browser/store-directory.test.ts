// The store directory in a real browser with JavaScript off, as a visitor without it and a crawler
// see it: from the finder page's link down to a store, and back up the store's breadcrumb. The
// app answers through request interception: no port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, launch, newPage, screenshot, seriousViolations } from './browser'

/** The origin the pages are asked at; every request to it is answered by the fixture's app. */
const ORIGIN = 'http://stores.test'

let f: Fixture
let browser: Browser

/** A page whose requests to ORIGIN the app answers; with JavaScript off unless `scripts`. */
async function openPage(scripts = false): Promise<Page> {
  const page = await newPage(browser, { javaScriptEnabled: scripts, viewport: { width: 800, height: 700 } })
  // Anything else (a store's photo on img.example.com) is refused: nothing leaves the machine.
  await answeredBy(page, ORIGIN, f.env.app)
  return page
}

const heading = (page: Page) => page.locator('h1').textContent()

describe.skipIf(chromiumPath === null)('the store directory in Chromium', () => {
  beforeAll(async () => {
    ;[f, browser] = await Promise.all([makeFixture(), launch()])
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    f?.env.close()
  })

  test('from the finder page through the directory to a store, and back up its trail', async () => {
    const page = await openPage()
    await page.goto(`${ORIGIN}/l/${f.token}`)
    // Shown twice without JavaScript: in the finder's noscript text, and under it.
    const browse = page.getByRole('link', { name: 'Browse the stores by place' })
    expect(await browse.count()).toBe(2)
    await browse.first().click()
    expect(await heading(page)).toBe('Store directory')
    await page.getByRole('link', { name: 'France' }).click()
    expect(await heading(page)).toBe('Stores in France')
    await page.getByRole('link', { name: 'Paris', exact: true }).click()
    expect(await heading(page)).toBe('Stores in Paris')
    await page.getByRole('link', { name: 'Vélo Café Bikes' }).click()
    expect(await heading(page)).toBe('Vélo Café Bikes')
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    expect(await crumbs.getByRole('listitem').allTextContents()).toEqual([
      'Store directory',
      'France',
      'Paris',
      'Vélo Café Bikes',
    ])
    await crumbs.getByRole('link', { name: 'France' }).click()
    expect(await heading(page)).toBe('Stores in France')
    await page.close()
  })

  test("a town's page and a store's trail laid out, with no serious accessibility violation", async () => {
    // JavaScript on for axe, which the pages' policy would not let run otherwise; they run none.
    const page = await openPage(true)
    for (const [path, name] of [
      ['/stores/fr/paris', 'store-directory-town'],
      [`/${f.ids.velo}`, 'store-page-trail'],
    ] as const) {
      await page.goto(`${ORIGIN}/l/${f.token}${path}`)
      // The trail on one line: the page's own style applied.
      const tops = await page
        .getByRole('navigation', { name: 'Breadcrumb' })
        .getByRole('listitem')
        .evaluateAll((items) =>
          items.map(
            (i) => (i as unknown as { getBoundingClientRect: () => { top: number } }).getBoundingClientRect().top,
          ),
        )
      expect(new Set(tops).size).toBe(1)
      await screenshot(page, name)
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.close()
  })

  test("the trail's separators are drawn, not read: a screen reader hears the steps alone", async () => {
    const page = await openPage()
    await page.goto(`${ORIGIN}/l/${f.token}/${f.ids.velo}`)
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    expect(await crumbs.ariaSnapshot()).not.toContain('›')
    const drawn = await crumbs
      .getByRole('listitem')
      .evaluateAll((items) =>
        items.map(
          (i) =>
            (
              globalThis as unknown as { getComputedStyle: (e: unknown, p: string) => { content: string } }
            ).getComputedStyle(i, '::before').content,
        ),
      )
    expect(drawn.slice(1).every((c) => c.includes('›'))).toBe(true)
    await page.close()
  })
})
