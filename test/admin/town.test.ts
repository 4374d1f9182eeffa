// A location's town from the embedded data: address parts by reverse lookup at its point (for
// coordinates sent, and those a geocoded address did not yield), `geocoding` saying how, the
// town's other names in keyword search, and the upkeep that places rows written without them.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'
import { placeUnplaced } from '../../src/locations/town'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { startTownUpkeep } from '../../src/server/upkeep'
import { openStore } from '../../src/store'
import { locationRecord, makeEnv, quietApp, tempDir, type TestEnv } from '../helpers'

const places = placeSearchAt(DEFAULT_GEODATA_PATH)
const KOELN = { lat: 50.9375, lng: 6.9603 }
const BAR_HARBOR = { lat: 44.3876, lng: -68.2039 }

/** Addresses the stand-in geocoder knows, each with only some of its parts. */
const ADDRESSES = {
  '50667 Köln': { ...KOELN, precision: 'postcode' as const, parts: { postcode: '50667', country: 'DE' } },
  '1 Main Street': { ...BAR_HARBOR, precision: 'street' as const, parts: { street: '1 Main Street', country: 'US' } },
  Bayern: { lat: 48.9, lng: 11.4, precision: 'region' as const, parts: { country: 'DE' } },
  'Rue de Rivoli 1': { ...KOELN, precision: 'street' as const, parts: { street: 'Rue de Rivoli 1', country: 'FR' } },
  'Rua Augusta 1, Lisboa': {
    lat: 38.71,
    lng: -9.138,
    precision: 'street' as const,
    parts: { street: 'Rua Augusta 1', city: 'Lisbon', country: 'PT' },
  },
}

let env: TestEnv
let token = ''
beforeEach(() => {
  env = makeEnv({ addresses: ADDRESSES })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
})
afterEach(() => env.close())

async function create(body: Record<string, unknown>) {
  const res = await env.call('POST', '/admin/v1/locations', { body })
  expect(res.status).toBe(201)
  return res.body.location
}
const call = (method: string, path: string, body?: unknown) => env.call(method, path, { body })
const publicGet = (path: string) => env.call('GET', `/public/v1/${token}/${path}`, { key: null })
const publicAddress = async (id: string) => (await publicGet(`locations/${id}`)).body.data.location.address
const found = async (search: string) =>
  ((await publicGet(`locations?all=true&search=${encodeURIComponent(search)}`)).body.data.locations as any[]).map(
    (l) => l.name,
  )

