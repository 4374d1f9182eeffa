// The finder page (/l/{token}), the widget's files, and the rule that the service's own pages are
// allowed sites of their locator: through the whole app, as a browser would ask.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/core/config'
import { createApp } from '../../src/server/app'
import { setLocatorSettings } from '../../src/operator'
import { type Fixture, makeFixture, send } from '../public/fixture'
import { metaTags } from './fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

const get = (path: string, headers: Record<string, string> = {}) =>
  send(f.env.app, `http://localhost${path}`, { headers })

describe('GET /l/{token}', () => {
  test('a page holding the widget for the token, its script and stylesheet from this service', async () => {
    const res = await get(`/l/${f.token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.text).toContain(`data-storeloc="${f.token}"`)
    // From the page's own origin: the widget asks the origin its script came from.
    expect(res.text).not.toContain('data-api')
    expect(res.text).toContain('<script src="/widget.js" async></script>')
    expect(res.text).toContain('<link rel="stylesheet" href="/widget.css">')
    expect(res.text).toContain('<html lang="en">')
    expect(res.text).not.toContain('data-tiles')
  })

  test('without JavaScript, the page says the finder needs it, in its language, and links the store directory', async () => {
    const noScript = async (query: string) =>
      /<noscript><p>([^<]*)<\/p><p>(.*?)<\/p><\/noscript><\/div>/.exec((await get(`/l/${f.token}${query}`)).text)
    const english = await noScript('')
    expect(english?.[1]).toBe('The store finder needs JavaScript: turn it on in your browser to search the stores.')
    expect(english?.[2]).toBe(`<a href="/l/${f.token}/stores">Browse the stores by place</a>`)
    const german = await noScript('?lang=de')
    expect(german?.[1]).toStartWith('Die Filialsuche benötigt JavaScript')
    expect(german?.[2]).toBe(`<a href="/l/${f.token}/stores?lang=de">Geschäfte nach Ort ansehen</a>`)
  })

  test('links the store directory plainly, outside the widget, for visitors and crawlers alike', async () => {
    const { text } = await get(`/l/${f.token}?lang=fr`)
    const link = `<a href="/l/${f.token}/stores?lang=fr">Parcourir les magasins par lieu</a>`
    expect(text).toContain(`<footer><p>${link}</p></footer>`)
    const directory = await get(`/l/${f.token}/stores?lang=fr`)
    expect(directory.status).toBe(200)
    expect(directory.text).toContain('<h1>Annuaire des magasins</h1>')
  })

  test('a page asked for with a trailing slash sends the browser to its one URL, keeping the query', async () => {
    const id = f.env.store.locations.all(f.env.locatorId)[0]!.id
    const country = /stores\/([a-z_]+)"/.exec((await get(`/l/${f.token}/stores`)).text)![1]
    for (const path of [
      `/l/${f.token}`,
      `/l/${f.token}/stores`,
      `/l/${f.token}/stores/${country}`,
      `/l/${f.token}/${id}`,
    ]) {
      const res = await f.env.app.handle(new Request(`http://localhost${path}/?lang=de`))
      expect([path, res.status]).toEqual([path, 308])
      const to = new URL(res.headers.get('location')!, `http://localhost${path}/`)
      expect(to.pathname + to.search).toBe(`${path}?lang=de`)
    }
  })

  test('a Host header names no file the page loads: a shared cache may keep the page for every Host', async () => {
    const forged = await send(f.env.app, `http://evil.example/l/${f.token}`)
    expect(forged.status).toBe(200)
    // Only its canonical links name the Host, as store pages' do without PUBLIC_BASE_URL (docs/configuration.md).
    const loaded = forged.text.replace(/<link rel="(canonical|alternate)"[^>]*>|<meta property="og:url"[^>]*>/g, '')
    expect(loaded).not.toContain('evil.example')
    expect(forged.headers.get('content-security-policy')).not.toContain('evil.example')
    // PUBLIC_BASE_URL names them, and the service's origin in the policy.
    const app = createApp({
      store: f.env.store,
      geocoder: { name: 'none', geocode: async () => null },
      config: { ...loadConfig({}), publicBaseUrl: 'https://stores.example.com' },
      log: () => {},
    })
    const based = await send(app, `http://evil.example/l/${f.token}`)
    expect(based.text).toContain('data-api="https://stores.example.com"')
    expect(based.text).toContain('<script src="https://stores.example.com/widget.js" async></script>')
    expect(based.text).not.toContain('evil.example')
    expect(based.headers.get('content-security-policy')).toContain("script-src 'self' https://stores.example.com;")
  })

  test("?lang, ?unit and ?place set the widget; other values are left out, the locator's unit in ?unit's place", async () => {
    const res = await get(`/l/${f.token}?lang=de&unit=km&place=${encodeURIComponent('Köln "<x>"')}`)
    expect(res.text).toContain('<html lang="de">')
    expect(res.text).toContain('data-lang="de" data-unit="km" data-place="Köln &quot;&lt;x&gt;&quot;"')
    const odd = await get(`/l/${f.token}?lang=xx&unit=parsecs`)
    expect(odd.text).not.toContain('data-lang')
    // No ?unit=, or one not known: the locator's, so the widget need not ask GET /filters for it.
    expect(odd.text).toContain(`data-unit="${f.env.store.locators.get(f.env.locatorId)!.defaultUnit}"`)
  })

  test("the page's title, description and heading in the language a link asks for", async () => {
    const name = f.env.store.locators.get(f.env.locatorId)!.name
    const english = await get(`/l/${f.token}`)
    expect(english.text).toContain(`<title>${name}: store finder</title>`)
    expect(english.text).toContain(`<meta name="description" content="Find the nearest stores of ${name}.">`)
    const german = await get(`/l/${f.token}?lang=de`)
    expect(german.text).toContain(`<title>${name}: Filialsuche</title>`)
    expect(german.text).toContain(`content="Finden Sie die nächstgelegenen Geschäfte von ${name}."`)
    expect(german.text).toContain('<h2 class="sl-visually-hidden">Filialsuche</h2>')
    expect((await get(`/l/${f.token}?lang=fr`)).text).toContain(`<title>${name}\u00a0: trouver un magasin</title>`)
  })

  test('MAP_TILES_URL gives the page its tiles and their credit', async () => {
    const config = {
      ...loadConfig({}),
      mapTiles: { url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Tiles' },
    }
    const app = createApp({
      store: f.env.store,
      geocoder: { name: 'none', geocode: async () => null },
      config,
      log: () => {},
    })
    const res = await send(app, `http://localhost/l/${f.token}`)
    expect(res.text).toContain('data-tiles="https://tiles.example/{z}/{x}/{y}.png" data-tiles-attribution="© Tiles"')
    // No write changes the tiles: the page's ETag does, or a cache would keep the page without them.
    const plain = (await get(`/l/${f.token}`)).headers.get('etag')!
    expect((await send(app, `http://localhost/l/${f.token}`, { headers: { 'if-none-match': plain } })).status).toBe(200)
  })

  test('a path under /l/ that is no page: an HTML 404, as for a page not found', async () => {
    for (const path of ['/l', '/l/', `/l/${f.token}/loc_x/slug/more`, '/widget/']) {
      const res = await get(path)
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'text/html; charset=utf-8',
      })
      expect(res.text).toContain('<h1>Not found</h1>')
    }
  })

  test('404 for an unknown token, a locator with its Query API off, or switched off', async () => {
    expect((await get('/l/pk_nosuchtoken000000000000')).status).toBe(404)
    // In the language a link asks for.
    const dutch = await get('/l/pk_nosuchtoken000000000000?lang=NL')
    expect(dutch.status).toBe(404)
    expect(dutch.text).toContain('<html lang="nl">')
    expect(dutch.text).toContain('<h1>Winkelzoeker niet gevonden</h1>')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    expect((await get(`/l/${f.token}`)).status).toBe(404)
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'on', active: 'off' })
    expect((await get(`/l/${f.token}`)).status).toBe(404)
    setLocatorSettings(f.env.store, f.env.locatorId, { active: 'on' })
    expect((await get(`/l/${f.token}`)).status).toBe(200)
  })
})

