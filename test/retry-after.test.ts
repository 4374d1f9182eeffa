// Retry-After as its three readers take it: the widget (src/core/retry-after.ts), the HTTP
// geocoders (retryAfterMs, over the same) and the client (src/client/retry-after.ts, the same text,
// as the client's package imports nothing beyond src/client): RFC 9110's delay-seconds or an
// HTTP-date in its three forms, names in any case, nothing else; sent twice, the longer wait.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { StorelocClient, type StorelocError } from '../src/client'
import { retryAfterSeconds } from '../src/core/retry-after'
import { retryAfterMs } from '../src/geocode/http/request'

/** The client's reading of a 503's `header`: the error's retryAfter. */
async function clientReads(header: string): Promise<number | undefined> {
  const api = new StorelocClient({
    baseUrl: 'http://localhost',
    apiKey: 'sk_test',
    fetch: (async () =>
      new Response('{"success":false,"error":"unavailable","message":"Busy."}', {
        status: 503,
        headers: { 'retry-after': header },
      })) as unknown as typeof fetch,
    attempts: 1,
  })
  return ((await api.listLocations().catch((e) => e)) as StorelocError).retryAfter
}

const NOW = Date.parse('2026-11-24T12:00:00Z')

/** Values read, in seconds from NOW. */
const READ: [string, number][] = [
  ['120', 120],
  [' 7 ', 7],
  ['007', 7],
  ['Tue, 24 Nov 2026 12:01:30 GMT', 90],
  ['Tuesday, 24-Nov-26 12:01:30 GMT', 90], // RFC 850, obsolete
  ['Tue Nov 24 12:01:30 2026', 90], // asctime, obsolete: in GMT though it names no zone
  ['Tue Dec  1 12:00:00 2026', 7 * 86400],
  ['Tue Dec 01 12:00:00 2026', 7 * 86400],
  ['Tue, 24 Nov 2026 11:00:00 GMT', 0], // gone by
  ['Sunday, 06-Nov-94 08:49:37 GMT', 0], // 1994: 2094 is more than 50 years away
  ['Wed, 24 Nov 2026 23:59:60 GMT', 12 * 3600], // a leap second
  // RFC 9110's grammar writes the names in one case; they are read in any, as RFC 9111 asks of caches.
  ['tue, 24 Nov 2026 12:01:30 GMT', 90],
  ['TUE, 24 NOV 2026 12:01:30 GMT', 90],
  ['Tue, 24 nov 2026 12:01:30 gmt', 90],
  ['tuesday, 24-NOV-26 12:01:30 GMT', 90],
  ['TUE NOV 24 12:01:30 2026', 90],
  ['5, TUESDAY, 24-Nov-26 12:01:30 GMT', 90],
  // Sent twice, the service's and a proxy's copy, it comes joined: the longer wait is kept.
  ['1, 1', 1],
  ['1,1', 1],
  ['5, 30', 30],
  ['soon, 7', 7],
  ['Tue, 24 Nov 2026 12:01:30 GMT, Tue, 24 Nov 2026 12:01:30 GMT', 90],
  ['1, Tue, 24 Nov 2026 12:01:30 GMT', 90],
  // An unreadable one, or an empty one, after a value: the readable one is kept all the same.
  ['5, soon', 5],
  ['5, 1.5', 5],
  ['5, -1', 5],
  ['1, ', 1],
  ['Tue, 24 Nov 2026 12:01:30 GMT, soon', 90],
  ['Tuesday, 24-Nov-26 12:01:30 GMT,Tue', 90],
]

/** Values read as none: not RFC 9110's grammar, though Date.parse reads most of them. */
const NONE = [
  '',
  '-5',
  '+3',
  '1.5',
  '1e1',
  '0x10',
  'soon',
  '12/31/2099',
  '2026-11-24T12:01:30Z',
  'Sunday',
  'Sunday 2027',
  'Tue, 24 Nov 2026 12:01:30', // no zone
  'Tue, 24 Nov 2026 12:01:30 UTC',
  'Tue, 24 Nov 2026 12:01:30 +0000',
  'Tue, 4 Nov 2026 12:01:30 GMT', // IMF-fixdate's day is two digits
  'Tue, 31 Nov 2026 12:01:30 GMT', // no such day
  'Tue, 24 Nov 2026 24:00:00 GMT',
  'Tue, 24 Nov 2026 12:60:00 GMT',
  'Tue,  24 Nov 2026 12:01:30 GMT',
  'Tue 24 Nov 2026 12:01:30 GMT',
  'Tues, 24 Nov 2026 12:01:30 GMT',
  'Tue, 24-Nov-26 12:01:30 GMT', // RFC 850's day is named in full
  'Tuesday, 24 Nov 2026 12:01:30 GMT',
  'Tue Nov 24 12:01:30 2026 GMT',
  'soon, later',
]

