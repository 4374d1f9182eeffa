// The store directory through HTTP: /l/{token}/stores lists the countries, a country its towns, a
// town its stores, each list in pages; store pages link back up to it (a breadcrumb, and as
// BreadcrumbList JSON-LD); its 404s, redirects, languages, ETags, policy and sitemap entries.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { directoryResponse, LIST_PAGE } from '../../src/api/pages/directory-page'
import { counted, pageTexts } from '../../src/api/pages/page-texts'
import type { Lang } from '../../src/core/languages'
import { slugOf } from '../../src/core/slug'
import { countryLabel } from '../../src/geocode/countries'
import { IndexRegistry } from '../../src/indexes/registry'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, locationRecord, makeEnv, otherProcess } from '../helpers'
import { FIXTURE_NOW, fold, send } from '../public/fixture'
import { jsonLd, locs, makePagesFixture, metaTags, type PagesFixture, pagesApp } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

type Item = { url: string; name: string; count?: number; address?: string }

/** The entries of a directory page's list, as a person reads them. */
function items(html: string): Item[] {
  const list = /<ul class="slp-dir">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? ''
  return [
    ...list.matchAll(
      /<li><a href="([^"]+)">([^<]*)<\/a>(?: <span class="slp-count">\((\d+) [^<)]+\)<\/span>)?(?:<br><span class="slp-addr">([^<]*)<\/span>)?<\/li>/g,
    ),
  ].map((m) => ({
    url: decode(m[1]!),
    name: decode(m[2]!),
    ...(m[3] === undefined ? {} : { count: Number(m[3]) }),
    ...(m[4] === undefined ? {} : { address: decode(m[4]) }),
  }))
}

/** A page's breadcrumb: each step's name and link (none for the page itself). */
function trail(html: string): [string, string | null][] {
  const nav = /<nav class="slp-crumbs" aria-label="[^"]*"><ol>([\s\S]*?)<\/ol><\/nav>/.exec(html)?.[1] ?? ''
  return [
    ...nav.matchAll(/<li>(?:<a href="([^"]+)">([^<]*)<\/a>|<span aria-current="page">([^<]*)<\/span>)<\/li>/g),
  ].map((m) => (m[1] === undefined ? [decode(m[3]!), null] : [decode(m[2]!), decode(m[1])]))
}

const head = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)">`, 'g'))].map((m) => decode(m[1]!))
const top = () => `http://localhost/l/${f.token}/stores`

/** The fixture's published rows, by their address parts. */
const published = () => f.env.store.locations.all(f.env.locatorId).filter((r) => r.status === 'published')

