// CLIENT_RATE_LIMIT and TRUSTED_PROXIES in a real server: the socket's address is the client, and
// X-Forwarded-For names one only from a trusted proxy; bad values stop the start.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../src/core/config'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { serverUrl, startServer, tempDir } from './helpers'

const dir = tempDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A database with one locator, its Query API on; its token. */
function database(name: string): { path: string; token: string } {
  const path = join(dir, `${name}.db`)
  const store = openStore(path)
  const { locator } = createLocator(store, 'Shops')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  store.close()
  return { path, token: locator.publicToken }
}

async function statuses(env: Record<string, string>, sends: Record<string, string>[]): Promise<number[]> {
  const { path, token } = database(`rate-${Object.values(env).join('-').replace(/\W/g, '')}`)
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', ...env })
  try {
    const url = `${await serverUrl(server)}/public/v1/${token}/filters`
    const out: number[] = []
    for (const headers of sends) out.push((await fetch(url, { headers })).status)
    return out
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
}

const spoofed = (n: number) => Array.from({ length: n }, (_, i) => ({ 'x-forwarded-for': `192.0.2.${i + 1}` }))

test('the socket is the client: X-Forwarded-For changes nothing unless TRUSTED_PROXIES names the peer', async () => {
  expect(await statuses({ CLIENT_RATE_LIMIT: '2' }, spoofed(3))).toEqual([200, 200, 429])
  // Two workers count apart (each its own 2): five requests meet a 429 whichever answers them.
  const two = await statuses({ CLIENT_RATE_LIMIT: '2', WORKERS: '2' }, [{}, {}, {}, {}, {}])
  expect(two.filter((status) => status === 200).length).toBeLessThanOrEqual(4)
  expect(two).toContain(429)
  expect(await statuses({ CLIENT_RATE_LIMIT: '2', TRUSTED_PROXIES: '127.0.0.1, ::1' }, spoofed(3))).toEqual([
    200, 200, 200,
  ])
  expect(await statuses({}, [{}, {}, {}])).toEqual([200, 200, 200])
}, 60_000)

test('a bad CLIENT_RATE_LIMIT, PAGE_RATE_LIMIT or TRUSTED_PROXIES is refused with what to write', () => {
  const refused = (env: Record<string, string>) => {
    try {
      loadConfig(env, 2)
    } catch (e) {
      if (e instanceof ConfigError) return e.message
      throw e
    }
    return null
  }
  expect(refused({ CLIENT_RATE_LIMIT: '-1' })).toBe(
    'CLIENT_RATE_LIMIT must be a whole number from 0 to 1000000; got "-1".',
  )
  expect(refused({ PAGE_RATE_LIMIT: '20/s' })).toBe(
    'PAGE_RATE_LIMIT must be a whole number from 0 to 1000000; got "20/s".',
  )
  for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '1.2.3.4/8/2', '10.0.0/8'])
    expect(refused({ TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toBe(
      `TRUSTED_PROXIES must list IP addresses or CIDR ranges, separated by commas, such as 127.0.0.1,10.0.0.0/8,::1; "${bad}" is neither.`,
    )
  expect(loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ::1 ' }, 2).trustedProxies).toEqual([
    '127.0.0.1/32',
    '10.0.0.0/8',
    '::1/128',
  ])
  expect(loadConfig({}, 2)).toMatchObject({ pageRateLimit: 0, trustedProxies: [] })
  expect(loadConfig({ PAGE_RATE_LIMIT: '1200' }, 2).pageRateLimit).toBe(1200)
})
