// What the tests of the finder waiting for the service share: a page of the demo's finder, a
// search typed in it (not waited for), the request for the nearest stores beyond its radius, and
// what a screen reader reads out of the status line.
import type { Page } from 'playwright-core'
import { MAX_RADIUS } from '../../src/core/limits'
import { newPage } from './browser'
import type { DemoBrowser } from './server'

/**
 * Runs `use` on a new 1280×900 page; `open` goes to the demo's finder, after the routes `use` sets
 * first. The page's routes are let go before it closes: one still waiting would fail the close.
 */
export async function withFinderPage(
  demo: DemoBrowser,
  use: (page: Page, open: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
  try {
    await use(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
  } finally {
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await page.close()
  }
}

/**
 * withFinderPage on the finder page without its data-unit, as a page of the business's own may be
 * (its searches wait on the filters for their unit): on the service's origin, where the stand-in
 * answers the tests give (no CORS headers) reach the widget.
 */
export async function withUnitlessPage(
  demo: DemoBrowser,
  use: (page: Page, open: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  await withFinderPage(demo, async (page, open) => {
    await page.route(`${demo.server.url}/l/*`, async (route) => {
      const served = await route.fetch()
      await route.fulfill({ response: served, body: (await served.text()).replace(/ data-unit="[^"]*"/, '') })
    })
    await use(page, open)
  })
}

/** Types `place` into the place box and presses Enter. */
export async function searchFor(page: Page, place: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
}

/** Whether `url` asks for the nearest stores beyond a search's radius (beyond.ts: the farthest radius). */
export const beyond = (url: URL) =>
  url.pathname.endsWith('/locations') && url.searchParams.get('radius') === String(MAX_RADIUS)

/** A DOM node as readOut takes it (the tests' types have no DOM). */
export type Read = { textContent: string | null; getAttribute: (name: string) => string | null }

/**
 * In the page: what a polite live region (`region`) would have read out from now on, each change as
 * a screen reader takes it (globalThis.readOut): the whole region's text where aria-atomic is not
 * "false" (role=status implies "true"), else the text added (aria-relevant's default "additions
 * text"; what is removed is not read).
 */
export function readOut(region: Read) {
  const said: string[] = []
  ;(globalThis as unknown as { readOut: string[] }).readOut = said
  type Record = { type: string; target: Read; addedNodes: Iterable<Read> }
  const { MutationObserver } = globalThis as unknown as {
    MutationObserver: new (f: (records: Record[]) => void) => { observe: (n: Read, o: object) => void }
  }
  new MutationObserver((records) => {
    const atomic = region.getAttribute('aria-atomic') !== 'false'
    const added = records.flatMap((r) => (r.type === 'characterData' ? [r.target] : [...r.addedNodes]))
    const text = atomic ? (region.textContent ?? '') : added.map((n) => n.textContent).join('')
    if (text !== '' && (atomic || added.length > 0)) said.push(text)
  }).observe(region, { childList: true, characterData: true, subtree: true })
}

/** What readOut has heard in `page` so far. */
export const heard = (page: Page) => page.evaluate(() => (globalThis as unknown as { readOut: string[] }).readOut)