describe('a locator in several countries', () => {
  test('the top lists the countries with their stores, a country its towns, a town its stores with their addresses', async () => {
    const rows = published()
    const inFrance = rows.filter((r) => r.addressParts.country === 'FR')
    const res = await f.page(`/l/${f.token}/stores`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.text).toContain('<title>Store directory – Test locator</title>')
    expect(res.text).toContain('<h1>Store directory</h1>')
    expect(items(res.text)).toEqual([
      { url: `${top()}/fr`, name: 'France', count: inFrance.length },
      { url: `${top()}/gb`, name: 'United Kingdom', count: 1 },
    ])

    const france = items((await f.page(`/l/${f.token}/stores/fr`)).text)
    const towns = new Map<string, number>()
    for (const r of inFrance) towns.set(r.addressParts.city!, (towns.get(r.addressParts.city!) ?? 0) + 1)
    expect(france.map((t) => [t.name, t.count])).toEqual(
      [...towns].sort(([a], [b]) => (fold(a) < fold(b) ? -1 : 1)).map(([t, n]) => [t, n]),
    )
    expect(france.find((t) => t.name === 'Paris')!.url).toBe(`${top()}/fr/paris`)
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
    const expected = published().map(
      (r) => `http://localhost/l/${f.token}/${r.id}/${encodeURIComponent(slugOf(r.name))}`,
    )
    expect([...stores].sort()).toEqual(expected.sort())
  })

  test("a store's page links its way up the directory: a breadcrumb, and BreadcrumbList JSON-LD", async () => {
    const velo = `http://localhost/l/${f.token}/${f.ids.velo}/velo-cafe-bikes`
    const { text } = await f.page(velo)
    expect(trail(text)).toEqual([
      ['Store directory', top()],
      ['France', `${top()}/fr`],
      ['Paris', `${top()}/fr/paris`],
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
        step(1, 'Store directory', top()),
        step(2, 'France', `${top()}/fr`),
        step(3, 'Paris', `${top()}/fr/paris`),
        step(4, 'Vélo Café Bikes', velo),
      ],
    })
    // In the page's language, each link in it too.
    const german = (await f.page(`${velo}?lang=de`)).text
    expect(trail(german)).toEqual([
      ['Filialverzeichnis', `${top()}?lang=de`],
      ['Frankreich', `${top()}/fr?lang=de`],
      ['Paris', `${top()}/fr/paris?lang=de`],
      ['Vélo Café Bikes', null],
    ])
    expect(german).toContain('<nav class="slp-crumbs" aria-label="Navigationspfad">')
    expect(jsonLd(german)[1].itemListElement[1]).toEqual(step(2, 'Frankreich', `${top()}/fr?lang=de`))
    // A town page's own trail, as JSON-LD too; the top has none.
    const town = (await f.page(`${top()}/fr/paris`)).text
    expect(trail(town)).toEqual([
      ['Store directory', top()],
      ['France', `${top()}/fr`],
      ['Paris', null],
    ])
    expect(jsonLd(town)).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [
          step(1, 'Store directory', top()),
          step(2, 'France', `${top()}/fr`),
          step(3, 'Paris', `${top()}/fr/paris`),
        ],
      },
    ])
    expect(jsonLd((await f.page(top())).text)).toEqual([])
  })

  test('?lang= gives the headings, country names and their order in that language, its canonical URL and the others', async () => {
    // Germany is after France in English, before it in German.
    const berlin = await f.create({
      name: 'Berlin Velo',
      address: 'Torstraße 3, 10119 Berlin',
      coordinates: { lat: 52.529, lng: 13.401 },
    })
    for (const [lang, heading, order] of [
      ['en', 'Store directory', ['FR', 'DE', 'GB']],
      ['de', 'Filialverzeichnis', ['DE', 'FR', 'GB']],
      ['fr', 'Annuaire des magasins', ['DE', 'FR', 'GB']],
      ['es', 'Directorio de tiendas', ['DE', 'FR', 'GB']],
      ['it', 'Elenco dei negozi', ['FR', 'DE', 'GB']],
      ['nl', 'Winkeloverzicht', ['DE', 'FR', 'GB']],
    ] as const) {
      const { text } = await f.page(`/l/${f.token}/stores?lang=${lang.toUpperCase()}`)
      expect(text).toStartWith(`<!doctype html>\n<html lang="${lang}">`)
      expect(text).toContain(`<h1>${heading}</h1>`)
      const query = lang === 'en' ? '' : `?lang=${lang}`
      expect(items(text).map((i) => [i.name, i.url])).toEqual(
        order.map((code) => [countryLabel(code, lang), `${top()}/${code.toLowerCase()}${query}`]),
      )
      expect(head(text, 'canonical')).toEqual([`${top()}${query}`])
    }
    await f.env.call('POST', `/admin/v1/locations/${berlin}/delete`)
    const { text } = await f.page(`/l/${f.token}/stores/fr/paris?lang=de`)
    expect(text).toContain('<h1>Geschäfte in Paris</h1>')
    // Its title names the country too: towns of one name are in many.
    expect(text).toContain('<title>Geschäfte in Paris, Frankreich – Test locator</title>')
    expect(text).toContain(`<a href="http://localhost/l/${f.token}?lang=de">Filialsuche</a>`)
    for (const lang of ['de', 'fr', 'es', 'it', 'nl'])
      expect(text).toContain(`<link rel="alternate" hreflang="${lang}" href="${top()}/fr/paris?lang=${lang}">`)
    expect(text).toContain(`<link rel="alternate" hreflang="en" href="${top()}/fr/paris">`)
    expect(text).toContain(`<link rel="alternate" hreflang="x-default" href="${top()}/fr/paris">`)
    // A country as each language puts it after "in": with its article where it takes one.
    const h1 = async (path: string) => /<h1>([^<]*)<\/h1>/.exec((await f.page(`/l/${f.token}/stores${path}`)).text)?.[1]
    expect(await h1('/gb')).toBe('Stores in the United Kingdom')
    expect(await h1('/gb?lang=de')).toBe('Geschäfte im Vereinigten Königreich')
    expect(await h1('/gb?lang=nl')).toBe('Winkels in het Verenigd Koninkrijk')
    expect(await h1('/gb?lang=es')).toBe('Tiendas en el Reino Unido')
    expect(await h1('/gb?lang=fr')).toBe('Magasins au Royaume-Uni')
    expect(await h1('/fr?lang=de')).toBe('Geschäfte in Frankreich')
    expect(await h1('/fr?lang=es')).toBe('Tiendas en Francia')
    const gb = (await f.page(`/l/${f.token}/stores/gb?lang=de`)).text
    expect(gb).toContain(
      '<meta name="description" content="Die Geschäfte von Test locator im Vereinigten Königreich.">',
    )
    // A language not shipped: the English page.
    expect((await f.page(`/l/${f.token}/stores?lang=pt`)).text).toContain('<h1>Store directory</h1>')
  })

  test("each place's count of stores is in words, in the page's language and plural: no bare number", async () => {
    const n = published().filter((r) => r.addressParts.country === 'FR').length // and one in GB
    expect(n).toBeGreaterThan(1)
    for (const [lang, one, more] of [
      ['en', '1 store', `${n} stores`],
      ['de', '1 Geschäft', `${n} Geschäfte`],
      ['fr', '1 magasin', `${n} magasins`],
      ['es', '1 tienda', `${n} tiendas`],
      ['it', '1 negozio', `${n} negozi`],
      ['nl', '1 winkel', `${n} winkels`],
    ] as const) {
      const { text } = await f.page(`/l/${f.token}/stores?lang=${lang}`)
      const counts = [...text.matchAll(/<span class="slp-count">\(([^<]*)\)<\/span>/g)].map((m) => m[1])
      expect({ lang, counts: counts.sort() }).toEqual({ lang, counts: [one, more].sort() })
    }
    // Past a thousand, the number as the language writes it; a million takes French's "de".
    const say = (lang: Lang, count: number) => counted(pageTexts(lang), pageTexts(lang).stores, count)
    expect(say('en', 1234)).toBe('1,234 stores')
    expect(say('de', 1234)).toBe('1.234 Geschäfte')
    expect(say('fr', 1_000_000)).toBe('1\u202f000\u202f000 de magasins')
    expect(say('es', 1_000_000)).toBe('1.000.000 de tiendas')
    expect(say('it', 2_000_000)).toBe('2.000.000 di negozi')
    expect(say('fr', 0)).toBe('0 magasin') // French counts 0 as one
  })

  test('Open Graph says what each page is, in its language: a shared link shows its title and description', async () => {
    for (const [path, title, description, locale] of [
      ['', 'Store directory – Test locator', 'The stores of Test locator by country and town.', 'en_US'],
      [
        '/fr?lang=de',
        'Geschäfte in Frankreich – Test locator',
        'Die Geschäfte von Test locator in Frankreich.',
        'de_DE', // Facebook knows no de_FR
      ],
      [
        '/gb',
        'Stores in the United Kingdom – Test locator',
        'The stores of Test locator in the United Kingdom.',
        'en_GB',
      ],
      [
        '/fr/paris?lang=fr',
        'Magasins à Paris, France – Test locator',
        'Les magasins Test locator à Paris, France.',
        'fr_FR',
      ],
    ] as const) {
      const { text } = await f.page(`/l/${f.token}/stores${path}`)
      const canonical = head(text, 'canonical')[0]
      expect(metaTags(text)).toMatchObject({
        description,
        'og:type': 'website',
        'og:site_name': 'Test locator',
        'og:title': title,
        'og:description': description,
        'og:url': canonical,
        'og:locale': locale, // the page's language in the place's country where Facebook knows it, else its own
        'twitter:card': 'summary',
      })
      expect(text).toContain(`<title>${title}</title>`)
    }
  })

  test('a place written otherwise answers 301 to its canonical URL, keeping the language', async () => {
    for (const [path, to] of [
      ['/stores/FR', '/stores/fr'],
      ['/stores/Fr/PARIS?lang=de', '/stores/fr/paris?lang=de'],
      ['/stores/fr/Orl%C3%A9ans', '/stores/fr/orleans'],
    ]) {
      const res = await f.page(`/l/${f.token}${path}`)
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 301,
        location: `http://localhost/l/${f.token}${to}`,
      })
    }
  })

  test('an unknown country or town: 404 in the language asked, linking to the directory; never indexed', async () => {
    for (const path of ['/stores/zz', '/stores/fr/atlantis', '/stores/gb/paris', '/stores/%zz', '/stores/fr/%E2%82']) {
      const res = await f.page(`/l/${f.token}${path}`)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.text).toContain('<h1>Place not found</h1>')
      expect(res.text).toContain(`<a href="${top()}">See all stores</a>`)
      expect(res.text).toContain('<meta name="robots" content="noindex">')
    }
    const german = await f.page(`/l/${f.token}/stores/fr/atlantis?lang=de`)
    expect(german.status).toBe(404)
    expect(german.text).toContain('<html lang="de">')
    expect(german.text).toContain('<h1>Ort nicht gefunden</h1>')
    expect(german.text).toContain(`<a href="${top()}?lang=de">Alle Geschäfte ansehen</a>`)
    for (const page of ['0', '2', 'abc', '-1'])
      expect((await f.page(`/l/${f.token}/stores/fr?page=${page}`)).status).toBe(404)
  })

  test('404 for an unknown token, a locator switched off, or its Query API off', async () => {
    const notFound = async (path: string) => {
      const res = await f.page(path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.text).toContain('<h1>Store locator not found</h1>')
    }
    await notFound('/l/pk_unknown/stores')
    await notFound('/l/pk_unknown/stores/fr/paris')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    try {
      await notFound(`/l/${f.token}/stores`)
      await notFound(`/l/${f.token}/stores/fr`)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'on' })
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { active: 'off' })
    try {
      await notFound(`/l/${f.token}/stores/fr/paris`)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { active: 'on' })
    }
    expect((await f.page(`/l/${f.token}/stores`)).status).toBe(200)
  })

  test("the store pages' policy: no script; an ETag that only a write changes", async () => {
    const res = await f.page(`/l/${f.token}/stores/fr`)
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; base-uri 'none'; form-action 'none'",
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    // Its style is in the page: no stylesheet to wait for before it shows.
    expect(res.text).not.toContain('<link rel="stylesheet"')

    // Stores opening and closing hours later change nothing; a new store does.
    let clock = FIXTURE_NOW
    const registry = new IndexRegistry(f.env.store, undefined, { now: () => clock, buildRetryMs: 0 })
    const app = pagesApp({ ...f.deps, registry })
    const path = `/l/${f.token}/stores/fr/paris`
    const etag = (await f.page(path, {}, app)).headers.get('etag')!
    expect(etag).toBeTruthy()
    clock += 6 * 3_600_000
    expect((await f.page(path, { 'if-none-match': etag }, app)).status).toBe(304)
    const id = await f.create({
      name: 'New Paris Bikes',
      address: '1 Rue Neuve, 75001 Paris',
      coordinates: { lat: 48.861, lng: 2.341 },
    })
    const after = await f.page(path, { 'if-none-match': etag }, app)
    expect(after.status).toBe(200)
    expect(items(after.text).some((s) => s.url.includes(id))).toBe(true)
    await f.env.call('POST', `/admin/v1/locations/${id}/delete`)
    expect(items((await f.page(path)).text).some((s) => s.url.includes(id))).toBe(false)
  })

  test('a name with markup is escaped', async () => {
    const name = '<b>Bold</b> & "Co" </ul><script>alert(1)</script>'
    const id = await f.create({ name, address: '3 Rue X, 75003 Paris', coordinates: { lat: 48.863, lng: 2.36 } })
    try {
      const { text } = await f.page(`/l/${f.token}/stores/fr/paris`)
      expect(text).not.toContain('<b>')
      expect(text).not.toContain('<script>alert')
      expect(items(text).find((s) => s.url.includes(id))!.name).toBe(name)
    } finally {
      await f.env.call('POST', `/admin/v1/locations/${id}/delete`)
    }
  })

  test('in the whole app, /stores is the directory and no store: store pages and the sitemap stay as they were', async () => {
    const get = (path: string) => send(f.env.app, `http://localhost/l/${f.token}${path}`)
    expect((await get('/stores')).text).toContain('<h1>Store directory</h1>')
    expect((await get('/stores/fr')).text).toContain('<h1>Stores in France</h1>')
    expect((await get('/stores/fr/paris')).text).toContain('<h1>Stores in Paris</h1>')
    expect((await get(`/${f.ids.velo}`)).text).toContain('<h1>Vélo Café Bikes</h1>')
    expect((await get(`/${f.ids.velo}/velo-cafe-bikes`)).status).toBe(200)
    expect((await get('/sitemap.xml')).text).toContain('<urlset ')
  })

  test('the sitemap lists every page of the directory, each of which is served', async () => {
    const urls = locs((await f.page(`/l/${f.token}/sitemap.xml`)).text).filter((u) => u.includes('/stores'))
    const rows = published()
    const towns = new Set(rows.map((r) => `${r.addressParts.country!.toLowerCase()}/${slugOf(r.addressParts.city!)}`))
    expect(urls.sort()).toEqual([top(), `${top()}/fr`, `${top()}/gb`, ...[...towns].map((t) => `${top()}/${t}`)].sort())
    for (const url of urls) expect((await f.page(url)).status).toBe(200)
  })
})

