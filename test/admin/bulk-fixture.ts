// What the bulk route's tests share: a fresh app and locator for each test, the route called with
// JSON or CSV, the rows as stored, and stores with codes at distinct points.
import { afterEach, beforeEach } from 'bun:test'
import { createApp } from '../../src/server/app'
import { makeEnv, storeBody, type TestEnv, tableGeocoder } from '../helpers'

export let env: TestEnv

/** Registers, in the calling test file, the hooks that give each test its own app and database. */
export function useBulkEnv(): void {
  beforeEach(() => {
    env = makeEnv()
  })
  afterEach(() => env.close())
}

export const BULK = '/admin/v1/locations/bulk'
export const bulk = (body: unknown, query = '') => env.call('POST', `${BULK}${query}`, { body })
export const csv = (text: string, query = '') =>
  env.call('POST', `${BULK}${query}`, { body: text, headers: { 'content-type': 'text/csv' } })
export const snapshot = () => ({
  locations: env.store.db.query('SELECT * FROM locations ORDER BY seq').all(),
  changes: env.store.db.query('SELECT * FROM changes ORDER BY seq').all(),
})
export const all = async () => (await env.call('GET', '/admin/v1/locations?limit=500')).body.locations

export const at = (i: number) => ({ coordinates: { lat: 40 + i / 100, lng: -3 - i / 100 } })
export const store = (code: string, over: Record<string, unknown> = {}) =>
  storeBody({ external_id: code, name: `Store ${code}`, ...at(Number(code.replace(/\D/g, '')) || 0), ...over })

export const DOWNING = { external_id: 'D', name: 'Downing', address: '10 Downing Street, London SW1A 2AA' }

/**
 * A bulk request (`body`; to `path`, another route's) to an app whose geocoder first runs
 * `meanwhile` (another client's write), then places Downing Street (DOWNING) or 1 Main St, Town.
 */
export async function bulkGeocodingMeanwhile(
  meanwhile: () => Promise<unknown>,
  body: unknown,
  path = BULK,
): Promise<Response> {
  const table = tableGeocoder({
    '10 downing street, london sw1a 2aa': { lat: 51.5, lng: -0.13, precision: 'street' },
    '1 main st, town': { lat: 51.5, lng: -0.13, precision: 'street' },
  })
  const app = createApp({
    store: env.store,
    geocoder: {
      name: 'table',
      async geocode(address) {
        await meanwhile()
        return table.geocode(address)
      },
    },
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  return app.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}
