// The settings the misspelling check knows (SETTINGS) against the ones loadConfig reads: a
// setting read but not known would be warned about as a misspelling of a near one.
import { expect, test } from 'bun:test'
import { loadConfig, misspeltSettings, SETTINGS } from '../src/core/config'
import { SERVE_OPTIONS } from '../src/server/options'

/** The names loadConfig reads from `env`, whether it accepts them or not. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>()
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name)
      return target[name as string]
    },
  })
  try {
    loadConfig(watched, 2)
  } catch {
    // A refused value: the names read up to it count all the same.
  }
  return read
}

test('every variable loadConfig reads, on each of its paths, and every serve option is known as a setting', () => {
  const variants: Record<string, string>[] = [
    {},
    { METRICS_PORT: '9100', METRICS_HOST: '127.0.0.1', METRICS_TOKEN: 'a-long-enough-metrics-token-0123456789' },
    { GEOCODER: 'nominatim' },
    { GEOCODER: 'google', GEOCODER_API_KEY: 'key' },
    { GEOCODER: 'photon', GEOCODER_URL: 'http://127.0.0.1:2322' },
    { MAP_TILES_URL: 'http://127.0.0.1:8080/{z}/{x}/{y}.png', MAP_TILES_ATTRIBUTION: 'Tiles' },
    { WORKERS: 'auto', PUBLIC_BASE_URL: 'https://stores.example.com' },
  ]
  const read = new Set<string>()
  for (const env of variants) for (const name of namesRead(env)) read.add(name)
  // npm's own variables are read (viaNpm), and are no settings anyone spells.
  const settings = [...read].filter((name) => !name.startsWith('npm_'))
  expect(settings.sort()).toEqual([...SETTINGS].sort())
  for (const { env } of SERVE_OPTIONS) expect(read.has(env)).toBe(true)
  expect(settings.flatMap((name) => misspeltSettings({ [name]: '1' }))).toEqual([])
  // A near name still is warned about.
  expect(misspeltSettings({ GEODATA_PTH: '1' })).toEqual([
    { name: 'GEODATA_PTH', meant: 'GEODATA_PATH', meantSet: false },
  ])
  // A plural setting given in the singular, or the other way round.
  expect(misspeltSettings({ TRUSTED_PROXY: '127.0.0.1', CLIENT_RATE_LIMITS: '1' })).toEqual([
    { name: 'TRUSTED_PROXY', meant: 'TRUSTED_PROXIES', meantSet: false },
    { name: 'CLIENT_RATE_LIMITS', meant: 'CLIENT_RATE_LIMIT', meantSet: false },
  ])
  expect(misspeltSettings({ GEODATA_PTH: '1', GEODATA_PATH: '2' })).toEqual([
    { name: 'GEODATA_PTH', meant: 'GEODATA_PATH', meantSet: true },
  ])
  // A path setting's name without _PATH is a file meant for it, but not another tool's database
  // address, nor beside the setting itself: a general name other programs use too.
  expect(misspeltSettings({ DATABASE: 'stores.db' })).toEqual([
    { name: 'DATABASE', meant: 'DATABASE_PATH', meantSet: false },
  ])
  expect(misspeltSettings({ DATABASE: 'postgres://db.internal/app' })).toEqual([])
  expect(misspeltSettings({ DATABASE: 'app', DATABASE_PATH: 'stores.db' })).toEqual([])
})
