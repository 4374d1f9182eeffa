// The widget in a real browser against a real server with the demo data: what a visitor does, and
// what they see, compared with what the Query API answers for the same search.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { tempDir } from '../helpers'
import { chromiumPath, newContext, type PageDocument, type PageElement, screenshot, seriousViolations } from './browser'
import { openFirstMap } from './map-rest'
import { type DemoServer, docsSnippet, hostPage, startDemoBrowser } from './server'

/** The page's document, for the callbacks run in the page. */
declare const document: PageDocument

const LONDON = { lat: 51.50853, lng: -0.12574 }

let server: DemoServer
let browser: Browser
let context: BrowserContext

/** The ids of the stores listed, in order. */
const listedIds = (page: Page) =>
  page.locator('.sl-item').evaluateAll((items) => items.map((i) => (i as unknown as PageElement).dataset.id))

/** The finder page, searched for London by typing "Lond" and picking the suggestion. */
async function londonSearch(page: Page, path = '') {
  await page.goto(`${server.url}/l/${server.token}${path}`)
  await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
  await page.getByRole('option', { name: 'London, United Kingdom' }).click()
  await page.locator('.sl-item').first().waitFor()
}

/** Does `action`, then waits for the widget's next answer (its storeloc:search event). */
async function answered(page: Page, action: () => Promise<unknown>) {
  const searched = page.evaluate(
    () => new Promise((resolve) => document.addEventListener('storeloc:search', resolve, { once: true })),
  )
  await action()
  await searched
}

/** The storeloc CLI on the server's database. */
const cli = (...args: string[]) =>
  Bun.spawnSync([process.execPath, 'src/cli/main.ts', ...args], {
    cwd: join(import.meta.dir, '..', '..'),
    env: { ...process.env, DATABASE_PATH: server.dbPath },
  })

const status = (page: Page) =>
  page
    .locator('.sl-status')
    .textContent()
    .then((t) => t ?? '')

