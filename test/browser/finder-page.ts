// The demo's finder page with a place searched, as many widget tests begin; a place searched in one
// finder of a page.
import type { Locator, Page } from 'playwright-core'
import type { DemoServer } from './server'

type Options = {
  /** The page to open in place of the demo's finder page: a business's page with the widget. */
  url?: string
  /** Opens the page by `goto`, for a test that waits for more of it before the search (the map drawn). */
  open?: (goto: () => Promise<unknown>) => Promise<unknown>
}

/**
 * Opens the demo's finder page in `page` and searches `place` by Enter; the place box, once the
 * first store is listed.
 */
export async function searchFinder(
  page: Page,
  server: DemoServer,
  place = 'London',
  { url = `${server.url}/l/${server.token}`, open = (goto) => goto() }: Options = {},
): Promise<Locator> {
  await open(() => page.goto(url))
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
  await page.locator('.sl-item').first().waitFor()
  return box
}

/** Types `place` into the place box of `finder` (a selector of its element), and Enter: the search, answered. */
export async function searchIn(page: Page, finder: string, place: string): Promise<void> {
  const box = page.locator(`${finder} .sl-place input`)
  await box.fill(place)
  await box.press('Enter')
  await page.locator(`${finder} .sl-status`).filter({ hasText: place }).waitFor()
}
