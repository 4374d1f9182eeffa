// The Query API's limit per client address (CLIENT_RATE_LIMIT) beside the token's, and which
// address is the client's: the socket's, or one a trusted proxy (TRUSTED_PROXIES) names.
import { beforeEach, describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { setLocatorSettings } from '../../src/operator'
import { appOn, expectError, type Res } from './fixture'
import { f, NEAR, useGuardsFixture } from './guards-fixture'

useGuardsFixture()

const WINDOW = 28_333_333 * 60_000 // a minute boundary
let now = WINDOW + 10_000

/** Bun.serve's server as the app sees it: the socket's address of every request is `address`. */
const from = (address: string) => ({ requestIP: () => ({ address, family: 'IPv6', port: 40_000 }) })

/** An app with CLIENT_RATE_LIMIT=2 (and TRUSTED_PROXIES), its clocks at `now`; `fast`: its fast path on. */
const appWith = (trustedProxies: string[] = [], fast = true) =>
  appOn(f.env, {
    limiter: new RateLimiter(() => now),
    publicFastPath: fast,
    clients: { clientRateLimit: 2, trustedProxies, clientLimiter: new RateLimiter(() => now) },
  })

async function ask(
  app: ReturnType<typeof appOn>,
  address: string,
  headers: Record<string, string> = {},
  path = f.url('/locations', NEAR),
): Promise<Res> {
  const res = await app.handle(new Request(path, { headers }), from(address))
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) }
}

const statuses = async (app: ReturnType<typeof appOn>, address: string, n: number, headers = {}) => {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await ask(app, address, headers)).status)
  return out
}

beforeEach(() => {
  now = WINDOW + 10_000
})

describe('CLIENT_RATE_LIMIT', () => {
  beforeEach(() => setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '5' }))

  for (const fast of [true, false]) {
    test(`one address over its limit is refused; the token's budget stays for the others (fast path ${fast ? 'on' : 'off'})`, async () => {
      const app = appWith([], fast)
      expect(await statuses(app, '::ffff:198.51.100.7', 2)).toEqual([200, 200])
      const refused = await ask(app, '::ffff:198.51.100.7')
      expectError(
        refused,
        429,
        'RATE_LIMITED',
        'Too many requests from this address: at most 2 a minute. Retry after the time in the Retry-After header.',
      )
      expect(refused.headers.get('retry-after')).toBe('50')
      expect(refused.headers.get('ratelimit-limit')).toBe('2')
      expect(refused.headers.get('ratelimit-remaining')).toBe('0')
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      expect(await statuses(app, '198.51.100.7', 3)).toEqual([429, 429, 429]) // the same address, written as IPv4
      // Refusals of the client spent none of the token's 5: two more addresses get 3 between them.
      const other = await ask(app, '203.0.113.1')
      expect(other.status).toBe(200)
      expect(other.headers.get('ratelimit-limit')).toBe('5')
      expect(other.headers.get('ratelimit-remaining')).toBe('2')
      expect(await statuses(app, '203.0.113.2', 3)).toEqual([200, 200, 429])
      expect((await ask(app, '203.0.113.3')).body.error.message).toStartWith('Too many requests for this locator token')
      now += 60_000
      expect(await statuses(app, '198.51.100.7', 1)).toEqual([200])
    })
  }

  test('off by default: one address may spend the whole token', async () => {
    const app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    expect(await statuses(app, '198.51.100.7', 6)).toEqual([200, 200, 200, 200, 200, 429])
  })

  test('an IPv6 client is counted by its /64: a host that changes its address is one client', async () => {
    const app = appWith()
    expect((await ask(app, '2001:db8:0:1::1')).status).toBe(200)
    expect((await ask(app, '2001:0db8:0000:0001:ffff:1:2:3')).status).toBe(200)
    expect((await ask(app, '2001:db8:0:1:abcd::9')).status).toBe(429)
    expect((await ask(app, '2001:db8:0:2::1')).status).toBe(200)
  })
})

describe('TRUSTED_PROXIES', () => {
  const spoofs = (n: number) => Array.from({ length: n }, (_, i) => ({ 'x-forwarded-for': `192.0.2.${i + 1}` }))

  test('unset: X-Forwarded-For and Forwarded name no client; the socket is the client', async () => {
    const app = appWith()
    const out: number[] = []
    for (const headers of [...spoofs(2), { forwarded: 'for=192.0.2.50' }])
      out.push((await ask(app, '198.51.100.7', headers)).status)
    expect(out).toEqual([200, 200, 429])
  })

  test("a trusted proxy's X-Forwarded-For names the client: the nearest address no trusted proxy has", async () => {
    const app = appWith(['127.0.0.1/32', '10.0.0.0/8'])
    // Each visitor behind the proxy counts alone.
    for (const headers of spoofs(3)) expect((await ask(app, '::ffff:127.0.0.1', headers)).status).toBe(200)
    // What the client wrote itself (the left) is passed over for what the proxies saw.
    const chain = { 'x-forwarded-for': '192.0.2.77, 198.51.100.9, 10.1.2.3' }
    expect(await statuses(app, '127.0.0.1', 3, chain)).toEqual([200, 200, 429])
    expect((await ask(app, '127.0.0.1', { 'x-forwarded-for': '192.0.2.78, 198.51.100.9' })).status).toBe(429)
    // A proxy that is not trusted is the client, whatever it forwards.
    expect(await statuses(app, '10.255.0.1', 1, { 'x-forwarded-for': '192.0.2.99' })).toEqual([200])
    expect(await statuses(app, '172.16.0.1', 3, { 'x-forwarded-for': '192.0.2.99' })).toEqual([200, 200, 429])
    // Without the header, the proxy is the client.
    expect(await statuses(app, '127.0.0.1', 3)).toEqual([200, 200, 429])
  })

  test('Forwarded (RFC 7239) is read before X-Forwarded-For, with quotes, brackets and ports', async () => {
    const app = appWith(['::1/128'])
    const forwarded = (v: string) => ({ forwarded: v, 'x-forwarded-for': '192.0.2.1' })
    expect((await ask(app, '::1', forwarded('for=198.51.100.20;proto=https'))).status).toBe(200)
    expect((await ask(app, '::1', forwarded('for="198.51.100.20:4711"'))).status).toBe(200)
    expect((await ask(app, '::1', forwarded('for=192.0.2.60, for=198.51.100.20'))).status).toBe(429)
    expect(await statuses(app, '::1', 3, forwarded('for="[2001:db8:cafe::17]:4711"'))).toEqual([200, 200, 429])
    // "unknown" (or a name) where an address should be: the proxy that wrote it is the client.
    expect(await statuses(app, '::1', 3, forwarded('for=unknown'))).toEqual([200, 200, 429])
  })
})

test('the addresses kept are bounded: past the cap, ended windows and then the oldest go', () => {
  const limiter = new RateLimiter(() => now, 100)
  for (let i = 0; i < 1000; i++) limiter.take(`198.51.${i >> 8}.${i & 255}`, 2)
  expect(limiter.size).toBeLessThanOrEqual(100)
  now += 60_000
  limiter.take('203.0.113.1', 2)
  for (let i = 0; i < 100; i++) limiter.take(`192.0.2.${i}`, 2)
  expect(limiter.size).toBeLessThanOrEqual(100)
  expect(limiter.peek('192.0.2.99', 2).remaining).toBe(1) // the newest are kept
})
