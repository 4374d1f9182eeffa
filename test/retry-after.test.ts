// Retry-After as the widget reads it (src/core/retry-after.ts) and as the client does (its own
// copy, src/client imports nothing of src/): delta-seconds or an HTTP-date, nothing else.
import { expect, test } from 'bun:test'
import { StorelocClient, type StorelocError } from '../src/client'
import { retryAfterSeconds } from '../src/core/retry-after'

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

test('delta-seconds and the three HTTP-date forms are read; a date gone by is 0', () => {
  expect(retryAfterSeconds('120')).toBe(120)
  expect(retryAfterSeconds(' 7 ')).toBe(7)
  expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0)
  expect(retryAfterSeconds('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(0)
  const now = Date.parse('Sun, 06 Nov 2094 08:49:00 GMT')
  expect(retryAfterSeconds('Sun, 06 Nov 2094 08:49:37 GMT', now)).toBe(37)
  expect(retryAfterSeconds('Sun Nov  6 08:49:37 2094', now)).toBe(37)
})

test('anything else is no value: not a year ("-5", "+3"), a day ("1.5") or a number ("1e1")', () => {
  expect(retryAfterSeconds(null)).toBeUndefined()
  for (const garbage of ['', '-5', '+3', '1.5', '1e1', '0x10', 'soon', '12/31/2099', 'Sunday'])
    expect({ garbage, seconds: retryAfterSeconds(garbage) }).toEqual({ garbage, seconds: undefined })
})

test("the widget's reading is the client's, value for value", async () => {
  const later = new Date(Date.now() + 3_600_000).toUTCString()
  const values = ['120', '0', 'Wed, 21 Oct 2015 07:28:00 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', later]
  for (const value of [...values, '-5', '+3', '1.5', '1e1', 'soon', '12/31/2099', 'Sunday']) {
    const [client, widget] = [await clientReads(value), retryAfterSeconds(value)]
    // A date an hour away: the two readings a second apart at most, as the clock ran between them.
    if (value === later) expect(Math.abs(client! - widget!)).toBeLessThanOrEqual(1)
    else expect({ value, widget }).toEqual({ value, widget: client })
  }
})
