// Back, in a real browser against the demo data. From a store's page: the finder opens on the
// search the visitor left, and the store they opened is in sight, on a phone where the list flows
// with the page and on a wide screen where it scrolls in its own box. From a search to the page as
// it opened: the map as it was, every store clustered, no pin of that search left.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage, type PageDocument } from './browser'
import { searchFinder } from './finder-page'
import { mapAtRest } from './map-rest'
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
      await searchFinder(page, demo.server)
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

/** Waits till the map shows the world, its clusters drawn: its scale reads thousands of the locator's unit. */
const worldView = (page: Page) =>
  page.waitForFunction(() => {
    const { document } = globalThis as unknown as { document: PageDocument }
    const scale = document.querySelector('.leaflet-control-scale-line')?.textContent ?? ''
    return /^\d{4,} (km|mi)$/.test(scale) && document.querySelector('.sl-cluster') !== null
  })

describe.skipIf(chromiumPath === null)('back to before any search, in Chromium', () => {
  test('on a phone, the map shows every store again, fitted as at first, with no pin of the search', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      const open = async (goto: () => Promise<unknown>) => {
        await goto()
        await worldView(page)
      }
      await searchFinder(page, demo.server, 'Edinburgh', { open })
      await page.locator('.sl-pin').nth(4).waitFor()
      // The pins may come during the world's fit's zoom: the search's fit waits for its end. Back
      // pressed before then, that zoom's end would move the map and ask for clusters once more.
      await mapAtRest(page)
      // The world's clusters asked once: the fit, made at once from a town's zoom, asks its view's.
      const asked: string[] = []
      page.on('request', (r) => {
        if (r.url().includes('/clusters?')) asked.push(new URL(r.url()).searchParams.get('bbox')!)
      })
      await page.goBack()
      await page.locator('.sl-status').filter({ hasText: 'Type a town or postcode' }).waitFor()
      await worldView(page)
      expect(await page.locator('.sl-pin, .sl-here').count()).toBe(0)
      expect(asked.filter((bbox) => bbox === '-180,-90,180,90')).toHaveLength(1)
    } finally {
      await page.close()
    }
  })
})
