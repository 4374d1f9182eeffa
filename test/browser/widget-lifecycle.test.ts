// The widget in a single-page app, in a real browser against the demo: finders mounted and
// destroyed as components are (React's StrictMode mounts, destroys and mounts at once), a finder
// destroyed while its first answers are on their way, one mounted hidden and shown later.
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
import { mapAtRest } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** A page of the host's site with two empty elements, #a and #b, and widget.js; its errors and the Query API requests it makes. */
async function appPage(style = '') {
  const host = hostPage(
    `<div id="a" style="${style}"></div><div id="b"></div><script src="${demo.server.url}/widget.js"></script>`,
  )
  const page = await newPage(demo.browser, { viewport: { width: 1100, height: 800 } })
  const errors: string[] = []
  const requests: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('request', (r) => {
    if (r.url().includes('/public/v1/')) requests.push(r.url())
  })
  await page.goto(host.url)
  await page.waitForFunction('typeof window.Storeloc === "object"')
  const close = async () => {
    host.stop()
    await page.close()
  }
  return { page, errors, requests, close }
}

/** Runs `js` in the page, with TOKEN set to the demo's public token. */
const run = (page: Page, js: string) => page.evaluate(`(async () => { const TOKEN = '${demo.server.token}'; ${js} })()`)

describe.skipIf(chromiumPath === null)('the widget mounted and destroyed as in a single-page app, in Chromium', () => {
  test('a finder destroyed at once sends nothing more and leaves no map, event or listener behind', async () => {
    const { page, errors, close } = await appPage()
    try {
      const before = await listeners(page, 'document', 'pointerdown')
      // The destroyed finders ask the service at 127.0.0.1: their requests are told apart.
      const destroyed = demo.server.url.replace('localhost', '127.0.0.1')
      const theirs = requestsOf(page, (url) => url.startsWith(destroyed))
      // As StrictMode does, five times; then a finder in #b, which takes the same steps after them.
      await run(
        page,
        `const a = document.querySelector('#a')
        window.events = 0
        a.addEventListener('storeloc:search', () => window.events++)
        for (let i = 0; i < 5; i++) Storeloc.mount(a, { token: TOKEN, place: 'London', api: '${destroyed}' }).destroy()
        window.w = Storeloc.mount(document.querySelector('#b'), { token: TOKEN, place: 'London' })`,
      )
      // Its filters and map drawn (after its answers, a frame and Leaflet, which the finders share),
      // their requests over and a turn after: a destroyed finder that went on would have asked by then.
      await page.locator('#b .sl-item').first().waitFor()
      await page.locator('#b .sl-filters').waitFor({ state: 'attached' })
      await page.locator('#b .sl-marker').first().waitFor()
      await theirs.settled()
      await aTurnLater(page)
      await sentNow(page)
      // Each asked for its filters as it was mounted (and for Leaflet, preloaded): nothing after.
      const asked = theirs.sent.map((r) => new URL(r.url()).pathname.replace(demo.server.token, 'TOKEN'))
      const atMount = [
        '/widget.css',
        '/widget/leaflet.js',
        '/widget/map.js',
        '/widget/leaflet.css',
        '/public/v1/TOKEN/filters',
      ]
      expect(asked.filter((p) => !atMount.includes(p))).toEqual([])
      expect(await page.locator('#a .leaflet-container').count()).toBe(0)
      expect(await run(page, 'return window.events')).toBe(0)
      const windowListeners = await listeners(page, 'window', 'resize')
      await run(page, 'window.w.destroy()')
      await pastZoomEnd(page)
      expect(await listeners(page, 'document', 'pointerdown')).toBe(before)
      expect(await listeners(page, 'window', 'resize')).toBeLessThan(windowListeners)
      // Its element mounts again.
      await run(page, `window.w = Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      await page.locator('#a .sl-item').first().waitFor()
      expect(await run(page, 'return window.events')).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a token changed: the finder mounted in its place shows, whatever the first one hears after', async () => {
    const { page, errors, close } = await appPage()
    try {
      const first = requestsOf(page, (url) => url.includes('pk_notatokenofthisservice'))
      await run(
        page,
        `const a = document.querySelector('#a')
        Storeloc.mount(a, { token: 'pk_notatokenofthisservice', map: false })
        Storeloc.mount(a, { token: TOKEN, place: 'London', map: false })`,
      )
      await page.locator('#a .sl-item').first().waitFor()
      // What the first asked answered or cut off, and a turn for what it would do with the answer.
      await first.settled()
      await aTurnLater(page)
      const hidden = await run(page, `return [...document.querySelector('#a').children].map((c) => c.hidden)`)
      expect(hidden).toEqual([false, false, false, false])
      expect(await page.locator('#a .sl-error').textContent()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('destroyed twice, asked to search and select after: nothing happens; its element mounts again', async () => {
    const { page, errors, requests, close } = await appPage()
    try {
      await run(page, `window.w = Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      await page.locator('#a .leaflet-container').waitFor()
      const href = page.url()
      await run(page, 'window.w.destroy(); window.w.destroy()')
      const after = requests.length
      await run(
        page,
        `await window.w.search({ origin: { kind: 'place', label: 'Paris', lat: 48.8566, lng: 2.3522 } })
        window.w.select('loc_none')`,
      )
      await sentNow(page)
      expect(requests.slice(after)).toEqual([])
      expect(page.url()).toBe(href)
      expect(await page.locator('#a').innerHTML()).toBe('')
      await run(page, `Storeloc.mount(document.querySelector('#a'), { token: TOKEN })`)
      await page.locator('#a .sl-item').first().waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  // Vue's reactive() (a ref holding the finder) hands the app a Proxy: its getters and methods run
  // with the Proxy as `this`, which holds no private (#) member of the class.
  test("held by a framework's Proxy (Vue's reactive), the finder's members work as on the finder", async () => {
    const { page, errors, close } = await appPage()
    try {
      await run(
        page,
        `const made = Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London', map: false })
        window.w = new Proxy(made, { get: (target, key, receiver) => Reflect.get(target, key, receiver) })`,
      )
      await page.locator('#a .sl-item').first().waitFor()
      const read = await run(page, 'return [window.w.lang, window.w.destroyed, window.w.element.id]')
      expect(read).toEqual(['en', false, 'a'])
      await run(page, `await window.w.search({ origin: { kind: 'place', label: 'Paris', lat: 48.8566, lng: 2.3522 } })`)
      await page
        .locator('#a .sl-status')
        .filter({ hasText: /of Paris/ })
        .waitFor()
      await run(page, 'window.w.select(null); window.w.destroy()')
      expect(await run(page, 'return window.w.destroyed')).toBe(true)
      expect(await page.locator('#a').innerHTML()).toBe('')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test("a finder mounted where one was destroyed takes up its search from the address, under the page's first prefix", async () => {
    const { page, close } = await appPage()
    try {
      // Nothing searched yet: the address holds no search (not even the form's radius).
      await run(page, `window.w = Storeloc.mount(document.querySelector('#a'), { token: TOKEN })`)
      await page.locator('#a .sl-status').filter({ hasText: /./ }).waitFor()
      await page.waitForFunction(`document.querySelector('#a .sl-radius select').value !== ''`)
      expect(new URL(page.url()).search).toBe('')
      await run(page, `await window.w.search({ origin: { kind: 'near', text: 'London' } })`)
      expect(new URL(page.url()).searchParams.get('sl_place')).toContain('London')
      // Another route's component: another element.
      await run(page, `window.w.destroy(); Storeloc.mount(document.querySelector('#b'), { token: TOKEN })`)
      await page.locator('#b .sl-item').first().waitFor()
      expect(await page.locator('#b .sl-status').textContent()).toContain('London')
      expect([...new URL(page.url()).searchParams.keys()].filter((k) => k.startsWith('sl2_'))).toEqual([])
    } finally {
      await close()
    }
  })

  test('of two finders, one mounted again reads its own search, whichever was destroyed before', async () => {
    const { page, close } = await appPage()
    try {
      await run(
        page,
        `window.a = Storeloc.mount(document.querySelector('#a'), { token: TOKEN, map: false })
        window.b = Storeloc.mount(document.querySelector('#b'), { token: TOKEN, map: false })
        window.a.search({ origin: { kind: 'near', text: 'London' } })
        window.b.search({ origin: { kind: 'near', text: 'Berlin' } })`,
      )
      await page.locator('#a .sl-status').filter({ hasText: 'London' }).waitFor()
      await page.locator('#b .sl-status').filter({ hasText: 'Berlin' }).waitFor()
      await run(page, `window.a.destroy(); Storeloc.mount(document.querySelector('#b'), { token: TOKEN, map: false })`)
      await page.locator('#b .sl-item').first().waitFor()
      expect(await page.locator('#b .sl-status').textContent()).toContain('Berlin')
      await run(page, `Storeloc.mount(document.querySelector('#a'), { token: TOKEN, map: false })`)
      await page.locator('#a .sl-item').first().waitFor()
      expect(await page.locator('#a .sl-status').textContent()).toContain('London')
    } finally {
      await close()
    }
  })

  test('a map the visitor moved stays where it is when its element is hidden and shown', async () => {
    const { page, close } = await appPage()
    try {
      await run(page, `Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      await page.locator('#a .sl-marker').first().waitFor()
      await mapAtRest(page)
      await page.locator('#a .leaflet-control-zoom-in').click()
      await mapAtRest(page)
      // Where the first pin stands in the map (the page may scroll as the element hides).
      const pin = async () => {
        const [p, m] = [
          await page.locator('#a .sl-marker').first().boundingBox(),
          await page.locator('#a .sl-map').boundingBox(),
        ]
        return { x: p!.x - m!.x, y: p!.y - m!.y }
      }
      const moved = await pin()
      // A frame hidden (its ResizeObserver called), then a frame shown and the map still.
      await run(page, `document.querySelector('#a').style.display = 'none'`)
      await aTurnLater(page)
      await run(page, `document.querySelector('#a').style.display = 'block'`)
      await aTurnLater(page)
      await mapAtRest(page)
      const after = await pin()
      expect([Math.round(after.x), Math.round(after.y)]).toEqual([Math.round(moved.x), Math.round(moved.y)])
    } finally {
      await close()
    }
  })

  test('mounted hidden and shown later, the map fits its stores', async () => {
    const { page, close } = await appPage('display:none')
    try {
      await run(page, `Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      await page.locator('#a .sl-marker').first().waitFor({ state: 'attached' })
      await run(page, `document.querySelector('#a').style.display = 'block'`)
      await aTurnLater(page) // its ResizeObserver called, the fit under way
      await mapAtRest(page)
      const outside = await run(
        page,
        `const map = document.querySelector('#a .sl-map').getBoundingClientRect()
        return [...document.querySelectorAll('#a .sl-marker')].filter((m) => {
          const r = m.getBoundingClientRect()
          return r.left < map.left || r.right > map.right || r.top < map.top || r.bottom > map.bottom
        }).length`,
      )
      expect(await page.locator('#a .sl-marker').count()).toBe(10)
      expect(outside).toBe(0)
    } finally {
      await close()
    }
  })

  test('with urlState off, neither the address nor the store links carry the search', async () => {
    const { page, close } = await appPage()
    try {
      await run(
        page,
        `Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London', urlState: false, storePages: true })`,
      )
      await page.locator('#a .sl-item').first().waitFor()
      expect(new URL(page.url()).search).toBe('')
      const href = await page.locator('#a .sl-item a[href*="/loc_"]').first().getAttribute('href')
      expect(new URL(href!).search).toBe('')
    } finally {
      await close()
    }
  })

  test("a finder taken out of the page without destroy(): its late answer leaves the next route's address alone", async () => {
    const { page, errors, close } = await appPage()
    try {
      const release = await heldUntilReleased(page, '**/locations?*')
      const searches = requestsOf(page, (url) => url.includes('/locations?'))
      // Mounted, its first search sent; the app then takes its element out and routes on, never destroying it.
      const asked = page.waitForRequest('**/locations?*')
      await run(page, `Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      await asked
      await run(page, `document.querySelector('#a').remove(); history.pushState(null, '', '/about')`)
      // Its answer let come only now, and a turn for what the finder would do with it.
      release()
      await searches.settled()
      await aTurnLater(page)
      expect(page.url()).toEndWith('/about')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  test('a finder destroyed while its map zooms: no error when the zoom would have ended', async () => {
    const { page, errors, close } = await appPage()
    try {
      await run(page, `window.finder = Storeloc.mount(document.querySelector('#a'), { token: TOKEN, place: 'London' })`)
      // The list may come before the map's code: its pins say the map is there.
      await page.locator('#a .sl-pin').first().waitFor()
      await mapAtRest(page) // the fit's own animation over
      // The zoom starts in the next frame; destroyed in the one after, before its 250 ms end.
      await run(
        page,
        `document.querySelector('#a .leaflet-control-zoom-in').click()
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
        window.finder.destroy()`,
      )
      await pastZoomEnd(page)
      expect(errors).toEqual([])
      expect(await page.locator('#a .leaflet-container').count()).toBe(0)
    } finally {
      await close()
    }
  })

  test('mount refuses what is no element, and takes null options as none', async () => {
    const { page, errors, close } = await appPage()
    try {
      const thrown = await run(page, 'try { Storeloc.mount(null, { token: TOKEN }) } catch (e) { return e.message }')
      expect(thrown).toBe('Storeloc.mount: the first argument is to be an element.')
      await run(page, `const a = document.querySelector('#a'); a.dataset.storeloc = TOKEN; Storeloc.mount(a, null)`)
      await page.locator('#a .sl-form').waitFor()
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
