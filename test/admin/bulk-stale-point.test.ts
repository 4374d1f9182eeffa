// POST /admin/v1/locations/bulk of an export whose address was changed but not its point, sent
// twice: the second time the point is the one the new address replaced, not a pin, and the store
// stays; a point of its own still moves it.
import { expect, test } from 'bun:test'
import { createGeocoder } from '../../src/geocode'
import { createApp } from '../../src/server/app'
import { cachedGeocoder } from '../../src/geocode/geocoder'
import { refreshLimitedGeocodes } from '../../src/geocode/refresh'
import { tableGeocoder } from '../helpers'
import { googleAt } from '../geocode/refresh-fixture'
import { BULK, bulk, bulkGeocodingMeanwhile, env, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const DOWNING = '10 Downing Street, London SW1A 2AA'
const PALACE = 'Buckingham Palace, London SW1A 1AA'
const TOWER = 'Tower of London, London EC3N 4AB'

type Point = { lat: number; lng: number }

/** The bulk route of an app whose geocoder places the three addresses (at `points`, in their order), and the route's answers. */
function route(
  points: Point[] = [
    { lat: 51.5034, lng: -0.1276 },
    { lat: 51.5014, lng: -0.1419 },
    { lat: 51.5081, lng: -0.0759 },
  ],
) {
  const [downing, palace, tower] = points.map((p) => ({ ...p, precision: 'rooftop' as const }))
  const geocoder = tableGeocoder({ [DOWNING]: downing!, [PALACE]: palace!, [TOWER]: tower! })
  const app = createApp({
    store: env.store,
    geocoder: cachedGeocoder(geocoder, env.store.geocodeCache),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  const call = async (path: string, init: RequestInit = {}) => {
    const headers = { authorization: `Bearer ${env.key}`, ...(init.headers as Record<string, string>) }
    const res = await app.handle(new Request(`http://localhost${path}`, { ...init, headers }))
    return { status: res.status, text: await res.text() }
  }
  const csv = async (text: string) => {
    const r = await call(BULK, { method: 'POST', body: text, headers: { 'content-type': 'text/csv' } })
    expect(r.status).toBe(200)
    return JSON.parse(r.text)
  }
  const exported = async () => (await call('/admin/v1/locations/export?format=csv')).text
  return { csv, exported, geocoder }
}

const stored = () =>
  env.store.db.query('SELECT address, lat, lng, geocode_precision AS precision FROM locations').get() as {
    address: string
    lat: number
    lng: number
    precision: string | null
  }

test('an edited export sent twice: the second time its old point is left aside, and the store stays', async () => {
  const { csv, exported, geocoder } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  const first = await csv(edited)
  expect(first.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'coordinates'] })
  expect(first.results[0].warnings.join(' ')).toContain("are its former address's point")
  const palace = stored()
  expect(palace).toMatchObject({ address: PALACE, lat: 51.5014, lng: -0.1419, precision: 'rooftop' })
  const asked = geocoder.calls.length
  const second = await csv(edited)
  expect(second).toMatchObject({ updated: 0, unchanged: 1 })
  expect(second.results[0].warnings).toEqual([
    "The coordinates sent are its former address's point, replaced when its address changed: the location stays at its address's point. Write its coordinates in their place, or leave them out.",
  ])
  expect(stored()).toEqual(palace)
  expect(geocoder.calls.length).toBe(asked)
  // Its export, the point now the palace's, imports back unchanged and unwarned.
  const again = await csv(await exported())
  expect(again).toMatchObject({ updated: 0, unchanged: 1 })
  expect(again.results[0].warnings).toEqual([])
})

test('the old point beside yet another address is the old point still: that address is geocoded', async () => {
  const { csv, exported } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  await csv(edited)
  const third = await csv(edited.replace(PALACE, TOWER))
  expect(third.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'coordinates'] })
  expect(stored()).toMatchObject({ address: TOWER, lat: 51.5081, lng: -0.0759, precision: 'rooftop' })
  expect(await csv(edited.replace(PALACE, TOWER))).toMatchObject({ unchanged: 1 })
})