describe("the finder page's head: one canonical page per language, and an ETag", () => {
  const name = () => f.env.store.locators.get(f.env.locatorId)!.name
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1]
  const alternatesOf = (html: string) =>
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]*)">/g)].map((m) => [m[1], m[2]])

  test('the bare URL is canonical, ?lang=xx for another language; the others are its alternates, English the default', async () => {
    const page = `http://localhost/l/${f.token}`
    const english = (await get(`/l/${f.token}`)).text
    expect(canonicalOf(english)).toBe(page)
    const alternates = ['de', 'fr', 'es', 'it', 'nl'].map((l) => [l, `${page}?lang=${l}`])
    expect(alternatesOf(english)).toEqual([['en', page], ...alternates, ['x-default', page]])
    const german = (await get(`/l/${f.token}?lang=DE`)).text
    expect(canonicalOf(german)).toBe(`${page}?lang=de`)
    expect(alternatesOf(german)).toEqual(alternatesOf(english))
    // A language not shipped is the English page.
    expect(canonicalOf((await get(`/l/${f.token}?lang=pt`)).text)).toBe(page)
  })

  test('?place=, ?unit= and tracking parameters still set the widget, but the canonical is the page without them', async () => {
    const page = `http://localhost/l/${f.token}`
    const variant = (await get(`/l/${f.token}?unit=km&place=Berlin&utm_source=news&lang=fr`)).text
    expect(variant).toContain('data-lang="fr" data-unit="km" data-place="Berlin"')
    expect(canonicalOf(variant)).toBe(`${page}?lang=fr`)
    expect(canonicalOf((await get(`/l/${f.token}?utm_source=news&gclid=x`)).text)).toBe(page)
    expect(metaTags(variant)['og:url']).toBe(`${page}?lang=fr`)
  })

  test('Open Graph and the description say what the page is, in its language', async () => {
    const meta = metaTags((await get(`/l/${f.token}?lang=de&place=Berlin`)).text)
    expect(meta).toMatchObject({
      description: `Finden Sie die nächstgelegenen Geschäfte von ${name()}.`,
      'og:type': 'website',
      'og:site_name': name(),
      'og:title': `${name()}: Filialsuche`,
      'og:description': `Finden Sie die nächstgelegenen Geschäfte von ${name()}.`,
      'og:url': `http://localhost/l/${f.token}?lang=de`,
      'og:locale': 'de_DE', // the page's language, in its own country: the finder is of every country
    })
  })

  test('PUBLIC_BASE_URL makes its canonical links, whatever Host the request sent', async () => {
    const app = createApp({
      store: f.env.store,
      geocoder: { name: 'none', geocode: async () => null },
      config: { ...loadConfig({}), publicBaseUrl: 'https://stores.example.com/finder' },
      log: () => {},
    })
    const { text } = await send(app, `http://evil.example/l/${f.token}?lang=it`)
    expect(canonicalOf(text)).toBe(`https://stores.example.com/finder/l/${f.token}?lang=it`)
    expect(alternatesOf(text).every(([, url]) => url!.startsWith('https://stores.example.com/finder/l/'))).toBe(true)
  })

  test('an ETag that answers 304, and changes with the URL and with writes to the locator', async () => {
    const first = await get(`/l/${f.token}`)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)
    const again = await get(`/l/${f.token}`, { 'if-none-match': etag })
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag])
    expect((await get(`/l/${f.token}?lang=de`, { 'if-none-match': etag })).status).toBe(200)
    const renamed = `${name()} Renamed`
    const before = name()
    setLocatorSettings(f.env.store, f.env.locatorId, { name: renamed })
    try {
      const after = await get(`/l/${f.token}`, { 'if-none-match': etag })
      expect(after.status).toBe(200)
      expect(after.text).toContain(`<h1>${renamed}</h1>`)
      expect(after.headers.get('etag')).not.toBe(etag)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { name: before })
    }
    // The referrer allowlist is in its Content-Security-Policy.
    const now = (await get(`/l/${f.token}`)).headers.get('etag')!
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    try {
      expect((await get(`/l/${f.token}`, { 'if-none-match': now })).status).toBe(200)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    }
  })
})