describe('the reader (src/core/retry-after.ts)', () => {
  test('delay-seconds and the three HTTP-date forms are read; a date gone by is 0', () => {
    for (const [value, seconds] of READ)
      expect({ value, read: retryAfterSeconds(value, NOW) }).toEqual({ value, read: seconds })
  })

  test('anything else is no value', () => {
    expect(retryAfterSeconds(null, NOW)).toBeUndefined()
    for (const value of NONE) expect({ value, read: retryAfterSeconds(value, NOW) }).toEqual({ value, read: undefined })
  })

  test("RFC 850's two-digit year is the one within 50 years", () => {
    const in2080 = Date.parse('2080-01-01T00:00:00Z')
    // 29 and 30 are 2129 and 2130, at most 50 years on; 31 is 2031, as 2131 is more than 50 years on.
    expect(retryAfterSeconds('Saturday, 01-Jan-29 00:00:00 GMT', in2080)).toBe(
      (Date.parse('2129-01-01T00:00:00Z') - in2080) / 1000,
    )
    expect(retryAfterSeconds('Tuesday, 01-Jan-30 00:00:00 GMT', in2080)).toBe(
      (Date.parse('2130-01-01T00:00:00Z') - in2080) / 1000,
    )
    expect(retryAfterSeconds('Wednesday, 01-Jan-31 00:00:00 GMT', in2080)).toBe(0) // 2031
    expect(retryAfterSeconds('Thursday, 01-Jan-81 00:00:00 GMT', in2080)).toBe(
      (Date.parse('2081-01-01T00:00:00Z') - in2080) / 1000,
    )
    // Within the year 50 years on, the date decides: 1 Nov 2076 is within 50 years of NOW
    // (24 Nov 2026), 1 Dec 2076 is not, so it is 1976's.
    expect(retryAfterSeconds('Sunday, 01-Nov-76 00:00:00 GMT', NOW)).toBe(
      (Date.parse('2076-11-01T00:00:00Z') - NOW) / 1000,
    )
    expect(retryAfterSeconds('Tuesday, 01-Dec-76 00:00:00 GMT', NOW)).toBe(0)
  })

  test('29 February is read in a leap year only, the years 0000 to 0099 as written', () => {
    expect(retryAfterSeconds('Wed, 29 Feb 2096 00:00:00 GMT', NOW)).toBe(
      (Date.parse('2096-02-29T00:00:00Z') - NOW) / 1000,
    )
    expect(retryAfterSeconds('Tue, 29 Feb 2000 00:00:00 GMT', NOW)).toBe(0)
    expect(retryAfterSeconds('Mon, 29 Feb 2100 00:00:00 GMT', NOW)).toBeUndefined()
    // Year 0 of the proleptic Gregorian calendar is a leap year, as 1900 is not.
    expect(retryAfterSeconds('Tue, 29 Feb 0000 00:00:00 GMT', NOW)).toBe(0)
    expect(retryAfterSeconds('Sun, 29 Feb 1900 00:00:00 GMT', NOW)).toBeUndefined()
  })
})

describe('its three users read a value alike', () => {
  test("the client's copy is the reader's text, byte for byte", () => {
    const src = join(import.meta.dir, '..', 'src')
    expect(readFileSync(join(src, 'client/retry-after.ts'), 'utf8')).toBe(
      readFileSync(join(src, 'core/retry-after.ts'), 'utf8'),
    )
  })

  test("the geocoders' wait is the reader's, in ms, at most an hour", () => {
    for (const [value, seconds] of READ)
      expect({ value, ms: retryAfterMs(value, NOW) }).toEqual({ value, ms: Math.min(seconds * 1000, 3_600_000) })
    for (const value of [null, ...NONE]) expect({ value, ms: retryAfterMs(value, NOW) }).toEqual({ value, ms: null })
  })

  test("the client's reading is the widget's, value for value", async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString()
    for (const value of [...READ.map(([value]) => value), ...NONE, later, `${later}, 5`]) {
      const [client, widget] = [await clientReads(value), retryAfterSeconds(value)]
      // A date an hour on: the two readings a second apart at most, as the clock ran between them.
      if (value.startsWith(later)) expect(Math.abs(client! - widget!)).toBeLessThanOrEqual(1)
      else expect({ value, client }).toEqual({ value, client: widget })
    }
  })
})
