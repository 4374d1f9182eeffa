// Random requests to both APIs (fast-check): whatever is sent, the answer is a documented status
// with a documented body, never a 500, and a refused write changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { PUBLIC_ERRORS } from '../src/api/public/errors'
import { RateLimiter } from '../src/api/public/guards'
import { appOn, makeFixture, send, type Fixture } from './public/fixture'

/** Parameter values: valid ones, edges, and the kinds of junk clients send. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-0',
    '1',
    '-1',
    '20',
    '25',
    '500',
    '501',
    '1000',
    '1e3',
    '1e400',
    '-1e400',
    'NaN',
    'Infinity',
    '0x10',
    '1.5',
    '.5',
    '5.',
    '+3',
  ),
  fc.constantFrom(
    '48.8566',
    '2.3522',
    '-90',
    '90',
    '180',
    '-180',
    '90.0001',
    '536870900',
    '9007199254740991',
    '9'.repeat(40),
  ),
  fc.constantFrom(
    'true',
    'false',
    'miles',
    'km',
    'any',
    'all',
    'match',
    'distance',
    'name',
    'priority',
    'repair',
    'Trek',
    'velo',
    'rue',
    'cycl',
  ),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%F0%9F%9A%B2',
    '[]',
    '[',
    ']',
    '&',
    '=',
    '#',
    '?',
    `sk_${'a'.repeat(38)}`,
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent),
)
const name = fc.constantFrom(
  'lat',
  'lng',
  'radius',
  'unit',
  'limit',
  'offset',
  'tags[]',
  'tags',
  'tagLogic',
  'search',
  'sort',
  'all',
  'open_now',
  'near',
  'q',
  'other',
  '',
  'tags%5B%5D',
  'LAT',
)
/** Mostly plausible values for a parameter, sometimes any value. */
const mostly = (...plausible: string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...plausible) }, { weight: 1, arbitrary: value })
const query = fc
  .tuple(
    fc.record(
      {
        lat: mostly('48.8566', '48.9', '-33.9', '0', '90', '-90'),
        lng: mostly('2.3522', '2.4', '151.2', '0', '180', '-180'),
        radius: mostly('25', '1', '0.01', '1000', '40'),
        unit: mostly('km', 'miles'),
        limit: mostly('1', '20', '500'),
        offset: mostly('0', '5', '400', '536870900', '9007199254740991'),
        'tags[]': mostly('repair', 'Trek', 'outlet', 'nope'),
        tagLogic: mostly('any', 'all', 'match'),
        search: mostly('rue', 'velo', 'cycl', 'paris 4', 'zz', 'chartrse', 'vleo cafe'),
        sort: mostly('distance', 'name', 'priority'),
        all: mostly('true', 'false'),
        open_now: mostly('true', 'false'),
        near: mostly('Paris', 'Lond', '75004', 'xyzqxyzq', 'Köln'),
        q: mostly('Par', 'L', '10115', 'Cologne', '!!'),
      },
      { requiredKeys: [] },
    ),
    fc.array(fc.tuple(name, value), { maxLength: 3 }),
  )
  .map(([known, extra]) => [...Object.entries(known), ...extra].map(([n, v]) => `${n}=${v}`).join('&'))
const path = fc.oneof(
  fc.constant('/locations'),
  fc.constant('/filters'),
  fc.constant('/places'),
  fc.constantFrom(
    '/locations/',
    '/locations/loc_0000000000000000',
    '/locations/%zz',
    '/locations/a%2Fb',
    '/nope',
    '',
    '/',
    '/locations/x/y',
  ),
  fc.string({ maxLength: 20 }).map((s) => `/locations/${encodeURIComponent(s)}`),
)
const headers = fc.record(
  {
    'if-none-match': fc.constantFrom('*', 'W/"0-0"', '"x"', ', ,', 'W/'),
    origin: fc.constantFrom('https://shop.example.com', 'null', 'not a url', ''),
    referer: fc.constantFrom('https://shop.example.com/page', '::', ''),
    authorization: fc.constantFrom('Bearer x', `Bearer sk_${'b'.repeat(38)}`, ''),
  },
  { requiredKeys: [] },
)

const PUBLIC_STATUSES = new Set([200, 304, 400, 403, 404, 429, 503])