describe('coordinates sent', () => {
  test("the address parts are the town's, its region's and, where it has only one, its postcode; geocoding says so", async () => {
    const me = await create({ name: 'Corner', address: '1 Main Street', coordinates: BAR_HARBOR })
    expect(me.geocoding).toEqual({ precision: 'postcode', source: 'reverse' })
    expect(await publicAddress(me.id)).toEqual({
      formatted: '1 Main Street',
      city: 'Bar Harbor',
      region: 'ME',
      postcode: '04609',
      country: 'US',
    })
    // Köln has many postcodes: none is given.
    const de = await create({ name: 'Dom', address: 'Domkloster 4', coordinates: { lat: 50.9413, lng: 6.9583 } })
    expect(de.geocoding).toEqual({ precision: 'city', source: 'reverse' })
    expect(await publicAddress(de.id)).toEqual({ formatted: 'Domkloster 4', city: 'Köln', country: 'DE' })
    const sea = await create({ name: 'Buoy', address: 'Atlantic', coordinates: { lat: 40, lng: -40 } })
    expect(sea.geocoding).toBeNull()
    expect(await publicAddress(sea.id)).toEqual({ formatted: 'Atlantic' })
  })

  test("a town's district is the town; a town of its own beside a bigger one is itself; away from towns, the nearest", async () => {
    const at = async (lat: number, lng: number) =>
      (await publicAddress((await create({ name: 'X', address: 'x', coordinates: { lat, lng } })).id)).city
    expect(await at(50.951, 6.917)).toBe('Köln') // Neuehrenfeld
    expect(await at(52.499, 13.403)).toBe('Berlin') // Kreuzberg
    expect(await at(51.513, -0.136)).toBe('London') // Soho
    expect(await at(48.8397, 2.2399)).toBe('Boulogne-Billancourt') // not Paris
    expect(await at(40.678, -73.944)).toBe('Brooklyn')
    expect(await at(47.2, 0.9)).toBe('Reignac-sur-Indre') // 25 km from Tours
  })

  test('the town is named as the address writes it, when it holds another of its names', async () => {
    const MUNICH = { lat: 48.137, lng: 11.575 }
    const city = async (address: string, coordinates = MUNICH) =>
      (await publicAddress((await create({ name: 'X', address, coordinates })).id)).city
    expect(await city('Kaufingerstraße 7a, 80331 München, Germany')).toBe('München')
    expect(await city('Kaufingerstrasse 7a, 80331 MUENCHEN')).toBe('Muenchen')
    expect(await city('Marienplatz 1, Munich')).toBe('Munich')
    expect(await city('Marienplatz 1')).toBe('Munich')
    // Of two of the town's names, the one a town's place in an address has: after the street.
    expect(await city('Wieden 12, 1040 Wien', { lat: 48.208, lng: 16.372 })).toBe('Wien')
    expect(await city('Rua Augusta 1, 1100-048 Lisboa', { lat: 38.71, lng: -9.138 })).toBe('Lisboa')
    expect(await city('Hauptstraße 12, Wien-Wieden', { lat: 48.208, lng: 16.372 })).toBe('Wien')
    // Another town's name in the address is not this town's; nor its street's, nor its country's.
    expect(await city('Wiener Straße 3, München', { lat: 48.208, lng: 16.372 })).toBe('Vienna')
    // The town first, its piece the name but for numbers; with no comma, the name that ends last.
    expect(await city('München, Kaufingerstraße 7')).toBe('München')
    expect(await city('Wieden 12 1040 Wien', { lat: 48.208, lng: 16.372 })).toBe('Wien')
    const MEXICO_CITY = { lat: 19.4326, lng: -99.1332 }
    expect(await city('Av. Paseo de la Reforma 50, Juárez, 06600 Ciudad de México, CDMX, Mexico', MEXICO_CITY)).toBe(
      'Ciudad de México',
    )
    expect(await city('Av. Paseo de la Reforma 50, Mexico', MEXICO_CITY)).toBe('Mexico City')
    // A geocoder's town too.
    expect(await publicAddress((await create({ name: 'G', address: 'Rua Augusta 1, Lisboa' })).id)).toMatchObject({
      street: 'Rua Augusta 1',
      city: 'Lisboa',
    })
  })

  test("a moved pin takes the new point's town; the same pin with another address keeps it", async () => {
    const l = await create({ name: 'Mover', address: 'Hohe Straße 1', coordinates: KOELN })
    expect(await found('cologne')).toEqual(['Mover'])
    const moved = await call('POST', `/admin/v1/locations/${l.id}`, { coordinates: { lat: 52.52, lng: 13.405 } })
    expect(moved.status).toBe(200)
    expect(await publicAddress(l.id)).toEqual({ formatted: 'Hohe Straße 1', city: 'Berlin', country: 'DE' })
    expect(await found('cologne')).toEqual([])
    expect(await found('berlino')).toEqual(['Mover'])
    const readdressed = await call('POST', `/admin/v1/locations/${l.id}`, {
      address: 'Unter den Linden 1',
      coordinates: { lat: 52.52, lng: 13.405 },
    })
    expect(readdressed.body.location.geocoding).toEqual({ precision: 'city', source: 'reverse' })
    expect(await publicAddress(l.id)).toEqual({ formatted: 'Unter den Linden 1', city: 'Berlin', country: 'DE' })
  })
})

describe('a geocoded address', () => {
  test('keeps the parts it yields; those it lacks come from its point, none finer than the point, none from another country', async () => {
    const byCode = await create({ name: 'A', address: '50667 Köln' })
    expect(byCode.geocoding).toEqual({ precision: 'postcode', source: 'table' })
    expect(await publicAddress(byCode.id)).toEqual({
      formatted: '50667 Köln',
      postcode: '50667',
      city: 'Köln',
      country: 'DE',
    })
    const street = await create({ name: 'B', address: '1 Main Street' })
    expect(await publicAddress(street.id)).toEqual({
      formatted: '1 Main Street',
      street: '1 Main Street',
      city: 'Bar Harbor',
      region: 'ME',
      postcode: '04609',
      country: 'US',
    })
    const region = await create({ name: 'C', address: 'Bayern' })
    expect(await publicAddress(region.id)).toEqual({ formatted: 'Bayern', country: 'DE' })
    const elsewhere = await create({ name: 'D', address: 'Rue de Rivoli 1' })
    expect(await publicAddress(elsewhere.id)).toEqual({
      formatted: 'Rue de Rivoli 1',
      street: 'Rue de Rivoli 1',
      country: 'FR',
    })
  })
})

