// The service's schedule of refresh runs (scheduleGeocodeRefresh): one run at a time, what is
// logged, and the error naming points kept past their limit.
import { beforeEach, describe, expect, test } from 'bun:test'
import { noGeocoder, type Geocoder } from '../../src/geocode/geocoder'
import { scheduleGeocodeRefresh, type RefreshLogLine } from '../../src/geocode/refresh'
import { DAY, env, geocodedByGoogle, googleAt, HOUR, withTestEnv } from './refresh-fixture'

withTestEnv()
const google = googleAt(() => ({ lat: 10, lng: 20 }))

/** A test's time limit: its waits for the runs have none of their own, and only a hang reaches it. */
const HANG_MS = 30_000

describe("the service's schedule (scheduleGeocodeRefresh)", () => {
  const lines: RefreshLogLine[] = []
  const log = (line: RefreshLogLine) => void lines.push(line)
  beforeEach(() => (lines.length = 0))
  /** The runs use the clock: points are made as old as the test needs from it. */
  const now = new Date()
  /** Waits until `done()`, however late a loaded machine fires the runs' timers (HANG_MS ends a hang). */
  const until = async (done: () => boolean) => {
    while (!done()) await Bun.sleep(2)
  }
  /**
   * Waits for `n` periods of `ms`, counted by an interval of its own: the schedule's interval of the
   * same period, set before it, is due first at each turn, so it has fired as often by then.
   */
  const periods = async (ms: number, n: number) => {
    let ticks = 0
    const timer = setInterval(() => ticks++, ms)
    await until(() => ticks >= n)
    clearInterval(timer)
  }

  test(
    'a run still going when the next is due is not joined by it; each run that asked is logged; none after the stop',
    async () => {
      const id = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
      let asked = 0
      let answerNow = () => {}
      const slow: Geocoder = {
        name: 'google',
        geocode: (address) => (asked++, new Promise((done) => (answerNow = () => done(google.geocode(address))))),
      }
      const stop = scheduleGeocodeRefresh(env.store, slow, { everyMs: 5, log })
      await until(() => asked > 0) // the first run, however late a loaded machine fires it
      await periods(5, 12) // a dozen runs due meanwhile: none joins it
      expect(asked).toBe(1)
      answerNow()
      await until(() => lines.length > 0)
      expect(env.store.locations.get(env.locatorId, id)!.geocodedAt! >= now.toISOString()).toBe(true)
      expect(lines).toEqual([
        { level: 'info', message: 'geocodes refreshed', checked: 1, refreshed: 1, failed: 0, overdue: 0 },
      ]) // runs with nothing to do are not logged
      stop()
      env.store.db.run('UPDATE locations SET geocoded_at = ? WHERE id = ?', [
        new Date(now.getTime() - 29 * DAY - HOUR).toISOString(),
        id,
      ])
      await periods(5, 6) // runs that would be due: none comes
      expect(asked).toBe(1)
    },
    HANG_MS,
  )

  test(
    'points kept past their limit are logged as an error naming them; a run that fails is logged and the next runs go on',
    async () => {
      const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
      const unknown: Geocoder = { name: 'google', geocode: async () => null }
      let failing = true
      const store = {
        ...env.store,
        locations: {
          ...env.store.locations,
          geocodedBy: (...args: Parameters<typeof env.store.locations.geocodedBy>) => {
            if (failing) throw new Error('disk I/O error')
            return env.store.locations.geocodedBy(...args)
          },
        },
      }
      const stop = scheduleGeocodeRefresh(store, unknown, { everyMs: 20, log })
      await until(() => lines.length > 0)
      expect(lines[0]).toEqual({ level: 'error', message: 'geocode refresh failed', error: 'Error: disk I/O error' })
      failing = false
      await until(() => lines.some((line) => line.message === 'geocodes refreshed'))
      stop()
      lines.splice(0, lines.findIndex((line) => line.message === 'geocodes refreshed') - 1)
      expect(lines[1]).toEqual({
        level: 'info',
        message: 'geocodes refreshed',
        checked: 1,
        refreshed: 0,
        failed: 1,
        overdue: 1,
      })
      expect(lines[2]).toMatchObject({ level: 'error', locations: [{ locator: env.locatorId, id }] })
      expect(lines[2]!.message).toBe(
        "1 location(s) keep a point past its provider's limit (Google's 30 days): neither the geocoder (google) gave another for their address. Mend the address, or send coordinates.",
      )
    },
    HANG_MS,
  )

  test(
    'with GEOCODER=none, the error says no geocoder replaces such points',
    async () => {
      await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
      const stop = scheduleGeocodeRefresh(env.store, noGeocoder, { everyMs: 60_000, log })
      await until(() => lines.some((line) => line.level === 'error'))
      stop()
      expect(lines.find((line) => line.level === 'error')!.message).toBe(
        "1 location(s) keep a point past its provider's limit (Google's 30 days): with GEOCODER=none no geocoder replaces it. Send coordinates, or set GEOCODER.",
      )
    },
    HANG_MS,
  )
})