describe('MAP_TILES_URL', () => {
  test('an http(s) template with {z}, {x} and {y}; anything else stops the start with a message', () => {
    expect(loadConfig({}).mapTiles).toBeNull()
    expect(loadConfig({ MAP_TILES_URL: 'https://t.example/{z}/{x}/{y}.png' }).mapTiles).toEqual({
      url: 'https://t.example/{z}/{x}/{y}.png',
      attribution: '',
    })
    for (const bad of ['https://t.example/tiles.png', 'file:///tmp/{z}/{x}/{y}.png'])
      expect(() => loadConfig({ MAP_TILES_URL: bad })).toThrow(ConfigError)
  })
})

describe('the widget files', () => {
  test('widget.js: JavaScript, gzipped when asked, under 30 KB so; its ETag answers 304', async () => {
    const plain = await f.env.app.handle(new Request('http://localhost/widget.js'))
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(plain.headers.get('access-control-allow-origin')).toBe('*')
    const text = await plain.text()
    expect(text).toContain('data-storeloc')
    const zipped = await f.env.app.handle(
      new Request('http://localhost/widget.js', { headers: { 'accept-encoding': 'gzip, br' } }),
    )
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    const bytes = new Uint8Array(await zipped.arrayBuffer())
    expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(text)
    expect(bytes.length).toBeLessThan(30 * 1024)
    const etag = plain.headers.get('etag')!
    const again = await f.env.app.handle(
      new Request('http://localhost/widget.js', { headers: { 'if-none-match': etag } }),
    )
    expect(again.status).toBe(304)
  })

  test("widget.js holds only what the widget runs: no core module's values it never reads", async () => {
    const text = await (await f.env.app.handle(new Request('http://localhost/widget.js'))).text()
    // text.ts's UTF-8 decoder and ASCII table, hours.ts's half-closed pattern: server-side only.
    expect(['TextDecoder', 'Uint8Array(128)', '(.+?) (?:('].filter((part) => text.includes(part))).toEqual([])
  })

  test('widget.js whole to a client that refuses gzip (q=0), gzipped to one that takes it at any q', async () => {
    const encoding = async (accept: string) =>
      (
        await f.env.app.handle(new Request('http://localhost/widget.js', { headers: { 'accept-encoding': accept } }))
      ).headers.get('content-encoding')
    for (const refused of ['gzip;q=0', 'gzip; q=0.0, br', 'identity, gzip;q=0'])
      expect({ refused, encoding: await encoding(refused) }).toEqual({ refused, encoding: null })
    for (const taken of ['gzip;q=0.5', 'br;q=1, gzip;q=0.1', 'GZIP'])
      expect({ taken, encoding: await encoding(taken) }).toEqual({ taken, encoding: 'gzip' })
  })

  const FILES = [
    '/widget.js',
    '/widget.css',
    '/widget/map.js',
    '/widget/leaflet.js',
    '/widget/leaflet.css',
    '/widget/countries.json',
  ]
  const ask = (path: string, headers: Record<string, string> = {}) =>
    f.env.app.handle(new Request(`http://localhost${path}`, { headers }))

  test('each file has one strong ETag gzipped and another whole (RFC 9110 8.8.3), each giving 304 only to its own', async () => {
    for (const path of FILES) {
      const whole = (await ask(path)).headers
      const zipped = (await ask(path, { 'accept-encoding': 'gzip' })).headers
      const [plainTag, gzipTag] = [whole.get('etag')!, zipped.get('etag')!]
      expect({ path, plainTag, gzipTag }).toEqual({
        path,
        plainTag: expect.stringMatching(/^"/),
        gzipTag: expect.stringMatching(/^"/),
      })
      expect({ path, same: plainTag === gzipTag }).toEqual({ path, same: false })
      for (const [held, accept, status, encoding] of [
        [gzipTag, 'gzip', 304, null],
        [plainTag, 'identity', 304, null],
        [plainTag, 'gzip', 200, 'gzip'], // the client now takes gzip: the gzipped body, not the one it holds
        [gzipTag, 'identity', 200, null],
      ] as const) {
        const res = await ask(path, { 'if-none-match': held, 'accept-encoding': accept })
        const sent = accept === 'gzip' ? gzipTag : plainTag
        expect({ path, held, accept, status: res.status, encoding: res.headers.get('content-encoding') }).toEqual({
          path,
          held,
          accept,
          status,
          encoding,
        })
        expect({ path, etag: res.headers.get('etag'), vary: res.headers.get('vary') }).toEqual({
          path,
          etag: sent,
          vary: 'accept-encoding',
        })
      }
    }
  })

  test('If-None-Match compares weakly, may list several ETags, and * matches any file (RFC 9110 13.1.2)', async () => {
    for (const path of FILES) {
      const etag = (await ask(path, { 'accept-encoding': 'gzip' })).headers.get('etag')!
      for (const held of [`W/${etag}`, `"stale", ${etag}`, `W/"stale",W/${etag} `, '*']) {
        const res = await ask(path, { 'if-none-match': held, 'accept-encoding': 'gzip' })
        const bytes = (await res.arrayBuffer()).byteLength
        expect({ path, held, status: res.status, bytes }).toEqual({ path, held, status: 304, bytes: 0 })
      }
      for (const held of ['"stale", W/"other"', etag.slice(1, -1), '']) {
        const res = await ask(path, { 'if-none-match': held, 'accept-encoding': 'gzip' })
        expect({ path, held, status: res.status }).toEqual({ path, held, status: 200 })
      }
    }
  })

  test("map.js holds the map's code, which widget.js leaves out; it is sent from any site as Leaflet is", async () => {
    const [widget, map, leaflet] = await Promise.all([
      get('/widget.js'),
      get('/widget/map.js'),
      get('/widget/leaflet.js'),
    ])
    // Leaflet's calls that only the map's code makes: its pins, bubbles and fits.
    const mapCalls = ['.divIcon(', '.fitBounds(', '.circleMarker(', '.latLngBounds(']
    expect(mapCalls.filter((call) => widget.text.includes(call))).toEqual([])
    expect(mapCalls.filter((call) => !map.text.includes(call))).toEqual([])
    const sent = (res: typeof map) =>
      ['content-type', 'cache-control', 'vary', 'access-control-allow-origin', 'cross-origin-resource-policy'].map(
        (name) => [name, res.headers.get(name)],
      )
    expect({ status: map.status, headers: sent(map) }).toEqual({ status: 200, headers: sent(leaflet) })
    // A classic script that names no global of the page's: all of it inside one function.
    expect(map.text).toMatch(/^\(\(\)=>\{[\s\S]*\}\)\(\);\n?$/)
  })

  test('the stylesheet, Leaflet and the country shapes; 404 for any other name', async () => {
    const css = await get('/widget.css')
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(css.text).toContain('--sl-accent')
    expect((await get('/widget/leaflet.js')).text).toContain('Leaflet')
    expect((await get('/widget/leaflet.css')).text).toContain('.leaflet-container')
    const shapes = (await get('/widget/countries.json')).body
    expect(shapes.type).toBe('FeatureCollection')
    expect(shapes.features.length).toBeGreaterThan(150)
    expect((await get('/widget/package.json')).status).toBe(404)
    expect((await get('/widget/..%2Fpackage.json')).status).toBe(404)
    // Names every object has (inherited members): no file either.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect({ name, status: (await get(`/widget/${name}`)).status }).toEqual({ name, status: 404 })
  })
})

describe("the service's own pages as allowed sites", () => {
  const locations = (headers: Record<string, string>) =>
    get(`/public/v1/${f.token}/locations?all=true&limit=1`, headers)
  beforeAll(() => setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' }))
  afterAll(() => setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' }))

  test('the finder page runs scripts of the service only; with an allowlist, it may be framed only by its sites and the service; never sniffed', async () => {
    const res = await get(`/l/${f.token}`)
    const policy =
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; base-uri 'none'; form-action 'self'"
    expect(res.headers.get('content-security-policy')).toBe(
      `${policy}; frame-ancestors 'self' https://shop.example.com:* http://shop.example.com:*`,
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    try {
      expect((await get(`/l/${f.token}`)).headers.get('content-security-policy')).toBe(policy) // framed by any site
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    }
  })

  test("a request from the locator's finder or store pages is answered", async () => {
    for (const referer of [
      `http://localhost/l/${f.token}`,
      `http://localhost/l/${f.token}?sl_place=Paris`,
      `http://localhost/l/${f.token}/loc_x/some-store`,
    ])
      expect({ referer, status: (await locations({ referer })).status }).toEqual({ referer, status: 200 })
  })

  test("another site, another locator's page, or a page that only looks like one is refused", async () => {
    const cases: Record<string, string>[] = [
      { referer: `https://elsewhere.example/l/${f.token}` },
      { referer: 'http://localhost/l/pk_someoneelse000000000000' },
      { referer: `http://localhost/l/${f.token}x` },
      { referer: `http://localhost/docs?${f.token}` },
      { referer: `http://localhost/l/${f.token}`, origin: 'https://elsewhere.example' },
      { origin: 'http://localhost' },
    ]
    for (const headers of cases)
      expect({ headers, status: (await locations(headers)).status }).toEqual({ headers, status: 403 })
    expect((await locations({ origin: 'https://shop.example.com' })).status).toBe(200)
  })
})
