// The indexes in GET /metrics, through a real server holding several locators: their totals per
// process whatever the number of locators, and series of their own for the largest only when
// METRICS_LOCATOR_SERIES asks, so 500 locators do not make 1,000 series a worker.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { locationRecord, type Running, serverUrl, startServer, storeBody, tempDir } from './helpers'
import { parseExposition, sampleValue } from './metrics-parse'

let dir: string
let path: string
/** Locator ids by how many locations each holds: 1, 2 and 3. */
const ids: string[] = []
const tokens: string[] = []
const servers: Running[] = []

beforeAll(() => {
  dir = tempDir()
  path = join(dir, 'indexes.db')
  const store = openStore(path)
  for (const size of [1, 2, 3]) {
    const { locator } = createLocator(store, `Size ${size}`)
    setLocatorSettings(store, locator.id, { queryApi: 'on' })
    for (let i = 0; i < size; i++) {
      const record = locationRecord(locator.id, storeBody({ name: `Store ${i}` }))
      store.write(() => store.locations.insert(record))
    }
    ids.push(locator.id)
    tokens.push(store.locators.get(locator.id)!.publicToken)
  }
  store.close()
})
afterAll(async () => {
  for (const s of servers) {
    s.proc.kill('SIGTERM')
    await s.proc.exited
  }
  rmSync(dir, { recursive: true, force: true })
})

/** A scrape of a server on the database, `env` added, once every locator's index is built by a query. */
async function scrape(env: Record<string, string>) {
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', METRICS_PORT: '0', ...env })
  servers.push(server)
  const base = await serverUrl(server)
  const metrics = JSON.parse(await server.waitFor(/"metrics listening"/)).url as string
  for (const token of tokens) expect((await fetch(`${base}/public/v1/${token}/locations?all=true`)).status).toBe(200)
  return parseExposition(await (await fetch(metrics)).text())
}

test('by default, the indexes in totals only: none of their series names a locator', async () => {
  const families = await scrape({})
  expect(sampleValue(families, 'storeloc_indexes_built', { worker: '0' })).toBe(3)
  expect(sampleValue(families, 'storeloc_indexes_locations', { worker: '0' })).toBe(6)
  expect(sampleValue(families, 'storeloc_indexes_json_bytes', { worker: '0' })).toBeGreaterThan(0)
  for (const family of families.values()) for (const s of family.samples) expect(s.labels).not.toHaveProperty('locator')
})

test('METRICS_LOCATOR_SERIES=2: the two indexes of the most locations each by locator, beside the totals', async () => {
  const families = await scrape({ METRICS_LOCATOR_SERIES: '2' })
  const shown = families.get('storeloc_index_locations')!.samples.map((s) => [s.labels.locator, s.value])
  expect(shown.sort((x, y) => Number(x[1]) - Number(y[1]))).toEqual([
    [ids[1], 2],
    [ids[2], 3],
  ])
  expect(
    families
      .get('storeloc_index_json_bytes')!
      .samples.map((s) => s.labels.locator)
      .sort(),
  ).toEqual([ids[1], ids[2]].sort())
  const total = sampleValue(families, 'storeloc_indexes_json_bytes', { worker: '0' })
  const each = families.get('storeloc_index_json_bytes')!.samples.reduce((n, s) => n + s.value, 0)
  expect(each).toBeGreaterThan(0)
  expect(each).toBeLessThan(total) // the smallest index is counted in the total alone
  expect(sampleValue(families, 'storeloc_indexes_locations', { worker: '0' })).toBe(6)
})
