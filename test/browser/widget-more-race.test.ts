// "Show more stores" pressed at awkward times, in a real browser against a real server with the
// demo data: a press for the last search's next page while a newer search is on its way neither
// ends that search nor adds the newer search's stores to the last one's list; presses in a row
// while its page waits (a key held down) ask it afresh once, not once each.
import { describe, expect, test } from 'bun:test'
import type { Page, Route } from 'playwright-core'
import { chromiumPath, newPage, sentNow } from './browser'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** Types `place` into the place box and presses Enter. */
async function searchFor(page: Page, place: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Town or postcode' })
  await box.fill(place)
  await box.press('Enter')
}

describe.skipIf(chromiumPath === null)('"Show more stores" pressed at awkward times, in Chromium', () => {
  test('pressed while a newer search is on its way: that search is answered and shown alone', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      // The newer search's first page held till the press is made.
      let release = () => {}
      const held = new Promise<void>((done) => (release = done))
      await page.route(
        (url) => url.pathname.endsWith('/locations') && url.searchParams.get('near') === 'Manchester',
        async (route: Route) => {
          if (route.request().url().includes('offset=10')) return route.continue()
          await held
          await route.continue().catch(() => {})
        },
      )
      await searchFor(page, 'Manchester')
      await page.getByRole('status').filter({ hasText: 'Searching' }).waitFor()
      await page.getByRole('button', { name: 'Show more stores' }).click()
      release()
      await page
        .getByRole('status')
        .filter({ hasText: /stores? within .* of Manchester/ })
        .waitFor()
      const status = (await page.getByRole('status').textContent()) ?? ''
      expect(status).not.toContain('Showing')
      expect(await page.locator('.sl-item').count()).toBeLessThanOrEqual(10)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })

  test('pressed again and again while its page waits (a key held): asked afresh once, not at each press', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await searchFor(page, 'London')
      await page.locator('.sl-item').nth(9).waitFor()
      // The page taken and never answered.
      let asked = 0
      await page.route(
        (url) => url.searchParams.get('offset') === '10',
        () => void asked++,
      )
      const more = page.getByRole('button', { name: 'Show more stores' })
      await more.click()
      await page.getByRole('status').filter({ hasText: 'Still waiting for the store finder…' }).waitFor()
      await more.click({ clickCount: 3 })
      await more.focus()
      for (let i = 0; i < 10; i++) await page.keyboard.down('Enter')
      await page.keyboard.up('Enter')
      await sentNow(page)
      expect(asked).toBe(2)
      expect(await page.locator('.sl-more-busy').isVisible()).toBe(true)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
    }
  })
})
