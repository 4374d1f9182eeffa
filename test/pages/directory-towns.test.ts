// Towns of one name in the store directory, through HTTP: Portland in Oregon and in Maine are two
// towns, each with a page of its own named with its region; the address their name alone made
// lists both; Richmond in three countries has three titles.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { locationRecord, otherProcess } from '../helpers'
import { locs, makePagesFixture, type PagesFixture } from './fixture'

let f: PagesFixture
let token: string
beforeAll(async () => {
  f = await makePagesFixture()
  const { locator, secret } = createLocator(f.env.store, 'Harbor Goods')
  setLocatorSettings(f.env.store, locator.id, { queryApi: 'on' })
  token = locator.publicToken
  const at = (name: string, address: string, lat: number, lng: number) => ({
    name,
    address,
    coordinates: { lat, lng },
  })
  const res = await f.env.call('POST', '/admin/v1/locations/bulk', {
    key: secret,
    body: {
      locations: [
        at('Harbor Goods Portland', '1 Congress St, Portland, ME', 43.6591, -70.2568),
        at('Pearl Supply', '1 NW Couch St, Portland, OR', 45.5285, -122.6818),
        at('Broadway Supply', '1 SW Broadway, Portland, OR', 45.5152, -122.6784),
        at('Capitol Supply', '1 State St, Salem, OR', 44.9429, -123.0351),
        at('Thames Supply', '1 George St, Richmond TW9', 51.4613, -0.3037),
        at('Fraser Supply', '1 No 3 Rd, Richmond, BC', 49.1666, -123.1336),
        at('James Supply', '1 Main St, Richmond, VA', 37.5407, -77.436),
        at('Dom Supply', 'Domkloster 4, 50667 Köln', 50.9413, 6.9583),
        at('Rhine Supply', 'Schildergasse 5, Cologne', 50.9362, 6.9531),
        at('Ring Supply', 'Hohenzollernring 1, Köln', 50.9389, 6.9402),
        at('Ehrenfeld Supply', 'Venloer Str. 300, Koeln', 50.949, 6.917),
        at('Malmö Supply', 'Södergatan 1, 211 34 Malmö, Sweden', 55.6036, 13.0007),
      ],
    },
  })
  expect(res.status).toBe(200)
  // Oregon written out, as another geocoder or a spreadsheet may write it: the same town as "OR".
  otherProcess(f.env.store, (other) => {
    const record = locationRecord(locator.id, {
      name: 'Alder Supply',
      address: '1 SW Alder St, Portland, Oregon',
      coordinates: { lat: 45.519, lng: -122.679 },
    })
    other.locations.insert({ ...record, addressParts: { city: 'Portland', region: 'Oregon', country: 'US' } })
    // A city-state's region given as its code by one store, as its name by another (spreadsheets).
    for (const [name, region] of [
      ['Casino Supply', 'MC'],
      ['Port Supply', 'Monaco'],
    ]) {
      const monaco = locationRecord(locator.id, {
        name,
        address: `1 Avenue ${name}, Monaco`,
        coordinates: { lat: 43.7384, lng: 7.4246 },
      })
      other.locations.insert({ ...monaco, addressParts: { city: 'Monaco', region, country: 'MC' } })
    }
    // A country with a region of its own name: the State of Mexico, as "México", beside Oaxaca.
    for (const [name, region] of [
      ['Toluca Road Supply', 'México'],
      ['Oaxaca Road Supply', 'Oaxaca'],
    ]) {
      const mexico = locationRecord(locator.id, {
        name,
        address: `1 Calle ${name}, San Mateo, ${region}`,
        coordinates: { lat: 19.3, lng: -99.6 },
      })
      other.locations.insert({ ...mexico, addressParts: { city: 'San Mateo', region, country: 'MX' } })
    }
  })
  f.deps.registry.sync()
})
afterAll(() => f.env.close())

const dir = () => `http://localhost/l/${token}/stores`
const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

/** A directory page's list entries: name, link and count (a town's). */
const items = (html: string) =>
  [
    ...(/<ul class="slp-dir">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '').matchAll(
      /<li><a href="([^"]+)">([^<]*)<\/a>(?: <span class="slp-count">\((\d+) [^<)]+\)<\/span>)?/g,
    ),
  ].map((m) => [decode(m[2]!), decode(m[1]!), m[3] === undefined ? null : Number(m[3])])
const tag = (html: string, pattern: RegExp) => decode(pattern.exec(html)?.[1] ?? '')
const titleOf = (html: string) => tag(html, /<title>([^<]*)<\/title>/)
const h1Of = (html: string) => tag(html, /<h1>([^<]*)<\/h1>/)
const trail = (html: string) =>
  [
    ...(/<nav class="slp-crumbs"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(
      /<li>(?:<a href="([^"]+)">([^<]*)<\/a>|<span aria-current="page">([^<]*)<\/span>)<\/li>/g,
    ),
  ].map((m) => (m[1] === undefined ? [decode(m[3]!), null] : [decode(m[2]!), decode(m[1])]))