test('a point of its own beside the address moves the store, and the old point is then a pin too', async () => {
  const { csv, exported } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  await csv(edited)
  const pinned = edited.replace('51.5034,-0.1276', '51.502,-0.14')
  expect(pinned).not.toBe(edited)
  const moved = await csv(pinned)
  expect(moved.results[0]).toMatchObject({ action: 'updated', changes: ['coordinates', 'geocoding'] })
  expect(stored()).toMatchObject({ address: PALACE, lat: 51.502, lng: -0.14, precision: null })
  // The store moved otherwise: the point its address replaced is forgotten, and sent again it is a pin.
  const back = await csv(edited)
  expect(back.results[0]).toMatchObject({ action: 'updated', changes: ['coordinates'] })
  expect(stored()).toMatchObject({ address: PALACE, lat: 51.5034, lng: -0.1276 })
})

test('a store pinned elsewhere while the request geocodes: its old point is no longer stale, and nothing is written', async () => {
  const white = '1600 Pennsylvania Avenue NW, Washington, DC 20500'
  const downing = { lat: 51.5034, lng: -0.1276 }
  await bulk({ locations: [{ external_id: 'S', name: 'Store', address: DOWNING }] })
  const moved = await bulk({ locations: [{ external_id: 'S', name: 'Store', address: white, coordinates: downing }] })
  expect(moved.body.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'coordinates'] })
  const id = moved.body.results[0].id
  const res = await bulkGeocodingMeanwhile(
    () => env.call('POST', `/admin/v1/locations/${id}`, { body: { coordinates: { lat: 38.9, lng: -77.03 } } }),
    {
      locations: [
        { external_id: 'S', name: 'Store', address: white, coordinates: downing },
        { external_id: 'N', name: 'New', address: '1 Main St, Town' },
      ],
    },
  )
  expect(res.status).toBe(409)
  expect(((await res.json()) as { message: string }).message).toBe(
    `locations[0]: location ${id} moved meanwhile, so the coordinates sent are no longer its former address's point; nothing was written. Send the request again.`,
  )
  expect(stored()).toMatchObject({ address: white, lat: 38.9, lng: -77.03 })
})

test('the old point beside an address the geocoder cannot place: the store keeps its point, not the old one', async () => {
  const { csv, exported } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  await csv(edited)
  const nowhere = await csv(edited.replace(PALACE, 'Nowhere Lane 1, Atlantis'))
  expect(nowhere.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'geocoding'] })
  expect(nowhere.results[0].warnings).toContain(
    'The new address could not be placed: the location keeps its point, that of the address before it; check it.',
  )
  expect(stored()).toMatchObject({ address: 'Nowhere Lane 1, Atlantis', lat: 51.5014, lng: -0.1419, precision: null })
})

test('a refresh that places the same address a little apart keeps the point it replaced: the file still moves nothing', async () => {
  const { csv, exported } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  await csv(edited)
  // Google's point of the palace, due for its refresh, placed 2 m off by it.
  const now = new Date('2026-11-22T12:00:00Z')
  env.store.db.run("UPDATE locations SET geocode_source = 'google', geocoded_at = ?", ['2026-10-20T12:00:00Z'])
  await refreshLimitedGeocodes(
    env.store,
    googleAt(() => ({ lat: 51.50142, lng: -0.1419 })),
    { now },
  )
  expect(stored()).toMatchObject({ address: PALACE, lat: 51.50142, lng: -0.1419 })
  expect(await csv(edited)).toMatchObject({ updated: 0, unchanged: 1 })
  expect(stored()).toMatchObject({ address: PALACE, lat: 51.50142, lng: -0.1419 })
})

test('a store pinned elsewhere while its old point beside another address is geocoded: nothing is written', async () => {
  const white = '1600 Pennsylvania Avenue NW, Washington, DC 20500'
  const downing = { lat: 51.5034, lng: -0.1276 }
  await bulk({ locations: [{ external_id: 'S', name: 'Store', address: DOWNING }] })
  const moved = await bulk({ locations: [{ external_id: 'S', name: 'Store', address: white, coordinates: downing }] })
  const id = moved.body.results[0].id
  const res = await bulkGeocodingMeanwhile(
    () => env.call('POST', `/admin/v1/locations/${id}`, { body: { coordinates: { lat: 38.9, lng: -77.03 } } }),
    { locations: [{ external_id: 'S', name: 'Store', address: '1 Main St, Town', coordinates: downing }] },
  )
  expect(res.status).toBe(409)
  expect(((await res.json()) as { message: string }).message).toBe(
    `locations[0]: location ${id} moved meanwhile, so the coordinates sent are no longer its former address's point; nothing was written. Send the request again.`,
  )
  expect(stored()).toMatchObject({ address: white, lat: 38.9, lng: -77.03 })
})