describe('any request', () => {
  let f: Fixture
  let app: ReturnType<typeof appOn>
  /** The same app without the public fast path: the routes of Elysia answer every request. */
  let slowApp: ReturnType<typeof appOn>
  beforeAll(async () => {
    f = await makeFixture()
    // A limit no run reaches, so every request is judged on what it asks.
    app = appOn(f.env, { limiter: new RateLimiter(() => 0) })
    f.env.store.write(() => f.env.store.locators.updateSettings(f.env.locatorId, { rateLimit: 1_000_000 }))
    slowApp = appOn(f.env, { limiter: new RateLimiter(() => 0), publicFastPath: false })
  })
  afterAll(() => f.env.close())

  test('to the Query API: a documented status and body, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(path, query, headers, fc.boolean(), async (p, q, h, slow) => {
        const url = f.url(p, q)
        const res = await send(slow ? slowApp : app, url, { headers: h })
        if (!PUBLIC_STATUSES.has(res.status))
          throw new Error(`GET ${url} ${JSON.stringify(h)}: ${res.status} ${res.text.slice(0, 300)}`)
        if (res.status >= 400) {
          expect(res.body).toEqual({
            success: false,
            error: {
              code: expect.any(String),
              message: expect.any(String),
              docs: `http://localhost/docs#${res.body.error.code}`,
            },
          })
          expect(Object.keys(PUBLIC_ERRORS)).toContain(res.body.error.code)
        } else if (res.status === 200) expect(res.body.success).toBe(true)
        else {
          // 304: only for a request that has an answer.
          const { 'if-none-match': _, ...rest } = h
          expect({ url, without: (await send(app, url, { headers: rest })).status }).toEqual({ url, without: 200 })
        }
      }),
      { numRuns: 400 },
    )
  })

  /** Field values for a location body: right types, wrong types, nesting, junk. */
  const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant('\ud800'),
      fc.constant('https://x.example'),
    ),
    node: fc.oneof(
      { depthSize: 'small' },
      tie('leaf'),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 3 }),
    ),
  })).node
  const fieldName = fc.constantFrom(
    'name',
    'address',
    'coordinates',
    'description',
    'tags',
    'contact',
    'social',
    'hours',
    'custom_fields',
    'image_url',
    'status',
    'id',
    '__proto__',
  )
  const body = fc.oneof(
    fc.dictionary(fieldName, anyJson, { maxKeys: 5 }).map((b) => JSON.stringify(b)),
    anyJson.map((b) => JSON.stringify(b) ?? ''),
    fc.constantFrom('', '{', '{"name":', 'null', '[]', 'name=x&address=y', '\u0000'),
    // Bulk bodies: a list of anything, and CSV text.
    fc
      .array(fc.dictionary(fieldName, anyJson, { maxKeys: 4 }), { maxLength: 3 })
      .map((l) => JSON.stringify({ locations: l })),
    fc
      .array(fc.array(fc.oneof(fieldName, fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 4 }), {
        maxLength: 3,
      })
      .map((rows) => rows.map((r) => r.join(',')).join('\n')),
  )
  const contentType = fc.constantFrom(
    'application/json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/vnd.api+json',
    'text/csv',
    '',
  )
  const ADMIN_STATUSES = new Set([200, 201, 400, 404, 409, 413, 422])

  test("to the Management API's reads, with any key: a documented status and body, never a 500", async () => {
    const auth = fc.constantFrom(
      undefined,
      null,
      'Bearer sk_x',
      `Bearer sk_${'c'.repeat(38)}`,
      'Basic abc',
      'Bearer ',
      '',
    )
    const listQuery = fc.array(
      fc.tuple(
        fc.constantFrom('limit', 'page', 'status', 'other'),
        fc.oneof(value, fc.constantFrom('published', 'draft', 'hidden', 'all')),
      ),
      { maxLength: 4 },
    )
    const target = fc.oneof(
      listQuery.map((pairs) => `/admin/v1/locations?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`),
      fc.string({ maxLength: 20 }).map((id) => `/admin/v1/locations/${encodeURIComponent(id)}`),
      fc.constantFrom(
        '/admin/v1/custom_fields',
        '/admin/v1/locator',
        '/admin/v1/locations/%zz',
        '/admin/v1/nope',
        '/admin/v1/locations//delete',
      ),
    )
    await fc.assert(
      fc.asyncProperty(target, auth, async (t, a) => {
        const headers: Record<string, string> = a === undefined || a === null ? {} : { authorization: a }
        const res = await f.env.call('GET', t, { headers, key: a === undefined ? undefined : null })
        if (![200, 400, 401, 404].includes(res.status))
          throw new Error(`GET ${t} (${a}): ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
        if (res.status >= 400)
          expect(res.body).toMatchObject({ success: false, error: expect.any(String), message: expect.any(String) })
      }),
      { numRuns: 300 },
    )
  })

  test('to the Management API: a documented status and body, never a 500; a refused write changes nothing', async () => {
    const existing = (await f.env.call('GET', '/admin/v1/locations?limit=1')).body.locations[0].id as string
    const rows = () =>
      f.env.store.db
        .query<{ n: number; u: string }, []>('SELECT count(*) AS n, max(updated_at) AS u FROM locations')
        .get()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/admin/v1/locations',
          `/admin/v1/locations/${existing}`,
          '/admin/v1/locations/%zz',
          '/admin/v1/locations/bulk?dry_run=true',
          '/admin/v1/locations/bulk?delete_missing=maybe',
        ),
        body,
        contentType,
        async (p, b, type) => {
          const before = rows()
          const res = await f.env.call('POST', p, { body: b, headers: type ? { 'content-type': type } : {} })
          if (!ADMIN_STATUSES.has(res.status))
            throw new Error(
              `POST ${p} (${type}) ${JSON.stringify(b).slice(0, 300)}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
            )
          if (res.status >= 400) {
            expect(res.body).toMatchObject({ success: false, error: expect.any(String), message: expect.any(String) })
            expect(rows()).toEqual(before)
          }
        },
      ),
      { numRuns: 400 },
    )
  })
})
