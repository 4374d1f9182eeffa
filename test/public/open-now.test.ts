// Open now through the Query API, on an injected clock: open_now and next_change on every
// location, the open_now=true filter with every kind of query, and answers that are not kept or
// revalidated past the next change (DST weeks in Europe and the US, past midnight, dated
// exceptions, text not read, a zone set by the Management API).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { parseDayHours } from '../../src/core/hours'
import { openState } from '../../src/core/opening'
import { DAYS } from '../../src/store/locations'
import { setLocatorSettings } from '../../src/operator'
import { haversineKm, makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
let now = 0
const at = (iso: string) => {
  now = Date.parse(iso)
}
const every = (text: string) => Object.fromEntries(DAYS.map((d) => [d, text]))
const weekdays = (text: string, saturday: string, sunday: string) => ({
  ...every(text),
  saturday,
  sunday,
})

type Seed = {
  key: string
  lat: number
  lng: number
  tags: string[]
  hours: Record<string, string>
  special_hours?: Record<string, string>
  timezone?: string
}
const SEEDS: Seed[] = [
  {
    key: 'mitte',
    lat: 52.52,
    lng: 13.405,
    tags: ['bakery'],
    hours: weekdays('09:00-18:00', '09:00-18:00', 'closed'),
    special_hours: { '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' },
  },
  { key: 'bar', lat: 52.51, lng: 13.4, tags: ['bar'], hours: every('18:00-02:00') },
  { key: 'deli', lat: 40.7128, lng: -74.006, tags: ['bakery'], hours: every('7am-11pm') },
  { key: 'kiosk', lat: 52.53, lng: 13.41, tags: ['bar'], hours: every('ask inside') },
  { key: 'late', lat: 52.515, lng: 13.39, tags: ['bar'], hours: { ...every('closed'), sunday: '00:00-02:30' } },
  { key: 'nytime', lat: 52.5, lng: 13.42, tags: ['bakery'], hours: every('09:00-17:00'), timezone: 'America/New_York' },
  { key: 'nohours', lat: 52.52, lng: 13.38, tags: ['bakery'], hours: {} },
  { key: 'shifts', lat: 52.54, lng: 13.36, tags: ['bakery'], hours: weekdays('8-12, 14-18', '10-16', '') },
]
const ids: Record<string, string> = {}
let token = ''

beforeAll(async () => {
  env = makeEnv({ indexUpkeep: { now: () => now } })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  for (const s of SEEDS) {
    const { key, lat, lng, ...rest } = s
    const res = await env.call('POST', '/admin/v1/locations', {
      body: { name: `Store ${key}`, address: `${key} street`, coordinates: { lat, lng }, ...rest },
    })
    expect(res.status).toBe(201)
    ids[key] = res.body.location.id
  }
  token = env.store.locators.get(env.locatorId)!.publicToken!
})
afterAll(() => env.close())

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await env.app.handle(new Request(`http://localhost/public/v1/${token}${path}`, { headers }))
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) }
}
const keyOf = (id: string) => Object.keys(ids).find((k) => ids[k] === id)
/** Each location of an answer as key: [open_now, next_change]. */
const states = (body: any) =>
  Object.fromEntries(body.data.locations.map((l: any) => [keyOf(l.id), [l.open_now, l.next_change]]))

