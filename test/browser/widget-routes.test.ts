// Finders the widget mounts by itself (data-storeloc) in a single-page app, in a real browser
// against the demo: a route left stops its finder and one come back to mounts a new one, with the
// search the address holds; a finder follows its element's options as the app changes them.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import {
  aTurnLater,
  chromiumPath,
  heldUntilReleased,
  listeners,
  newPage,
  pastZoomEnd,
  requestsOf,
  sentNow,
} from './browser'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/**
 * A page routed as a single-page app does it, with history.pushState: /about holds some text,
 * every other path a finder marked with data-storeloc, made anew each time. go(path) follows a link.
 * `slow`: the service's stores answer only once the test calls release().
 */
async function appPage(slow = false) {
  const finder = `<section><div id="f" data-storeloc="${demo.server.token}" data-place="London"></div></section>`
  const host = hostPage(
    `<div id="app"></div>
    <script>
      const render = () => {
        document.querySelector('#app').innerHTML = location.pathname === '/about' ? '<p>About us</p>' : '${finder}'
      }
      window.go = (path) => { history.pushState(null, '', path); render() }
      addEventListener('popstate', render)
      render()
    </script>
    <script src="${demo.server.url}/widget.js"></script>`,
  )
  const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
  const errors: string[] = []
  const requests: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('request', (r) => {
    if (r.url().startsWith(demo.server.url)) requests.push(r.url())
  })
  const release = slow ? await heldUntilReleased(page, '**/locations?*') : () => {}
  await page.goto(host.url)
  const close = async () => {
    host.stop()
    await page.close()
  }
  return { page, errors, requests, close, release, finderPath: new URL(host.url).pathname }
}

/** Runs `js` in the page, with TOKEN set to the demo's public token. */
const run = (page: Page, js: string) => page.evaluate(`(async () => { const TOKEN = '${demo.server.token}'; ${js} })()`)

/** The page's address parameters that keep a finder's search (sl_, sl2_...). */
const searchKeys = (page: Page) => [...new URL(page.url()).searchParams.keys()].filter((k) => /^sl\d*_/.test(k))

