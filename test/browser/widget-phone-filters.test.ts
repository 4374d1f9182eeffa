// The filters on a phone, in a real browser against the demo data: open, they fill the screen and
// the list is below it, so a bar at the screen's foot names the stores the search finds as a
// filter is ticked, with the page held still under the finger, and takes the visitor to them.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, heldUntilReleased, newPage } from './browser'
import { searchFinder } from './finder-page'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** Whether the element's box is wholly in the phone's screen (to a pixel: a scroll to it may end half a pixel short). */
async function inSight(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox()
  return box !== null && box.y > -1 && box.y + box.height < 845
}

const scrolled = (page: Page) => page.evaluate<number>('Math.round(scrollY)')

/** The demo finder with London searched and its filters open; the place box and the count bar, in sight. */
async function filtersOpen(page: Page) {
  const place = await searchFinder(page, demo.server)
  await page.locator('.sl-filters-summary').tap()
  const bar = page.locator('.sl-filter-count')
  await bar.waitFor()
  return { place, bar }
}

describe.skipIf(chromiumPath === null)('the filters on a phone, in Chromium', () => {
  test('a filter ticked: the count at the foot of the screen changes, the page stays; pressed, it shows the stores', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const bar = page.locator('.sl-filter-count button')
      // Before a search there is no count: the map shows every store.
      expect(await bar.isVisible()).toBe(false)
      const place = page.getByRole('combobox', { name: 'Town or postcode' })
      await place.fill('London')
      await place.press('Enter')
      await page.locator('.sl-item').first().waitFor()
      const all = Number(/^(\d+) stores/.exec((await page.locator('.sl-status').textContent())!)![1])
      await page.locator('.sl-filters-summary').tap()
      await bar.waitFor()
      expect(await bar.textContent()).toBe(`Show ${all} stores`)
      expect(await inSight(page, '.sl-filter-count')).toBe(true)
      expect(await inSight(page, '.sl-item')).toBe(false)
      const before = await scrolled(page)
      await page.locator('.sl-chip', { hasText: 'E-bikes' }).tap()
      // The next count, not "Loading…" on its way to it.
      await page
        .locator('.sl-status')
        .filter({ hasText: /^\d+ stores/, hasNotText: `${all} stores` })
        .waitFor()
      const some = Number(/^(\d+) stores/.exec((await page.locator('.sl-status').textContent())!)![1])
      expect(some).toBeLessThan(all)
      expect(await bar.textContent()).toBe(`Show ${some} stores`)
      expect(await inSight(page, '.sl-filter-count')).toBe(true)
      expect(await scrolled(page)).toBe(before)
      // Read out once, by the status line: the bar is no live region.
      expect(await page.locator('.sl-filter-count [aria-live], .sl-filter-count[aria-live]').count()).toBe(0)
      await bar.tap()
      expect(await inSight(page, '.sl-item .sl-name')).toBe(true)
      expect(await inSight(page, '.sl-status')).toBe(true)
      const first = await page.locator('.sl-item .sl-name').first().textContent()
      expect(await page.evaluate<string | null>('document.activeElement.textContent')).toBe(first)
      // With the map shown in the list's place: the status line above it.
      await page.getByRole('button', { name: 'Show map' }).tap()
      await page.locator('.sl-results').waitFor({ state: 'hidden' })
      await bar.tap()
      expect(await page.evaluate<string>('document.activeElement.className')).toBe('sl-status')
      expect(await inSight(page, '.sl-status')).toBe(true)
    } finally {
      await page.close()
    }
  })

  test('no store within the distance: the bar counts the nearest stores listed beyond it', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      // Inverness: the nearest demo store is Fort William, about 90 km away.
      await searchFinder(page, demo.server, 'Inverness, United Kingdom')
      await page.locator('.sl-status').filter({ hasText: 'The nearest stores:' }).waitFor()
      const listed = await page.locator('.sl-item').count()
      expect(listed).toBeGreaterThan(0)
      await page.locator('.sl-filters-summary').tap()
      const bar = page.locator('.sl-filter-count button')
      await bar.waitFor()
      expect(await bar.textContent()).toBe(`Show ${listed} stores`)
    } finally {
      await page.close()
    }
  })

  test('another place searched: the count is marked as the last until the new one comes', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      const { place, bar } = await filtersOpen(page)
      const london = (await bar.textContent())!
      const release = await heldUntilReleased(page, '**/locations?*Leeds*')
      const asked = page.waitForRequest((r) => r.url().includes('Leeds'))
      await place.fill('Leeds')
      await place.press('Enter')
      await asked
      expect(await bar.textContent()).toBe(london)
      expect(await bar.getAttribute('class')).toContain('sl-pending')
      release()
      await page.locator('.sl-status').filter({ hasText: 'of Leeds' }).waitFor()
      const leeds = Number(/^(\d+) stores/.exec((await page.locator('.sl-status').textContent())!)![1])
      expect(await bar.textContent()).toBe(`Show ${leeds} stores`)
      expect(await bar.getAttribute('class')).not.toContain('sl-pending')
    } finally {
      await page.close()
    }
  })

  test('none within the distance: the bar is marked as the last count until the nearest stores come', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      const { place, bar } = await filtersOpen(page)
      // The nearest stores beyond the radius, three asked for (beyond.ts), come when released.
      const release = await heldUntilReleased(page, '**/locations?*&limit=3')
      await place.fill('Inverness, United Kingdom')
      await place.press('Enter')
      await page.locator('.sl-status').filter({ hasText: 'No stores within' }).waitFor()
      expect(await bar.textContent()).toBe('No stores match.')
      expect(await bar.getAttribute('class')).toContain('sl-pending')
      release()
      await bar.filter({ hasText: 'Show 3 stores' }).waitFor()
      expect(await bar.getAttribute('class')).not.toContain('sl-pending')
    } finally {
      await page.close()
    }
  })

  test('a filter ticked with a place that cannot be found: no bar, as no store is listed', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      const { place, bar } = await filtersOpen(page)
      await place.fill('Xqzwvy')
      await page.locator('.sl-chip', { hasText: 'E-bikes' }).tap()
      await page.locator('.sl-error').filter({ hasText: 'Xqzwvy' }).waitFor()
      expect(await page.locator('.sl-item').count()).toBe(0)
      await bar.waitFor({ state: 'hidden' })
    } finally {
      await page.close()
    }
  })

  test('on a wide screen, with the list beside the map, there is no count bar', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await searchFinder(page, demo.server)
      await page.locator('.sl-filters').waitFor()
      expect(await page.locator('.sl-filter-count').isVisible()).toBe(false)
    } finally {
      await page.close()
    }
  })

  test("a dropdown's choices opened over the bar, two columns wide, are all in sight", async () => {
    // A large phone turned or a small tablet: the list under the form still, a dropdown a panel.
    const page = await newPage(demo.browser, { viewport: { width: 600, height: 900 }, isMobile: true, hasTouch: true })
    try {
      await searchFinder(page, demo.server)
      await page.locator('.sl-filters-summary').tap()
      await page.locator('.sl-filter-count button').waitFor()
      await page.evaluate('scrollTo(0, 0)')
      await page.locator('.sl-dropdown summary').last().tap()
      const choices = page.locator('.sl-dropdown[open] .sl-chip')
      await choices.first().waitFor()
      // Each choice is what a finger at its middle meets: no bar drawn over it.
      const covered = await choices.evaluateAll((labels) =>
        labels
          .map((label) => {
            const box = label.getBoundingClientRect()
            const at = (
              globalThis as unknown as { document: { elementFromPoint: (x: number, y: number) => unknown } }
            ).document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
            return (label as unknown as { contains: (e: unknown) => boolean }).contains(at) ? null : label.textContent
          })
          .filter((text) => text !== null),
      )
      expect(covered).toEqual([])
    } finally {
      await page.close()
    }
  })
})
