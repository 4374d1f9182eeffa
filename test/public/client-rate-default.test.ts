// CLIENT_RATE_LIMIT unset: a limit per client address all the same, on the clients known for sure
// (a public socket address that sent no forwarding header, or one a trusted proxy names); a
// loopback or private peer, or one that forwards without being trusted, is not counted, as its
// visitors would share its one address. Set, it counts every address as before.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DEFAULT_CLIENT_RATE_LIMIT, loadConfig } from '../../src/core/config'
import { setLocatorSettings } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
let token: string
beforeAll(() => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken
})
afterAll(() => env.close())

/** Bun.serve's server as the app sees it: the socket's address of every request is `address`. */
const from = (address: string) => ({ requestIP: () => ({ address, family: 'IPv4', port: 40_000 }) })

/** A new app (its counts afresh) as loadConfig makes it from `vars`, its default limit 2 a minute; and its log lines. */
function appFor(vars: Record<string, string> = {}, host?: string) {
  const config = loadConfig(vars, 2)
  const lines: Record<string, unknown>[] = []
  const app = createApp({
    store: env.store,
    geocoder: env.geocoder,
    config: {
      maxBodyBytes: 262144,
      logRequests: false,
      publicBaseUrl: 'http://localhost', // no warning of its own for a forwarded request
      clientRateLimit: config.clientRateLimitKnownOnly ? 2 : config.clientRateLimit,
      clientRateLimitKnownOnly: config.clientRateLimitKnownOnly,
      trustedProxies: config.trustedProxies,
      host,
    },
    log: (line) => lines.push(line),
  })
  return { app, lines }
}

async function statuses(app: ReturnType<typeof createApp>, address: string, headers: Record<string, string> = {}) {
  const out: number[] = []
  for (const path of ['/locations?all=true', '/filters', '/locations?all=true&limit=1'])
    out.push(
      (await app.handle(new Request(`http://localhost/public/v1/${token}${path}`, { headers }), from(address))).status,
    )
  return out
}

test('unset, CLIENT_RATE_LIMIT counts the clients known for sure, and no shared address', async () => {
  expect(loadConfig({}, 2)).toMatchObject({
    clientRateLimit: DEFAULT_CLIENT_RATE_LIMIT,
    clientRateLimitKnownOnly: true,
  })
  expect(DEFAULT_CLIENT_RATE_LIMIT).toBe(300)
  // A visitor seen directly, at a public address: counted.
  expect(await statuses(appFor().app, '203.0.113.9')).toEqual([200, 200, 429])
  expect(await statuses(appFor().app, '2001:db8:1:2::5')).toEqual([200, 200, 429])
  // A proxy, a container network or a NAT on this machine's side: every visitor would share it.
  for (const shared of ['127.0.0.1', '::1', '10.1.2.3', '172.17.0.1', '192.168.1.20', '100.64.0.1', 'fd00::1'])
    expect(await statuses(appFor().app, shared)).toEqual([200, 200, 200])
  // A trusted proxy names the visitor: counted, by the visitor's address.
  const proxied = appFor({ TRUSTED_PROXIES: '127.0.0.1' }).app
  expect(await statuses(proxied, '127.0.0.1', { 'x-forwarded-for': '198.51.100.4' })).toEqual([200, 200, 429])
  expect(await statuses(proxied, '127.0.0.1', { 'x-forwarded-for': '198.51.100.5' })).toEqual([200, 200, 429])
  // With TRUSTED_PROXIES, any other public peer is a visitor, whatever forwarding header it sends.
  expect(await statuses(proxied, '203.0.113.9', { 'x-forwarded-for': '198.51.100.6' })).toEqual([200, 200, 429])
})

test('unset, a request forwarded by an untrusted peer is not counted, and the first one is logged', async () => {
  const { app, lines } = appFor()
  for (const peer of ['127.0.0.1', '203.0.113.9'])
    expect(await statuses(app, peer, { 'x-forwarded-for': '198.51.100.4' })).toEqual([200, 200, 200])
  expect(lines).toEqual([
    {
      level: 'warn',
      message: `A Query API request came from 127.0.0.1 with X-Forwarded-For or Forwarded, and TRUSTED_PROXIES does not name that address: the limit per client address (CLIENT_RATE_LIMIT unset: ${DEFAULT_CLIENT_RATE_LIMIT} a minute) does not count requests through it, as its visitors would share its one address. Behind a proxy, set TRUSTED_PROXIES to its address (such as 127.0.0.1,::1) so that each visitor is counted; CLIENT_RATE_LIMIT=0 says the limit is off.`,
    },
  ])
})

test('set, CLIENT_RATE_LIMIT counts every address as it connects; 0 is off', async () => {
  expect(loadConfig({ CLIENT_RATE_LIMIT: '2' }, 2)).toMatchObject({
    clientRateLimit: 2,
    clientRateLimitKnownOnly: false,
  })
  expect(await statuses(appFor({ CLIENT_RATE_LIMIT: '2' }).app, '127.0.0.1')).toEqual([200, 200, 429])
  expect(loadConfig({ CLIENT_RATE_LIMIT: '0' }, 2)).toMatchObject({
    clientRateLimit: 0,
    clientRateLimitKnownOnly: false,
  })
  expect(await statuses(appFor({ CLIENT_RATE_LIMIT: '0' }).app, '203.0.113.9')).toEqual([200, 200, 200])
})

test('unset, on a service listening on loopback only, no peer is counted, and a forwarding one is still logged', async () => {
  // Peers of such a service are this machine's; the public address stands for what a fake peer
  // could claim, which the service does not read without TRUSTED_PROXIES.
  for (const host of ['127.0.0.1', '::1', 'localhost']) {
    const { app, lines } = appFor({}, host)
    expect(await statuses(app, '203.0.113.9')).toEqual([200, 200, 200])
    expect(await statuses(app, '127.0.0.1', { 'x-forwarded-for': '198.51.100.4' })).toEqual([200, 200, 200])
    expect(await statuses(app, '127.0.0.1', { forwarded: 'for=198.51.100.5' })).toEqual([200, 200, 200])
    expect(lines.map((l) => l.message)).toEqual([expect.stringContaining('A Query API request came from 127.0.0.1')])
  }
  // With TRUSTED_PROXIES, the proxy names each visitor, who is counted.
  const proxied = appFor({ TRUSTED_PROXIES: '127.0.0.1' }, '127.0.0.1').app
  expect(await statuses(proxied, '127.0.0.1', { 'x-forwarded-for': '198.51.100.4' })).toEqual([200, 200, 429])
  // Listening beyond loopback, a public peer is counted.
  expect(await statuses(appFor({}, '0.0.0.0').app, '203.0.113.9')).toEqual([200, 200, 429])
})
