// The demo's finder page with a place searched, as many widget tests begin; a place searched in one
// finder of a page, picked among its suggestions, or typed and left waiting for its stores.
import type { Locator, Page } from 'playwright-core'
import { heldUntilReleased, networkSettled } from './browser'
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

/** Types `text` into #f's place box and picks the suggestion holding `label`: the search, answered. */
export async function pick(page: Page, text: string, label: string) {
  await page.locator('#f .sl-place input').fill(text)
  await page.locator('#f .sl-place [role=option]').filter({ hasText: label }).first().click()
  await page
    .locator('#f .sl-status')
    .filter({ hasText: `of ${label}` })
    .waitFor()
  await networkSettled(page)
}
/** `text` typed into #f's place box and Enter pressed, its stores' answer held: the search waits. Lets it go. */
export async function typedWaiting(page: Page, text: string): Promise<() => void> {
  const release = await heldUntilReleased(page, `**/locations?*near=${text}*`)
  await page.locator('#f .sl-place input').fill(text)
  await page.locator('#f .sl-place input').press('Enter')
  await page.locator('#f .sl-status').filter({ hasText: 'Searching…' }).waitFor()
  return release
}
