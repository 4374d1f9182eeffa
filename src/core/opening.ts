// Whether a location is open at an instant, and when that next changes, from its week of hours
// (hours.ts), its dated exceptions and its IANA time zone: local days and times, through the
// zone's offsets at each instant, so DST changes and intervals past midnight come out right.
import type { DayHours } from './hours'

/** A location's hours: seven days, Monday first; dated exceptions by local date (YYYY-MM-DD). */
export type Schedule = { week: readonly DayHours[]; special?: ReadonlyMap<string, DayHours> }

/**
 * open: null when the hours do not say; next: the instant (ms) it next opens or closes, null when
 * not known within a week; until: the instant from which this may no longer hold (next, or when
 * it turns unknown or known, or the end of the days looked at), the same from any instant before it.
 */
export type OpenState = { open: boolean | null; next: number | null; until: number }

const MINUTE = 60_000
const DAY_MINUTES = 1440
/** Days looked at after today for the next change: a week and a day. */
export const HORIZON_DAYS = 8

const formats = new Map<string, Intl.DateTimeFormat>()

/** The zone's offset from UTC at instant `t`, in minutes (local = UTC + offset). Throws a RangeError for a zone Intl does not know. */
export function zoneOffset(zone: string, t: number): number {
  let format = formats.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
    formats.set(zone, format)
  }
  const p: Record<string, number> = {}
  for (const part of format.formatToParts(t)) if (part.type !== 'literal') p[part.type] = Number(part.value)
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!)
  return Math.round((local - Math.floor(t / MINUTE) * MINUTE) / MINUTE)
}

/**
 * The instants at which local minute `m` (minutes since 1970-01-01T00:00 local) begins in `zone`,
 * earliest first: one; two when the clocks pass it twice (fall back); for a time the clocks skip
 * (spring forward), the instant of the jump, when the clocks first read later than it.
 */
export function localInstants(zone: string, m: number): number[] {
  const guess = m * MINUTE
  const before = zoneOffset(zone, guess - DAY_MINUTES * MINUTE)
  const after = zoneOffset(zone, guess + DAY_MINUTES * MINUTE)
  const valid = [...new Set([before, after])]
    .map((o) => guess - o * MINUTE)
    .filter((t) => zoneOffset(zone, t) * MINUTE === guess - t)
    .sort((a, b) => a - b)
  if (valid.length > 0) return valid
  // Skipped: the jump lies between the instants read with each offset.
  return offsetChanges(zone, guess - after * MINUTE, guess - before * MINUTE).slice(0, 1)
}

/** Monday 0 ... Sunday 6 of local day `d` (days since 1970-01-01, a Thursday). */
export const weekday = (d: number) => (((d + 3) % 7) + 7) % 7
/** Local day `d` as YYYY-MM-DD. */
export const isoDate = (d: number) => new Date(d * DAY_MINUTES * MINUTE).toISOString().slice(0, 10)

const hoursOf = (schedule: Schedule, d: number): DayHours =>
  schedule.special?.get(isoDate(d)) ?? schedule.week[weekday(d)] ?? { kind: 'unknown' }

/** What is open or unknown from local day `first` to `last`, in local minutes since the epoch. */
function spans(schedule: Schedule, first: number, last: number) {
  const open: [number, number][] = []
  const unknownDays = new Set<number>()
  for (let d = first; d <= last; d++) {
    const hours = hoursOf(schedule, d)
    if (hours.kind === 'unknown') unknownDays.add(d)
    if (hours.kind !== 'open') continue
    for (const [s, e] of hours.intervals) open.push([d * DAY_MINUTES + s, d * DAY_MINUTES + e])
  }
  /** At local minute m: open, closed, or null (unknown, or past the last day looked at). An interval running into the next day counts there too. */
  const state = (m: number): boolean | null => {
    for (const [s, e] of open) if (s <= m && m < e) return true
    const day = Math.floor(m / DAY_MINUTES)
    return day > last || unknownDays.has(day) ? null : false
  }
  const edges = new Set<number>()
  for (const [s, e] of open) edges.add(s).add(e)
  for (const d of unknownDays) edges.add(d * DAY_MINUTES).add((d + 1) * DAY_MINUTES)
  return { state, edges: [...edges].sort((a, b) => a - b) }
}

/** The instants in (from, to] at which the zone's offset changes, each found to the minute. */
export function offsetChanges(zone: string, from: number, to: number): number[] {
  const STEP = 12 * 60 * MINUTE // offsets change months apart: a step never spans two changes
  const changes: number[] = []
  const start = Math.floor(from / MINUTE) * MINUTE // changes fall on whole minutes: search among them
  let before = zoneOffset(zone, start)
  for (let lo = start; lo < to; ) {
    const hi = Math.min(lo + STEP, to)
    const after = zoneOffset(zone, hi)
    if (after !== before) {
      // lo read `before` and hi `after`: the change is in (lo, hi], found by halving.
      let a = lo
      let b = hi
      while (b - a > MINUTE) {
        const mid = a + Math.floor((b - a) / 2 / MINUTE) * MINUTE
        if (zoneOffset(zone, mid) === before) a = mid
        else b = mid
      }
      if (b > from) changes.push(b)
      before = after
    }
    lo = hi
  }
  return changes
}

/**
 * Whether `schedule` has it open at instant `at` (ms) in `zone`, and when that next changes: read
 * from the wall clock, which crosses an edge of the hours either as it runs or when the offset
 * changes (the clocks jump past an edge, or back over one: an hour that comes twice).
 */
export function openState(schedule: Schedule, zone: string, at: number): OpenState {
  const localAt = (t: number) => Math.floor(t / MINUTE) + zoneOffset(zone, t)
  const nowLocal = localAt(at)
  const today = Math.floor(nowLocal / DAY_MINUTES)
  const { state, edges } = spans(schedule, today - 1, today + HORIZON_DAYS)
  const open = state(nowLocal)
  const end = (today + HORIZON_DAYS + 1) * DAY_MINUTES
  // Every instant the wall clock can cross an edge at, in order: an edge up to a few hours behind
  // now may come again, after the clocks go back.
  const candidates = new Set<number>(offsetChanges(zone, at, (end + DAY_MINUTES) * MINUTE))
  for (const edge of [...edges, end])
    if (edge > nowLocal - 4 * 60) for (const t of localInstants(zone, edge)) if (t > at) candidates.add(t)
  for (const t of [...candidates].sort((a, b) => a - b)) {
    const then = state(localAt(t))
    if (then === open) continue
    // Unknown now, or next (or past the days looked at): when it next opens or closes is not known.
    return { open, next: open === null || then === null ? null : t, until: t }
  }
  return { open, next: null, until: localInstants(zone, end)[0]! }
}

/** `t` as ISO 8601 to the second with the offset (minutes) it has in its zone: "2026-12-24T18:00:00+01:00" (UTC: "+00:00"). */
export function isoWithOffset(t: number, offset: number): string {
  const local = new Date(t + offset * MINUTE).toISOString().slice(0, 19)
  const a = Math.abs(offset)
  const hh = String(Math.floor(a / 60)).padStart(2, '0')
  const mm = String(a % 60).padStart(2, '0')
  return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`
}
