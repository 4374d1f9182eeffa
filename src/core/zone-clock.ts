// openState (opening.ts) for many locations at one instant, without Intl on each: a zone's offset
// is read once and kept while it holds (until the zone's next change of offset, or for a day where
// none is within its look-ahead), and a location's hours are then looked up by local day and
// minute, on either side of the zone's next change of offset. Where an edge of the hours falls in
// the hour that change skips or repeats, opening.ts answers instead, so the two always agree.
import {
  HORIZON_DAYS,
  isoDate,
  offsetChanges,
  type OpenState,
  openState,
  type Schedule,
  weekday,
  zoneOffset,
} from './opening'

const MINUTE = 60_000
const DAY_MINUTES = 1440
/** How far ahead a zone's next change of offset is looked for: past the horizon of openState. */
const LOOK_AHEAD = (HORIZON_DAYS + 3) * DAY_MINUTES * MINUTE
/** The days openStateOn looks at past an instant (its horizon, the day it is in, one to spare). */
const HORIZON_SPAN = (HORIZON_DAYS + 2) * DAY_MINUTES * MINUTE

/** One zone's offset, and the instants between which it holds. */
export class ZoneClock {
  private from = 0
  private until = -1
  /** The window is read again from here: at `until`, or where the look-ahead no longer covers the horizon. */
  private fresh = -1
  private offset = 0
  private after = 0
  private readonly dates = new Map<number, string>()

  constructor(readonly zone: string) {}

  /** The offset (minutes) at `t`, the instant it holds until (exclusive), and the offset from then. */
  at(t: number): { offset: number; until: number; after: number } {
    if (t < this.from || t >= this.fresh) this.read(t)
    return { offset: this.offset, until: this.until, after: this.after }
  }

  /** The offset at `t`: the one kept when `t` falls where it holds (the window is not moved), else read. */
  offsetAt(t: number): number {
    return t >= this.from && t < this.until ? this.offset : zoneOffset(this.zone, t)
  }

  /** Local day `d`'s date, YYYY-MM-DD (kept: a zone's locations ask for the same few days). */
  date(d: number): string {
    let text = this.dates.get(d)
    if (text === undefined) {
      if (this.dates.size > 64) this.dates.clear()
      text = isoDate(d)
      this.dates.set(d, text)
    }
    return text
  }

  /** Reads the offset at `t` and when it next changes (within LOOK_AHEAD: else it holds that long). */
  private read(t: number): void {
    this.from = Math.floor(t / MINUTE) * MINUTE
    this.offset = zoneOffset(this.zone, this.from)
    const change = offsetChanges(this.zone, this.from, this.from + LOOK_AHEAD)[0]
    this.until = change ?? this.from + LOOK_AHEAD
    this.after = zoneOffset(this.zone, this.until)
    // With no change ahead, `after` is the offset only as far as was looked: an instant whose
    // horizon reaches past that (a change a week on) reads the zone again.
    this.fresh = change ?? this.from + LOOK_AHEAD - HORIZON_SPAN
  }
}

/** The local day (days since 1970-01-01) at instant `t` in the clock's zone: clock.date() gives its date. */
export function localDayOn(clock: ZoneClock, t: number): number {
  return Math.floor((Math.floor(t / MINUTE) + clock.at(t).offset) / DAY_MINUTES)
}

/** The instant the local day holding `t` ends: the next local midnight (the offset then taken into account). */
export function dayEndOn(clock: ZoneClock, t: number): number {
  const midnight = (localDayOn(clock, t) + 1) * DAY_MINUTES
  const { offset, until, after } = clock.at(t)
  const end = (midnight - offset) * MINUTE
  // Past the change of offset, midnight comes by the offset after it (never before that change).
  return end < until ? end : Math.max(until, (midnight - after) * MINUTE)
}

/** openState(schedule, clock.zone, at), the zone's offset taken from `clock`. */
export function openStateOn(schedule: Schedule, clock: ZoneClock, at: number): OpenState {
  const { offset, until, after } = clock.at(at)
  const nowLocal = Math.floor(at / MINUTE) + offset
  const today = Math.floor(nowLocal / DAY_MINUTES)
  const last = today + HORIZON_DAYS
  const hours = (d: number) =>
    (schedule.special !== undefined && schedule.special.size > 0 ? schedule.special.get(clock.date(d)) : undefined) ??
    schedule.week[weekday(d)] ?? { kind: 'unknown' as const }
  /** Open, closed or unknown at local minute m (unknown past the days looked at), from that day's and the day before's hours. */
  const state = (m: number): boolean | null => {
    const day = Math.floor(m / DAY_MINUTES)
    if (day > last) return null
    for (const d of [day - 1, day]) {
      const h = hours(d)
      if (h.kind !== 'open') continue
      for (const [s, e] of h.intervals) if (d * DAY_MINUTES + s <= m && m < d * DAY_MINUTES + e) return true
    }
    return hours(day).kind === 'unknown' ? null : false
  }
  const open = state(nowLocal)
  // The edges of the days looked at, in order, while the offset holds; past it, opening.ts answers.
  const edges: number[] = []
  for (let d = today - 1; d <= last; d++) {
    const h = hours(d)
    if (h.kind === 'open') for (const [s, e] of h.intervals) edges.push(d * DAY_MINUTES + s, d * DAY_MINUTES + e)
    if (h.kind === 'unknown') edges.push(d * DAY_MINUTES, (d + 1) * DAY_MINUTES)
  }
  edges.push((last + 1) * DAY_MINUTES)
  edges.sort((a, b) => a - b)
  // The local minutes the clocks skip or pass twice at the change of offset: an edge among them
  // is crossed at an instant (or twice) that opening.ts finds.
  const change = until / MINUTE
  const odd0 = change + Math.min(offset, after)
  const odd1 = change + Math.max(offset, after)
  for (const edge of edges) if (edge >= odd0 && edge < odd1) return openState(schedule, clock.zone, at)
  for (const edge of edges) {
    if (edge <= nowLocal) continue
    const instant = (edge - (edge < odd0 ? offset : after)) * MINUTE
    const then = state(edge)
    if (then === open) continue
    return { open, next: open === null || then === null ? null : instant, until: instant }
  }
  return openState(schedule, clock.zone, at) // not reached: the last edge is past the days looked at
}
