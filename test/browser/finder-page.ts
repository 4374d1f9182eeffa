// The demo's finder page with a place searched, as many widget tests begin.
import type { Locator, Page } from 'playwright-core'
import type { DemoServer } from './server'

/** Opens the demo's finder page in `page` and searches `place` by Enter; the place box, once the first store is listed. */
export async function searchFinder(page: Page, server: DemoServer, place = 'London'): Promise<Locator> {
  await page.goto(`${server.url}/l/${server.token}`)
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
  await page.locator('.sl-item').first().waitFor()
  return box
}
