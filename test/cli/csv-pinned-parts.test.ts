// storeloc locations import of rows with coordinates and address part columns: the parts the row
// gives are the store's in the Query API's answers, those it lacks the reverse lookup's, and the
// point stays as sent. Run as a real subprocess against a real database file, read over HTTP.
import { beforeEach, describe, expect, test } from 'bun:test'
import { openStore } from '../../src/store'
import { quietApp } from '../helpers'
import { dbPath, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string
let token: string

useTempDatabase()
beforeEach(() => {
  const made = json('locator', 'create', '--name', 'Importer')
  ;[locatorId, token] = [made.locator.id, made.locator.public_token]
  json('locator', 'set', locatorId, '--query-api', 'on')
})

type Answered = { name: string; coordinates: { lat: number; lng: number }; address: Record<string, string> }

/** The published stores as GET /locations?all=true answers them (a server on the same file), by name. */
async function answered(): Promise<Map<string, Answered>> {
  const store = openStore(dbPath)
  try {
    const res = await quietApp(store).handle(new Request(`http://localhost/public/v1/${token}/locations?all=true`))
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { locations: Answered[] } }
    return new Map(data.locations.map((l) => [l.name, l]))
  } finally {
    store.close()
  }
}

const HEADER = 'external_id,name,street,house_number,city,postcode,state,country,lat,lng\n'

describe('locations import from CSV: the parts of rows with coordinates', () => {
  test("the row's street, town, postcode and country, its state as the region where the service keeps one; the point as sent", async () => {
    const text =
      HEADER +
      // Out at sea, no town within reach: every part is the row's.
      'S1,Offshore,Main Street,1,Boston,02108,Massachusetts,US,41.0,-69.0\n' +
      'M1,Marienplatz,Marienplatz,1,München,80331,Bayern,Germany,48.137,11.575\n' +
      'M2,Marienplatz by address,Marienplatz,1,München,80331,Bayern,Germany,,\n'
    expect(json('locations', 'import', locatorId, '--file', file('pinned.csv', text))).toMatchObject({ created: 3 })
    const stores = await answered()
    expect(stores.get('Offshore')).toMatchObject({
      coordinates: { lat: 41, lng: -69 },
      address: { street: '1 Main Street', city: 'Boston', region: 'MA', postcode: '02108', country: 'US' },
    })
    // Germany's states are no region the service keeps, for an address geocoded either.
    expect(stores.get('Marienplatz')).toEqual(
      expect.objectContaining({
        coordinates: { lat: 48.137, lng: 11.575 },
        address: {
          formatted: 'Marienplatz 1, 80331 München, Bayern, Germany',
          street: 'Marienplatz 1',
          city: 'München',
          postcode: '80331',
          country: 'DE',
        },
      }),
    )
    const { formatted, ...geocoded } = stores.get('Marienplatz by address')!.address
    const { formatted: _, ...pinned } = stores.get('Marienplatz')!.address
    expect(pinned).toEqual(geocoded)
    // The same file again changes nothing.
    expect(json('locations', 'import', locatorId, '--file', file('pinned.csv', text))).toMatchObject({ unchanged: 3 })
  })

  test('a store placed by its coordinates alone takes the parts its row gives later; its point stays', async () => {
    const bare = 'external_id,name,address,lat,lng\nB1,Gate,"Pariser Platz 1, 10117 Berlin",52.51628,13.3777\n'
    json('locations', 'import', locatorId, '--file', file('bare.csv', bare))
    expect((await answered()).get('Gate')!.address.street).toBeUndefined()
    const parts = `${HEADER}B1,Gate,Pariser Platz,1,Berlin,10117,,Germany,52.51628,13.3777\n`
    expect(json('locations', 'import', locatorId, '--file', file('parts.csv', parts))).toMatchObject({ updated: 1 })
    expect((await answered()).get('Gate')).toMatchObject({
      coordinates: { lat: 52.51628, lng: 13.3777 },
      address: { street: 'Pariser Platz 1', city: 'Berlin', postcode: '10117', country: 'DE' },
    })
  })

  test('an address cell beside its town and postcode is the street line the parts keep', async () => {
    const text =
      'external_id,name,address,city,postcode,country,lat,lng\n' +
      'A1,Pinned,Marienplatz 1,München,80331,Germany,48.137,11.575\n'
    json('locations', 'import', locatorId, '--file', file('lines.csv', text))
    expect((await answered()).get('Pinned')!.address).toMatchObject({ street: 'Marienplatz 1', postcode: '80331' })
  })

  test("a geocoded store's point sent back with another street is that street's, geocoded, parts or not", async () => {
    const placed = 'external_id,name,address\nA2,Geocoded,"Marienplatz 1, 80331 München, Germany"\n'
    json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
    const { lat, lng } = (await answered()).get('Geocoded')!.coordinates
    const moved = `${HEADER}A2,Geocoded,Jungfernstieg,1,Hamburg,20354,,Germany,${lat},${lng}\n`
    const report = json('locations', 'import', locatorId, '--file', file('moved.csv', moved))
    expect(report.results[0]).toMatchObject({ action: 'updated', geocoding: { source: 'embedded' } })
    expect(report.results[0].warnings).toContainEqual(expect.stringContaining("are its former address's point"))
    const hamburg = (await answered()).get('Geocoded')!
    expect(hamburg.coordinates.lat).toBeCloseTo(53.55, 1)
    expect(hamburg.address).toMatchObject({ formatted: 'Jungfernstieg 1, 20354 Hamburg, Germany', city: 'Hamburg' })
  })

  test("a geocoded store's point sent back with parts the geocoder cannot place is a pin with the row's parts", async () => {
    const placed = 'external_id,name,address\nA3,Unplaced,"Marienplatz 1, 80331 München, Germany"\n'
    json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
    const { lat, lng } = (await answered()).get('Unplaced')!.coordinates
    const moved = `${HEADER}A3,Unplaced,Qwxzstrasse,1,Qwxzhausen,99999,,Germany,${lat},${lng}\n`
    const report = json('locations', 'import', locatorId, '--file', file('unplaced.csv', moved))
    expect(report.results[0]).toMatchObject({ action: 'updated', geocoding: null })
    expect(report.results[0].warnings).toEqual([expect.stringContaining('The new address could not be placed')])
    // The row's parts, as for any row with coordinates: not those of the former address's point.
    expect((await answered()).get('Unplaced')).toMatchObject({
      coordinates: { lat, lng },
      address: { street: 'Qwxzstrasse 1', city: 'Qwxzhausen', postcode: '99999', country: 'DE' },
    })
  }, 60_000)
})

