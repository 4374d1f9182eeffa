// What a store page tells a search engine and a reader through HTTP: a title (and og:title) of its
// own among a chain's stores of one name, one JSON-LD @id for the pages of every language, and its
// hours in the page's language, as the store's country writes times.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { storePageResponse } from '../../src/api/pages/store-page'
import { LANGS } from '../../src/core/languages'
import { slugOf } from '../../src/core/slug'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { jsonLd, makePagesFixture, metaTags, type PagesFixture, rangesAsText } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

const canonicalOf = (id: string, name: string) =>
  `http://localhost/l/${f.token}/${id}/${encodeURIComponent(slugOf(name))}`
const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)![1]!)

describe('titles', () => {
  test("a chain's stores of one name: each title says which store, by town, then street; og:title too", async () => {
    const dupont = (address: string, lat: number, lng: number, name = 'Boulangerie Dupont') =>
      f.create({ name, address, coordinates: { lat, lng } })
    const lyon = await dupont('12 Rue de la République, 69002 Lyon', 45.764, 4.8357)
    const bellecour = await dupont('5 Place Bellecour, 69002 Lyon', 45.7578, 4.832)
    const paris = await dupont('3 Rue Mouffetard, 75005 Paris', 48.8432, 2.3496)
    const partDieu = await dupont('17 Rue du Docteur Bouchut, 69003 Lyon', 45.7605, 4.859, 'Dupont Lyon Part-Dieu')
    const own = await dupont('8 Rue Cler, 75007 Paris', 48.8556, 2.3063, 'Test Locator Express')
    const afloat = await dupont('Quai 3, Ferry Atlantique', 45, -40) // of no known town
    const expected: [string, string, string][] = [
      // The town; the locator's name after it.
      [paris, 'Boulangerie Dupont, Paris – Test locator', 'Boulangerie Dupont, Paris'],
      // Another of its name in its town: its street too; the locator's name left out past 60 characters.
      [lyon, 'Boulangerie Dupont, Lyon, 12 Rue de la République', 'Boulangerie Dupont, Lyon, 12 Rue de la République'],
      [
        bellecour,
        'Boulangerie Dupont, Lyon, 5 Place Bellecour – Test locator',
        'Boulangerie Dupont, Lyon, 5 Place Bellecour',
      ],
      // A name that holds its town, or the locator's name, does not say it twice.
      [partDieu, 'Dupont Lyon Part-Dieu – Test locator', 'Dupont Lyon Part-Dieu'],
      [own, 'Test Locator Express, Paris', 'Test Locator Express, Paris'],
      // No town to tell it by: its street.
      [afloat, 'Boulangerie Dupont, Quai 3 – Test locator', 'Boulangerie Dupont, Quai 3'],
    ]
    const titles: string[] = []
    for (const [id, title, og] of expected) {
      const name =
        id === partDieu ? 'Dupont Lyon Part-Dieu' : id === own ? 'Test Locator Express' : 'Boulangerie Dupont'
      const html = (await f.page(`/l/${f.token}/${id}`)).text
      expect({ id, title: titleOf(html), og: decode(metaTags(html)['og:title']!) }).toEqual({ id, title, og })
      expect(html).toContain(`<h1>${name}</h1>`) // the heading is the store's name
      expect(Array.from(titleOf(html)).length).toBeLessThanOrEqual(60)
      // The same in the page of another language.
      expect(titleOf((await f.page(`/l/${f.token}/${id}?lang=de`)).text)).toBe(title)
      titles.push(title)
    }
    expect(new Set(titles).size).toBe(titles.length)
  })

  test("a store named as the locator's brand: the brand said once", async () => {
    const { locator, secret } = createLocator(f.env.store, 'Demo: Northwind Outdoor')
    setLocatorSettings(f.env.store, locator.id, { queryApi: 'on' })
    const res = await f.env.call('POST', '/admin/v1/locations', {
      key: secret,
      body: {
        name: 'Northwind Outdoor',
        address: '3 Rue Mouffetard, 75005 Paris',
        coordinates: { lat: 48.8432, lng: 2.3496 },
      },
    })
    const html = (await f.page(`/l/${locator.publicToken}/${res.body.location.id}`)).text
    expect(titleOf(html)).toBe('Northwind Outdoor, Paris')
  })

  test('a store page whose directory cannot be read: the town as its address writes it', async () => {
    await f.create({ name: 'A write', address: 'x', coordinates: { lat: 48.85, lng: 2.35 } }) // the kept directory is old
    const store = Object.create(f.deps.store, {
      snapshot: {
        value: () => {
          throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' })
        },
      },
      noteDamage: { value: () => {} },
    })
    const request = new Request(`http://localhost/l/${f.token}/${f.ids.velo}`)
    const res = await storePageResponse({ ...f.deps, store }, request, f.token, f.ids.velo!, null)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).not.toContain('BreadcrumbList')
    expect(titleOf(html)).toBe('Vélo Café Bikes, Paris – Test locator')
  })
})