describe('open_now and next_change on every location', () => {
  test('a Monday morning in Berlin (04:00 in New York)', async () => {
    at('2026-06-15T08:00:00Z')
    const res = await get('/locations?all=true&limit=50')
    expect(res.status).toBe(200)
    expect(states(res.body)).toEqual({
      mitte: [true, '2026-06-15T18:00:00+02:00'],
      bar: [false, '2026-06-15T18:00:00+02:00'],
      deli: [false, '2026-06-15T07:00:00-04:00'],
      kiosk: [null, null], // text not read: unknown, never closed
      late: [false, '2026-06-21T00:00:00+02:00'],
      nytime: [false, '2026-06-15T09:00:00-04:00'], // its own zone, set by the Management API
      nohours: [null, null],
      shifts: [true, '2026-06-15T12:00:00+02:00'],
    })
  })

  test('past midnight: a bar open from 18:00 is open at 00:30 and closes at 02:00', async () => {
    at('2026-06-16T22:30:00Z') // Wednesday 00:30 in Berlin
    const bar = (await get(`/locations/${ids.bar}`)).body.data.location
    expect([bar.open_now, bar.next_change]).toEqual([true, '2026-06-17T02:00:00+02:00'])
  })

  test('dated exceptions override their weekday, in the local date', async () => {
    at('2026-12-24T12:00:00Z') // Thursday 13:00 in Berlin: open until 14:00 that day only
    let mitte = (await get(`/locations/${ids.mitte}`)).body.data.location
    expect([mitte.open_now, mitte.next_change]).toEqual([true, '2026-12-24T14:00:00+01:00'])
    at('2026-12-25T10:00:00Z') // Friday, closed for Christmas: it opens on Saturday
    mitte = (await get(`/locations/${ids.mitte}`)).body.data.location
    expect([mitte.open_now, mitte.next_change]).toEqual([false, '2026-12-26T09:00:00+01:00'])
  })

  test("hours_today is the text of the local date: a special date's own, and it turns at local midnight", async () => {
    const today = async () =>
      Object.fromEntries(
        (await get('/locations?all=true&limit=50')).body.data.locations.map((l: any) => [keyOf(l.id), l.hours_today]),
      )
    at('2026-12-24T12:00:00Z') // Thursday 13:00 in Berlin, 07:00 in New York
    expect(await today()).toEqual({
      mitte: '09:00-14:00',
      bar: '18:00-02:00',
      deli: '7am-11pm',
      kiosk: 'ask inside', // not read, so open_now is null, but shown as written
      late: 'closed',
      nytime: '09:00-17:00',
      nohours: null,
      shifts: '8-12, 14-18',
    })
    at('2026-12-24T22:59:00Z') // 23:59 in Berlin: closed since 14:00 and until Saturday
    expect((await today()).mitte).toBe('09:00-14:00')
    at('2026-12-24T23:01:00Z') // Christmas Day in Berlin; the same URL, its answer not kept past midnight
    const after = await today()
    expect([after.mitte, after.bar, after.deli]).toEqual(['closed', '18:00-02:00', '7am-11pm'])
    const mitte = (await get(`/locations/${ids.mitte}`)).body.data.location
    expect([mitte.open_now, mitte.next_change, mitte.hours_today]).toEqual([
      false,
      '2026-12-26T09:00:00+01:00',
      'closed',
    ])
  })

  test('Europe springs forward: an hour that does not exist ends at the jump', async () => {
    at('2026-03-29T00:30:00Z') // Sunday 01:30 CET; the clocks go from 02:00 to 03:00
    const res = await get('/locations?lat=52.52&lng=13.4&radius=20&unit=km&limit=50')
    const s = states(res.body)
    expect(s.late).toEqual([true, '2026-03-29T03:00:00+02:00'])
    expect(s.mitte).toEqual([false, '2026-03-30T09:00:00+02:00'])
  })

  test('the US springs forward and falls back: next_change in the offset of its instant', async () => {
    at('2026-03-08T05:00:00Z') // Sunday 00:00 EST
    let deli = (await get(`/locations/${ids.deli}`)).body.data.location
    expect([deli.open_now, deli.next_change]).toEqual([false, '2026-03-08T07:00:00-04:00'])
    at('2026-11-01T05:30:00Z') // Sunday 01:30 EDT, the first time
    deli = (await get(`/locations/${ids.deli}`)).body.data.location
    expect([deli.open_now, deli.next_change]).toEqual([false, '2026-11-01T07:00:00-05:00'])
  })
})

