// The store directory through HTTP: /l/{token}/stores lists the countries, a country its towns, a
// town its stores, each list in pages; store pages link back up to it (a breadcrumb, and as
// BreadcrumbList JSON-LD); the sitemap lists its pages. Its languages: directory-texts.test.ts;
// its redirects, 404s, policy and ETags: directory-http.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LIST_PAGE } from '../../src/api/pages/directory-page'
import { slugOf } from '../../src/core/slug'
import { IndexRegistry } from '../../src/indexes/registry'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, makeEnv } from '../helpers'
import { fold, send } from '../public/fixture'
import { head, items, jsonLd, locs, makePagesFixture, type PagesFixture, pagesApp, trail } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

describe('a locator in several countries', () => {
  test('the top lists the countries with their stores, a country its towns, a town its stores with their addresses', async () => {
    const rows = f.published()
    const inFrance = rows.filter((r) => r.addressParts.country === 'FR')
    const res = await f.page(`/l/${f.token}/stores`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.text).toContain('<title>Store directory – Test locator</title>')
    expect(res.text).toContain('<h1>Store directory</h1>')
    expect(items(res.text)).toEqual([
      { url: `${f.top()}/fr`, name: 'France', count: inFrance.length },
      { url: `${f.top()}/gb`, name: 'United Kingdom', count: 1 },
    ])

    const france = items((await f.page(`/l/${f.token}/stores/fr`)).text)
    const towns = new Map<string, number>()
    for (const r of inFrance) towns.set(r.addressParts.city!, (towns.get(r.addressParts.city!) ?? 0) + 1)
    expect(france.map((t) => [t.name, t.count])).toEqual(
      [...towns].sort(([a], [b]) => (fold(a) < fold(b) ? -1 : 1)).map(([t, n]) => [t, n]),
    )
    expect(france.find((t) => t.name === 'Paris')!.url).toBe(`${f.top()}/fr/paris`)
    // A town with only a draft in it (Clichy) is in no list, and has no page.
    const draft = f.env.store.locations.get(f.env.locatorId, f.ids.unpub!)!
    expect(draft.addressParts.city).toBe('Clichy')
    expect(france.some((t) => t.name === 'Clichy')).toBe(false)
    expect((await f.page(`/l/${f.token}/stores/fr/clichy`)).status).toBe(404)

    const paris = items((await f.page(`/l/${f.token}/stores/fr/paris`)).text)
    const inParis = inFrance.filter((r) => r.addressParts.city === 'Paris')
    expect(paris).toEqual(
      inParis
        .sort((a, b) => (fold(a.name) < fold(b.name) ? -1 : 1))
        .map((r) => ({
          url: `http://localhost/l/${f.token}/${r.id}/${encodeURIComponent(slugOf(r.name))}`,
          name: r.name,
          address: r.address,
        })),
    )
    for (const key of ['hidden', 'workshop']) expect(paris.some((s) => s.url.includes(f.ids[key]!))).toBe(false)
    for (const store of paris) expect((await f.page(store.url)).status).toBe(200)
  })

  test('a crawler that follows links from the finder page reaches every published store, and nothing else', async () => {
    const finder = (await send(f.env.app, `http://localhost/l/${f.token}`)).text
    const start = /<footer><p><a href="([^"]+)">Browse the stores by place<\/a><\/p><\/footer>/.exec(finder)![1]!
    const seen = new Set<string>()
    const stores = new Set<string>()
    const queue = [`http://localhost${start}`]
    while (queue.length > 0) {
      const url = queue.shift()!
      if (seen.has(url)) continue
      seen.add(url)
      const res = await f.page(url)
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      for (const item of items(res.text)) {
        if (item.url.includes('/stores')) queue.push(item.url)
        else stores.add(item.url)
      }
      queue.push(...head(res.text, 'next'))
    }
    const expected = f
      .published()
      .map((r) => `http://localhost/l/${f.token}/${r.id}/${encodeURIComponent(slugOf(r.name))}`)
    expect([...stores].sort()).toEqual(expected.sort())
  })

  test("a store's page links its way up the directory: a breadcrumb, and BreadcrumbList JSON-LD", async () => {
    const velo = `http://localhost/l/${f.token}/${f.ids.velo}/velo-cafe-bikes`
    const { text } = await f.page(velo)
    expect(trail(text)).toEqual([
      ['Store directory', f.top()],
      ['France', `${f.top()}/fr`],
      ['Paris', `${f.top()}/fr/paris`],
      ['Vélo Café Bikes', null],
    ])
    const [business, crumbs, ...more] = jsonLd(text)
    expect(business['@type']).toBe('LocalBusiness')
    expect(more).toEqual([])
    const step = (position: number, name: string, item: string) => ({ '@type': 'ListItem', position, name, item })
    expect(crumbs).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        step(1, 'Store directory', f.top()),
        step(2, 'France', `${f.top()}/fr`),
        step(3, 'Paris', `${f.top()}/fr/paris`),
        step(4, 'Vélo Café Bikes', velo),
      ],
    })
    // In the page's language, each link in it too.
    const german = (await f.page(`${velo}?lang=de`)).text
    expect(trail(german)).toEqual([
      ['Filialverzeichnis', `${f.top()}?lang=de`],
      ['Frankreich', `${f.top()}/fr?lang=de`],
      ['Paris', `${f.top()}/fr/paris?lang=de`],
      ['Vélo Café Bikes', null],
    ])
    expect(german).toContain('<nav class="slp-crumbs" aria-label="Navigationspfad">')
    expect(jsonLd(german)[1].itemListElement[1]).toEqual(step(2, 'Frankreich', `${f.top()}/fr?lang=de`))
    // A town page's own trail, as JSON-LD too; the top has none.
    const town = (await f.page(`${f.top()}/fr/paris`)).text
    expect(trail(town)).toEqual([
      ['Store directory', f.top()],
      ['France', `${f.top()}/fr`],
      ['Paris', null],
    ])
    expect(jsonLd(town)).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          step(1, 'Store directory', f.top()),
          step(2, 'France', `${f.top()}/fr`),
          step(3, 'Paris', `${f.top()}/fr/paris`),
        ],
      },
    ])
    expect(jsonLd((await f.page(f.top())).text)).toEqual([])
  })

  test('the sitemap lists every page of the directory, each of which is served', async () => {
    const urls = locs((await f.page(`/l/${f.token}/sitemap.xml`)).text).filter((u) => u.includes('/stores'))
    const rows = f.published()
    const towns = new Set(rows.map((r) => `${r.addressParts.country!.toLowerCase()}/${slugOf(r.addressParts.city!)}`))
    expect(urls.sort()).toEqual(
      [f.top(), `${f.top()}/fr`, `${f.top()}/gb`, ...[...towns].map((t) => `${f.top()}/${t}`)].sort(),
    )
    for (const url of urls) expect((await f.page(url)).status).toBe(200)
  })
})

