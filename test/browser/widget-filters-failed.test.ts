// The filters failing to load (GET /filters out of reach, or a 5xx), in a real browser against a
// real server with the demo data: an alert where they would be, with a button that asks again, as a
// failed search has; the search itself goes on without them.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { aTurnLater, chromiumPath, newPage, type PageDocument } from './browser'
import { openFirstMap } from './map-rest'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** GET /filters failed as `fail()` says (null: answered). */
async function filtersFailing(page: Page, fail: () => 'refused' | 500 | 429 | null): Promise<void> {
  await page.route('**/filters*', (route) => {
    const how = fail()
    if (how === null) return route.continue()
    if (how === 'refused') return route.abort('connectionrefused')
    const error = { code: how === 429 ? 'RATE_LIMITED' : 'INTERNAL', message: 'Failed.' }
    return route.fulfill({ status: how, contentType: 'application/json', body: JSON.stringify({ error }) })
  })
}

/** GET /filters failed as `fail` says while `down()`, else answered. */
const filtersDown = (page: Page, fail: 'refused' | 500, down: () => boolean) =>
  filtersFailing(page, () => (down() ? fail : null))

/** The class of the element holding the focus (its role first). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as unknown as { document: PageDocument }).document.activeElement
    return el?.getAttribute('role') ?? el?.getAttribute('class') ?? el?.tagName ?? ''
  })

describe.skipIf(chromiumPath === null)('the filters failing to load, in Chromium', () => {
  test('a 500: an alert in their place, none that the stores failed; a search works; "Try again" brings them', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    let down = true
    await filtersDown(page, 500, () => down)
    try {
      const filters = page.waitForResponse('**/filters*')
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
      await (await filters).finished()
      await aTurnLater(page)
      const alert = page.locator('.sl-filter-slot').getByRole('alert')
      expect(await alert.textContent()).toBe('The filters could not be loaded. Try again')
      expect(await page.locator('.sl-root > .sl-error').textContent()).toBe('') // the stores' alert
      // The search goes on without them, and the alert stays where it was.
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-item').first().waitFor()
      expect(await alert.textContent()).toBe('The filters could not be loaded. Try again')
      down = false
      await alert.getByRole('button', { name: 'Try again' }).click()
      await page.locator('.sl-filters-box').waitFor()
      expect(await alert.count()).toBe(0)
      expect(await page.locator('.sl-item').count()).toBeGreaterThan(0)
    } finally {
      // A request still routed when the page closes would reject its fulfill() unawaited.
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('out of reach: the next search asks for them again and brings them, the alert gone', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    let down = true
    await filtersDown(page, 'refused', () => down)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const alert = page.getByRole('alert').filter({ hasText: 'The filters could not be loaded.' })
      await alert.waitFor()
      down = false
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-filters-box').waitFor()
      await page.locator('.sl-item').first().waitFor()
      expect(await alert.count()).toBe(0)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('in the finder\'s language; "Try again" by keyboard leaves the focus on the status line', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    await filtersDown(page, 500, () => true)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?lang=de`)
      const alert = page.getByRole('alert').filter({ hasText: 'Die Filter konnten nicht geladen werden.' })
      const again = alert.getByRole('button', { name: 'Erneut versuchen' })
      await again.focus()
      // Still down: the button goes, and comes again in a new alert.
      const asked = page.waitForResponse('**/filters*')
      await page.keyboard.press('Enter')
      await (await asked).finished()
      await alert.waitFor()
      expect(await focused(page)).toBe('status')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('a rate limit says the filters were not loaded, and a failure after it says so with Try again', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    let fail: 429 | 500 = 429
    await filtersFailing(page, () => fail)
    await page.route('**/locations?*', (route) =>
      route.fulfill({ status: 429, contentType: 'application/json', body: '{"error":{"code":"RATE_LIMITED"}}' }),
    )
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const alert = page.locator('.sl-filter-slot').getByRole('alert')
      await alert.waitFor()
      const box = page.getByRole('combobox', { name: 'Town or postcode' })
      await box.fill('London')
      const searched = page.waitForResponse('**/locations?*')
      await box.press('Enter')
      await (await searched).finished()
      await page.locator('.sl-root > .sl-error').filter({ hasText: 'Too many' }).waitFor()
      // Beside the search's own alert, this one says what it is about.
      const busy = 'Too many searches just now. Try again in a moment.'
      expect(await page.getByRole('alert').allTextContents()).toEqual([
        `The filters could not be loaded. ${busy}`,
        busy,
      ])
      fail = 500
      const asked = page.waitForResponse('**/filters*')
      await box.press('Enter')
      await (await asked).finished()
      await alert.getByRole('button', { name: 'Try again' }).waitFor()
      expect(await alert.textContent()).toBe('The filters could not be loaded. Try again')
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })
})
