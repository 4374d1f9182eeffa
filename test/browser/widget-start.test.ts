// The widget as it starts, in a real browser against a real server with the demo data: the
// first map holds every store (zooming out, unless the visitor touched it), the filters line up,
// a store open past midnight reads right, a token the service does not know (or a secret key) is
// said to be not valid, and the service's pages keep to their Content-Security-Policy.
import { describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'
import { chromiumPath, networkSettled, newPage, pastZoomEnd, watchRequests } from './browser'
import { openFirstMap } from './map-rest'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()
const cli = cliRunner(() => demo.server.dbPath)

/** A new locator of 14 stores in four countries, each store's external_id its town. */
function europe(name: string): { id: string; token: string; count: number } {
  const locator = cli.json('locator', 'create', '--name', name).locator
  cli.json('locator', 'set', locator.id, '--query-api', 'on')
  const stores: [string, number, number][] = [
    ['Edinburgh', 55.953, -3.188],
    ['London', 51.507, -0.128],
    ['Bristol', 51.454, -2.588],
    ['Paris', 48.857, 2.352],
    ['Lyon', 45.764, 4.836],
    ['Bordeaux', 44.838, -0.579],
    ['Toulouse', 43.605, 1.444],
    ['Nantes', 47.218, -1.554],
    ['Munich', 48.137, 11.575],
    ['Freiburg', 47.999, 7.842],
    ['Hamburg', 53.551, 9.994],
    ['Kiel', 54.323, 10.123],
    ['Amsterdam', 52.368, 4.904],
    ['Groningen', 53.219, 6.567],
  ]
  const dir = tempDir()
  const file = join(dir, 'europe.csv')
  writeFileSync(
    file,
    `name,external_id,address,lat,lng\n${stores.map(([n, lat, lng]) => `${n},${n},${n},${lat},${lng}`).join('\n')}\n`,
  )
  cli.json('locations', 'import', locator.id, '--file', file)
  rmSync(dir, { recursive: true, force: true })
  return { id: locator.id, token: locator.public_token, count: stores.length }
}

describe.skipIf(chromiumPath === null)('the widget as it starts, in Chromium', () => {
  // A map narrower than the world at its first zoom: stores in the Americas and New Zealand lie
  // outside it. On a phone, narrower than the world at zoom 1 too.
  test.each([700, 360])(
    'the first view shows every store, wherever it is, %p px wide: the first clusters asked are the whole world',
    async (width) => {
      const page = await newPage(demo.browser, { viewport: { width, height: 800 } })
      const asked: string[] = []
      page.on('request', (r) => void (r.url().includes('/clusters?') && asked.push(r.url())))
      try {
        // Resolves once the map has drawn a view that holds every store of the world's answer.
        const { world, view } = await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
        const all = (await demo.server.api('clusters?bbox=-180,-90,180,90&zoom=1')) as unknown as {
          data: { total: number }
        }
        expect(new URL(asked[0]!).searchParams.get('bbox')).toBe('-180,-90,180,90')
        expect(world.total).toBe(all.data.total)
        // The map fitted to them: the view it then asks for still holds every store.
        expect(view.total).toBe(all.data.total)
      } finally {
        await page.close()
      }
    },
  )
  test("a chain's stores in four countries: the first view holds them all, none outside the map, and uses its room", async () => {
    const { token, count } = europe('Europe')
    const page = await newPage(demo.browser, { viewport: { width: 1000, height: 700 } })
    try {
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${token}`))
      const map = (await page.locator('.sl-map').boundingBox())!
      const markers = await page.locator('.sl-cluster, path.sl-dot').all()
      let held = 0
      const xs: number[] = []
      const ys: number[] = []
      for (const marker of markers) {
        const box = (await marker.boundingBox())!
        expect(box.x).toBeGreaterThanOrEqual(map.x)
        expect(box.y).toBeGreaterThanOrEqual(map.y)
        expect(box.x + box.width).toBeLessThanOrEqual(map.x + map.width)
        expect(box.y + box.height).toBeLessThanOrEqual(map.y + map.height)
        xs.push(box.x)
        ys.push(box.y)
        const count = await marker.evaluate((el) => el.querySelector('.sl-cluster-count')?.textContent ?? null)
        held += count === null ? 1 : Number(count)
      }
      expect(held).toBe(count)
      // Fitted, not the world: they span much of the map, across or down.
      const spread = (vs: number[]) => Math.max(...vs) - Math.min(...vs)
      expect(Math.max(spread(xs) / map.width, spread(ys) / map.height)).toBeGreaterThan(0.4)
    } finally {
      await page.close()
    }
  })

  // The first fit zooms out while its view holds fewer stores than the world's answer did. A store
  // deleted while the fitted view is asked makes the view hold fewer; a press on the map before its
  // answer leaves the visitor's view alone.
  test.each([false, true])(
    'the first fit zooms out to hold every store, unless the visitor touched the map (touched: %p)',
    async (touched) => {
      const { id, token } = europe(`Europe, touched: ${touched}`)
      const page = await newPage(demo.browser, { viewport: { width: 1000, height: 700 } })
      watchRequests(page)
      const zooms: number[] = []
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let asked!: () => void
      const second = new Promise<void>((resolve) => (asked = resolve))
      await page.route('**/clusters?*', async (route) => {
        zooms.push(Number(new URL(route.request().url()).searchParams.get('zoom')))
        if (zooms.length === 2) {
          cli.json('locations', 'delete', id, 'Munich')
          asked()
          await held
        }
        await route.continue()
      })
      try {
        await page.goto(`${demo.server.url}/l/${token}`)
        await second
        if (touched) await page.locator('.sl-map').dispatchEvent('pointerdown')
        // The view's request after the second answer: none till that answer is let go.
        const third = touched ? null : page.waitForRequest('**/clusters?*')
        release()
        if (touched) {
          // The answer in, the end of a zoom-out it would start, and the request that zoom's end would send.
          await networkSettled(page)
          await pastZoomEnd(page)
          await networkSettled(page)
          expect(zooms.length).toBe(2)
        } else expect(Number(new URL((await third!).url()).searchParams.get('zoom'))).toBeLessThan(zooms[1]!)
      } finally {
        await page.close()
      }
    },
  )

  test('a search cleared shows every store on the map again: the whole world asked at a zoom that takes it', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      const answered = page.waitForResponse((r) => r.url().includes('/clusters?'))
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('')
      await page.getByRole('button', { name: 'Search', exact: true }).click()
      const res = await answered
      expect(new URL(res.url()).searchParams.get('bbox')).toBe('-180,-90,180,90')
      expect(res.status()).toBe(200)
      await page.locator('.sl-cluster').first().waitFor()
    } finally {
      await page.close()
    }
  })

  test('clusters the service is still building (503, after a start): the map asks again and shows them', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      // The service's answer while a large locator's clusters are built, twice.
      let refused = 0
      await page.route('**/clusters?*', (route) =>
        refused++ < 2
          ? route.fulfill({
              status: 503,
              headers: { 'content-type': 'application/json', 'retry-after': '1' },
              body: JSON.stringify({ success: false, error: { code: 'UNAVAILABLE', message: 'being built' } }),
            })
          : route.continue(),
      )
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      await page.locator('.sl-cluster').first().waitFor()
      expect(refused).toBeGreaterThanOrEqual(3)
    } finally {
      await page.close()
    }
  })

  test('the filters line up: a dropdown level with the select beside it, each as tall as the inputs', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}`)
      const select = page.locator('.sl-filters .sl-select').first()
      const summary = page.locator('.sl-dropdown > summary').first()
      await summary.waitFor()
      const [s, d, input] = await Promise.all([
        select.boundingBox(),
        summary.boundingBox(),
        page.locator('.sl-input').first().boundingBox(),
      ])
      // What a <details> holds is laid out as border-box too: 44 px, not 44 plus padding and border.
      expect([s!.height, d!.height]).toEqual([input!.height, input!.height])
      expect(d!.y + d!.height).toBe(s!.y + s!.height)
      expect(d!.x).toBeGreaterThanOrEqual(s!.x + s!.width)
    } finally {
      await page.close()
    }
  })

  test('a store open past midnight on a day it is closed: "Open now", without "Today: closed"', async () => {
    // A zone where it is now between 01:00 and 02:00: open since 18:00 yesterday, until 03:00.
    const now = new Date()
    let offset = 1 - now.getUTCHours()
    if (offset < -12) offset += 24
    const zone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
    const today = new Date(now.getTime() + offset * 3_600_000).getUTCDay()
    const hours = Object.fromEntries(days.map((d, i) => [d, i === (today + 6) % 7 ? '18:00-03:00' : 'closed']))
    const file = join(demo.server.dir, 'night.json')
    const owl = {
      external_id: 'NIGHT',
      name: 'Night Owl',
      address: '1 Night Street',
      coordinates: { lat: 10, lng: 10 },
      timezone: zone,
      hours,
    }
    writeFileSync(file, JSON.stringify([owl]))
    cliRunner(() => demo.server.dbPath).json('locations', 'import', demo.server.locatorId, '--file', file)
    // The demo.server reads another process's write within moments.
    for (
      let i = 0;
      i < 50 && (await demo.server.api('locations?lat=10&lng=10&radius=1')).data.locations.length === 0;
      i++
    )
      await Bun.sleep(100)
    const page = await newPage(demo.browser)
    try {
      await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=Here&sl_lat=10&sl_lng=10`)
      const item = page.locator('.sl-item', { hasText: 'Night Owl' })
      await expect(item.locator('.sl-open').textContent()).resolves.toStartWith('Open now · closes at')
      expect(await item.locator('.sl-today').count()).toBe(0)
    } finally {
      await page.close()
    }
  })

  // A secret key pasted in the token's place is refused as no token either: no search could work.
  // With data-unit, the first search does not wait for the filters: their failure comes before the finder shows.
  test.each([
    ['a token the service does not know', 'INVALID_TOKEN', () => `${demo.server.token}x`, ''],
    ['a secret key set as the token', 'SECRET_KEY_EXPOSED', () => `sk_${'A1b2C3d4E5'.repeat(4).slice(0, 38)}`, ''],
    ['a token not known on a page naming its unit', 'INVALID_TOKEN', () => `${demo.server.token}x`, 'data-unit="km" '],
  ])(
    '%s: the widget says at once that the token is not valid, shows no form, and the console says why (%s)',
    async (_, code, token, unit) => {
      const snippet = docsSnippet(demo.server.url, token()).replace('data-storeloc=', `${unit}data-storeloc=`)
      const { url: pageUrl, stop } = hostPage(snippet)
      const page = await newPage(demo.browser)
      const warnings: string[] = []
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
      try {
        await page.goto(pageUrl)
        // Before any search: a visitor's search could not work, nor "Try again".
        await page
          .getByRole('alert')
          .filter({ hasText: 'This store finder is set up with a token that is not valid.' })
          .waitFor()
        // Alone: no form to fill, no empty list or map beside it.
        await page.locator('.sl-form').waitFor({ state: 'hidden' })
        expect(await page.locator('.sl-main').isVisible()).toBe(false)
        expect(await page.locator('.sl-status').isVisible()).toBe(false)
        expect(warnings.filter((w) => w.startsWith(`storeloc: ${code}: `))).toHaveLength(1)
      } finally {
        stop()
        await page.close()
      }
    },
  )

  test('a token not valid with a place in the address: said once, read out once, one console warning', async () => {
    const { url: pageUrl, stop } = hostPage(docsSnippet(demo.server.url, `${demo.server.token}x`))
    const page = await newPage(demo.browser)
    const warnings: string[] = []
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
    let asked = () => {}
    const searched = new Promise<void>((done) => (asked = done))
    try {
      // The first search's stores held till the filters' failure is said.
      let held: (() => Promise<void>) | null = null
      await page.route('**/locations?*', (route) => void ((held = () => route.continue()), asked()))
      await page.goto(`${pageUrl}?sl_place=London&sl_lat=51.5&sl_lng=-0.12`)
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'This store finder is set up with a token that is not valid.' })
      await alert.waitFor()
      await searched
      // Each change to the alert, as a screen reader would read it out again.
      await alert.evaluate((a) => {
        type Observer = new (f: (r: unknown[]) => void) => { observe: (n: unknown, o: object) => void }
        const g = globalThis as unknown as { changes: number; MutationObserver: Observer }
        g.changes = 0
        const o = { childList: true, characterData: true, subtree: true }
        new g.MutationObserver((r) => (g.changes += r.length)).observe(a, o)
      })
      const finished = page.waitForEvent('requestfinished', (r) => r.url().includes('/locations?'))
      await held!()
      await finished
      // A task after the answer's: the search's failure, if said, is said by then.
      await page.evaluate(() => new Promise((done) => setTimeout(done, 0)))
      expect(await page.evaluate(() => (globalThis as unknown as { changes: number }).changes)).toBe(0)
      expect(await alert.textContent()).toBe('This store finder is set up with a token that is not valid.')
      expect(warnings.filter((w) => w.startsWith('storeloc: INVALID_TOKEN: '))).toHaveLength(1)
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      stop()
      await page.close()
    }
  })

  test('the finder and a store page break no rule of their Content-Security-Policy', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    watchRequests(page)
    const refused: string[] = []
    page.on('console', (m) => void (m.text().includes('Content Security Policy') && refused.push(m.text())))
    // A violation the console does not report (Chromium reports most) is sent there too.
    await page.addInitScript(() =>
      globalThis.addEventListener('securitypolicyviolation', (e) => {
        const v = e as unknown as { violatedDirective: string; blockedURI: string }
        console.error(`Content Security Policy: ${v.violatedDirective} ${v.blockedURI}`)
      }),
    )
    try {
      const finder = await page.goto(`${demo.server.url}/l/${demo.server.token}?sl_place=London`)
      expect(finder!.headers()['content-security-policy']).toContain("script-src 'self'")
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-pin').first().waitFor()
      await networkSettled(page)
      const link = page.locator(`a[href*="/l/${demo.server.token}/loc_"]`).first()
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith(`/l/${demo.server.token}/loc_`)),
        link.click(),
      ])
      await page.waitForLoadState('load')
      expect(await page.locator('h1').count()).toBe(1)
      expect(refused).toEqual([])
      // The widget's link is the page's own address, slug and all (no redirect, no second
      // address), with the search for the link back.
      const url = new URL(page.url())
      expect(url.origin + url.pathname).toBe((await page.locator('link[rel=canonical]').getAttribute('href'))!)
      expect([...url.searchParams.keys()].every((k) => k.startsWith('sl_'))).toBe(true)
    } finally {
      await page.close()
    }
  })

  test('on a host page whose policy allows no inline style, the widget breaks no rule and keeps its colours', async () => {
    const service = demo.server.url
    const policy = `default-src 'self'; script-src ${service}; style-src ${service}; connect-src ${service}; img-src 'self' ${service} data:`
    const { url: pageUrl, stop } = hostPage(
      docsSnippet(service, demo.server.token),
      `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    watchRequests(page)
    const refused: string[] = []
    page.on('console', (m) => void (m.text().includes('Content Security Policy') && refused.push(m.text())))
    try {
      await page.goto(`${pageUrl}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-pin').first().waitFor()
      await networkSettled(page, service)
      expect(refused).toEqual([])
      // The filters' colour dots have their colours.
      const swatch = page.locator('.sl-swatch').first()
      const background = await swatch.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }).getComputedStyle(
            el,
          ).backgroundColor,
      )
      expect(background).not.toBe('rgba(0, 0, 0, 0)')
    } finally {
      stop()
      await page.close()
    }
  })

  test('on a slow line the finder stays hidden until its stylesheet is there, not bare controls', async () => {
    const { url: pageUrl, stop } = hostPage(docsSnippet(demo.server.url, demo.server.token))
    const page = await newPage(demo.browser)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/widget.css', async (route) => {
      await held
      await route.continue()
    })
    try {
      await page.goto(pageUrl, { waitUntil: 'domcontentloaded' })
      const root = page.locator('[data-storeloc]')
      await page.locator('.sl-form').waitFor({ state: 'attached' })
      expect(await root.isVisible()).toBe(false)
      release()
      await page.locator('.sl-form').waitFor({ state: 'visible' })
    } finally {
      stop()
      await page.close()
    }
  })

  test("the text is the visitor's own size, whatever the host page's root is; the host's element rules stop outside", async () => {
    const { url: pageUrl, stop } = hostPage(
      docsSnippet(demo.server.url, demo.server.token),
      `<style>html { font-size: 62.5% } h3 { text-transform: uppercase } button { all: unset }
      button { text-transform: uppercase; letter-spacing: .1em } label { color: #f90; text-transform: uppercase }
      div { line-height: 2 } li { margin-bottom: 1em }</style>`,
    )
    const page = await newPage(demo.browser)
    const PROPS = ['fontSize', 'textTransform', 'letterSpacing', 'color', 'lineHeight', 'marginBottom'] as const
    type Style = Record<(typeof PROPS)[number], string>
    const style = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el, props) => {
          const s = (globalThis as unknown as { getComputedStyle: (e: unknown) => Style }).getComputedStyle(el)
          return Object.fromEntries(props.map((p) => [p, s[p]])) as Style
        }, PROPS)
    const size = async (selector: string) => (await style(selector)).fontSize
    try {
      await page.goto(`${pageUrl}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      expect(await size('.sl-root')).toBe('16px')
      expect(await size('.sl-distance')).toBe('14px')
      const name = await style('.sl-name')
      expect([name.textTransform, name.letterSpacing]).toEqual(['none', 'normal'])
      // Labels in the widget's own colour and case; its line spacing throughout; items close together.
      const text = (await style('.sl-root')).color
      for (const label of ['.sl-chip', '.sl-check'])
        expect(await style(label)).toMatchObject({ color: text, textTransform: 'none' })
      expect((await style('.sl-body')).lineHeight).toBe('22.4px')
      expect((await style('.sl-item')).marginBottom).toBe('0px')
      // A visitor whose browser sets a larger text size gets it, the smaller texts in step.
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 13 } })
      await page.reload()
      await page.locator('.sl-item').first().waitFor()
      expect(await size('.sl-root')).toBe('24px')
      expect(await size('.sl-distance')).toBe('21px')
    } finally {
      stop()
      await page.close()
    }
  })

  // Last: the locator's index is let go with its Query API, and built again after.
  test('a locator whose Query API is off: the widget says its owner switched it off, not that the site is refused', async () => {
    const cli = cliRunner(() => demo.server.dbPath)
    const { url: pageUrl, stop } = hostPage(docsSnippet(demo.server.url, demo.server.token))
    const page = await newPage(demo.browser)
    try {
      cli.json('locator', 'set', demo.server.locatorId, '--query-api', 'off')
      await page.goto(pageUrl)
      await page.getByRole('alert').filter({ hasText: 'This store finder is switched off by its owner.' }).waitFor()
      await page.locator('.sl-form').waitFor({ state: 'hidden' })
    } finally {
      cli.json('locator', 'set', demo.server.locatorId, '--query-api', 'on')
      stop()
      await page.close()
    }
  })
})
