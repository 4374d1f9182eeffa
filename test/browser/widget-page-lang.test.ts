// A page that switches its language by changing <html lang>, as single-page apps do, in a real
// browser against the demo: its finders without a language of their own follow, their searches
// kept; one with data-lang keeps its own; none listens once destroyed. Its store links name its
// language, whatever language the locator's own pages are in.
import { describe, expect, test } from 'bun:test'
import { setLocatorSettings } from '../../src/operator'
import { openStore } from '../../src/store'
import { chromiumPath, networkSettled, newPage, sentNow, watchRequests } from './browser'
import { hostPage, useDemoBrowser } from './server'
import { searchIn } from './finder-page'

const demo = useDemoBrowser()

describe.skipIf(chromiumPath === null)("finders and the page's <html lang>, in Chromium", () => {
  test('a finder without a language of its own follows the page, its search kept; data-lang stays', async () => {
    const token = demo.server.token
    const host = hostPage(
      `<div id="f" data-storeloc="${token}" data-unit="km" data-map="off"></div>
      <div id="g" data-storeloc="${token}" data-lang="en" data-place="Leeds" data-map="off"></div>
      <div id="h"></div>
      <script src="${demo.server.url}/widget.js"></script>
      <script>
        window.own = Storeloc.mount(document.querySelector('#h'), { token: '${token}', urlState: false, map: false })
      </script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1100, height: 900 } })
    watchRequests(page)
    const errors: string[] = []
    const requests: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('request', (r) => {
      if (r.url().startsWith(demo.server.url)) requests.push(r.url())
    })
    try {
      await page.goto(host.url)
      await page.locator('#g .sl-status').filter({ hasText: 'Leeds' }).waitFor()
      await searchIn(page, '#f', 'Manchester')
      await searchIn(page, '#h', 'Bristol')
      await page.locator('#f .sl-item .sl-name').first().click()
      const picked = await page.locator('#f .sl-item.sl-selected .sl-name').textContent()
      const [url, entries] = [page.url(), await page.evaluate<number>('history.length')]

      // The page switches, and the finder's height is sampled each frame until its texts are German.
      const heights = await page.evaluate<{ before: number; lowest: number }>(`new Promise((done) => {
        const f = document.querySelector('#f')
        const before = f.offsetHeight
        let lowest = before
        document.documentElement.lang = 'de'
        const frame = () => {
          lowest = Math.min(lowest, f.offsetHeight)
          if (f.querySelector('button[type=submit]')?.textContent === 'Suchen') done({ before, lowest })
          else requestAnimationFrame(frame)
        }
        frame()
      })`)
      // Shown all along: the page below it does not jump up as it is made again.
      expect(heights.lowest).toBeGreaterThan(heights.before / 2)
      await page.locator('#f .sl-status').filter({ hasText: 'Geschäfte im Umkreis von 40 km um Manchester' }).waitFor()
      await page.locator('#h .sl-status').filter({ hasText: 'um Bristol' }).waitFor()
      expect(await page.locator('#f button[type=submit]').textContent()).toBe('Suchen')
      expect(await page.getAttribute('#f', 'lang')).toBe('de')
      expect(await page.locator('#f .sl-item.sl-selected .sl-name').textContent()).toBe(picked)
      // The page's own finder is the same object, its search in memory alone.
      expect(await page.evaluate<boolean>('own.destroyed')).toBe(false)
      expect(await page.locator('#h .sl-place input').inputValue()).toContain('Bristol')
      // data-lang is the finder's own.
      expect(await page.locator('#g button[type=submit]').textContent()).toBe('Search')
      expect(await page.locator('#g .sl-status').textContent()).toContain('of Leeds')
      // The address and the history as they were: a language is no search.
      await networkSettled(page)
      expect([page.url(), await page.evaluate<number>('history.length')]).toEqual([url, entries])

      // Destroyed, by the page or with their element, none follows the page any more.
      await page.evaluate(`own.destroy(); document.querySelector('#f').remove(); document.querySelector('#g').remove()`)
      expect(await page.locator('#h').innerHTML()).toBe('')
      const stopped = requests.length
      await page.evaluate(`document.documentElement.lang = 'fr'`)
      await sentNow(page)
      expect(requests.slice(stopped)).toEqual([])
      expect(await page.locator('#h').innerHTML()).toBe('')
      expect(errors).toEqual([])
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("an English page's finder links the English store pages of a locator whose pages are German, a German one its bare URLs", async () => {
    const language = (value: string) => {
      const store = openStore(demo.server.dbPath)
      try {
        setLocatorSettings(store, demo.server.locatorId, { language: value })
      } finally {
        store.close()
      }
    }
    const host = hostPage(
      `<div id="en" data-storeloc="${demo.server.token}" data-store-pages="on" data-place="London" data-map="off"></div>
      <div id="de" data-storeloc="${demo.server.token}" data-lang="de" data-store-pages="on" data-place="London" data-map="off" data-url-state="off"></div>
      <script src="${demo.server.url}/widget.js" async></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1100, height: 900 } })
    language('de')
    try {
      await page.goto(host.url)
      const german = page.locator('#de .sl-item').first().locator('a.sl-link', { hasText: 'Details' })
      expect(new URL((await german.getAttribute('href'))!).search).toBe('')
      const link = page.locator('#en .sl-item').first().locator('a.sl-link', { hasText: 'Store page' })
      expect(new URL((await link.getAttribute('href'))!).searchParams.get('lang')).toBe('en')
      await link.click()
      await page.locator('.slp-nav a').waitFor()
      expect(await page.getAttribute('html', 'lang')).toBe('en')
    } finally {
      language('')
      host.stop()
      await page.close()
    }
  })
})
