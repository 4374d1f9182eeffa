// The finder as it loads, in a real browser: nothing already shown moves (Chromium's layout-shift
// entries, which Cumulative Layout Shift adds up), on the service's finder page and inside a
// widget on a business's page; filters that answer late come in without holding the finder back.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

type Shift = { value: number; sources: string[] }

/** Before the page's scripts run: keeps every layout shift not caused by input, with the classes of what moved. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as unknown as {
      shifts: Shift[]
      PerformanceObserver: new (cb: (list: { getEntries: () => unknown[] }) => void) => { observe: (o: object) => void }
    }
    g.shifts = []
    new g.PerformanceObserver((list) => {
      for (const entry of list.getEntries() as {
        value: number
        hadRecentInput: boolean
        sources: { node?: { className?: unknown; closest?: (s: string) => unknown } }[]
      }[]) {
        if (entry.hadRecentInput) continue
        const sources = entry.sources.map(({ node }) =>
          node?.closest?.('[data-storeloc]') ? `widget ${String(node.className)}` : String(node?.className ?? ''),
        )
        g.shifts.push({ value: entry.value, sources })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

const shiftsOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { shifts: Shift[] }).shifts)
const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0)

describe.skipIf(chromiumPath === null)('the finder as it loads, in Chromium', () => {
  // The demo has filters: open on a wide screen, a summary line on a phone.
  test.each([
    [1280, 800, ''],
    [390, 844, ''],
    [1280, 800, '?place=London'],
    [390, 844, '?place=London'],
  ])('the finder page at %p x %p px%s: nothing shown moves as it loads', async (width, height, query) => {
    const page = await newPage(demo.browser, { viewport: { width, height } })
    try {
      await recordShifts(page)
      await page.goto(`${demo.server.url}/l/${demo.server.token}${query}`)
      await page.locator('.sl-chip').first().waitFor({ state: 'attached' })
      await page.locator('.leaflet-container').waitFor()
      await page.waitForLoadState('networkidle')
      const shifts = await shiftsOf(page)
      // A status line that wraps to two lines on a phone moves the map by a line: 0.012.
      expect(total(shifts), JSON.stringify(shifts)).toBeLessThan(0.02)
    } finally {
      await page.close()
    }
  })

  test("on a business's page that links the widget's stylesheet, none of the widget's own parts move as it loads", async () => {
    // With its stylesheet already there, the finder is not hidden while it starts.
    const head = `<link rel="stylesheet" href="${demo.server.url}/widget.css">`
    const host = hostPage(docsSnippet(demo.server.url, demo.server.token), head)
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 800 } })
    try {
      await recordShifts(page)
      await page.goto(host.url)
      await page.locator('.sl-chip').first().waitFor()
      await page.locator('.leaflet-container').waitFor()
      await page.waitForLoadState('networkidle')
      const inside = (await shiftsOf(page)).filter((s) => s.sources.some((c) => c.startsWith('widget')))
      expect(inside).toEqual([])
    } finally {
      await page.close()
      host.stop()
    }
  })

  test('filters that answer late come in after the finder shows, and can be used then', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 800 } })
    try {
      let answerFilters = () => {}
      const held = new Promise<void>((resolve) => {
        answerFilters = resolve
      })
      await page.route('**/filters', async (route) => {
        await held
        await route.continue()
      })
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await page.getByRole('combobox', { name: 'Town or postcode' }).waitFor()
      expect(await page.locator('.sl-chip').count()).toBe(0)
      answerFilters()
      await page.getByRole('checkbox', { name: 'Bikes', exact: true }).check()
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('London')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.locator('.sl-list li').first().waitFor()
      expect(new URL(page.url()).searchParams.get('sl_tags')).toBe('bikes')
    } finally {
      await page.close()
    }
  })
})