describe('a locator in one country, with a town of many stores', () => {
  let token: string
  const dir = () => `http://localhost/l/${token}/stores`
  const MANY = LIST_PAGE + 5

  beforeAll(async () => {
    const { locator, secret } = createLocator(f.env.store, 'Berlin Bikes')
    setLocatorSettings(f.env.store, locator.id, { queryApi: 'on' })
    token = locator.publicToken
    const berlin = Array.from({ length: MANY }, (_, i) => ({
      name: `Berlin Shop ${i + 1}`,
      address: `Torstraße ${i + 1}, 10119 Berlin`,
      coordinates: { lat: 52.52 + (i % 20) * 0.001, lng: 13.4 + Math.floor(i / 20) * 0.001 },
    }))
    const potsdam = {
      name: 'Potsdam Bikes',
      address: 'Brandenburger Str. 1, Potsdam',
      coordinates: { lat: 52.4, lng: 13.06 },
    }
    const res = await f.env.call('POST', '/admin/v1/locations/bulk', {
      key: secret,
      body: { locations: [...berlin, potsdam] },
    })
    expect(res.status).toBe(200)
  })

  test('the top lists its towns; the country has no page of its own; trails leave it out', async () => {
    const res = await f.page(dir())
    expect(res.status).toBe(200)
    expect(items(res.text)).toEqual([
      { url: `${dir()}/de/berlin`, name: 'Berlin', count: MANY },
      { url: `${dir()}/de/potsdam`, name: 'Potsdam', count: 1 },
    ])
    const country = await f.page(`${dir()}/de?lang=de`)
    expect([country.status, country.headers.get('location')]).toEqual([301, `${dir()}?lang=de`])
    const potsdam = (await f.page(`${dir()}/de/potsdam`)).text
    expect(trail(potsdam)).toEqual([
      ['Store directory', dir()],
      ['Potsdam', null],
    ])
    const store = items(potsdam)[0]!
    expect(trail((await f.page(store.url)).text)).toEqual([
      ['Store directory', dir()],
      ['Potsdam', `${dir()}/de/potsdam`],
      ['Potsdam Bikes', null],
    ])
    const sitemap = locs((await f.page(`/l/${token}/sitemap.xml`)).text).filter((u) => u.includes('/stores'))
    expect(sitemap).toEqual([dir(), `${dir()}/de/berlin`, `${dir()}/de/berlin?page=2`, `${dir()}/de/potsdam`])
  })

  test('a town of more stores than a page holds: its list in pages, in the order of their names, linked both ways', async () => {
    const first = await f.page(`${dir()}/de/berlin`)
    const one = items(first.text)
    expect(one).toHaveLength(LIST_PAGE)
    // Numbers in order: "Shop 2" before "Shop 10".
    expect(one.slice(0, 3).map((s) => s.name)).toEqual(['Berlin Shop 1', 'Berlin Shop 2', 'Berlin Shop 3'])
    expect(head(first.text, 'prev')).toEqual([])
    expect(head(first.text, 'next')).toEqual([`${dir()}/de/berlin?page=2`])
    expect(head(first.text, 'canonical')).toEqual([`${dir()}/de/berlin`])
    expect(first.text).toContain(`<a rel="next" href="${dir()}/de/berlin?page=2">Next page</a>`)
    expect(first.text).toContain('<span>Page 1 of 2</span>')

    const second = await f.page(`${dir()}/de/berlin?page=2&lang=de`)
    const two = items(second.text)
    expect(two.map((s) => s.name)).toEqual(
      Array.from({ length: MANY - LIST_PAGE }, (_, i) => `Berlin Shop ${LIST_PAGE + i + 1}`),
    )
    expect(head(second.text, 'canonical')).toEqual([`${dir()}/de/berlin?lang=de&page=2`])
    expect(head(second.text, 'prev')).toEqual([`${dir()}/de/berlin?lang=de`])
    expect(head(second.text, 'next')).toEqual([])
    expect(second.text).toContain(`<link rel="alternate" hreflang="fr" href="${dir()}/de/berlin?lang=fr&amp;page=2">`)
    expect(second.text).toContain('<title>Geschäfte in Berlin, Deutschland – Seite 2 von 2 – Berlin Bikes</title>')
    // Each page of the list has a description of its own.
    const description = (html: string) => /<meta name="description" content="([^"]*)">/.exec(html)?.[1]
    expect(description(first.text)).toBe('The stores of Berlin Bikes in Berlin, Germany.')
    expect(description((await f.page(`${dir()}/de/berlin?page=2`)).text)).toBe(
      'The stores of Berlin Bikes in Berlin, Germany. Page 2 of 2.',
    )
    expect(description(second.text)).toBe('Die Geschäfte von Berlin Bikes in Berlin, Deutschland. Seite 2 von 2.')
    expect(second.text).toContain(`<a rel="prev" href="${dir()}/de/berlin?lang=de">Vorherige Seite</a>`)
    expect(new Set([...one, ...two].map((s) => s.url)).size).toBe(MANY)
    expect((await f.page(`${dir()}/de/berlin?page=3`)).status).toBe(404)
  })
})