describe('JSON-LD', () => {
  test("one @id for the business, its page's English URL, in every language; url: the page's own", async () => {
    const id = f.ids.velo!
    const canonical = canonicalOf(id, 'Vélo Café Bikes')
    for (const lang of LANGS) {
      const query = lang === 'en' ? '' : `?lang=${lang}`
      const [business] = jsonLd((await f.page(`/l/${f.token}/${id}${query}`)).text)
      expect({ lang, id: business['@id'], url: business.url }).toEqual({ lang, id: canonical, url: canonical + query })
    }
  })
})

describe('hours', () => {
  /** The text of each weekday's row, Monday first, on the page of `id` in `lang`. */
  const rows = async (id: string, lang: string) => {
    const html = rangesAsText((await f.page(`/l/${f.token}/${id}?lang=${lang}`)).text)
    return [...html.matchAll(/<tr><th scope="row">[^<]*<\/th><td>([^<]*)<\/td><\/tr>/g)].map((m) => decode(m[1]!))
  }

  test("round the clock, past midnight, until midnight: in every page's language, as it writes times", async () => {
    const id = await f.create({
      name: 'Nacht Bikes',
      address: 'Torstraße 9, 10119 Berlin',
      coordinates: { lat: 52.529, lng: 13.401 },
      hours: { monday: '24 hours', tuesday: '18:00-02:00', wednesday: '9-24', thursday: 'closed' },
    })
    const week = (monday: string, tuesday: string, wednesday: string, thursday: string, none: string) => [
      monday,
      tuesday,
      wednesday,
      thursday,
      none,
      none,
      none,
    ]
    expect(await rows(id, 'de')).toEqual(
      week('24 Stunden geöffnet', '18:00–2:00', '9:00–24:00', 'Geschlossen', 'Keine Angabe'),
    )
    // A store in Germany: English as it is written there, 24-hour times.
    expect(await rows(id, 'en')).toEqual(week('Open 24 hours', '18:00–2:00', '9:00–24:00', 'Closed', 'Not given'))
    expect(await rows(id, 'fr')).toEqual(
      week('Ouvert 24\u00a0h/24', '18:00–2:00', '9:00–24:00', 'Fermé', 'Non indiqué'),
    )
    expect((await rows(id, 'es'))[0]).toBe('Abierto 24 horas')
    expect((await rows(id, 'it'))[0]).toBe('Aperto 24 ore su 24')
    expect((await rows(id, 'nl'))[0]).toBe('24 uur geopend')
  })

  test("English pages write times as the store's country does: 24-hour in London, AM and PM in Washington", async () => {
    const hours = { monday: '09:00-18:00', tuesday: '18:00-02:00' }
    const london = await f.create({
      name: 'Strand Cycles',
      address: '10 Downing Street, London SW1A 2AA',
      hours,
    })
    const washington = await f.create({
      name: 'Capitol Cycles',
      address: '1600 Pennsylvania Avenue NW, Washington, DC 20500',
      hours,
    })
    expect((await rows(london, 'en')).slice(0, 2)).toEqual(['9:00–18:00', '18:00–2:00'])
    expect((await rows(washington, 'en')).slice(0, 2)).toEqual([
      '9:00\u00a0AM–6:00\u00a0PM',
      '6:00\u00a0PM–2:00\u00a0AM',
    ])
    // German is German in any country.
    expect((await rows(washington, 'de')).slice(0, 2)).toEqual(['9:00–18:00', '18:00–2:00'])
  })

  test("a special day's date heads its row as a weekday does: capitalised in every language", async () => {
    // FIXTURE_NOW is Monday 2026-06-15.
    const id = await f.create({
      name: 'Fête Bikes',
      address: '5 Rue de Lappe, 75011 Paris',
      coordinates: { lat: 48.853, lng: 2.372 },
      hours: { monday: '09:00-18:00' },
      special_hours: { '2026-06-20': 'closed' },
    })
    const dateOf = async (lang: string) => {
      const html = (await f.page(`/l/${f.token}/${id}?lang=${lang}`)).text
      return /<time datetime="2026-06-20">([^<]*)<\/time>/.exec(html)?.[1]
    }
    expect(await dateOf('fr')).toBe('Samedi 20 juin 2026')
    expect(await dateOf('es')).toBe('Sábado, 20 de junio de 2026')
    expect(await dateOf('it')).toBe('Sabato 20 giugno 2026')
    expect(await dateOf('nl')).toBe('Zaterdag 20 juni 2026')
    expect(await dateOf('de')).toBe('Samstag, 20. Juni 2026')
  })
})
