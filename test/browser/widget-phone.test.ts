// The widget on a phone 390 x 844 px, in a real browser against the demo data: after a search the
// first store found is in sight, on the finder page and below a business's own site header, the
// list flows with the page, and the map follows it; a button at the screen's foot shows the map in
// its place, and a pin pressed there its store in the list. A tap begun before the place
// suggestions come goes where it began.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage, type PageDocument } from './browser'
import { searchFinder } from './finder-page'
import { mapAtRest } from './map-rest'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
/** What the test reads of the page's elements: where they are drawn. */
type Box = { getBoundingClientRect: () => { left: number; right: number; top: number; bottom: number } }
type Boxes = { querySelector: (selector: string) => Box; querySelectorAll: (selector: string) => Iterable<Box> }

const HEADER = '<header style="height: 110px; background: #223; color: #fff">Our site</header>'
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'

/**
 * What holdClustersForZoom keeps on the page: the first GET /clusters asked; whether its answer
 * was drawn during the zoom; whether the widget dropped its request (a move's end asks anew).
 */
type HeldClusters = { slHeld: { asked: Promise<void>; drawnInZoom: boolean | null; dropped: boolean } }

/**
 * In the page, before the widget: GET /clusters's answers held until the visitor's zoom begins
 * (Leaflet's class on the map's pane) and given then, and the zoom's end held until they are drawn,
 * so that they land during it however slow the page: Leaflet ends a zoom 250 ms after it begins
 * (a timer) or at its pane's transitionend, which wait for the bubbles here. Any answer asked after
 * fails, so the map's view is that answer's fit, or the visitor's zoom. Notes whether the bubbles
 * came during the zoom.
 */