describe('stores with no known town', () => {
  test("are listed under their country's other places, or the other places of none; their trails lead there", async () => {
    const env = makeEnv({
      addresses: {
        ...KNOWN_ADDRESSES,
        // Placed at region level: its country is known, its town not.
        'Somewhere in Bavaria': {
          lat: 48.9,
          lng: 11.4,
          precision: 'region',
          parts: { region: 'Bavaria', country: 'DE' },
        },
      },
    })
    try {
      setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
      const token = env.store.locators.get(env.locatorId)!.publicToken
      const deps = {
        store: env.store,
        registry: new IndexRegistry(env.store, undefined, { buildRetryMs: 0 }),
        publicBaseUrl: null,
      }
      const app = pagesApp(deps)
      const get = (path: string) => send(app, path.startsWith('http') ? path : `http://localhost/l/${token}${path}`)
      const create = async (body: Record<string, unknown>) => {
        const res = await env.call('POST', '/admin/v1/locations', { body })
        expect(res.status).toBe(201)
        return res.body.location.id as string
      }
      await create({ name: 'Bavaria Bikes', address: 'Somewhere in Bavaria' })
      await create({
        name: 'Munich Bikes',
        address: 'Marienplatz 1, München',
        coordinates: { lat: 48.137, lng: 11.575 },
      })
      await create({ name: 'Ship Shop', address: 'On board, North Atlantic', coordinates: { lat: 45, lng: -40 } })
      const dir = `http://localhost/l/${token}/stores`

      expect(items((await get('/stores')).text)).toEqual([
        { url: `${dir}/de`, name: 'Germany', count: 2 },
        { url: `${dir}/_other`, name: 'Other places', count: 1 },
      ])
      const germany = items((await get('/stores/de')).text)
      expect(germany.map((t) => t.name)).toEqual(['München', 'Other places'])
      expect(germany[1]).toEqual({ url: `${dir}/de/_other`, name: 'Other places', count: 1 })
      const elsewhere = await get('/stores/de/_other')
      expect(elsewhere.text).toContain('<h1>Stores elsewhere in Germany</h1>')
      const bavaria = items(elsewhere.text)
      expect(bavaria.map((s) => s.name)).toEqual(['Bavaria Bikes'])
      expect(trail((await get(bavaria[0]!.url)).text)).toEqual([
        ['Store directory', dir],
        ['Germany', `${dir}/de`],
        ['Other places', `${dir}/de/_other`],
        ['Bavaria Bikes', null],
      ])
      const sea = await get('/stores/_other/_other')
      expect(sea.text).toContain('<h1>Stores in other places</h1>')
      const ship = items(sea.text)
      expect(ship.map((s) => s.name)).toEqual(['Ship Shop'])
      // Other places in other places: one step.
      expect(trail((await get(ship[0]!.url)).text)).toEqual([
        ['Store directory', dir],
        ['Other places', `${dir}/_other/_other`],
        ['Ship Shop', null],
      ])
      expect((await get('/stores/_OTHER/_Other')).headers.get('location')).toBe(`${dir}/_other/_other`)
    } finally {
      env.close()
    }
  })
})
