// The store directory's headings, titles and descriptions as a native speaker of each language
// writes them, through HTTP: a country after the preposition its name takes ("en Suisse", "au
// Royaume-Uni", "nel Regno Unito"), a town after its own ("au Havre", "alla Spezia"), and the
// stores of no town or of no country.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { IndexRegistry } from '../../src/indexes/registry'
import { setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, makeEnv, type TestEnv } from '../helpers'
import { send } from '../public/fixture'
import { pagesApp } from './fixture'

const place = (lat: number, lng: number, parts: Record<string, string>) => ({
  lat,
  lng,
  precision: parts.city ? ('rooftop' as const) : ('region' as const),
  parts,
})

let env: TestEnv
let app: ReturnType<typeof pagesApp>
let token: string
beforeAll(async () => {
  env = makeEnv({
    addresses: {
      ...KNOWN_ADDRESSES,
      'Bahnhofstrasse 1, Zürich': place(47.37, 8.54, { city: 'Zürich', country: 'CH' }),
      '1 Rue de Paris, Le Havre': place(49.49, 0.107, { city: 'Le Havre', country: 'FR' }),
      'Via Roma 1, La Spezia': place(44.1, 9.82, { city: 'La Spezia', country: 'IT' }),
      'Via Dante 1, Ancona': place(43.6, 13.5, { city: 'Ancona', country: 'IT' }),
      'Somewhere in Bavaria': place(48.9, 11.4, { region: 'Bavaria', country: 'DE' }),
    },
  })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
  app = pagesApp({
    store: env.store,
    registry: new IndexRegistry(env.store, undefined, { buildRetryMs: 0 }),
    publicBaseUrl: null,
  })
  const addresses = [
    '10 Downing Street, London SW1A 2AA',
    'Bahnhofstrasse 1, Zürich',
    '1 Rue de Paris, Le Havre',
    'Via Roma 1, La Spezia',
    'Via Dante 1, Ancona',
    'Somewhere in Bavaria',
  ]
  for (const address of addresses) {
    const res = await env.call('POST', '/admin/v1/locations', { body: { name: `Shop ${address}`, address } })
    expect(res.status).toBe(201)
  }
  const sea = { name: 'Ship Shop', address: 'On board, North Atlantic', coordinates: { lat: 45, lng: -40 } }
  expect((await env.call('POST', '/admin/v1/locations', { body: sea })).status).toBe(201)
})
afterAll(() => env.close())

/** A directory page's title (before the locator's name), heading and description. */
async function said(path: string, lang: string): Promise<[string, string, string]> {
  const res = await send(app, `http://localhost/l/${token}/stores${path}?lang=${lang}`)
  expect(res.status).toBe(200)
  const text = res.text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
  const title = /<title>([^<]*) – [^–<]*<\/title>/.exec(text)?.[1] ?? ''
  const h1 = /<h1>([^<]*)<\/h1>/.exec(text)?.[1] ?? ''
  const description = /<meta name="description" content="([^"]*)">/.exec(text)?.[1] ?? ''
  return [title, h1, description]
}

describe('French and Italian pages name a place with its preposition, as a sentence does', () => {
  test('a country', async () => {
    expect(await said('/ch', 'fr')).toEqual([
      'Magasins en Suisse',
      'Magasins en Suisse',
      'Les magasins Test locator en Suisse.',
    ])
    expect((await said('/gb', 'fr'))[1]).toBe('Magasins au Royaume-Uni')
    expect((await said('/fr', 'fr'))[1]).toBe('Magasins en France')
    expect(await said('/ch', 'it')).toEqual([
      'Negozi in Svizzera',
      'Negozi in Svizzera',
      'I negozi Test locator in Svizzera.',
    ])
    expect((await said('/gb', 'it'))[1]).toBe('Negozi nel Regno Unito')
  })

  test('a town, its article joined to the preposition where the language joins it', async () => {
    expect(await said('/ch/zuerich', 'fr')).toEqual([
      'Magasins à Zürich, Suisse',
      'Magasins à Zürich',
      'Les magasins Test locator à Zürich, Suisse.',
    ])
    expect(await said('/fr/le-havre', 'fr')).toEqual([
      'Magasins au Havre, France',
      'Magasins au Havre',
      'Les magasins Test locator au Havre, France.',
    ])
    expect(await said('/it/la-spezia', 'it')).toEqual([
      'Negozi alla Spezia, Italia',
      'Negozi alla Spezia',
      'I negozi Test locator alla Spezia, Italia.',
    ])
    expect((await said('/it/ancona', 'it'))[1]).toBe('Negozi ad Ancona')
    // A French town in Italian keeps its own name whole; other languages say "in" and the name.
    expect((await said('/fr/le-havre', 'it'))[1]).toBe('Negozi a Le Havre')
    expect((await said('/fr/le-havre', 'de'))[1]).toBe('Geschäfte in Le Havre')
  })
})

describe('the stores of no town, and of no country, in every language', () => {
  test("a country's stores of no town are its stores elsewhere", async () => {
    const elsewhere: Record<string, [string, string]> = {
      en: ['Stores elsewhere in Germany', 'The stores of Test locator elsewhere in Germany.'],
      de: [
        'Geschäfte an anderen Orten in Deutschland',
        'Die Geschäfte von Test locator an anderen Orten in Deutschland.',
      ],
      fr: ['Magasins ailleurs en Allemagne', 'Les magasins Test locator ailleurs en Allemagne.'],
      es: ['Tiendas en otros lugares de Alemania', 'Las tiendas de Test locator en otros lugares de Alemania.'],
      it: ['Negozi altrove in Germania', 'I negozi Test locator altrove in Germania.'],
      nl: ['Winkels elders in Duitsland', 'De winkels van Test locator elders in Duitsland.'],
    }
    for (const [lang, [heading, description]] of Object.entries(elsewhere))
      expect(await said('/de/_other', lang)).toEqual([heading, heading, description])
  })

  test('the stores of no country are in other places, whichever page lists them', async () => {
    const other: Record<string, [string, string]> = {
      en: ['Stores in other places', 'The stores of Test locator in other places.'],
      de: ['Geschäfte an anderen Orten', 'Die Geschäfte von Test locator an anderen Orten.'],
      fr: ['Magasins dans d’autres lieux', 'Les magasins Test locator dans d’autres lieux.'],
      es: ['Tiendas en otros lugares', 'Las tiendas de Test locator en otros lugares.'],
      it: ['Negozi in altri luoghi', 'I negozi Test locator in altri luoghi.'],
      nl: ['Winkels op andere plaatsen', 'De winkels van Test locator op andere plaatsen.'],
    }
    for (const [lang, [heading, description]] of Object.entries(other)) {
      expect(await said('/_other', lang)).toEqual([heading, heading, description])
      expect(await said('/_other/_other', lang)).toEqual([heading, heading, description])
    }
  })
})
