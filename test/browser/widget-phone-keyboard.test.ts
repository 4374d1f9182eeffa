// The place box on a phone, in a real browser against the demo data: once a search from it is
// answered the box lets go of the focus, so the phone's keyboard no longer covers the stores; the
// focus goes to the status line that reads their count. With a mouse and keyboard it stays. Its
// suggestions are drawn over all else: the floating "Show map" too.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { searchFinder } from './finder-page'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const WIDE = { viewport: { width: 1200, height: 800 } }

/** The class of the element with the focus. */
const focused = (page: Page) => page.evaluate<string>('document.activeElement.className')

describe.skipIf(chromiumPath === null)('the place box on a phone, in Chromium', () => {
  test.each(['Enter', 'a suggestion tapped'])(
    'after a search by %s the focus is on the status line, not the place box',
    async (how) => {
      const page = await newPage(demo.browser, PHONE)
      try {
        await page.goto(`${demo.server.url}/l/${demo.server.token}`)
        const place = page.getByRole('combobox', { name: 'Town or postcode' })
        await place.tap()
        await place.fill('London')
        if (how === 'Enter') await place.press('Enter')
        else await page.locator('.sl-place [role=option]').filter({ hasText: 'London' }).first().tap()
        await page.locator('.sl-item').first().waitFor()
        await page.waitForFunction('!document.activeElement.matches("input")')
        expect(await focused(page)).toBe('sl-status')
        expect(await page.locator('.sl-status').textContent()).toMatch(/^\d+ stores within .* of London/)
      } finally {
        await page.close()
      }
    },
  )

  test('a place not found keeps the focus in the box, to be typed again', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const place = page.getByRole('combobox', { name: 'Town or postcode' })
      await place.tap()
      await place.fill('Xqzwvyqq')
      await place.press('Enter')
      await page.locator('.sl-error').filter({ hasText: /./ }).waitFor()
      expect(await focused(page)).toBe('sl-input')
    } finally {
      await page.close()
    }
  })

  test('with a mouse and keyboard the focus stays in the box after Enter', async () => {
    const page = await newPage(demo.browser, WIDE)
    try {
      await searchFinder(page, demo.server)
      await page.locator('.sl-status').filter({ hasText: 'of London' }).waitFor()
      expect(await focused(page)).toBe('sl-input')
    } finally {
      await page.close()
    }
  })

  test('a phone turned: the suggestions are drawn over the floating "Show map"', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 667, height: 375 }, isMobile: true, hasTouch: true })
    try {
      const place = await searchFinder(page, demo.server)
      // The filters closed: the list, and the button floating over it, begin under the form.
      if (await page.locator('.sl-filters-box[open]').count()) await page.locator('.sl-filters-summary').tap()
      await page.evaluate('scrollTo(0, 0)')
      await place.fill('Ba')
      const options = page.locator('.sl-place [role=option]')
      await options.nth(4).waitFor()
      expect(await page.getByRole('button', { name: 'Show map' }).isVisible()).toBe(true)
      // Each suggestion, at points across it in the screen, is what a finger there meets.
      const covered = await options.evaluateAll((items) => {
        const { document, innerHeight } = globalThis as unknown as {
          document: { elementFromPoint: (x: number, y: number) => unknown }
          innerHeight: number
        }
        return items.flatMap((item) => {
          const box = item.getBoundingClientRect()
          const points = [0.1, 0.3, 0.5, 0.7, 0.9].flatMap((x) => [0.3, 0.5, 0.7].map((y) => [x, y] as const))
          return points
            .map(([x, y]) => [box.left + box.width * x, box.top + box.height * y] as const)
            .filter(([, y]) => y < innerHeight)
            .some(
              ([x, y]) =>
                !(item as unknown as { contains: (e: unknown) => boolean }).contains(document.elementFromPoint(x, y)),
            )
            ? [item.textContent]
            : []
        })
      })
      expect(covered).toEqual([])
    } finally {
      await page.close()
    }
  })
})