describe.skipIf(chromiumPath === null)('the widget in Chromium', () => {
  beforeAll(async () => {
    ;({ server, browser } = await startDemoBrowser())
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('"Lond", London picked: the nearest stores by distance, as the API lists them', async () => {
    const page = await context.newPage()
    await londonSearch(page)
    const api = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&limit=10`)
    expect(await listedIds(page)).toEqual(api.data.locations.map((l) => l.id))
    // Each store's hours of its own date, as the API gives them (special hours on their date).
    const todays = await page
      .locator('.sl-item')
      .evaluateAll((items) =>
        items.map((i) => (i as unknown as PageElement).querySelector('.sl-today')?.textContent ?? null),
      )
    // Its times written as the page's language writes them in the store's country, as "opens at"
    // does: London's stores in English as Britain writes it ("9:00–18:00", not "9:00 AM–6:00 PM").
    const written = await page.evaluate(
      (stores) =>
        stores.map(({ text, country }) => {
          if (text !== null && /^closed$/i.test(text.trim())) return 'Closed' // the page's word
          const m = text === null ? null : /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(text)
          if (m === null) return text
          const locale = `en-${country}`
          const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
          const at = (h: string, min: string) => time.format(Date.UTC(1970, 0, 1, Number(h), Number(min)))
          return `${at(m[1]!, m[2]!)}–${at(m[3]!, m[4]!)}`
        }),
      api.data.locations.map((l) => ({ text: l.hours_today ?? null, country: l.address.country })),
    )
    expect(todays).toEqual(written.map((t) => (t ? `Today: ${t}` : null)))
    expect(api.data.locations.every((l) => l.address.country === 'GB')).toBe(true)
    expect(todays.filter((t) => t !== null && /^Today: \d{1,2}:\d\d–1\d:\d\d/.test(t)).length).toBeGreaterThan(0)
    expect(todays.filter((t) => /AM|PM/.test(t ?? ''))).toEqual([])
    // Directions to the first store, in the default service (Google Maps).
    const { lat, lng } = api.data.locations[0]!.coordinates
    expect(await page.locator('.sl-item').first().getByRole('link', { name: 'Directions' }).getAttribute('href')).toBe(
      `https://www.google.com/maps/dir/?api=1&destination=${lat}%2C${lng}`,
    )
    const miles = (await page.locator('.sl-distance').allInnerTexts()).map((t) => Number.parseFloat(t))
    expect(miles).toEqual([...miles].sort((a, b) => a - b))
    expect(await status(page)).toMatch(/^\d+ stores within 25\u00a0mi of London, United Kingdom$/)
    expect(await page.locator('.sl-pin').count()).toBe(10)
    await screenshot(page, 'finder-desktop')
    await page.close()
  })

  test('a filter, then open now: the list is the API answer for the same tags and time', async () => {
    const page = await context.newPage()
    await londonSearch(page)
    await answered(page, () => page.getByRole('checkbox', { name: 'Repairs & servicing' }).check())
    const repairs = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&radius=25&limit=10&tags[]=repairs`)
    expect(await listedIds(page)).toEqual(repairs.data.locations.map((l) => l.id))
    await answered(page, () => page.getByRole('checkbox', { name: 'Open now' }).check())
    expect(page.url()).toContain('sl_open=1')
    const near = `locations?lat=${LONDON.lat}&lng=${LONDON.lng}&tags[]=repairs&open_now=true`
    const open = await server.api(`${near}&radius=25&limit=10`)
    if (open.data.locations.length > 0) expect(await listedIds(page)).toEqual(open.data.locations.map((l) => l.id))
    else {
      // At an hour when none near London is open: the nearest open ones beyond the distance, if any.
      const beyond = (await server.api(`${near}&radius=1000&limit=3`)).data.locations.map((l) => l.id)
      // Said once the nearest are asked for: listed, or none open within the farthest distance.
      const said =
        beyond.length > 0 ? /^No stores within .*\. The nearest stores:$/ : /^No store within .* is open now\./
      await page.locator('.sl-status').filter({ hasText: said }).waitFor()
      expect(await listedIds(page)).toEqual(beyond)
    }
    expect(page.url()).toContain('sl_tags=repairs')
    await page.close()
  })

  test('"show more" adds the next page and moves the focus to it', async () => {
    const page = await context.newPage()
    await londonSearch(page)
    await page.getByRole('button', { name: 'Show more stores' }).click()
    await page.locator('.sl-item').nth(10).waitFor()
    const api = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&radius=25&limit=10&offset=10`)
    expect((await listedIds(page)).slice(10)).toEqual(api.data.locations.map((l) => l.id))
    expect(await page.evaluate(() => document.activeElement?.closest('.sl-item')?.getAttribute('data-id'))).toBe(
      api.data.locations[0]!.id,
    )
    expect(await page.locator('.sl-pin').count()).toBe(20)
    await page.close()
  })

  test('a store picked in the list is selected on the map; one picked on the map in the list', async () => {
    const page = await context.newPage()
    await londonSearch(page)
    const second = page.locator('.sl-item').nth(1)
    const id = await second.getAttribute('data-id')
    // The store picked is the current one, not a toggle: pressed again it stays picked.
    for (let press = 0; press < 2; press++) {
      await second.locator('.sl-name').click()
      expect(await second.getAttribute('class')).toContain('sl-selected')
      expect(await second.locator('.sl-name').getAttribute('aria-current')).toBe('true')
    }
    expect(await page.locator('.sl-name[aria-current]').count()).toBe(1)
    expect(await page.locator('.sl-name[aria-pressed]').count()).toBe(0)
    expect(await page.locator('.sl-marker-selected .sl-pin').getAttribute('data-id')).toBe(id)
    expect(page.url()).toContain(`sl_store=${id}`)
    const fifth = await page.locator('.sl-item').nth(4).getAttribute('data-id')
    await page.locator(`.sl-pin[data-id="${fifth}"]`).dispatchEvent('click') // pins of near stores may overlap
    expect(await page.locator('.sl-item.sl-selected').getAttribute('data-id')).toBe(fifth)
    expect(await page.locator('.sl-marker-selected .sl-pin').getAttribute('data-id')).toBe(fifth)
    // The search, and the store picked, survive a reload.
    await page.reload()
    await page.locator('.sl-item.sl-selected').waitFor()
    expect(await page.locator('.sl-item.sl-selected').getAttribute('data-id')).toBe(fifth)
    expect(await page.getByRole('combobox', { name: 'Town or postcode' }).inputValue()).toBe('London, United Kingdom')
    await page.close()
  })

  test('keyboard only: suggestions, the search, the list and a store', async () => {
    const page = await context.newPage()
    await page.goto(`${server.url}/l/${server.token}`)
    // A person starts once the finder shows, with its filters.
    await page.locator('.sl-filters').waitFor()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox')
    await page.keyboard.type('Lond')
    await page.getByRole('option').first().waitFor()
    // Escape closes the suggestions; Down opens them again.
    await page.keyboard.press('Escape')
    await page.getByRole('option').first().waitFor({ state: 'hidden' })
    await page.keyboard.press('ArrowDown')
    await page.getByRole('option').first().waitFor()
    await page.keyboard.press('ArrowDown')
    expect(await page.locator('[role=option][aria-selected=true]').textContent()).toBe('London, United Kingdom')
    await page.keyboard.press('Enter')
    await page.locator('.sl-item').first().waitFor()
    // Tab order: the place box, "use my location", keywords, radius, open now, search, filters, then the list.
    const order: string[] = []
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab')
      const where = await page.evaluate(() => {
        const el = document.activeElement!
        return el.classList.contains('sl-name') ? 'store' : (el.getAttribute('type') ?? el.tagName.toLowerCase())
      })
      order.push(where)
      if (where === 'store') break
    }
    expect(order.slice(0, 5)).toEqual(['button', 'search', 'select', 'checkbox', 'submit'])
    expect(order.at(-1)).toBe('store')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    const second = await page.locator('.sl-item').nth(1).getAttribute('data-id')
    expect(await page.locator('.sl-item.sl-selected').getAttribute('data-id')).toBe(second)
    await page.close()
  })

  test('"use my location", granted: the stores nearest the browser\'s position', async () => {
    const paris = { latitude: 48.8566, longitude: 2.3522 }
    const granted = await newContext(browser, { permissions: ['geolocation'], geolocation: paris })
    const page = await granted.newPage()
    await page.goto(`${server.url}/l/${server.token}`)
    await page.getByRole('button', { name: 'Use my location' }).click()
    await page.locator('.sl-item').first().waitFor()
    const api = await server.api(`locations?lat=${paris.latitude}&lng=${paris.longitude}&limit=10`)
    expect(await listedIds(page)).toEqual(api.data.locations.map((l) => l.id))
    expect(await page.getByRole('combobox', { name: 'Town or postcode' }).inputValue()).toBe('Your location')
    expect(await status(page)).toMatch(/^\d+ stores within [\d.,]+\u00a0(mi|km) of your location$/)
    // The URL says "near me", not where that is: reloaded, the browser is asked again (without a
    // prompt, as it was allowed); opened by someone else, it is no search.
    const shared = new URL(page.url())
    expect(shared.searchParams.get('sl_geo')).toBe('1')
    expect(shared.searchParams.has('sl_lat') || shared.searchParams.has('sl_lng')).toBe(false)
    await page.reload()
    await page.locator('.sl-item').first().waitFor()
    expect(await listedIds(page)).toEqual(api.data.locations.map((l) => l.id))
    const other = await newContext(browser)
    const theirs = await other.newPage()
    await theirs.goto(`${shared.href}&sl_lat=48.8566&sl_lng=2.3522`) // an old link's point too
    await theirs.locator('.sl-cluster').first().waitFor()
    expect(await theirs.locator('.sl-item').count()).toBe(0)
    expect(await theirs.getByRole('combobox', { name: 'Town or postcode' }).inputValue()).toBe('')
    await other.close()
    // In German too, the phrase as the sentence needs it ("um Ihren Standort", not "um Ihr Standort").
    await page.goto(`${server.url}/l/${server.token}?lang=de`)
    await page.getByRole('button', { name: 'Meinen Standort verwenden' }).click()
    await page.locator('.sl-item').first().waitFor()
    expect(await status(page)).toContain('um Ihren Standort')
    await granted.close()
  })

  test('"use my location", refused: a message says so and what to do instead', async () => {
    const refused = await newContext(browser)
    const page = await refused.newPage()
    await page.goto(`${server.url}/l/${server.token}`)
    await page.getByRole('button', { name: 'Use my location' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: /did not share your location.*town or postcode/ })
      .waitFor()
    expect(await page.locator('.sl-item').count()).toBe(0)
    await refused.close()
  })

  test('before a search the map shows every store of its view, clustered as the API gives them; a cluster zooms in', async () => {
    const page = await context.newPage()
    // Resolves once the last answer, for the view fitted to every store, is drawn.
    const last = await openFirstMap(page, () => page.goto(`${server.url}/l/${server.token}`))
    // What is drawn is that answer, and that answer is the API's for that view.
    const drawn = (await page.locator('.sl-cluster-count').allTextContents()).map(Number).sort((a, b) => a - b)
    expect(drawn).toEqual(last.view.clusters.map((c) => c.count).sort((a, b) => a - b))
    expect(await page.locator('.sl-dot').count()).toBe(last.view.locations.length)
    const url = new URL(last.url)
    expect(((await server.api(`clusters${url.search}`)) as unknown as { data: unknown }).data).toEqual(last.view)
    const zoom = Number(url.searchParams.get('zoom'))
    const next = page.waitForRequest((r) => r.url().includes('/clusters?'))
    // Dispatched to the marker itself: clusters may overlap, and a click at a point goes to the top one.
    await page.locator('.sl-cluster').first().dispatchEvent('click')
    expect(Number(new URL((await next).url()).searchParams.get('zoom'))).toBeGreaterThan(zoom)
    // A search replaces the clusters with its stores.
    await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
    await page.getByRole('option', { name: 'London, United Kingdom' }).click()
    await page.locator('.sl-pin').first().waitFor()
    expect(await page.locator('.sl-cluster, .sl-dot').count()).toBe(0)
    await page.close()
  })

  test('the map with no tile server: country shapes from the service, nothing else contacted', async () => {
    const page = await context.newPage()
    const hosts = new Set<string>()
    page.on('request', (r) => hosts.add(new URL(r.url()).hostname))
    await londonSearch(page)
    await page.waitForFunction(() => document.querySelectorAll('.sl-map svg path').length > 100)
    expect([...hosts].filter((h) => h !== 'localhost' && h !== '127.0.0.1')).toEqual([])
    await page.close()
  })

  test('the map with a tile server that cannot be reached: the country shapes instead', async () => {
    const page = await context.newPage()
    await page.setContent('<!doctype html><html lang="en"><body></body></html>')
    const { url: pageUrl, stop } = hostPage(
      `<div data-storeloc="${server.token}" data-tiles="http://127.0.0.1:9/{z}/{x}/{y}.png" data-tiles-attribution="© Test Tiles" data-place="Paris"></div><script src="${server.url}/widget.js" async></script>`,
    )
    try {
      await page.goto(pageUrl)
      await page.locator('.sl-item').first().waitFor()
      await page.waitForFunction(() => document.querySelectorAll('.sl-map svg path').length > 100)
      expect(await page.locator('.sl-pin').count()).toBeGreaterThan(0)
      // No credit for tiles that are not shown.
      await page.waitForFunction(() => !document.querySelector('.sl-map')?.textContent?.includes('Test Tiles'))
      expect(await page.locator('.leaflet-tile').count()).toBe(0)
    } finally {
      stop()
      await page.close()
    }
  })

  test('tiles that load keep their credit', async () => {
    const page = await context.newPage()
    const { url: pageUrl, stop } = hostPage(
      `<div data-storeloc="${server.token}" data-tiles="/tiles/{z}/{x}/{y}.png" data-tiles-attribution="© Test Tiles" data-place="London"></div><script src="${server.url}/widget.js" async></script>`,
    )
    try {
      await page.goto(pageUrl)
      await page.locator('.sl-pin').first().waitFor()
      await page.locator('.leaflet-tile-loaded').first().waitFor()
      expect(await page.locator('.leaflet-control-attribution').textContent()).toContain('© Test Tiles')
    } finally {
      stop()
      await page.close()
    }
  })

  test('a northernmost store at the edge of the fitted view shows its whole pin', async () => {
    const page = await context.newPage()
    await page.goto(`${server.url}/l/${server.token}?place=Paris`)
    await page.locator('.sl-pin').first().waitFor()
    const height = await page
      .locator('.sl-map')
      .evaluate((el) => (el as unknown as { clientHeight: number }).clientHeight)
    // Two stores as far apart north to south as the map holds at zoom 12 with 24 px above and
    // below (Web Mercator pixels): the fitted view has no room to spare.
    const scale = 256 * 2 ** 12
    const y = (lat: number) => (scale * (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI)) / 2
    const lat = (y: number) => (360 / Math.PI) * Math.atan(Math.exp(Math.PI * (1 - (2 * y) / scale))) - 90
    const north = 48.875
    const south = lat(y(north) + height - 49)
    const made = JSON.parse(cli('locator', 'create', '--name', 'Tight', '--json').stdout.toString())
    const dir = tempDir()
    const file = join(dir, 'tight.csv')
    writeFileSync(file, `name,address,lat,lng\nNorth,Paris,${north},2.35\nSouth,Paris,${south},2.35\n`)
    try {
      expect(cli('locator', 'set', made.locator.id, '--query-api', 'on').exitCode).toBe(0)
      expect(cli('locations', 'import', made.locator.id, '--file', file).exitCode).toBe(0)
      await page.goto(`${server.url}/l/${made.locator.public_token}?place=Paris`)
      await page.locator('.sl-pin').nth(1).waitFor()
      const map = (await page.locator('.sl-map').boundingBox())!
      for (const pin of await page.locator('.sl-pin').all()) {
        const box = (await pin.boundingBox())!
        expect(box.y).toBeGreaterThanOrEqual(map.y)
        expect(box.y + box.height).toBeLessThanOrEqual(map.y + map.height)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await page.close()
    }
  })

  test('a store the import placed only at its town: its directions go to the address, not the centre', async () => {
    const made = JSON.parse(cli('locator', 'create', '--name', 'Towns', '--json').stdout.toString())
    const [dir, page] = [tempDir(), await context.newPage()]
    const file = join(dir, 'towns.csv')
    writeFileSync(file, 'name,address,lat,lng\nKreuzberg,"Oranienstraße 185, Berlin",,\nMitte,Berlin,52.52,13.41\n')
    try {
      expect(cli('locator', 'set', made.locator.id, '--query-api', 'on').exitCode).toBe(0)
      expect(cli('locations', 'import', made.locator.id, '--file', file).exitCode).toBe(0)
      await page.goto(`${server.url}/l/${made.locator.public_token}?place=Berlin`)
      const to = (name: string) =>
        page.locator('.sl-item', { hasText: name }).getByRole('link', { name: 'Directions' }).getAttribute('href')
      expect(await to('Kreuzberg')).toBe(
        'https://www.google.com/maps/dir/?api=1&destination=Oranienstra%C3%9Fe%20185%2C%20Berlin%2C%20Germany',
      )
      expect(await to('Mitte')).toBe('https://www.google.com/maps/dir/?api=1&destination=52.52%2C13.41')
    } finally {
      rmSync(dir, { recursive: true, force: true })
      await page.close()
    }
  })

  test('in German, on a phone 320 px wide; no serious accessibility violation', async () => {
    const phone = await newContext(browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true })
    const page = await phone.newPage()
    await page.goto(`${server.url}/l/${server.token}?lang=de&place=Berlin`)
    await page.locator('.sl-item').first().waitFor()
    expect(await page.getByRole('button', { name: 'Meinen Standort verwenden' }).count()).toBe(1)
    expect(await page.title()).toEndWith(': Filialsuche')
    expect(await page.getByRole('button', { name: 'Vergrößern' }).count()).toBe(1)
    expect(await status(page)).toMatch(/Geschäfte im Umkreis von .* um Berlin, Deutschland$/)
    expect(await page.getByRole('combobox').first().inputValue()).toBe('Berlin, Deutschland')
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await screenshot(page, 'finder-phone')
    expect(await seriousViolations(page)).toEqual([])
    // Suggestions name their country in German.
    await page.getByRole('combobox').first().fill('Lond')
    await page.getByRole('option', { name: 'London, Vereinigtes Königreich' }).waitFor()
    await page.keyboard.press('Escape')
    // A store's page opens in German too; its link back gives the search, that store picked.
    const second = page.locator('.sl-item').nth(1)
    const name = await second.locator('.sl-name').textContent()
    await second.getByRole('link', { name: 'Details' }).click()
    await page.waitForURL(/\/l\/[^/]+\/loc_[^/?]+(\/[^?]*)?\?lang=de&sl_place=Berlin/)
    expect(await page.locator('html').getAttribute('lang')).toBe('de')
    expect(await page.getByRole('heading', { name: 'Öffnungszeiten' }).count()).toBe(1)
    await page.getByRole('link', { name: 'Zurück zu allen Geschäften' }).click()
    await page.locator('.sl-item.sl-selected').waitFor()
    expect(await page.locator('.sl-item.sl-selected .sl-name').textContent()).toBe(name)
    expect(await status(page)).toMatch(/um Berlin, Deutschland$/)
    await phone.close()
  })

  test('no serious accessibility violation on the finder with results, a store selected', async () => {
    const page = await context.newPage()
    await londonSearch(page)
    await page.locator('.sl-name').first().click()
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  test("a store's page: its JSON-LD, and no serious accessibility violation", async () => {
    const page = await context.newPage()
    const api = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&limit=1`)
    const id = api.data.locations[0]!.id
    await page.goto(`${server.url}/l/${server.token}/${id}`)
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '')
    expect(ld['@type']).toBe('LocalBusiness')
    expect(ld.geo.latitude).toBeCloseTo(51.51, 1)
    await screenshot(page, 'store-page')
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  test('the snippet of docs/widget.md on a plain page of another site, styled as its css block says', async () => {
    // The page's own rule, in its <head>, comes before the widget's stylesheet, added at the end of <head>.
    const css = /```css\n([\s\S]*?)```/.exec(readFileSync(join(import.meta.dir, '../../docs/widget.md'), 'utf8'))![1]
    const { url: pageUrl, stop } = hostPage(docsSnippet(server.url, server.token), `<style>${css}</style>`)
    const page = await context.newPage()
    const events: string[] = []
    await page.exposeFunction('noteEvent', (name: string) => events.push(name))
    try {
      await page.goto(pageUrl)
      await page.evaluate(() => {
        for (const name of ['storeloc:search', 'storeloc:select'])
          document.addEventListener(name, (e) =>
            (globalThis as unknown as { noteEvent: (n: string) => void }).noteEvent(
              `${e.type} ${JSON.stringify(Object.keys(e.detail))}`,
            ),
          )
      })
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-name').first().click()
      const look = await page.evaluate(() => {
        const style = (
          globalThis as unknown as {
            getComputedStyle: (e: unknown) => { fontFamily: string; getPropertyValue: (name: string) => string }
          }
        ).getComputedStyle(document.querySelector('.sl-root'))
        return { accent: style.getPropertyValue('--sl-accent').trim(), font: style.fontFamily }
      })
      expect(look).toEqual({ accent: '#0a7d4f', font: 'Georgia, serif' })
      expect(events).toContain('storeloc:search ["query","total","locations"]')
      expect(events).toContain('storeloc:select ["location"]')
      // The page's globals: Storeloc, and Leaflet's mark on the window once the map is drawn.
      await page.locator('.sl-pin').first().waitFor()
      const plain = hostPage('')
      const blank = await context.newPage()
      await blank.goto(plain.url)
      const before = new Set(await blank.evaluate(() => Object.keys(globalThis)))
      await blank.close()
      plain.stop()
      const added = (await page.evaluate(() => Object.keys(globalThis))).filter((k) => !before.has(k))
      expect(added.sort()).toEqual(['Storeloc', '_leaflet_events', 'noteEvent'])
    } finally {
      stop()
      await page.close()
    }
  })

  test("without data-unit, the locator's unit and radius: shown before a search, used by it", async () => {
    const { url: pageUrl, stop } = hostPage(docsSnippet(server.url, server.token))
    const page = await context.newPage()
    try {
      expect(cli('locator', 'set', server.locatorId, '--unit', 'km', '--radius', '20').exitCode).toBe(0)
      await page.goto(pageUrl)
      const radius = page.getByRole('combobox', { name: 'Within' })
      await radius.locator('option:checked', { hasText: /^20\u00a0km$/ }).waitFor({ state: 'attached' })
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Lond')
      await page.getByRole('option', { name: 'London, United Kingdom' }).click()
      await page.locator('.sl-item').first().waitFor()
      const api = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&radius=20&unit=km&limit=10`)
      expect(await page.locator('.sl-distance').first().textContent()).toContain('km')
      expect(await listedIds(page)).toEqual(api.data.locations.map((l) => l.id))
      expect(await status(page)).toContain('20\u00a0km')
    } finally {
      cli('locator', 'set', server.locatorId, '--unit', 'miles', '--radius', '')
      stop()
      await page.close()
    }
  })

  test('filters as the locator sets them: a single-select group as radios, a hidden group left out', async () => {
    const { data } = (await server.api('filters')) as unknown as { data: { filters: Record<string, unknown>[] } }
    const dir = tempDir()
    const original = join(dir, 'original.json')
    writeFileSync(original, JSON.stringify(data.filters))
    const changed = data.filters.map((g) =>
      g.id === 'products'
        ? { ...g, hidden: true }
        : g.id === 'services'
          ? { ...g, singleSelect: true, inline: true }
          : g,
    )
    const file = join(dir, 'changed.json')
    writeFileSync(file, JSON.stringify(changed))
    // A browser of its own: the others keep GET /filters for its max-age of 60 s.
    const fresh = await newContext(browser, { viewport: { width: 1280, height: 900 } })
    const page = await fresh.newPage()
    try {
      expect(cli('filters', 'set', server.locatorId, '--file', file).exitCode).toBe(0)
      await londonSearch(page)
      await page.getByRole('radio', { name: 'Rentals' }).waitFor()
      expect(await page.getByRole('checkbox', { name: 'Bikes' }).count()).toBe(0)
      expect(await page.getByRole('radio', { name: 'Any' }).isChecked()).toBe(true)
      await answered(page, () => page.getByRole('radio', { name: 'Rentals' }).check())
      const rentals = await server.api(
        `locations?lat=${LONDON.lat}&lng=${LONDON.lng}&radius=25&limit=10&tags[]=rentals`,
      )
      expect(await listedIds(page)).toEqual(rentals.data.locations.map((l) => l.id))
      // One of the group at a time: another replaces it.
      await answered(page, () => page.getByRole('radio', { name: 'Repairs & servicing' }).check())
      expect(new URL(page.url()).searchParams.get('sl_tags')).toBe('repairs')
    } finally {
      cli('filters', 'set', server.locatorId, '--file', original)
      rmSync(dir, { recursive: true, force: true })
      await fresh.close()
    }
  })

  test('a locator with no filter groups: its tags in one row of toggles, not a lone "Other" dropdown', async () => {
    const { data } = (await server.api('filters')) as unknown as { data: { filters: Record<string, unknown>[] } }
    const dir = tempDir()
    const original = join(dir, 'original.json')
    writeFileSync(original, JSON.stringify(data.filters))
    const none = join(dir, 'none.json')
    writeFileSync(none, '[]')
    const fresh = await newContext(browser, { viewport: { width: 1280, height: 900 } })
    const page = await fresh.newPage()
    try {
      expect(cli('filters', 'set', server.locatorId, '--file', none).exitCode).toBe(0)
      await londonSearch(page)
      // Tags in no group are labelled by their values, as words.
      await page.getByRole('checkbox', { name: 'Bikes', exact: true }).waitFor()
      expect(await page.getByRole('checkbox', { name: 'Water sports', exact: true }).isVisible()).toBe(true)
      expect(await page.locator('.sl-dropdown').count()).toBe(0)
      await answered(page, () => page.getByRole('checkbox', { name: 'Bikes', exact: true }).check())
      const bikes = await server.api(`locations?lat=${LONDON.lat}&lng=${LONDON.lng}&radius=25&limit=10&tags[]=bikes`)
      expect(await listedIds(page)).toEqual(bikes.data.locations.map((l) => l.id))
      await screenshot(page, 'widget-lone-group')
    } finally {
      cli('filters', 'set', server.locatorId, '--file', original)
      rmSync(dir, { recursive: true, force: true })
      await fresh.close()
    }
  })

  test("a referrer allowlist: the sites on it and the service's own pages are answered, others told", async () => {
    const { url: pageUrl, stop } = hostPage(docsSnippet(server.url, server.token))
    const page = await context.newPage()
    try {
      expect(cli('locator', 'set', server.locatorId, '--referrers', 'shop.example.com').exitCode).toBe(0)
      await page.goto(pageUrl)
      // Told at once, before any search: the site's developer sees it on the first look.
      await page.getByRole('alert').filter({ hasText: 'This store finder is not enabled for this site.' }).waitFor()
      // Alone: no form to search with, which could only be refused again.
      await page.locator('.sl-form').waitFor({ state: 'hidden' })
      expect(await page.locator('.sl-item').count()).toBe(0)
      // The service's own finder page counts as allowed.
      await londonSearch(page)
      expect(await page.locator('.sl-item').count()).toBe(10)
      expect(cli('locator', 'set', server.locatorId, '--referrers', '127.0.0.1').exitCode).toBe(0)
      await page.goto(pageUrl)
      await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Paris')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.locator('.sl-item').first().waitFor()
      // Text the service read as a place is kept as that place, its point in the page's URL.
      expect(await page.getByRole('combobox', { name: 'Town or postcode' }).inputValue()).toBe('Paris, France')
      expect(new URL(page.url()).searchParams.get('sl_lat')).toMatch(/^48\.8/)
    } finally {
      cli('locator', 'set', server.locatorId, '--referrers', '')
      stop()
      await page.close()
    }
  })
})
