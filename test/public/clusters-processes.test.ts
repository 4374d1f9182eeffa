// GET /clusters from two processes on one database: a tree built before writes, joined by the
// points written since, is that process's own answer, under an ETag of its own; once the index is
// quiet, the tree is built anew and both answer alike, under the same ETag.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv, tableGeocoder } from '../helpers'

let env: TestEnv
let token = ''
beforeAll(async () => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken!
  // 60 stores on a grid across western Europe.
  const locations = Array.from({ length: 60 }, (_, i) => ({
    name: `Store ${i}`,
    address: `${i} Main Street`,
    coordinates: { lat: 43 + (i % 6) * 1.7, lng: -2 + Math.floor(i / 6) * 1.4 },
  }))
  expect((await env.call('POST', '/admin/v1/locations/bulk', { body: { locations } })).status).toBe(200)
})
afterAll(() => env.close())

const URL = () => `http://localhost/public/v1/${token}/clusters?bbox=-10,40,20,56&zoom=5`
const ask = async (app: { handle: (r: Request) => Response | Promise<Response> }) => {
  const res = await app.handle(new Request(URL()))
  expect(res.status).toBe(200)
  return { etag: res.headers.get('etag'), body: await res.text() }
}

test("a tree joined by points written since is this process's answer: its own ETag, until a quiet time builds it anew", async () => {
  const a = env.app
  await ask(a) // A's tree is built from the 60
  // Writes through A: its tree takes them as points joined to it, not as a new tree.
  for (let i = 0; i < 12; i++) {
    const res = await env.call('POST', '/admin/v1/locations', {
      body: { name: `New ${i}`, address: `${i} New Street`, coordinates: { lat: 44 + i * 0.8, lng: 1 + i * 0.9 } },
    })
    expect(res.status).toBe(201)
  }
  const joined = await ask(a)
  // Asked again, the answer kept is current, mark and all.
  const hits = a.cacheHits()
  expect(await ask(a)).toEqual(joined)
  expect(a.cacheHits()).toBe(hits + 1)
  // Another process of the same service on the same database, started now: its tree is built
  // from all 72. It has the same place search, whose version seeds the ETags.
  const b = createApp({
    store: env.store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
    places: placeSearchAt(DEFAULT_GEODATA_PATH),
  })
  const fresh = await ask(b)
  expect(JSON.parse(fresh.body).data.total).toBe(72)
  expect(joined.etag).not.toBe(fresh.etag)
  // A quiet time (the idle sync): A builds its tree anew, and answers as B does.
  a.settleDeltas(0, 5 * 60_000)
  expect(await ask(a)).toEqual(fresh)
})
