// A store page's street (JSON-LD streetAddress, Open Graph street_address, the title's) when the
// address has no street part: read from the formatted address around its town and postcode. An
// address that is only its town names none; a street named after its town is still a street, and
// an address written town first ("1052 Budapest, Váci utca 1.") has its street after the town.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { slugOf } from '../../src/core/slug'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'
import { send } from '../public/fixture'
import { jsonLd, metaTags } from './fixture'

const ADDRESSES = {
  '800 Chicago Ave, Chicago, IL 60642': { city: 'Chicago', region: 'Illinois', postcode: '60642', country: 'US' },
  'Via Roma 10, Roma': { city: 'Roma', country: 'IT' },
  'Chicago, 800 Chicago Ave': { city: 'Chicago', region: 'Illinois', country: 'US' },
  '1052 Budapest, Váci utca 1.': { city: 'Budapest', postcode: '1052', country: 'HU' },
  'Budapest, Andrássy út 12, Hungary': { city: 'Budapest', country: 'HU' },
  '10435 Berlin, Germany': { city: 'Berlin', postcode: '10435', country: 'DE' },
  'Springfield, IL': { city: 'Springfield', region: 'Illinois', country: 'US' },
  'Berlin, Mitte': { city: 'Berlin', country: 'DE' },
  '10117 Berlin, Mitte, Friedrichstraße 100': { city: 'Berlin', postcode: '10117', country: 'DE' },
  'Berlin, Kreuzberg, Oranienstraße': { city: 'Berlin', country: 'DE' },
  'Paris, Le Marais, Rue des Rosiers': { city: 'Paris', country: 'FR' },
  SW1A2AA: { city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
  '10 Downing St, SW1A2AA': { city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
  'London, Soho': { city: 'London', country: 'GB' },
  'London, Covent Garden': { city: 'London', country: 'GB' },
  'München, Schwabing': { city: 'München', country: 'DE' },
  'Paris, Montmartre': { city: 'Paris', country: 'FR' },
  'Roma, Trastevere': { city: 'Roma', country: 'IT' },
  'Hamburg, St. Pauli': { city: 'Hamburg', country: 'DE' },
  'Berlin, Europe': { city: 'Berlin', country: 'DE' },
  'Köln, Nordrhein-Westfalen': { city: 'Köln', country: 'DE' },
  'Berlin, Unter den Linden': { city: 'Berlin', country: 'DE' },
  'Wien, Graben': { city: 'Wien', country: 'AT' },
  'Paris, Champs-Élysées': { city: 'Paris', country: 'FR' },
  'Budapest, Váci utca': { city: 'Budapest', country: 'HU' },
  'Budapest, Andrássy út': { city: 'Budapest', country: 'HU' },
  'Budapest, Deák Ferenc tér': { city: 'Budapest', country: 'HU' },
  'Warszawa, ul. Marszałkowska': { city: 'Warszawa', country: 'PL' },
  'Kraków, ulica Floriańska': { city: 'Kraków', country: 'PL' },
  'Warszawa, Aleje Jerozolimskie': { city: 'Warszawa', country: 'PL' },
  'Praha, Národní třída': { city: 'Praha', country: 'CZ' },
  'Praha, Václavské nám.': { city: 'Praha', country: 'CZ' },
  'Praha, náměstí Míru': { city: 'Praha', country: 'CZ' },
  'Bratislava, Hlavné námestie': { city: 'Bratislava', country: 'SK' },
  'București, Calea Victoriei': { city: 'București', country: 'RO' },
  'Stockholm, Drottninggatan': { city: 'Stockholm', country: 'SE' },
  'København, Vesterbrogade': { city: 'København', country: 'DK' },
  'Helsinki, Aleksanterinkatu': { city: 'Helsinki', country: 'FI' },
  'Stockholm, Sveavägen': { city: 'Stockholm', country: 'SE' },
  'Molde, Elnesvågen': { city: 'Molde', country: 'NO' },
  'Oslo, Karl Johans gate': { city: 'Oslo', country: 'NO' },
  'Oslo, Kongens gata': { city: 'Oslo', country: 'NO' },
  'Oslo, Gamle Drammens vei': { city: 'Oslo', country: 'NO' },
  'Oslo, Trondheimsveien': { city: 'Oslo', country: 'NO' },
  'Bergen, Strandgaten': { city: 'Bergen', country: 'NO' },
  'Oslo, Rådhusgata': { city: 'Oslo', country: 'NO' },
  'Tromsø, Storgata': { city: 'Tromsø', country: 'NO' },
  'Tokyo, Yamagata': { city: 'Tokyo', country: 'JP' },
  'Frederiksberg, H.C. Ørsteds Vej': { city: 'Frederiksberg', country: 'DK' },
  'Aalborg, Vesterbro gade': { city: 'Aalborg', country: 'DK' },
  'Los Angeles, South Gate': { city: 'Los Angeles', region: 'California', country: 'US' },
  'Cáceres, Villasbuenas de Gata': { city: 'Cáceres', country: 'ES' },
  // No country, at a point in the Pacific that names none either.
  'San Francisco, Golden Gate': { city: 'San Francisco' },
  'Los Angeles, Ocean Gate': { city: 'Los Angeles' },
  'Almería, Cabo de Gata': { city: 'Almería' },
} as const

/** Where an address's point is: at sea, 30 km and more from any town, for one of no country. */
const pointOf = (parts: object) => ('country' in parts ? { lat: 45, lng: 10 } : { lat: 0, lng: -150 })

let env: TestEnv
let token: string

beforeAll(() => {
  env = makeEnv({
    addresses: Object.fromEntries(
      Object.entries(ADDRESSES).map(([address, parts]) => [
        address,
        { ...pointOf(parts), precision: 'city' as const, parts: { ...parts } },
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

test('a piece after the town with neither number nor street word is no street: a district, a region or a name', async () => {
  for (const address of [
    'London, Soho',
    'London, Covent Garden',
    'München, Schwabing',
    'Paris, Montmartre',
    'Roma, Trastevere',
    'Hamburg, St. Pauli',
    'Berlin, Europe',
    'Köln, Nordrhein-Westfalen',
    // Streets that say nothing of being one: none, rather than a district given as a street.
    'Berlin, Unter den Linden',
    'Wien, Graben',
    'Paris, Champs-Élysées',
    // Norwegian "-vågen" is a bay, and a village's name: no Swedish "-vägen".
    'Molde, Elnesvågen',
    // Towns that end in a Norwegian street word, outside Norway: "gate" and "gata" are no street there.
    'Los Angeles, South Gate',
    'Cáceres, Villasbuenas de Gata',
    // Norwegian "-gata" ends towns elsewhere: Niigata, Yamagata.
    'Tokyo, Yamagata',
  ] as const)
    expect([address, await streetsOf(address)]).toEqual([address, [undefined, undefined]])
})

test('with no country known, a Norwegian or Danish street word written apart makes no street: "Golden Gate"', async () => {
  for (const address of ['San Francisco, Golden Gate', 'Los Angeles, Ocean Gate', 'Almería, Cabo de Gata'] as const)
    expect([address, await streetsOf(address)]).toEqual([address, [undefined, undefined]])
})

test('a street word of Hungarian, Polish, Czech, Slovak, Romanian or a Nordic language makes the piece a street', async () => {
  for (const [address, street] of [
    ['Budapest, Váci utca', 'Váci utca'],
    ['Budapest, Andrássy út', 'Andrássy út'],
    ['Budapest, Deák Ferenc tér', 'Deák Ferenc tér'],
    ['Warszawa, ul. Marszałkowska', 'ul. Marszałkowska'],
    ['Kraków, ulica Floriańska', 'ulica Floriańska'],
    ['Warszawa, Aleje Jerozolimskie', 'Aleje Jerozolimskie'],
    ['Praha, Národní třída', 'Národní třída'],
    ['Praha, Václavské nám.', 'Václavské nám.'],
    ['Praha, náměstí Míru', 'náměstí Míru'],
    ['Bratislava, Hlavné námestie', 'Hlavné námestie'],
    ['București, Calea Victoriei', 'Calea Victoriei'],
    ['Stockholm, Drottninggatan', 'Drottninggatan'],
    ['København, Vesterbrogade', 'Vesterbrogade'],
    ['Helsinki, Aleksanterinkatu', 'Aleksanterinkatu'],
    ['Stockholm, Sveavägen', 'Sveavägen'],
    ['Oslo, Karl Johans gate', 'Karl Johans gate'],
    ['Oslo, Kongens gata', 'Kongens gata'],
    ['Oslo, Gamle Drammens vei', 'Gamle Drammens vei'],
    ['Oslo, Trondheimsveien', 'Trondheimsveien'],
    ['Bergen, Strandgaten', 'Strandgaten'],
    ['Oslo, Rådhusgata', 'Rådhusgata'],
    ['Tromsø, Storgata', 'Storgata'],
    ['Frederiksberg, H.C. Ørsteds Vej', 'H.C. Ørsteds Vej'],
    ['Aalborg, Vesterbro gade', 'Vesterbro gade'],
  ] as const)
    expect([address, await streetsOf(address)]).toEqual([address, [street, street]])
})