test('an edited export rounded by a sheet to 15 digits: its old point is read as the one the new address replaced', async () => {
  const points = [
    { lat: 51.50341234567891, lng: -0.12761234567891233 },
    { lat: 51.501412345678915, lng: -0.14191234567891234 },
    { lat: 51.50811234567891, lng: -0.07591234567891234 },
  ]
  const { csv, exported } = route(points)
  // Each coordinate as Excel keeps it: 15 significant digits.
  const sheet = (text: string) =>
    points.reduce(
      (t, { lat, lng }) => t.replace(`${lat},${lng}`, `${Number(lat.toPrecision(15))},${Number(lng.toPrecision(15))}`),
      text,
    )
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  expect(sheet(edited)).not.toBe(edited)
  const first = await csv(sheet(edited))
  expect(first.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'coordinates'] })
  const palace = stored()
  expect(palace).toMatchObject({ address: PALACE, ...points[1] })
  // Sent again, exact or rounded, the old point is the replaced one: the store stays.
  for (const again of [edited, sheet(edited)]) {
    const second = await csv(again)
    expect(second).toMatchObject({ updated: 0, unchanged: 1 })
    expect(second.results[0].warnings.join(' ')).toContain("former address's point, replaced")
    expect(stored()).toEqual(palace)
  }
  expect(await csv(sheet(await exported()))).toMatchObject({ updated: 0, unchanged: 1 })
  // Beside yet another address it is the old point still: that address is geocoded.
  const third = await csv(sheet(edited.replace(PALACE, TOWER)))
  expect(third.results[0]).toMatchObject({ action: 'updated', changes: ['address', 'coordinates'] })
  expect(stored()).toMatchObject({ address: TOWER, ...points[2] })
})

test('with GEOCODER=none the old point beside a third address is refused, naming the point the store keeps', async () => {
  const { csv, exported } = route()
  await csv(`external_id,name,address\nS,Store,"${DOWNING}"\n`)
  const edited = (await exported()).replace(DOWNING, PALACE)
  await csv(edited)
  const palace = stored()
  const none = await createGeocoder(
    { provider: 'none', url: null, apiKey: null, userAgent: 'storeloc-test', timeoutMs: 3000, dataPath: '' },
    env.store,
  )
  const app = createApp({
    store: env.store,
    geocoder: none.geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  const send = (path: string, body: string, type: string) =>
    app.handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': type },
        body,
      }),
    )
  const { id } = env.store.db.query('SELECT id FROM locations').get() as { id: string }
  const refused = await send(BULK, edited.replace(PALACE, TOWER), 'text/csv')
  expect(refused.status).toBe(422)
  expect(((await refused.json()) as { details: Record<string, string[]> }).details['line 2.address']).toEqual([
    `line 2 (external_id "S"): The address changed, but "lat" and "lng" are the point of the address before the one stored, where the store no longer is, and this service has no geocoder (GEOCODER=none) to place the new one. Send the new address's own "lat" and "lng"; if the store has not moved from 51.5014, -0.1419, where the stored address placed it, update it alone (POST /admin/v1/locations/${id} with the address and its coordinates) giving that point.`,
  ])
  expect(stored()).toEqual(palace)
  // The advice taken: the single update it names, with that point, keeps the store where it is, at the new address.
  const body = JSON.stringify({ address: TOWER, coordinates: { lat: 51.5014, lng: -0.1419 } })
  expect((await send(`/admin/v1/locations/${id}`, body, 'application/json')).status).toBe(200)
  expect(stored()).toMatchObject({ address: TOWER, lat: 51.5014, lng: -0.1419 })
})