describe('towns of one name in one country', () => {
  test('are towns of their own, named and addressed with their region; a town alone keeps its address', async () => {
    const us = (await f.page(`${dir()}/us`)).text
    expect(items(us)).toEqual([
      ['Portland, ME', `${dir()}/us/portland-me`, 1],
      ['Portland, OR', `${dir()}/us/portland-or`, 3],
      ['Richmond', `${dir()}/us/richmond`, 1],
      ['Salem', `${dir()}/us/salem`, 1],
    ])
    const oregon = (await f.page(`${dir()}/us/portland-or`)).text
    expect(h1Of(oregon)).toBe('Stores in Portland, OR')
    expect(titleOf(oregon)).toBe('Stores in Portland, OR, United States – Harbor Goods')
    expect(items(oregon).map(([name]) => name)).toEqual(['Alder Supply', 'Broadway Supply', 'Pearl Supply'])
    expect(trail(oregon)).toEqual([
      ['Store directory', dir()],
      ['United States', `${dir()}/us`],
      ['Portland, OR', null],
    ])
    const maine = (await f.page(`${dir()}/us/portland-me?lang=de`)).text
    expect(h1Of(maine)).toBe('Geschäfte in Portland, ME')
    expect(items(maine).map(([name]) => name)).toEqual(['Harbor Goods Portland'])
    for (const [path, to] of [
      ['/us/Portland-OR', '/us/portland-or'],
      ['/us/PORTLAND', '/us/portland'],
    ]) {
      const res = await f.page(`${dir()}${path}`)
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 301, `${dir()}${to}`])
    }
  })

  test('the address their name alone makes lists them: followed, not indexed, in no sitemap', async () => {
    const res = await f.page(`${dir()}/us/portland`)
    expect(res.status).toBe(200)
    expect(res.text).toContain('<meta name="robots" content="noindex, follow">')
    expect(h1Of(res.text)).toBe('Stores in Portland')
    expect(items(res.text)).toEqual([
      ['Portland, ME', `${dir()}/us/portland-me`, 1],
      ['Portland, OR', `${dir()}/us/portland-or`, 3],
    ])
    expect(trail(res.text).at(-1)).toEqual(['Portland', null])
    expect((await f.page(`${dir()}/us/portland-or`)).text).not.toContain('name="robots"')
    const sitemap = locs((await f.page(`/l/${token}/sitemap.xml`)).text).filter((u) => u.includes('/stores/us'))
    expect(sitemap.sort()).toEqual(
      ['us', 'us/portland-me', 'us/portland-or', 'us/richmond', 'us/salem'].map((p) => `${dir()}/${p}`),
    )
  })

  test("a store's page: its trail leads to its own town; its title names the region when its name holds the town", async () => {
    const oregon = items((await f.page(`${dir()}/us/portland-or`)).text)
    const pearl = (await f.page(oregon.find(([name]) => name === 'Pearl Supply')![1] as string)).text
    expect(trail(pearl).slice(-2)).toEqual([
      ['Portland, OR', `${dir()}/us/portland-or`],
      ['Pearl Supply', null],
    ])
    expect(titleOf(pearl)).toBe('Pearl Supply, Portland, OR – Harbor Goods')
    const maine = items((await f.page(`${dir()}/us/portland-me`)).text)
    const portland = (await f.page(maine[0]![1] as string)).text
    expect(titleOf(portland)).toBe('Harbor Goods Portland, ME')
    expect(trail(portland).at(-2)).toEqual(['Portland, ME', `${dir()}/us/portland-me`])
  })
})

describe("a city-state's region written as its code and as its name", () => {
  test("is one town, said once in its stores' titles", async () => {
    const monaco = (await f.page(`${dir()}/mc`)).text
    expect(items(monaco)).toEqual([['Monaco', `${dir()}/mc/monaco`, 2]])
    const stores = items((await f.page(`${dir()}/mc/monaco`)).text)
    expect(stores.map(([name]) => name)).toEqual(['Casino Supply', 'Port Supply'])
    for (const [name, link] of stores) {
      const html = (await f.page(link as string)).text
      expect(titleOf(html)).toBe(`${name}, Monaco – Harbor Goods`)
      expect(trail(html).at(-2)).toEqual(['Monaco', `${dir()}/mc/monaco`])
    }
  })
})

