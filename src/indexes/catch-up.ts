// Many location changes to one index read from the change log together (a bulk write's) are
// applied in slices by background tasks, so that other locators' queries are answered between
// the slices; the locator's own queries wait for the last slice (IndexRegistry.whenBuilt), so
// none sees part of a write. PERF-066.
import { defaultSchedule, type Schedule, stepEnd } from '../engine/locator-index'
import type { Change } from '../store/changes'

/** A batch read from the log with this many location changes to one built index is applied in slices. */
export const CATCH_UP_MIN = 32

/**
 * A catch-up this old (ms) is applied at once when its locator is asked for: writes that never
 * stop would otherwise keep adding to it, and its queries waiting, for ever.
 */
export const CATCH_UP_MAX_MS = 250

/** The changes of one slice at least, whatever the time: a slice of one would pay a turn a change. */
const SLICE_MIN = 8

type Pending = { changes: Change[]; next: number; startedAt: number; done: Promise<void>; resolve: () => void }

export type CatchUpHost = {
  schedule: Schedule
  /** Applies one change to its index (and the locator's version to it). */
  apply(change: Change): void
  /** A slice failed (a busy or closed database): the locator's index is to be let go (with discard()) and built again from its rows. */
  failed(locatorId: string): void
  /** What CATCH_UP_MAX_MS is counted on (ms); tests step one. */
  clock(): number
}

export class CatchUps {
  private readonly pending = new Map<string, Pending>()
  /** The locators the batch being applied holds `min` location changes or more for (reading()). */
  private bulky = new Set<string>()

  private readonly schedule: Schedule

  constructor(
    /** CATCH_UP_MIN; tests may give Infinity: every change applied as it is read. */
    private readonly min: number,
    private readonly host: CatchUpHost,
  ) {
    // Without the default schedule's rests: requests are read between slices all the same. A test's runs them itself.
    this.schedule = host.schedule === defaultSchedule ? (task) => void setImmediate(task) : host.schedule
  }

  /**
   * Notes the locators `batch` (read from the log together, about to be applied) holds `min`
   * location changes or more for, of those `eligible` says (built): took() takes theirs. Returns them.
   */
  reading(batch: readonly Change[], eligible: (locatorId: string) => boolean): Set<string> {
    const counts = new Map<string, number>()
    for (const c of batch) if (c.entity === 'location') counts.set(c.locatorId, (counts.get(c.locatorId) ?? 0) + 1)
    this.bulky = new Set()
    for (const [locatorId, n] of counts) if (n >= this.min && eligible(locatorId)) this.bulky.add(locatorId)
    return this.bulky
  }

  /**
   * Takes a location change to a built index to apply later, after those taken before it, when
   * its batch was noted (reading()) or its locator has changes pending; false: apply it now.
   */
  took(change: Change): boolean {
    if (!this.bulky.has(change.locatorId) && !this.pending.has(change.locatorId)) return false
    this.add(change)
    return true
  }

  /** Resolves once the locator's changes taken so far, and those taken meanwhile, are applied; undefined when none are pending. */
  done(locatorId: string): Promise<void> | undefined {
    return this.pending.get(locatorId)?.done
  }

  /**
   * Whether the locator's queries are to wait for its pending changes (done()): when it has some,
   * taken less than CATCH_UP_MAX_MS ago. Older ones are applied now, and it says false.
   */
  waiting(locatorId: string): boolean {
    const p = this.pending.get(locatorId)
    if (p === undefined) return false
    if (this.host.clock() - p.startedAt < CATCH_UP_MAX_MS) return true
    this.flush(locatorId)
    return false
  }

  /** Takes a location change to apply later, after those taken before it; the first starts the slices. */
  private add(change: Change): void {
    let p = this.pending.get(change.locatorId)
    if (p === undefined) {
      let resolve = () => {}
      const done = new Promise<void>((r) => (resolve = r))
      p = { changes: [], next: 0, startedAt: this.host.clock(), done, resolve }
      this.pending.set(change.locatorId, p)
      const started = p
      this.schedule(() => this.slice(change.locatorId, started))
    }
    p.changes.push(change)
  }

  /** Applies the locator's pending changes now, in order: before any other change to it, or any read of its index but a waiting query's. */
  flush(locatorId: string): void {
    const p = this.pending.get(locatorId)
    if (p !== undefined) this.run(locatorId, p, Infinity)
  }

  /** Forgets the locator's pending changes unapplied (its index let go); true when it had some. */
  discard(locatorId: string): boolean {
    const p = this.pending.get(locatorId)
    if (p === undefined) return false
    this.pending.delete(locatorId)
    p.resolve()
    return true
  }

  private slice(locatorId: string, p: Pending): void {
    if (this.pending.get(locatorId) !== p) return // flushed or discarded meanwhile
    if (this.run(locatorId, p, stepEnd())) return
    this.schedule(() => this.slice(locatorId, p))
  }

  /** Applies `p`'s changes until `until` (performance.now()); true when it is done with them. */
  private run(locatorId: string, p: Pending, until: number): boolean {
    try {
      const first = p.next
      while (p.next < p.changes.length) {
        this.host.apply(p.changes[p.next++]!)
        if (p.next - first >= SLICE_MIN && performance.now() >= until) break
      }
    } catch {
      this.host.failed(locatorId) // which lets its index go: discard()
      this.discard(locatorId)
      return true
    }
    if (p.next < p.changes.length) return false
    this.pending.delete(locatorId)
    p.resolve()
    return true
  }
}
