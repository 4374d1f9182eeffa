// The store directory in the page's language, through HTTP: ?lang= gives its headings, country
// names and their order, canonical URL and alternates; each place's count of stores in words; and
// Open Graph tags, so a shared link shows the page's title and description.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { counted, pageTexts } from '../../src/api/pages/page-texts'
import type { Lang } from '../../src/core/languages'
import { countryLabel } from '../../src/geocode/countries'
import { head, items, makePagesFixture, metaTags, type PagesFixture } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

describe('a locator in several countries', () => {
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
        order.map((code) => [countryLabel(code, lang), `${f.top()}/${code.toLowerCase()}${query}`]),
      )
      expect(head(text, 'canonical')).toEqual([`${f.top()}${query}`])
    }
    await f.env.call('POST', `/admin/v1/locations/${berlin}/delete`)
    const { text } = await f.page(`/l/${f.token}/stores/fr/paris?lang=de`)
    expect(text).toContain('<h1>Geschäfte in Paris</h1>')
    // Its title names the country too: towns of one name are in many.
    expect(text).toContain('<title>Geschäfte in Paris, Frankreich – Test locator</title>')
    expect(text).toContain(`<a href="http://localhost/l/${f.token}?lang=de">Filialsuche</a>`)
    for (const lang of ['de', 'fr', 'es', 'it', 'nl'])
      expect(text).toContain(`<link rel="alternate" hreflang="${lang}" href="${f.top()}/fr/paris?lang=${lang}">`)
    expect(text).toContain(`<link rel="alternate" hreflang="en" href="${f.top()}/fr/paris">`)
    expect(text).toContain(`<link rel="alternate" hreflang="x-default" href="${f.top()}/fr/paris">`)
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
    const n = f.published().filter((r) => r.addressParts.country === 'FR').length // and one in GB
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
})
