// POST /admin/v1/locations/bulk: the geocoding warnings of a row whose point and address disagree,
// and the postcode warnings of rows imported again; a geocoded point sent back with another address.
import { describe, expect, test } from 'bun:test'
import { openEmbeddedGeocoder } from '../../src/geocode/embedded'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { createGeocoder } from '../../src/geocode'
import { cachedGeocoder } from '../../src/geocode/geocoder'
import { createApp } from '../../src/server/app'
import { fixture, reply, standIn, withStandIns } from '../geocode/http-fixture'
import { tableGeocoder } from '../helpers'
import { BULK, csv, env, useBulkEnv } from './bulk-fixture'

useBulkEnv()
withStandIns()

describe('bulk geocoding warnings', () => {
  test('a point in another country than the row, far from its postcode, or only at city level is warned about', async () => {
    const geocoder = tableGeocoder({
      '1 rue de la paix, 75002 paris, france': {
        lat: 48.87,
        lng: 2.33,
        precision: 'street',
        parts: { country: 'FR', city: 'Paris' },
      },
      '1 high street, springfield, united kingdom': {
        lat: 39.78,
        lng: -89.65,
        precision: 'city',
        parts: { country: 'US', city: 'Springfield' },
      },
      '75002, france': { lat: 43.3, lng: 5.37, precision: 'postcode', parts: { country: 'FR' } },
      'mönckebergstraße 7, 80331 hamburg, deutschland': {
        lat: 53.55,
        lng: 10.0,
        precision: 'city',
        parts: { country: 'DE', city: 'Hamburg' },
      },
      // A postcode the data places at its town (Germany, France, Italy): still its place.
      '80331, deutschland': {
        lat: 48.137,
        lng: 11.575,
        precision: 'city',
        parts: { country: 'DE', postcode: '80331' },
      },
    })
    const app = createApp({
      store: env.store,
      geocoder: cachedGeocoder(geocoder, env.store.geocodeCache),
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const text =
      'external_id,name,street,postcode,city,country\nP,Paris,1 rue de la Paix,75002,Paris,France\nU,Spring,1 High Street,,Springfield,UK\n' +
      'H,Hamburg,Mönckebergstraße 7,80331,Hamburg,Deutschland\n'
    const res = await app.handle(
      new Request(`http://localhost${BULK}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
        body: text,
      }),
    )
    const body = (await res.json()) as any
    expect(res.status).toBe(200)
    expect(body.results[0].warnings).toEqual(['The address was placed 662 km from the place of postcode 75002.'])
    expect(body.results[1].warnings).toEqual([
      'The address was placed only at city level (Springfield, United States): check it, or send coordinates.',
      "The address was placed in US, but the row's country is UK.",
    ])
    expect(body.results[2].warnings).toEqual([
      'The address was placed only at city level (Hamburg, Germany): check it, or send coordinates.',
      'The address was placed 612 km from the place of postcode 80331.',
    ])
  })
})

describe("an unplaceable row's country hint", () => {
  test("a town the row's country has too gets no hint that it is in another country", async () => {
    const embedded = openEmbeddedGeocoder(DEFAULT_GEODATA_PATH)
    // An HTTP provider that knows none of the streets, the embedded data behind it for checks.
    const app = createApp({
      store: env.store,
      geocoder: { name: 'nominatim', geocode: async () => null, offline: (a) => embedded.geocode(a) },
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const text =
      'external_id,name,street,postcode,city,country\nT,Paris TX,999 Nowhere Rd,,Paris,United States\n' +
      'V,Valencia,Calle Qqzx 1,,Valencia,Spain\nM,Munich,Marienplatz 1,80331,München,France\n'
    const res = await app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
        body: text,
      }),
    )
    embedded.close()
    const said = JSON.stringify(((await res.json()) as any).details)
    expect([res.status, said]).toEqual([422, expect.stringContaining('80331 München, are in Germany, not France')])
    expect(said).not.toContain('Paris, is in')
    expect(said).not.toContain('Valencia, is in')
  })
})

describe('a postcode given back its leading zero, imported again', () => {
  test('its row is warned while written; unchanged rows are said once, in a note', async () => {
    const file = (name: string) =>
      'Store Code,Name,Straße,PLZ,Ort,Land,lat,lng\n' +
      `L1,${name},Markt 1,4109,Leipzig,DE,51.3397,12.3731\n` +
      'L2,Leipzig 2,Markt 2,4109,Leipzig,DE,51.3398,12.3732\nL3,Leipzig 3,Markt 3,4109,Leipzig,DE,51.3399,12.3733\n'
    const note = 'The postcode 4109 was read as 04109: Excel drops leading zeros; format the "PLZ" column as text.'
    const first = await csv(file('Leipzig 1'))
    expect(first.status).toBe(200)
    expect(first.body.results.map((r: any) => r.warnings)).toEqual([[note], [note], [note]])
    expect(first.body.notes).toBeUndefined()
    const again = await csv(file('Leipzig Markt'))
    expect(again.body.results.map((r: any) => [r.action, r.warnings])).toEqual([
      ['updated', [note]],
      ['unchanged', []],
      ['unchanged', []],
    ])
    expect(again.body.notes).toEqual([
      '2 unchanged rows (line 3, line 4) carry the same postcode warning as before: each postcode lost its leading zero in Excel and was read with it, as stored. Format the "PLZ" column as text to stop this warning.',
    ])
  })

  test("a keyed import replayed answers as the first: its note, not its unchanged rows' warnings", async () => {
    const file = (name: string) =>
      'Store Code,Name,Straße,PLZ,Ort,Land,lat,lng\n' +
      `L1,${name},Markt 1,4109,Leipzig,DE,51.3397,12.3731\n` +
      'L2,Leipzig 2,Markt 2,4109,Leipzig,DE,51.3398,12.3732\n'
    expect((await csv(file('Leipzig 1'))).status).toBe(200)
    const keyed = () =>
      env.call('POST', BULK, {
        body: file('Leipzig Markt'),
        headers: { 'content-type': 'text/csv', 'idempotency-key': 'k-postcodes' },
      })
    const first = await keyed()
    expect([first.status, first.body.results[1].warnings, first.body.notes?.length]).toEqual([200, [], 1])
    const again = await keyed()
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
  })
})

describe('a geocoded point sent back with another address', () => {
  test('the address is geocoded; one that cannot be placed keeps the point, as a pin, with a warning', async () => {
    const geocoder = tableGeocoder({
      '1 old street, town': { lat: 51.5, lng: -0.13, precision: 'street' },
      '2 new street, town': { lat: 51.6, lng: -0.2, precision: 'street' },
    })
    const app = createApp({
      store: env.store,
      geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const send = async (address: string, lat?: number, lng?: number) => {
      const point = lat === undefined ? '' : `,${lat},${lng}`
      const res = await app.handle(
        new Request(`http://localhost${BULK}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
          body: `external_id,name,address${lat === undefined ? '' : ',lat,lng'}\nS,Store,"${address}"${point}\n`,
        }),
      )
      expect(res.status).toBe(200)
      return ((await res.json()) as any).results[0]
    }
    const stored = () =>
      env.store.db.query('SELECT lat, lng, geocode_precision AS geocoding FROM locations').get() as any
    await send('1 Old Street, Town')
    const moved = await send('2 New Street, Town', 51.5, -0.13)
    expect([moved.action, moved.geocoding]).toEqual(['updated', { precision: 'street', source: 'table' }])
    expect(stored()).toMatchObject({ lat: 51.6, lng: -0.2 })
    const kept = await send('3 Nowhere Lane, Town', 51.6, -0.2)
    expect(kept.warnings).toEqual([
      "The new address could not be placed: the location keeps the coordinates sent, its former address's point; check them.",
    ])
    expect(stored()).toEqual({ lat: 51.6, lng: -0.2, geocoding: null })
    expect(geocoder.calls.map((a) => a.toLowerCase())).toEqual([
      '1 old street, town',
      '2 new street, town',
      '3 nowhere lane, town',
    ])
  })

  test('with GEOCODER=none the row is refused and the store stays: nothing can place the new address', async () => {
    const placing = createApp({
      store: env.store,
      geocoder: tableGeocoder({ '1 old street, town': { lat: 51.5, lng: -0.13, precision: 'street' } }),
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const none = await createGeocoder(
      { provider: 'none', url: null, apiKey: null, userAgent: 'storeloc-test', timeoutMs: 3000, dataPath: '' },
      env.store,
    )
    const unplaced = createApp({
      store: env.store,
      geocoder: none.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const send = async (app: typeof placing, row: string, lines = 'external_id,name,address,lat,lng') => {
      const res = await app.handle(
        new Request(`http://localhost${BULK}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
          body: `${lines}\n${row}\n`,
        }),
      )
      return { status: res.status, body: (await res.json()) as any }
    }
    const stored = () =>
      env.store.db.query('SELECT address, lat, lng, geocode_precision AS geocoding FROM locations').get() as any
    expect((await send(placing, 'S,Store,"1 Old Street, Town"', 'external_id,name,address')).status).toBe(200)
    const geocoded = stored()
    const refused = await send(unplaced, 'S,Store,"2 New Street, Town",51.5,-0.13')
    expect(refused.status).toBe(422)
    const { id } = env.store.db.query('SELECT id FROM locations').get() as { id: string }
    expect(refused.body.details['line 2.address']).toEqual([
      `line 2 (external_id "S"): The address changed, but "lat" and "lng" are the point geocoding gave the former address, and this service has no geocoder (GEOCODER=none) to place the new one. Send the new address's own "lat" and "lng"; if the store has not moved, update it alone (POST /admin/v1/locations/${id} with the address and its coordinates), which keeps the point sent.`,
    ])
    const json = await unplaced.handle(
      new Request(`http://localhost${BULK}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          locations: [
            { external_id: 'S', name: 'Store', address: '2 New Street, Town', coordinates: { lat: 51.5, lng: -0.13 } },
          ],
        }),
      }),
    )
    expect(json.status).toBe(422)
    expect(JSON.stringify(await json.json())).toContain(
      'The address changed, but coordinates are the point geocoding gave the former address',
    )
    expect(stored()).toEqual(geocoded)
    // Address columns beside the point are read as the address alone: refused the same.
    const parts = await send(unplaced, 'S,Store,2 New Street,Town,51.5,-0.13', 'external_id,name,street,city,lat,lng')
    expect([parts.status, parts.body.details['line 2.address']]).toEqual([422, refused.body.details['line 2.address']])
    expect(stored()).toEqual(geocoded)
    // The advice taken: the single-location update it names keeps the point sent.
    const kept = await unplaced.handle(
      new Request(`http://localhost/admin/v1/locations/${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: '2 New Street, Town', coordinates: { lat: 51.5, lng: -0.13 } }),
      }),
    )
    expect(kept.status).toBe(200)
    expect(stored()).toMatchObject({ address: '2 New Street, Town', lat: 51.5, lng: -0.13 })
  })

  test('while an HTTP geocoder is down (503) the row is refused and the store stays; once it answers, a retry places the new address', async () => {
    let down = false
    const provider = standIn((url) =>
      down
        ? reply('Service Unavailable', 503)
        : reply(url.searchParams.get('q')?.includes('Downing') ? fixture('nominatim-found') : []),
    )
    const stack = await createGeocoder(
      {
        provider: 'nominatim',
        url: provider.url,
        apiKey: null,
        userAgent: 'storeloc-test',
        timeoutMs: 30_000,
        dataPath: DEFAULT_GEODATA_PATH,
      },
      env.store,
    )
    const app = createApp({
      store: env.store,
      geocoder: stack.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const send = async (address: string, at?: { lat: number; lng: number }) => {
      const res = await app.handle(
        new Request(`http://localhost${BULK}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
          body: `external_id,name,address${at ? ',lat,lng' : ''}\nS,Store,"${address}"${at ? `,${at.lat},${at.lng}` : ''}\n`,
        }),
      )
      return { status: res.status, body: (await res.json()) as any }
    }
    const stored = () =>
      env.store.db.query('SELECT address, lat, lng, geocode_precision AS geocoding FROM locations').get() as any
    try {
      expect((await send('10 Downing Street, London SW1A 2AA')).status).toBe(200)
      const geocoded = stored()
      expect(geocoded.geocoding).not.toBeNull()
      const sentBack = { lat: geocoded.lat, lng: geocoded.lng }
      down = true
      const refused = await send('1 Qwxzy Lane, Zzyzxville', sentBack)
      expect(refused.status).toBe(422)
      expect(JSON.stringify(refused.body)).toContain(
        'the geocoding service is unavailable (nominatim failed (HTTP 503))',
      )
      expect(stored()).toEqual(geocoded)
      down = false
      const retried = await send('10 Downing Street, London SW1A 2AA, United Kingdom', sentBack)
      expect([retried.status, retried.body.results[0].action]).toEqual([200, 'updated'])
      expect(stored()).toMatchObject({
        address: '10 Downing Street, London SW1A 2AA, United Kingdom',
        geocoding: 'rooftop',
      })
    } finally {
      stack.close()
    }
  })
})