describe('open_now=true', () => {
  /** The naive answer's ids: every location in the circle (or all), with its tag, open at `t` as openState says. */
  function expected(t: number, o: { radiusKm?: number; tag?: string }) {
    return SEEDS.filter((s) => {
      if (o.radiusKm !== undefined && haversineKm({ lat: 52.52, lng: 13.4 }, s) > o.radiusKm) return false
      if (o.tag !== undefined && !s.tags.includes(o.tag)) return false
      const week = DAYS.map((d) => parseDayHours(s.hours[d]))
      const special = new Map(Object.entries(s.special_hours ?? {}).map(([d, h]) => [d, parseDayHours(h)]))
      const zone = s.timezone ?? (s.lng < 0 ? 'America/New_York' : 'Europe/Berlin')
      return openState({ week, special }, zone, t).open === true
    })
      .map((s) => s.key)
      .sort()
  }

  test('filters radius and all=true queries, with tags, search and every sort, and counts into total', async () => {
    const instants = fc.oneof(
      fc.integer({ min: Date.parse('2026-03-25T00:00Z'), max: Date.parse('2026-04-02T00:00Z') }),
      fc.integer({ min: Date.parse('2026-10-28T00:00Z'), max: Date.parse('2026-11-04T00:00Z') }),
      fc.integer({ min: Date.parse('2026-12-23T00:00Z'), max: Date.parse('2026-12-27T00:00Z') }),
    )
    await fc.assert(
      fc.asyncProperty(
        instants.map((t) => Math.floor(t / 60_000) * 60_000),
        fc.boolean(),
        fc.option(fc.constantFrom('bakery', 'bar')),
        fc.constantFrom('nearest or name', 'priority'),
        fc.boolean(),
        async (t, radius, tag, sort, search) => {
          now = t
          const qs = new URLSearchParams({ open_now: 'true', limit: '50' })
          if (radius) qs.set('lat', '52.52'), qs.set('lng', '13.4'), qs.set('radius', '20'), qs.set('unit', 'km')
          else qs.set('all', 'true')
          // A radius query sorts by distance or priority; all=true by name or priority.
          qs.set('sort', sort !== 'priority' ? (radius ? 'distance' : 'name') : 'priority')
          if (tag) qs.append('tags[]', tag)
          if (search) qs.set('search', 'store')
          const res = await get(`/locations?${qs}`)
          expect(res.status).toBe(200)
          const want = expected(t, { radiusKm: radius ? 20 : undefined, tag: tag ?? undefined })
          const got = res.body.data.locations.map((l: any) => keyOf(l.id)).sort()
          expect(got).toEqual(want)
          expect(res.body.data.pagination.total).toBe(want.length)
          for (const l of res.body.data.locations) expect(l.open_now).toBe(true)
        },
      ),
      { numRuns: 120 },
    )
  })

  test('open_now=false, 0 and an empty value ask for no filter; anything but a flag is 400 INVALID_PARAMETER', async () => {
    at('2026-06-15T08:00:00Z')
    const all = (await get('/locations?all=true&limit=50')).body.data.pagination.total
    for (const off of ['false', '', '0', 'False', 'FALSE'])
      expect((await get(`/locations?all=true&limit=50&open_now=${off}`)).body.data.pagination.total).toBe(all)
    for (const bad of ['yes', 'on', '2', 'truee']) {
      const res = await get(`/locations?all=true&open_now=${bad}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('INVALID_PARAMETER')
      expect(res.body.error.message).toContain('open_now must be true, false, 1 or 0')
    }
    expect((await get('/locations?all=true&open_now=true&open_now=true')).status).toBe(400)
  })

  test('open_now is read as the Management API reads a flag: true or 1, in any case', async () => {
    at('2026-06-15T08:00:00Z')
    const open = await get('/locations?all=true&limit=50&open_now=true')
    expect(open.body.data.pagination.total).toBe(expected(now, {}).length)
    for (const on of ['True', 'TRUE', '1', '%20true'])
      expect((await get(`/locations?all=true&limit=50&open_now=${on}`)).body.data).toEqual(open.body.data)
  })
})

describe('answers are not kept past the next change of a location in them', () => {
  test('max-age is cut to the next change; the ETag and the kept answer change with it', async () => {
    at('2026-06-15T15:59:30Z') // 17:59:30 in Berlin: mitte closes and the bar opens at 18:00
    const path = '/locations?lat=52.52&lng=13.4&radius=20&unit=km&open_now=true'
    const first = await get(path)
    expect(first.headers.get('cache-control')).toBe('public, max-age=30')
    const etag = first.headers.get('etag')!
    expect(first.body.data.locations.map((l: any) => keyOf(l.id))).toContain('mitte')
    // Asked again before the change: the same answer, kept or not, and a 304 for its ETag.
    const again = await get(path)
    expect(again.headers.get('etag')).toBe(etag)
    expect((await get(path, { 'if-none-match': etag })).status).toBe(304)
    at('2026-06-15T16:00:00Z')
    const after = await get(path, { 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
    const open = after.body.data.locations.map((l: any) => keyOf(l.id))
    expect(open).toContain('bar')
    expect(open).not.toContain('mitte')
  })

  test('answers that show no open state keep their ETag and max-age across a change; clusters with open_now do not', async () => {
    at('2026-06-15T15:59:30Z') // 30 s before mitte closes and the bar opens
    const still = ['/filters', '/places?q=berl', '/clusters?bbox=13,52,14,53&zoom=10']
    const cut = '/clusters?bbox=13,52,14,53&zoom=10&open_now=true'
    const etags: Record<string, string> = {}
    for (const path of [...still, cut]) {
      const first = await get(path)
      expect({ path, status: first.status }).toEqual({ path, status: 200 })
      await get(path) // asked twice: the answer is kept
      etags[path] = first.headers.get('etag')!
      const maxAge = path === cut ? 'public, max-age=30' : 'public, max-age=60'
      expect({ path, cache: first.headers.get('cache-control') }).toEqual({ path, cache: maxAge })
    }
    at('2026-06-15T16:00:10Z')
    for (const path of still) {
      expect({ path, status: (await get(path, { 'if-none-match': etags[path]! })).status }).toEqual({
        path,
        status: 304,
      })
      const again = await get(path)
      expect({ path, etag: again.headers.get('etag'), cache: again.headers.get('cache-control') }).toEqual({
        path,
        etag: etags[path]!,
        cache: 'public, max-age=60',
      })
    }
    expect((await get(cut, { 'if-none-match': etags[cut]! })).status).toBe(200)
  })

  test('with no change within a minute, max-age stays 60', async () => {
    at('2026-06-15T13:00:00Z')
    const res = await get(`/locations/${ids.mitte}`)
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
  })
})