describe('a write while a page is made', () => {
  test('the page carries the ETag of what it shows: one ETag, one body', async () => {
    await f.create({ name: 'A write', address: 'x', coordinates: { lat: 48.85, lng: 2.35 } }) // the kept directory is old
    const pending = directoryResponse(f.deps, new Request(top()), f.token, [])
    // The directory has been read; another process adds a store in a country it lacks, and the registry learns of it.
    otherProcess(f.env.store, (other) => {
      const record = locationRecord(f.env.locatorId, {
        name: 'Tokyo Shop',
        address: 'Ginza 1, Tokyo',
        coordinates: { lat: 35.67, lng: 139.77 },
      })
      other.locations.insert({ ...record, addressParts: { city: 'Tokyo', country: 'JP' } })
    })
    f.deps.registry.sync()
    const first = await pending
    const second = await directoryResponse(f.deps, new Request(top()), f.token, [])
    const [a, b] = [await first.text(), await second.text()]
    expect([a.includes('Japan'), b.includes('Japan')]).toEqual([false, true])
    expect(first.headers.get('etag')).not.toBe(second.headers.get('etag'))
    const again = await directoryResponse(
      f.deps,
      new Request(top(), { headers: { 'if-none-match': first.headers.get('etag')! } }),
      f.token,
      [],
    )
    expect(again.status).toBe(200)
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