describe('locations import of an export whose address was changed, its point not', () => {
  type Exported = { id: string; address: string; coordinates: { lat: number; lng: number }; geocoding: unknown }
  const exported = () => json('locations', 'export', locatorId)[0] as Exported

  test('the new address is geocoded, and the store moves to it', async () => {
    const placed = 'external_id,name,address\nG1,Geocoded,"Jungfernstieg 1, 20354 Hamburg, Germany"\n'
    json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
    const csv = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
    const hamburg = exported().coordinates
    const moved = csv.replace('Jungfernstieg 1, 20354 Hamburg, Germany', 'Kaufingerstraße 1, 80331 München, Germany')
    const report = json('locations', 'import', locatorId, '--file', file('moved.csv', moved))
    expect(report.results[0]).toMatchObject({ action: 'updated', geocoding: { precision: 'city', source: 'embedded' } })
    // The file still holds the former point: imported again, it is read as that point (csv-stale-point.test.ts).
    expect(report.results[0].warnings).toContain(
      "The coordinates sent are its former address's point: the new address was geocoded, and the location moved to it. Write its new coordinates in their place, or leave them out; sent again, they are read as its former point, not as a pin.",
    )
    const munich = exported()
    expect(munich.coordinates.lat).toBeCloseTo(48.14, 1)
    expect(munich.coordinates.lng).toBeCloseTo(11.58, 1)
    expect((await answered()).get('Geocoded')!.address).toMatchObject({ city: 'München', country: 'DE' })
    // Its export, the point now München's, imports back unchanged.
    const again = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
    expect(json('locations', 'import', locatorId, '--file', file('again.csv', again))).toMatchObject({ unchanged: 1 })
    expect(hamburg).not.toEqual(munich.coordinates)
  })

  test('with GEOCODER=none a JSON or CSV file is refused with a way that keeps the point, and the store stays', () => {
    const placed = 'external_id,name,address\nG1,Geocoded,"Jungfernstieg 1, 20354 Hamburg, Germany"\n'
    json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
    const before = exported()
    const moving = (...format: string[]) =>
      storeloc('locations', 'export', locatorId, ...format).stdout.replace(
        'Jungfernstieg 1, 20354 Hamburg, Germany',
        'Kaufingerstraße 1, 80331 München, Germany',
      )
    const keep = `if the store has not moved, update it alone through the management API (POST /admin/v1/locations/${before.id} with the address and its coordinates), which keeps the point sent.`
    // With the address's parts, as the advice once said: read as the address alone, refused the same.
    const parts = `external_id,name,street,city,postcode,country,lat,lng\nG1,Geocoded,Kaufingerstraße 1,München,80331,Germany,${before.coordinates.lat},${before.coordinates.lng}\n`
    const was = process.env.GEOCODER
    process.env.GEOCODER = 'none'
    try {
      const r = storeloc('locations', 'import', locatorId, '--file', file('moved.json', moving()))
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(
        `[0] (external_id "G1"): The address changed, but coordinates are the point geocoding gave the former address, and this service has no geocoder (GEOCODER=none) to place the new one. Send the new address's own coordinates; ${keep}`,
      )
      for (const csv of [moving('--format', 'csv'), parts]) {
        const c = storeloc('locations', 'import', locatorId, '--file', file('moved.csv', csv))
        expect(c.code).toBe(1)
        expect(c.stderr).toContain(`line 2 (external_id "G1"): The address changed, but "lat" and "lng" are the point`)
        expect(c.stderr).toContain(`Send the new address's own "lat" and "lng"; ${keep}`)
      }
    } finally {
      if (was === undefined) delete process.env.GEOCODER
      else process.env.GEOCODER = was
    }
    expect(exported()).toEqual(before)
  })

  test('a new address placed at the point sent back is not warned of: imported again, it changes nothing', () => {
    const placed = 'external_id,name,address\nG2,Geocoded,"Marienplatz 1, 80331 München, Germany"\n'
    json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
    const csv = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
    // The embedded geocoder places both streets at München's point.
    const moved = file('moved.csv', csv.replace('Marienplatz 1', 'Kaufingerstraße 5'))
    const report = json('locations', 'import', locatorId, '--file', moved)
    expect(report.results[0]).toMatchObject({ action: 'updated', changes: ['address'] })
    expect(report.results[0].warnings.join(' ')).not.toContain("former address's point")
    expect(json('locations', 'import', locatorId, '--file', moved)).toMatchObject({ unchanged: 1 })
  })
})