describe.skipIf(chromiumPath === null)('finders of data-storeloc elements in a single-page app, in Chromium', () => {
  test('a route left stops its finder: after 5 visits none listens; Back finds the search of the last', async () => {
    const { page, errors, requests, close, finderPath } = await appPage()
    try {
      for (let visit = 0; visit < 5; visit++) {
        if (visit > 0) await run(page, `go('${finderPath}')`)
        await page.locator('#f .sl-item').first().waitFor()
        await page.locator('#f .leaflet-container').waitFor()
        await page.locator('#f .sl-filters').waitFor({ state: 'attached' })
        // Each finder keeps its search under the page's first prefix, the one it had before.
        expect(searchKeys(page).every((k) => k.startsWith('sl_'))).toBe(true)
        await run(page, `go('/about')`)
      }
      // A map removed as its fit zooms goes at the zoom's end.
      await pastZoomEnd(page)
      const left = requests.length
      // Leaflet's window resize, the filters' document pointerdown, the tooltips' document keydown.
      expect(await listeners(page, 'window', 'resize')).toBe(0)
      expect(await listeners(page, 'document', 'pointerdown')).toBe(0)
      expect(await listeners(page, 'document', 'keydown')).toBe(0)
      // A visitor's own search on the finder's route, a link away and back.
      await run(page, `go('${finderPath}')`)
      await page.locator('#f .sl-item').first().waitFor()
      await page.locator('#f .sl-place input').fill('Paris')
      await page.locator('#f .sl-place input').press('Enter')
      await page.locator('#f .sl-status').filter({ hasText: 'Paris' }).waitFor()
      expect(requests.slice(left).some((u) => u.includes('near=Paris'))).toBe(true)
      await run(page, `go('/about')`)
      await page.goBack()
      await page.locator('#f .sl-status').filter({ hasText: 'Paris' }).waitFor()
      expect(await page.locator('.sl-form').count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a route left while its finder's first answers come: the next route's address stays its own", async () => {
    const { page, errors, requests, close, release } = await appPage(true)
    try {
      const searches = requestsOf(page, (url) => url.includes('/locations?'))
      // Mounted, its first search sent, not answered yet.
      if (!requests.some((u) => u.includes('/locations?'))) await page.waitForRequest('**/locations?*')
      // Its search is in the address as it is asked.
      expect(searchKeys(page)).toContain('sl_place')
      await run(page, `go('/about')`)
      const left = requests.length
      release()
      // Its answer come or cut off, then a request of the page's own: any the finder sent after is seen.
      await searches.settled()
      await aTurnLater(page)
      await sentNow(page)
      expect(page.url()).toEndWith('/about')
      expect(requests.slice(left)).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a finder follows its element's options, its search kept; unmarked it stops, marked later it starts", async () => {
    const { page, errors, requests, close } = await appPage()
    try {
      await page.locator('#f .sl-status').filter({ hasText: '25\u00a0mi of London' }).waitFor()
      // A settings change, as a framework makes it: the attributes of the same element, at once.
      await run(page, `const f = document.querySelector('#f'); f.dataset.lang = 'de'; f.dataset.unit = 'km'`)
      await page.locator('#f .sl-status').filter({ hasText: '40\u00a0km um London' }).waitFor()
      expect(await page.getAttribute('#f', 'lang')).toBe('de')
      expect(new URL(page.url()).searchParams.get('sl_unit')).toBe('km')
      expect(await page.locator('.sl-form').count()).toBe(1)
      // A render that sets its attributes again, unchanged, leaves the finder as it is: the same
      // form, and no request of a finder made anew (its filters, its search) before the page's own.
      const settled = requests.length
      await run(page, `document.querySelector('#f .sl-form').dataset.kept = '1'`)
      await run(page, `document.querySelector('#f').dataset.lang = 'de'`)
      await sentNow(page)
      expect(await page.locator('#f .sl-form').getAttribute('data-kept')).toBe('1')
      expect(requests.slice(settled).filter((u) => u.includes('/public/'))).toEqual([])
      await run(page, `document.querySelector('#f').removeAttribute('data-storeloc')`)
      expect(await page.locator('#f').innerHTML()).toBe('')
      const stopped = requests.length
      // A token that comes later (a framework's attribute bound to it), on an element in the page.
      await run(page, `document.querySelector('#f').dataset.storeloc = TOKEN`)
      await page.locator('#f .sl-item').first().waitFor()
      expect(requests.length).toBeGreaterThan(stopped)
      // A finder the page mounted is the page's: it mounts again to change options.
      await run(
        page,
        `const own = document.createElement('div'); own.id = 'own'; document.querySelector('#app').append(own)
        Storeloc.mount(own, { token: TOKEN, map: false })
        own.dataset.lang = 'de'`,
      )
      await page.locator('#own .sl-form').waitFor()
      expect(await page.getAttribute('#own', 'lang')).toBe('en')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('of two finders, one taken out: the other keeps its search under sl2_, and one added takes up sl_', async () => {
    const { page, close } = await appPage()
    try {
      await page.locator('#f .sl-item').first().waitFor()
      await run(
        page,
        `document.querySelector('#app').insertAdjacentHTML('beforeend', '<div id="g" data-storeloc="' + TOKEN + '" data-place="Berlin" data-map="off"></div>')`,
      )
      await page.locator('#g .sl-status').filter({ hasText: 'Berlin' }).waitFor()
      await run(page, `document.querySelector('#f').remove()`)
      await page.locator('#g .sl-place input').fill('Paris')
      await page.locator('#g .sl-place input').press('Enter')
      await page.locator('#g .sl-status').filter({ hasText: 'Paris' }).waitFor()
      const url = new URL(page.url())
      expect(url.searchParams.get('sl2_place')).toContain('Paris')
      expect(url.searchParams.get('sl_place')).toContain('London')
      await run(
        page,
        `document.querySelector('#app').insertAdjacentHTML('afterbegin', '<div id="h" data-storeloc="' + TOKEN + '" data-map="off"></div>')`,
      )
      await page.locator('#h .sl-status').filter({ hasText: 'London' }).waitFor()
      expect(new URL(page.url()).searchParams.get('sl2_place')).toContain('Paris')
    } finally {
      await close()
    }
  })
})
