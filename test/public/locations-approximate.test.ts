// A point the geocoder found only at a postcode or a town is marked `coordinates.approximate` in
// every answer that shows the location, kept in step with each write (this process's and another
// connection's); a point sent or found at its street keeps the contract's {lat, lng}, byte for byte.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { setLocatorSettings } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore } from '../../src/store'
import { KNOWN_ADDRESSES, makeEnv, type TestEnv } from '../helpers'
import { send } from './fixture'

/** Berlin's centre, where the embedded geocoder puts an address it finds only at its town. */
const BERLIN = { lat: 52.52437, lng: 13.41053 }
const ADDRESSES = {
  ...KNOWN_ADDRESSES,
  'Oranienstraße 185, Berlin': { ...BERLIN, precision: 'city' as const, parts: { city: 'Berlin', country: 'DE' } },
  'Kastanienallee 7, 10435 Berlin': {
    lat: 52.5389,
    lng: 13.4124,
    precision: 'postcode' as const,
    parts: { city: 'Berlin', postcode: '10435', country: 'DE' },
  },
}

let env: TestEnv
let token: string
const ids: Record<string, string> = {}

const create = async (key: string, body: Record<string, unknown>) => {
  const res = await env.call('POST', '/admin/v1/locations', { body })
  if (res.status !== 201) throw new Error(`creating ${key} gave ${res.status} ${JSON.stringify(res.body)}`)
  ids[key] = res.body.location.id
}
const get = (path: string, app: { handle: (r: Request) => Response | Promise<Response> } = env.app) =>
  send(app, `http://localhost/public/v1/${token}${path}`)
const coordinatesOf = async (id: string) => (await get(`/locations/${id}`)).body.data.location.coordinates

beforeAll(async () => {
  env = makeEnv({ addresses: ADDRESSES })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
  await create('town', { name: 'Kreuzberg Books', address: 'Oranienstraße 185, Berlin' })
  await create('postcode', { name: 'Prenzlauer Books', address: 'Kastanienallee 7, 10435 Berlin' })
  await create('rooftop', { name: 'Downing Books', address: '10 Downing Street, London SW1A 2AA' })
  await create('sent', { name: 'Mitte Books', address: 'Oranienstraße 185, Berlin', coordinates: BERLIN })
})
afterAll(() => env.close())

describe('coordinates.approximate', () => {
  test('a point the geocoder placed at a town or a postcode is marked approximate', async () => {
    expect(await coordinatesOf(ids.town!)).toEqual({ ...BERLIN, approximate: true })
    expect(await coordinatesOf(ids.postcode!)).toEqual({ lat: 52.5389, lng: 13.4124, approximate: true })
  })

  test('a point found at the street, or sent, is {lat, lng} as before: the key is absent', async () => {
    const rooftop = await get(`/locations/${ids.rooftop}`)
    expect(rooftop.text).toContain('"coordinates":{"lat":51.5034,"lng":-0.1276},"address"')
    const sent = await get(`/locations/${ids.sent}`)
    expect(sent.text).toContain(`"coordinates":{"lat":${BERLIN.lat},"lng":${BERLIN.lng}},"address"`)
    expect(sent.text).not.toContain('approximate')
  })

  test('radius and all=true answers carry it too', async () => {
    const byId = (res: { body: any }) =>
      Object.fromEntries(res.body.data.locations.map((l: any) => [l.id, l.coordinates.approximate ?? false]))
    const expected = { [ids.town!]: true, [ids.postcode!]: true, [ids.sent!]: false }
    expect(byId(await get(`/locations?lat=${BERLIN.lat}&lng=${BERLIN.lng}&radius=10&unit=km`))).toEqual(expected)
    expect(byId(await get('/locations?all=true'))).toEqual({ ...expected, [ids.rooftop!]: false })
  })

  test('coordinates sent later drop it; an address geocoded again at its town brings it back', async () => {
    const moved = await env.call('POST', `/admin/v1/locations/${ids.town}`, {
      body: { coordinates: { lat: 52.49986, lng: 13.41814 } },
    })
    expect(moved.status).toBe(200)
    expect(await coordinatesOf(ids.town!)).toEqual({ lat: 52.49986, lng: 13.41814 })
    const readdressed = await env.call('POST', `/admin/v1/locations/${ids.town}`, {
      body: { address: 'Oranienstraße 185, Berlin' },
    })
    expect(readdressed.status).toBe(200)
    expect(await coordinatesOf(ids.town!)).toEqual({ ...BERLIN, approximate: true })
  })

  test('an ETag of the release before (format 7, no approximate key) gives the full answer, not a 304', async () => {
    const url = `http://localhost/public/v1/${token}/locations/${ids.postcode}`
    const res = await send(env.app, url)
    const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
    const before = `W/"${version}-${Bun.hash(url, 7).toString(36)}"` // ANSWER_FORMAT 7
    const again = await send(env.app, url, { headers: { 'if-none-match': before } })
    expect(again.status).toBe(200)
    expect(again.body.data.location.coordinates.approximate).toBe(true)
  })

  test("another connection's write shows in this process's next answer", async () => {
    const store2 = openStore(join(env.dir, 'test.db'))
    try {
      const app2 = createApp({
        store: store2,
        geocoder: env.geocoder,
        config: { maxBodyBytes: 262144, logRequests: false },
        log: () => {},
      })
      const res = await app2.handle(
        new Request(`http://localhost/admin/v1/locations/${ids.rooftop}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ address: 'Kastanienallee 7, 10435 Berlin' }),
        }),
      )
      expect(res.status).toBe(200)
      expect(await coordinatesOf(ids.rooftop!)).toEqual({ lat: 52.5389, lng: 13.4124, approximate: true })
    } finally {
      store2.close()
    }
  })
})
