// openState (opening.ts) for many locations at one instant, without Intl on each: a zone's offset
// is read once and kept while it holds (until the zone's next change of offset), and a location's
// hours are then looked up by local day and minute. Where a change of offset comes before the
// answer's next change, opening.ts answers instead, so the two always agree.
import { isoDate, offsetChanges, type OpenState, openState, type Schedule, weekday, zoneOffset } from './opening'

const MINUTE = 60_000
const DAY_MINUTES = 1440
/** How far ahead a zone's next change of offset is looked for: past the horizon of openState. */
const LOOK_AHEAD = 10 * DAY_MINUTES * MINUTE

/** One zone's offset, and the instants between which it holds. */
export class ZoneClock {
  private from = 0
  private until = -1
  private offset = 0
  private readonly dates = new Map<number, string>()

  constructor(readonly zone: string) {}

  /** The offset (minutes) at `t`, and the instant it holds until (exclusive). */
  at(t: number): { offset: number; until: number } {
    if (t < this.from || t >= this.until) this.read(t)
    return { offset: this.offset, until: this.until }
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
    this.until = offsetChanges(this.zone, this.from, this.from + LOOK_AHEAD)[0] ?? this.from + LOOK_AHEAD
  }
}

/** openState(schedule, clock.zone, at), the zone's offset taken from `clock`. */
export function openStateOn(schedule: Schedule, clock: ZoneClock, at: number): OpenState {
  const { offset, until } = clock.at(at)
  const nowLocal = Math.floor(at / MINUTE) + offset
  const today = Math.floor(nowLocal / DAY_MINUTES)
  const hours = (d: number) =>
    (schedule.special !== undefined && schedule.special.size > 0 ? schedule.special.get(clock.date(d)) : undefined) ??
    schedule.week[weekday(d)] ?? { kind: 'unknown' as const }
  /** Open, closed or unknown at local minute m, and the end of what holds then (a local minute), from today and yesterday's hours. */
  const state = (m: number): boolean | null => {
    const day = Math.floor(m / DAY_MINUTES)
    for (const d of [day - 1, day]) {
      const h = hours(d)
      if (h.kind !== 'open') continue
      for (const [s, e] of h.intervals) if (d * DAY_MINUTES + s <= m && m < d * DAY_MINUTES + e) return true
    }
    return hours(day).kind === 'unknown' ? null : false
  }
  const open = state(nowLocal)
  if (open === null) return { open: null, next: null }
  // The next edge, today or tomorrow; further, or past the offset's end, opening.ts walks the week.
  const edges: number[] = []
  for (const d of [today - 1, today, today + 1]) {
    const h = hours(d)
    if (h.kind === 'open') for (const [s, e] of h.intervals) edges.push(d * DAY_MINUTES + s, d * DAY_MINUTES + e)
    if (h.kind === 'unknown') edges.push(d * DAY_MINUTES)
  }
  edges.push((today + 1) * DAY_MINUTES, (today + 2) * DAY_MINUTES)
  edges.sort((a, b) => a - b)
  for (const edge of edges) {
    if (edge <= nowLocal || state(edge) === open) continue
    const instant = (edge - offset) * MINUTE
    if (edge >= (today + 2) * DAY_MINUTES || instant >= until) break
    return state(edge) === null ? { open, next: null } : { open, next: instant }
  }
  return openState(schedule, clock.zone, at)
}
