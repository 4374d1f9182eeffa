// Which locations are open, by key, at the last instant asked for: each location's state (open,
// closed or unknown) and next change, from its hours (IndexDoc.hours), held until its `until` (at
// the latest the end of its local day, as answers also show the day's hours); a heap of those
// instants says which to look at again when a later instant is asked for. The open ones are also
// a bit column of the base (Base.openCol), so queries test them 32 positions at once.
import { type Schedule, weekday } from '../core/opening'
import { dayEndOn, localDayOn, openStateOn, type ZoneClock } from '../core/zone-clock'
import { ensure } from './arrays'
import type { Base } from './base'

/**
 * A location's hours as the index takes them: its week and dated exceptions, read and as written
 * (`texts`), and its zone's clock (shared by the zone's locations).
 */
export type OpeningHours = { schedule: Schedule; texts: HoursTexts; clock: ZoneClock }

/** Hours text as written: Monday first, and by local date (YYYY-MM-DD). */
export type HoursTexts = { week: readonly string[]; special: ReadonlyMap<string, string> }

/** The hours text in force on the local date of instant `t`: that date's special hours, else its weekday's. */
export function hoursTextOn(hours: OpeningHours, t: number): string {
  const day = localDayOn(hours.clock, t)
  return hours.texts.special.get(hours.clock.date(day)) ?? hours.texts.week[weekday(day)] ?? ''
}

/** By key: open, closed, or unknown (no hours, or none that say). */
export const OPEN = 1
export const CLOSED = 0
export const UNKNOWN = 2

/** A key's state at instant `at` (OpenNow.at): its state (OPEN...), and when it next opens or closes (NaN: not known). */
export type KeyOpenState = { state: number; next: number; at: number }

export class OpenNow {
  /** The instant the states are for: the last one advance() was asked (-Infinity: none yet). */
  at = -Infinity
  private hours: (OpeningHours | null)[] = []
  state = new Uint8Array(0)
  private next = new Float64Array(0)
  /** Until when a key's state holds: -Infinity when it is to be found (due), Infinity without hours. */
  private until = new Float64Array(0)
  /** By key: what the caller made of its state (cached()), dropped when the state is found again. */
  private made: unknown[] = []
  /** Keys with hours: the heap's live entries. */
  private withHours = 0
  private readonly heap = new UntilHeap()

  constructor(private readonly base: Base) {}

  /** Room for `n` keys. The arrays of values are kept dense (filled as they grow): keys are written in any order. */
  grow(n: number): void {
    this.state = ensure(this.state, n)
    this.next = ensure(this.next, n)
    this.until = ensure(this.until, n)
    while (this.hours.length < n) this.hours.push(null)
    while (this.made.length < n) this.made.push(undefined)
  }

  /** A key's hours (null: none, unknown always), written or replaced: its state is found at the next advance(). */
  put(key: number, hours: OpeningHours | null): void {
    if (this.hours[key]) this.withHours--
    this.hours[key] = hours
    this.made[key] = undefined
    this.state[key] = UNKNOWN
    this.next[key] = NaN
    if (hours === null) {
      this.until[key] = Infinity
      return
    }
    this.withHours++
    this.until[key] = -Infinity
    this.heap.push(key, -Infinity)
  }

  /** Forgets a removed key. */
  remove(key: number): void {
    this.put(key, null)
  }

  /**
   * Brings every state to instant `t`: the keys whose state held until `t` or earlier are looked
   * at again (all of them when `t` is earlier than the last instant asked). Returns the earliest
   * instant a state may change after `t` (Infinity: none will).
   */
  advance(t: number): number {
    this.findDue(t, Infinity)
    const { heap, until } = this
    // Entries left behind by writes (their key's until moved on) do not count.
    while (heap.size > 0 && until[heap.topKey()] !== heap.topUntil()) heap.pop()
    if (heap.size > 4 * this.withHours + 1024) this.heap.rebuild(until, this.hours)
    return heap.size === 0 ? Infinity : heap.topUntil()
  }

  /**
   * advance(t) in steps (a build's): finds the states due by `t` until performance.now() passes
   * `end`, checked every 64 keys. True once none is left; a later advance() finds any left.
   */
  advanceUntil(t: number, end: number): boolean {
    return this.findDue(t, end)
  }

