// A store page's street (JSON-LD streetAddress, Open Graph street_address, the title's) when the
// address has no street part: read from the formatted address around its town and postcode. An
// address that is only its town names none; a street named after its town is still a street, and
// an address written town first ("1052 Budapest, Váci utca 1.") has its street after the town.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { slugOf } from '../../src/core/slug'
import { noGeocoder } from '../../src/geocode/geocoder'
import { setLocatorSettings } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { makeEnv, type TestEnv } from '../helpers'
import { send } from '../public/fixture'
import { jsonLd, metaTags } from './fixture'

const BERLIN = [52.52437, 13.41053] as const

/** Each address the stand-in geocoder places at its town, `at` (its town's point) or elsewhere. */
const ADDRESSES: Record<
  string,
  { city: string; country: string; postcode?: string; region?: string; at?: readonly [number, number] }
> = {
  '800 Chicago Ave, Chicago, IL 60642': { city: 'Chicago', region: 'Illinois', postcode: '60642', country: 'US' },
  'Via Roma 10, Roma': { city: 'Roma', country: 'IT' },
  'Chicago, 800 Chicago Ave': { city: 'Chicago', region: 'Illinois', country: 'US' },
  '1052 Budapest, Váci utca 1.': { city: 'Budapest', postcode: '1052', country: 'HU' },
  'Budapest, Andrássy út 12, Hungary': { city: 'Budapest', country: 'HU' },
  '10435 Berlin, Germany': { city: 'Berlin', postcode: '10435', country: 'DE' },
  'Springfield, IL': { city: 'Springfield', region: 'Illinois', country: 'US' },
  'Berlin, Mitte': { city: 'Berlin', country: 'DE', at: BERLIN },
  'Hamburg, St. Pauli': { city: 'Hamburg', country: 'DE', at: [53.55073, 9.99302] },
  'Berlin, Unter den Linden': { city: 'Berlin', country: 'DE', at: BERLIN },
  'Budapest, Váci utca': { city: 'Budapest', country: 'HU', at: [47.49835, 19.04045] },
  'Paris, Champs-Élysées': { city: 'Paris', country: 'FR', at: [48.85341, 2.3488] },
  'Wien, Graben': { city: 'Wien', country: 'AT', at: [48.20849, 16.37208] },
  // The embedded geocoder gives these no region part.
  'Köln, Nordrhein-Westfalen': { city: 'Köln', country: 'DE', at: [50.93333, 6.95] },
  'London, Greater London': { city: 'London', country: 'GB', at: [51.50853, -0.12574] },
  'Amsterdam, Noord-Holland': { city: 'Amsterdam', country: 'NL', at: [52.37403, 4.88969] },
  '10117 Berlin, Mitte, Friedrichstraße 100': { city: 'Berlin', postcode: '10117', country: 'DE' },
  'Berlin, Kreuzberg, Oranienstraße': { city: 'Berlin', country: 'DE' },
  'Paris, Le Marais, Rue des Rosiers': { city: 'Paris', country: 'FR' },
  SW1A2AA: { city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
  '10 Downing St, SW1A2AA': { city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
}

let env: TestEnv
let token: string

beforeAll(() => {
  env = makeEnv({
    addresses: Object.fromEntries(
      Object.entries(ADDRESSES).map(([address, { at = [45, 10], ...parts }]) => [
        address,
        { lat: at[0], lng: at[1], precision: 'city' as const, parts },
      ]),
    ),
  })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
})
afterAll(() => env.close())

/** The street a store of `address` is given: its JSON-LD's and its Open Graph tag's (undefined: none). */
async function streetsOf(address: keyof typeof ADDRESSES): Promise<[string | undefined, string | undefined]> {
  const name = `Shop ${Object.keys(ADDRESSES).indexOf(address)}`
  const res = await env.call('POST', '/admin/v1/locations', { body: { name, address } })
  expect(res.status).toBe(201)
  const page = await send(env.app, `http://localhost/l/${token}/${res.body.location.id}/${slugOf(name)}`)
  expect(page.status).toBe(200)
  return [jsonLd(page.text)[0].address.streetAddress, metaTags(page.text)['business:contact_data:street_address']]
}

test('a street named after its town is a street, not the town', async () => {
  expect(await streetsOf('800 Chicago Ave, Chicago, IL 60642')).toEqual(['800 Chicago Ave', '800 Chicago Ave'])
  expect(await streetsOf('Via Roma 10, Roma')).toEqual(['Via Roma 10', 'Via Roma 10'])
})

test('a postcode written without its space is the postcode: alone it names no street', async () => {
  expect(await streetsOf('SW1A2AA')).toEqual([undefined, undefined])
  expect(await streetsOf('10 Downing St, SW1A2AA')).toEqual(['10 Downing St', '10 Downing St'])
})

test('an address written town first has its street after its town, postcode and country; or none', async () => {
  expect(await streetsOf('1052 Budapest, Váci utca 1.')).toEqual(['Váci utca 1.', 'Váci utca 1.'])
  expect(await streetsOf('Budapest, Andrássy út 12, Hungary')).toEqual(['Andrássy út 12', 'Andrássy út 12'])
  expect(await streetsOf('Chicago, 800 Chicago Ave')).toEqual(['800 Chicago Ave', '800 Chicago Ave'])
  // One of its town, postcode, region and country alone names none.
  expect(await streetsOf('10435 Berlin, Germany')).toEqual([undefined, undefined])
  expect(await streetsOf('Springfield, IL')).toEqual([undefined, undefined])
})

test('a district after the town is no street: the piece with a number or a street word is', async () => {
  expect(await streetsOf('Berlin, Mitte')).toEqual([undefined, undefined])
  expect(await streetsOf('10117 Berlin, Mitte, Friedrichstraße 100')).toEqual([
    'Friedrichstraße 100',
    'Friedrichstraße 100',
  ])
  expect(await streetsOf('Berlin, Kreuzberg, Oranienstraße')).toEqual(['Oranienstraße', 'Oranienstraße'])
  expect(await streetsOf('Paris, Le Marais, Rue des Rosiers')).toEqual(['Rue des Rosiers', 'Rue des Rosiers'])
})

test('a piece after the town with neither number nor street word is the street, unless a place there has its name', async () => {
  // The geocoder's data knows Mitte and St. Pauli as districts of their towns; no street is a place.
  expect(await streetsOf('Hamburg, St. Pauli')).toEqual([undefined, undefined])
  expect(await streetsOf('Berlin, Unter den Linden')).toEqual(['Unter den Linden', 'Unter den Linden'])
  expect(await streetsOf('Budapest, Váci utca')).toEqual(['Váci utca', 'Váci utca'])
  expect(await streetsOf('Paris, Champs-Élysées')).toEqual(['Champs-Élysées', 'Champs-Élysées'])
  // Graben is a town in Upper Austria: not one within Vienna's reach.
  expect(await streetsOf('Wien, Graben')).toEqual(['Graben', 'Graben'])
})

test('a region the address names after its town is no street, though its part is not given', async () => {
  expect(await streetsOf('Köln, Nordrhein-Westfalen')).toEqual([undefined, undefined])
  expect(await streetsOf('London, Greater London')).toEqual([undefined, undefined])
  expect(await streetsOf('Amsterdam, Noord-Holland')).toEqual([undefined, undefined])
})

test('a page made without place data has another ETag than one made with it: its street differs', async () => {
  const name = 'Linden Books'
  const res = await env.call('POST', '/admin/v1/locations', { body: { name, address: 'Berlin, Unter den Linden' } })
  const url = `http://localhost/l/${token}/${res.body.location.id}/${slugOf(name)}`
  const placed = await send(env.app, url)
  expect(jsonLd(placed.text)[0].address.streetAddress).toBe('Unter den Linden')
  // The same store database served by a process started with GEOCODER=none.
  const unplaced = createApp({
    store: env.store,
    geocoder: noGeocoder,
    config: { maxBodyBytes: 262144, logRequests: false },
    log: () => {},
    places: null,
  })
  const page = await send(unplaced, url, { headers: { 'if-none-match': placed.headers.get('etag')! } })
  expect(page.status).toBe(200)
  expect(jsonLd(page.text)[0].address.streetAddress).toBeUndefined()
})