describe("keyword search and a town's other names", () => {
  test('a store in Köln is found by Cologne, Koeln and Colonia, and by a whole-word typo of them; a store elsewhere is not', async () => {
    await create({ name: 'Dom Shop', address: 'Domkloster 4', coordinates: KOELN })
    await create({ name: 'Lisbon Shop', address: 'Rua Augusta 1', coordinates: { lat: 38.71, lng: -9.138 } })
    await create({ name: 'Paris Shop', address: 'Rue de Rivoli 1', coordinates: { lat: 48.859, lng: 2.35 } })
    for (const word of ['Cologne', 'koeln', 'colonia', 'Köln', 'Kolonia'])
      expect(await found(word)).toEqual(['Dom Shop'])
    expect(await found('Colohne')).toEqual(['Dom Shop']) // one edit from "cologne"
    expect(await found('Keul')).toEqual(['Dom Shop']) // the start of "keulen", as typed
    // A typo reaches a town's other names only as a whole word with its first letter right.
    expect(await found('Kologne')).toEqual([])
    expect(await found('keula')).toEqual([]) // one edit from "keule", the start of "keulen"
    expect(await found('lisboa')).toEqual(['Lisbon Shop'])
    expect(await found('Lissabon')).toEqual(['Lisbon Shop'])
    expect(await found('Parigi')).toEqual(['Paris Shop'])
    expect(await found('cologne paris')).toEqual([])
  })

  test('bulk writes place their locations too; the answer says only what the geocoder gave', async () => {
    const res = await call('POST', '/admin/v1/locations/bulk', {
      locations: [
        { external_id: 'K1', name: 'Bulk Köln', address: 'Domkloster 4', coordinates: KOELN },
        { external_id: 'P1', name: 'Bulk Postcode', address: '50667 Köln' },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.results.map((r: any) => r.geocoding)).toEqual([null, { precision: 'postcode', source: 'table' }])
    expect(await found('cologne')).toEqual(['Bulk Köln', 'Bulk Postcode'])
    const first = (await call('GET', `/admin/v1/locations/${res.body.results[0].id}`)).body.location
    expect(first.geocoding).toEqual({ precision: 'city', source: 'reverse' })
  })
})

describe('the reverse upkeep', () => {
  test('places the rows written without their town (older rows, the demo loader, no place data at the write), keeping updated_at', async () => {
    const unplaced = locationRecord(env.locatorId, { name: 'Old row', address: 'Domkloster 4', coordinates: KOELN })
    await env.store.writeSoon(() => env.store.locations.insert(unplaced))
    expect(env.store.locations.get(env.locatorId, unplaced.id)!.townNames).toBeNull()
    expect(await found('cologne')).toEqual([])
    expect(await placeUnplaced(env.store, places.reverse())).toBe(1)
    const row = env.store.locations.get(env.locatorId, unplaced.id)!
    expect(row.updatedAt).toBe(unplaced.updatedAt)
    expect(row.geocoding).toEqual({ precision: 'city', source: 'reverse' })
    expect(await publicAddress(unplaced.id)).toEqual({ formatted: 'Domkloster 4', city: 'Köln', country: 'DE' })
    expect(await found('cologne')).toEqual(['Old row'])
    expect(await placeUnplaced(env.store, places.reverse())).toBe(0)
  })

  test('a service without place data writes pins without parts, and runs no upkeep; one with place data places them at its start', async () => {
    const dir = tempDir()
    const store = openStore(join(dir, 'none.db'))
    try {
      const none = quietApp(store)
      const { secret, locator } = createLocator(store, 'No places')
      const res = await none.handle(
        new Request('http://localhost/admin/v1/locations', {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Pin', address: 'Domkloster 4', coordinates: KOELN }),
        }),
      )
      expect(res.status).toBe(201)
      const id = ((await res.json()) as any).location.id as string
      expect(store.locations.get(locator.id, id)).toMatchObject({ geocoding: null, addressParts: {}, townNames: null })
      startTownUpkeep(store, null)() // nothing to start, nothing to stop
      const stop = startTownUpkeep(store, places)
      while (store.locations.get(locator.id, id)!.townNames === null) await Bun.sleep(25) // the test's 30 s limit ends a hang
      stop()
      expect(store.locations.get(locator.id, id)).toMatchObject({
        geocoding: { precision: 'city', source: 'reverse' },
        addressParts: { city: 'Köln', country: 'DE' },
      })
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