  private findDue(t: number, end: number): boolean {
    if (t < this.at) {
      this.heap.clear()
      for (let key = 0; key < this.hours.length; key++)
        if (this.hours[key]) {
          this.until[key] = -Infinity
          this.heap.push(key, -Infinity)
        }
    }
    this.at = t
    const { heap, until } = this
    // Locations of a chain share one OpeningHours, and come due together: each is read once at t
    // (made only when some key is due: most calls find none).
    let found: Map<OpeningHours, Found> | null = null
    for (let n = 1; heap.size > 0 && heap.topUntil() <= t; n++) {
      if ((n & 63) === 0 && performance.now() >= end) return false
      const key = heap.topKey()
      const due = heap.topUntil()
      heap.pop()
      if (until[key] === due) this.find(key, t, (found ??= new Map()))
    }
    return true
  }

  /** A key's hours (null: none). */
  hoursOf(key: number): OpeningHours | null {
    return this.hours[key] ?? null
  }

  /** A key's state at `at` (advance() first). */
  stateOf(key: number): KeyOpenState {
    return { state: this.state[key]!, next: this.next[key]!, at: this.at }
  }

  /** What `make` makes of a key's state, kept until the state is found again (by the end of its local day). */
  cached<T>(key: number, make: (state: KeyOpenState, hours: OpeningHours | null) => T): T {
    let made = this.made[key] as T | undefined
    if (made === undefined) made = this.made[key] = make(this.stateOf(key), this.hours[key] ?? null)
    return made
  }

  /** The base's open column, as the states say now (after a new base is swapped in). */
  fillColumn(): void {
    const { base } = this
    const { key, cols, openCol } = base
    cols.fill(0, openCol, openCol + base.colWords)
    for (let at = 0; at < key.length; at++)
      if (this.state[key[at]!] === OPEN) cols[openCol + (at >>> 5)]! |= 1 << (at & 31)
  }

  private find(key: number, t: number, memo: Map<OpeningHours, Found>): void {
    const hours = this.hours[key]!
    let found = memo.get(hours)
    if (found === undefined) {
      found = foundAt(hours, t)
      memo.set(hours, found)
    }
    const { open, next, until } = found
    const state = open === null ? UNKNOWN : open ? OPEN : CLOSED
    if ((state === OPEN) !== (this.state[key] === OPEN)) this.flip(key, state === OPEN)
    this.state[key] = state
    this.next[key] = next
    this.until[key] = until
    this.made[key] = undefined
    if (until !== Infinity) this.heap.push(key, until)
  }

  /** Sets or clears a key's bit in the base's open column, if it has a position there. */
  private flip(key: number, open: boolean): void {
    const at = this.base.pos[key]!
    if (at === -1) return
    const word = this.base.openCol + (at >>> 5)
    if (open) this.base.cols[word]! |= 1 << (at & 31)
    else this.base.cols[word]! &= ~(1 << (at & 31))
  }
}

/** A state found: open (null: unknown), the next change (NaN: not known), until when it holds. */
type Found = { open: boolean | null; next: number; until: number }

/** The state of `hours` at t, holding at most until the end of its local day. */
function foundAt(hours: OpeningHours, t: number): Found {
  try {
    const found = openStateOn(hours.schedule, hours.clock, t)
    return { open: found.open, next: found.next ?? NaN, until: Math.min(found.until, dayEndOn(hours.clock, t)) }
  } catch {
    // A zone this runtime's Intl does not know: unknown, for good (writes check zones; a row written otherwise).
    return { open: null, next: NaN, until: Infinity }
  }
}

/** A binary min-heap of (until, key). */
class UntilHeap {
  private untils = new Float64Array(64)
  private keys = new Int32Array(64)
  size = 0

  topUntil(): number {
    return this.untils[0]!
  }

  topKey(): number {
    return this.keys[0]!
  }

  clear(): void {
    this.size = 0
  }

  push(key: number, until: number): void {
    if (this.size === this.keys.length) {
      this.untils = ensure(this.untils, this.size * 2)
      this.keys = ensure(this.keys, this.size * 2)
    }
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.untils[parent]! <= until) break
      this.untils[i] = this.untils[parent]!
      this.keys[i] = this.keys[parent]!
      i = parent
    }
    this.untils[i] = until
    this.keys[i] = key
  }

  pop(): void {
    const n = --this.size
    if (n === 0) return
    const until = this.untils[n]!
    const key = this.keys[n]!
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= n) break
      if (child + 1 < n && this.untils[child + 1]! < this.untils[child]!) child++
      if (this.untils[child]! >= until) break
      this.untils[i] = this.untils[child]!
      this.keys[i] = this.keys[child]!
      i = child
    }
    this.untils[i] = until
    this.keys[i] = key
  }

  /** The heap again from the keys' untils, without the entries writes left behind. */
  rebuild(until: Float64Array, hours: readonly (OpeningHours | null)[]): void {
    this.size = 0
    for (let key = 0; key < hours.length; key++) if (hours[key] && until[key] !== Infinity) this.push(key, until[key]!)
  }
}
