// Back from a store's page, in a real browser against the demo data: the finder opens on the search
// the visitor left, and the store they opened is in sight, on a phone where the list flows with the
// page and on a wide screen where it scrolls in its own box.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const WIDE = { viewport: { width: 1200, height: 800 } }

/** The store picked, its name's box wholly within the screen and within the list's box. */
async function pickedInSight(page: Page, height: number) {
  const name = page.locator('.sl-item.sl-selected .sl-name')
  await name.waitFor()
  const box = (await name.boundingBox())!
  const list = (await page.locator('.sl-results').boundingBox())!
  return {
    onScreen: box.y >= 0 && box.y + box.height <= height,
    inList: box.y >= list.y && box.y + box.height <= list.y + list.height,
  }
}

describe.skipIf(chromiumPath === null)('back from a store page, in Chromium', () => {
  test.each([
    ['a phone', 'its link back', PHONE],
    ['a phone', "the browser's Back", PHONE],
    ['a wide screen', 'its link back', WIDE],
  ] as const)('on %s, by %s, the store the visitor opened is in sight again', async (_, how, device) => {
    const page = await newPage(demo.browser, device)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const place = page.getByRole('combobox', { name: 'Town or postcode' })
      await place.fill('London')
      await place.press('Enter')
      // The seventh store, far down the list: out of sight when the list starts at its top.
      const item = page.locator('.sl-item').nth(6)
      await item.locator('.sl-name').click()
      const name = await item.locator('.sl-name').textContent()
      await item.getByRole('link', { name: 'Store page' }).click()
      await page.getByRole('heading', { level: 1, name: name! }).waitFor()
      if (how === 'its link back') await page.getByRole('link', { name: 'Back to all stores' }).click()
      else await page.goBack()
      await page.locator('.sl-item').nth(6).waitFor()
      expect(await page.locator('.sl-item.sl-selected .sl-name').textContent()).toBe(name)
      expect(await pickedInSight(page, device.viewport.height)).toEqual({ onScreen: true, inList: true })
    } finally {
      await page.close()
    }
  })
})