describe("a region of its country's name that is no city-state's", () => {
  test("is a region: the State of Mexico's town and its namesake in Oaxaca are two towns, each named with it", async () => {
    expect(items((await f.page(`${dir()}/mx`)).text)).toEqual([
      ['San Mateo, México', `${dir()}/mx/san-mateo-mexico`, 1],
      ['San Mateo, Oaxaca', `${dir()}/mx/san-mateo-oaxaca`, 1],
    ])
  })
})

describe('towns of one name in several countries', () => {
  test("each town page's title names its country", async () => {
    const titles = []
    for (const [path, title] of [
      ['/gb/richmond', 'Stores in Richmond, United Kingdom – Harbor Goods'],
      ['/ca/richmond', 'Stores in Richmond, Canada – Harbor Goods'],
      ['/us/richmond', 'Stores in Richmond, United States – Harbor Goods'],
    ]) {
      const html = (await f.page(`${dir()}${path}`)).text
      expect([path, titleOf(html), h1Of(html)]).toEqual([path, title, 'Stores in Richmond'])
      titles.push(title)
    }
    expect(new Set(titles).size).toBe(3)
  })
})

describe('one town written in several spellings', () => {
  test('is one town, named as most write it, umlauts spelt out; the other spellings lead to it', async () => {
    const germany = (await f.page(`${dir()}/de`)).text
    expect(items(germany)).toEqual([['Köln', `${dir()}/de/koeln`, 4]])
    const koeln = (await f.page(`${dir()}/de/koeln`)).text
    expect(items(koeln).map(([name]) => name)).toEqual([
      'Dom Supply',
      'Ehrenfeld Supply',
      'Rhine Supply',
      'Ring Supply',
    ])
    const cologne = await f.page(`${dir()}/de/cologne`)
    expect([cologne.status, cologne.headers.get('location')]).toEqual([301, `${dir()}/de/koeln`])
    // Its slug before German towns spelt their umlauts out: links to it still lead there.
    const old = await f.page(`${dir()}/de/koln`)
    expect([old.status, old.headers.get('location')]).toEqual([301, `${dir()}/de/koeln`])
    const rhine = (await f.page(items(koeln).find(([name]) => name === 'Rhine Supply')![1] as string)).text
    expect(trail(rhine).slice(-2)).toEqual([
      ['Köln', `${dir()}/de/koeln`],
      ['Rhine Supply', null],
    ])
    const sitemap = locs((await f.page(`/l/${token}/sitemap.xml`)).text).filter((u) => u.includes('/stores/de'))
    expect(sitemap.sort()).toEqual([`${dir()}/de`, `${dir()}/de/koeln`])
    // Umlauts are spelt out in German-speaking countries only: Malmö stays "malmo".
    expect(items((await f.page(`${dir()}/se`)).text)).toEqual([['Malmö', `${dir()}/se/malmo`, 1]])
    expect((await f.page(`${dir()}/se/malmoe`)).status).toBe(404)
  })
})

describe("German namesakes' slugs before umlauts were spelt out", () => {
  test('lead to the town of that region, and to the list of both', async () => {
    const { locator } = createLocator(f.env.store, 'Mühlen')
    setLocatorSettings(f.env.store, locator.id, { queryApi: 'on' })
    // Mühlhausen in Thuringia and in Baden-Württemberg, as a geocoder that gives states writes them.
    otherProcess(f.env.store, (other) => {
      for (const [name, region, lat, lng] of [
        ['Untermarkt Supply', 'Thüringen', 51.2086, 10.4537],
        ['Kraichgau Supply', 'Baden-Württemberg', 49.2486, 8.7269],
      ] as const) {
        const record = locationRecord(locator.id, {
          name,
          address: `1 Hauptstraße, Mühlhausen`,
          coordinates: { lat, lng },
        })
        other.locations.insert({ ...record, addressParts: { city: 'Mühlhausen', region, country: 'DE' } })
      }
    })
    f.deps.registry.sync()
    const stores = `http://localhost/l/${locator.publicToken}/stores`
    expect(items((await f.page(stores)).text).map(([, url]) => url)).toEqual([
      `${stores}/de/muehlhausen-baden-wuerttemberg`,
      `${stores}/de/muehlhausen-thueringen`,
    ])
    for (const [old, now] of [
      ['muhlhausen-thuringen', 'muehlhausen-thueringen'],
      ['muhlhausen-baden-wurttemberg', 'muehlhausen-baden-wuerttemberg'],
      ['muhlhausen', 'muehlhausen'],
    ]) {
      const res = await f.page(`${stores}/de/${old}`)
      expect([res.status, res.headers.get('location')]).toEqual([301, `${stores}/de/${now}`])
    }
    expect((await f.page(`${stores}/de/muehlhausen`)).status).toBe(200)
  })
})
