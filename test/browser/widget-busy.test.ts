// The finder while the service is busy (503 with Retry-After), in a real browser against a real
// server with the demo data: a Retry-After neither seconds nor a date names no wait.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** Types `place` into the place box and presses Enter. */
async function searchFor(page: Page, place: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
}

describe.skipIf(chromiumPath === null)('the finder while the service is busy, in Chromium', () => {
  test('a 503 whose Retry-After is neither seconds nor a date ("-5", "1.5") names no wait: its error said at once', async () => {
    for (const value of ['-5', '1.5']) {
      const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
      let asked = 0
      await page.route('**/locations?*', (route) => {
        asked++
        return route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': value },
          body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'Unavailable.' } }),
        })
      })
      try {
        await page.goto(`${demo.server.url}/l/${demo.server.token}`)
        await searchFor(page, 'London')
        const alert = page.locator('.sl-root > .sl-error')
        await alert.filter({ hasText: 'The stores could not be loaded.' }).waitFor()
        expect(asked).toBe(1)
        expect(await alert.textContent()).toBe('The stores could not be loaded. Try again')
      } finally {
        await page.unrouteAll({ behavior: 'ignoreErrors' })
        await page.close()
      }
    }
  })
})