function holdClustersForZoom(): void {
  type El = { classList: { contains: (c: string) => boolean } }
  const g = globalThis as unknown as HeldClusters & {
    fetch: (input: unknown, init?: unknown) => Promise<Response>
    setTimeout: (f: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => number
    addEventListener: (
      type: string,
      f: (e: { target: unknown; stopImmediatePropagation: () => void }) => void,
      capture: boolean,
    ) => void
    document: { querySelector: (s: string) => El | null }
    MutationObserver: new (
      f: () => void,
    ) => { observe: (target: unknown, options: object) => void; disconnect: () => void }
  }
  const fetch = g.fetch
  const setTimeout = g.setTimeout
  let zoomed = false
  let drawn = false
  const zooming = () => g.document.querySelector('.leaflet-map-pane')?.classList.contains('leaflet-zoom-anim') === true
  /** The zoom's end, held: Leaflet's timer set as the zoom began. */
  const ends: (() => void)[] = []
  g.setTimeout = (f, ms, ...a) => {
    if (ms !== 250 || drawn || !zooming()) return setTimeout(f, ms, ...a)
    ends.push(() => f(...a))
    return 0
  }
  g.addEventListener(
    'transitionend',
    (e) => {
      if (!drawn && (e.target as Partial<El>).classList?.contains('leaflet-proxy')) e.stopImmediatePropagation()
    },
    true,
  )
  let begin = () => {}
  const begun = new Promise<void>((done) => (begin = done))
  let ask = () => {}
  g.slHeld = { asked: new Promise<void>((done) => (ask = done)), drawnInZoom: null, dropped: false }
  const watch = new g.MutationObserver(() => {
    if (zooming() && !zoomed) {
      zoomed = true
      begin()
    }
    if (g.document.querySelector('.sl-cluster') === null) return
    g.slHeld.drawnInZoom = zooming()
    drawn = true
    for (const end of ends.splice(0)) setTimeout(end)
    watch.disconnect()
  })
  watch.observe(g.document, { attributes: true, attributeFilter: ['class'], childList: true, subtree: true })
  g.fetch = async (input, init) => {
    if (!String(input).includes('/clusters?')) return fetch(input, init)
    if (zoomed) throw new TypeError('Failed to fetch')
    ask()
    const signal = (init as { signal?: AbortSignal } | undefined)?.signal
    signal?.addEventListener('abort', () => (g.slHeld.dropped = true))
    const response = await fetch(input, init)
    const body = await response.text()
    await begun
    return new Response(body, { status: response.status, headers: response.headers })
  }
}

describe.skipIf(chromiumPath === null)('the widget on a phone, in Chromium', () => {
  test.each(['the finder page', 'a page with its own header'])(
    'on %s, the first store found and its address are in sight after a search; the list flows with the page',
    async (where) => {
      const host =
        where === 'the finder page'
          ? null
          : hostPage(
              HEADER +
                docsSnippet(demo.server.url, demo.server.token).replace(
                  'data-storeloc',
                  'data-lang="de" data-storeloc',
                ),
              VIEWPORT,
            )
      const page = await newPage(demo.browser, PHONE)
      try {
        await page.goto(host?.url ?? `${demo.server.url}/l/${demo.server.token}?lang=de`)
        const place = page.getByRole('combobox', { name: 'Ort oder Postleitzahl' })
        await place.fill('München')
        await place.press('Enter')
        const first = page.locator('.sl-item').first()
        await first.waitFor()
        for (const part of ['.sl-name', '.sl-address']) {
          const box = (await first.locator(part).boundingBox())!
          expect(box.y, part).toBeGreaterThanOrEqual(0)
          expect(box.y + box.height, part).toBeLessThanOrEqual(844)
        }
        // The list flows with the page, no box scrolling within it; the map comes after it, as it is read.
        const results = page.locator('.sl-results')
        const [overflow, scrollHeight, clientHeight] = await results.evaluate((el) => {
          const box = el as unknown as { scrollHeight: number; clientHeight: number }
          const style = (
            globalThis as unknown as { getComputedStyle: (e: unknown) => { overflowY: string } }
          ).getComputedStyle(el)
          return [style.overflowY, box.scrollHeight, box.clientHeight] as const
        })
        expect(overflow).toBe('visible')
        expect(scrollHeight).toBeLessThanOrEqual(clientHeight + 1)
        const list = (await results.boundingBox())!
        expect(list.height).toBeGreaterThan(844)
        const map = (await page.locator('.sl-map').boundingBox())!
        expect(map.y - (list.y + list.height)).toBeGreaterThanOrEqual(0)
        expect(map.y - (list.y + list.height)).toBeLessThan(40)
      } finally {
        host?.stop()
        await page.close()
      }
    },
  )

  test('a search answered while the map still zooms to its first view: the map fits the stores found', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?lang=de&unit=km`)
      const place = page.getByRole('combobox', { name: 'Ort oder Postleitzahl' })
      await place.fill('München')
      await place.press('Enter')
      await page.locator('.sl-item').first().waitFor()
      // Munich's stores lie within 40 km: fitted, the scale reads some km or m, not thousands.
      await page.waitForFunction(
        () => {
          const { document } = globalThis as unknown as { document: PageDocument }
          const scale = /^(\d+) (m|km)$/.exec(document.querySelector('.leaflet-control-scale-line')?.textContent ?? '')
          return scale !== null && (scale[2] === 'm' || Number(scale[1]) <= 50)
        },
        undefined,
        { timeout: 5000 },
      )
    } finally {
      await page.close()
    }
  })

  test('the visitor zooms the map as its first clusters come: the map still fits them all', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.addInitScript(holdClustersForZoom)
      await page.goto(`${demo.server.url}/l/${demo.server.token}?lang=de&unit=km`)
      await page.evaluate(() => (globalThis as unknown as HeldClusters).slHeld.asked)
      const map = (await page.locator('.sl-map').boundingBox())!
      await page.mouse.dblclick(map.x + map.width / 2, map.y + map.height / 2)
      await page.waitForFunction(() => {
        const { slHeld } = globalThis as unknown as HeldClusters
        return slHeld.drawnInZoom !== null || slHeld.dropped
      })
      const drawnInZoom = await page.evaluate(() => (globalThis as unknown as HeldClusters).slHeld.drawnInZoom)
      expect(drawnInZoom, 'the answer drawn during the zoom').toBe(true)
      // Fitted, every bubble and store of the answer is within the map's box; and so still once the
      // map is at rest, drawn apart at the fit's view (its zoom's end places them).
      const allInside = () => {
        const { document } = globalThis as unknown as { document: Boxes }
        const box = document.querySelector('.sl-map').getBoundingClientRect()
        const drawn = [...document.querySelectorAll('.sl-cluster, path.sl-dot')].map((el) => el.getBoundingClientRect())
        return (
          drawn.length > 0 &&
          drawn.every((b) => b.left >= box.left && b.right <= box.right && b.top >= box.top && b.bottom <= box.bottom)
        )
      }
      await page.waitForFunction(allInside)
      await mapAtRest(page)
      expect(await page.evaluate(allInside)).toBe(true)
    } finally {
      await page.close()
    }
  })

  test('after a search a button at the foot of the screen shows the map, and a pin pressed there its store in the list', async () => {
    const page = await newPage(demo.browser, PHONE)
    /** Whether the element's box is wholly in the phone's screen. */
    const inSight = async (selector: string) => {
      const box = await page.locator(selector).boundingBox()
      return box !== null && box.y >= 0 && box.y + box.height <= 844
    }
    try {
      await searchFinder(page, demo.server)
      await page.locator('.sl-pin').first().waitFor()
      // The map is far down, past the whole list; the button is in sight, and stays so as the list scrolls.
      expect(await inSight('.sl-map')).toBe(false)
      const toMap = page.getByRole('button', { name: 'Show map' })
      expect(await inSight('.sl-view')).toBe(true)
      await page.evaluate(() =>
        (globalThis as unknown as { scrollBy: (x: number, y: number) => void }).scrollBy(0, 1200),
      )
      expect(await inSight('.sl-view')).toBe(true)
      await toMap.tap()
      await page.waitForFunction(() => {
        const { document } = globalThis as unknown as { document: Boxes }
        const map = document.querySelector('.sl-map').getBoundingClientRect()
        return map.top >= 0 && map.bottom <= 844 && map.bottom - map.top > 400
      })
      expect(await page.locator('.sl-item').first().isVisible()).toBe(false)
      // A pin pressed: the list again, that store picked and in sight.
      const pin = page.locator('.sl-pin').nth(2)
      await pin.tap()
      const item = page.locator('.sl-item.sl-selected')
      await item.waitFor()
      expect(await item.locator('.sl-name').textContent()).toBe(
        await page.locator('.sl-item').nth(2).locator('.sl-name').textContent(),
      )
      expect(await inSight('.sl-item.sl-selected .sl-name')).toBe(true)
      // By keyboard, named as it acts: to the map and back.
      const toList = page.getByRole('button', { name: 'Show list' })
      await toMap.focus()
      await page.keyboard.press('Enter')
      await toList.waitFor()
      expect(await page.locator('.sl-item').first().isVisible()).toBe(false)
      await page.keyboard.press('Enter')
      await toMap.waitFor()
      await page.locator('.sl-item').first().waitFor()
      // Wider, list and map side by side: no button.
      await page.setViewportSize({ width: 1000, height: 800 })
      await page.locator('.sl-view').waitFor({ state: 'hidden' })
    } finally {
      await page.close()
    }
  })

  test('a search that finds nothing leaves no blank room between its status line and the map', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await page.getByLabel('Name, product or service').fill('Xqzwvy')
      const place = page.getByRole('combobox', { name: 'Town or postcode' })
      await place.fill('London')
      await place.press('Enter')
      const status = page.locator('.sl-status')
      await status.filter({ hasText: 'Xqzwvy' }).waitFor()
      const line = (await status.boundingBox())!
      const map = (await page.locator('.sl-map').boundingBox())!
      expect(map.y - (line.y + line.height)).toBeLessThan(40)
    } finally {
      await page.close()
    }
  })
})

describe.skipIf(chromiumPath === null)('place suggestions on a slow network, on a phone in Chromium', () => {
  /** The finder with "Lon" typed in its place box; `answer` gives GET /places' answer, held till then. */
  async function typedLon(page: Page) {
    let answer: (() => Promise<void>) | null = null
    await page.route('**/places?*', async (route) => {
      const response = await route.fetch()
      answer = () => route.fulfill({ response })
    })
    await page.goto(`${demo.server.url}/l/${demo.server.token}`)
    const place = page.getByRole('combobox', { name: 'Town or postcode' })
    await place.fill('Lon')
    for (let i = 0; i < 100 && answer === null; i++) await Bun.sleep(20)
    return { place, answer: () => (answer as unknown as () => Promise<void>)() }
  }

  test('a tap begun before the suggestions come goes to the checkbox it began on, not to a suggestion', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      // GET /places answered once the finger is down on "Open now", where the list opens.
      const { answer } = await typedLon(page)
      const openNow = page.getByLabel('Open now')
      const box = (await openNow.boundingBox())!
      const cdp = await page.context().newCDPSession(page)
      const finger = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [finger] })
      await answer()
      await Bun.sleep(150)
      // The box's text is searched with the filter, as it is for any filter changed.
      const searched = page.waitForRequest('**/locations?*')
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
      const query = new URL((await searched).url()).searchParams
      expect([query.get('near'), query.get('open_now')]).toEqual(['Lon', 'true'])
      expect(await openNow.isChecked()).toBe(true)
      expect(await page.getByRole('listbox').isVisible()).toBe(false)
    } finally {
      await page.close()
    }
  })

  test('a finger that scrolls the page as they come lets them open', async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      const { place, answer } = await typedLon(page)
      const box = (await page.locator('.sl-status').boundingBox())!
      const cdp = await page.context().newCDPSession(page)
      const at = (dy: number) => [{ x: box.x + 40, y: box.y + box.height / 2 + dy }]
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) })
      await answer()
      await Bun.sleep(150)
      for (const dy of [-10, -25, -40])
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(dy) })
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
      await page.getByRole('option', { name: 'London, United Kingdom' }).waitFor()
      expect(await place.inputValue()).toBe('Lon')
    } finally {
      await page.close()
    }
  })
})
