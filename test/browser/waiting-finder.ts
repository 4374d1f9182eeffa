// What the tests of the finder waiting for the service share: a page of the demo's finder, a
// search typed in it (not waited for), and the request for the nearest stores beyond its radius.
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

/** Types `place` into the place box and presses Enter. */
export async function searchFor(page: Page, place: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
}

/** Whether `url` asks for the nearest stores beyond a search's radius (beyond.ts: the farthest radius). */
export const beyond = (url: URL) =>
  url.pathname.endsWith('/locations') && url.searchParams.get('radius') === String(MAX_RADIUS)
