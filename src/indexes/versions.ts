// The version a locator's answers carry, the base of their ETags: its last change applied here,
// and, when its locations have hours, the instant the first of their open states changes. The
// same in every process on the database, and from any instant before that change.
import type { LocatorIndex } from '../engine/locator-index'
import type { Store } from '../store'

/**
 * A locator's version after `change`, its last: its seq and its `at`. A seq alone is given again
 * once a backup is restored into the file (the log rewound), to another write; with the time of
 * the write it names one state of the locator in every process, before and after restarts.
 */
export const versionOf = (change: { seq: number; at: string }): string =>
  `${change.seq.toString(36)}.${Bun.hash(change.at).toString(36)}`

/**
 * The part of a version (IndexRegistry.version) that names the locator's writes, without the
 * instant its open states hold until: the base of answers that show no open state.
 */
export function writtenPart(version: string): string {
  return version.slice(0, writtenLength(version))
}

/** The length of a version's written part (writtenPart), found without making it. */
export function writtenLength(version: string): number {
  const cut = version.indexOf('~')
  return cut === -1 ? version.length : cut
}

/** Whether a version names an instant its open states hold until (a version without one holds until the next write). */
export const hasOpenPart = (version: string): boolean => version.includes('~')

export class Versions {
  /** By locator: its version up to the changes applied (versionOf). */
  private written = new Map<string, string>()
  /** By locator: until when its open states hold, and the version made of that and `written`. */
  private open = new Map<string, { written: string; until: number; version: string }>()

  constructor(
    private readonly store: Store,
    /** The last change applied (ChangeFollower.appliedSeq). */
    private readonly appliedSeq: () => number,
    /** The instant answers are made for (ms since the epoch). */
    readonly now: () => number,
  ) {}

  /** A change applied: the locator's version is now its. */
  applied(change: { locatorId: string; seq: number; at: string }): void {
    this.written.set(change.locatorId, versionOf(change))
  }

  /** The locator's version is read from the change log again when next asked (its changes were skipped). */
  forget(locatorId: string): void {
    this.written.delete(locatorId)
  }

  /** Every version is read from the change log again (the log rewound or pruned). */
  forgetAll(): void {
    this.written.clear()
  }

  /** The locator's index let go: its open states with it. */
  dropOpen(locatorId: string): void {
    this.open.delete(locatorId)
  }

  /** The locator's version up to the changes applied. */
  current(locatorId: string): string {
    let v = this.written.get(locatorId)
    if (v === undefined) {
      // Up to the changes applied: one committed since the last sync is not in the index yet, and
      // an answer made now must not go out under its version (caches would keep it as current).
      const last = this.store.changes.lastFor(locatorId, this.appliedSeq())
      v = last === null ? '0' : versionOf(last)
      this.written.set(locatorId, v)
    }
    return v
  }

  /**
   * `written` (the version of the index's rows) with the instant its open states, brought to now,
   * hold until: answers carry them, so they change at that instant too.
   */
  withOpen(locatorId: string, written: string, index: LocatorIndex): string {
    const until = index.openAt(this.now())
    let open = this.open.get(locatorId)
    if (open === undefined || open.written !== written || open.until !== until) {
      open = { written, until, version: until === Infinity ? written : `${written}~${until.toString(36)}` }
      this.open.set(locatorId, open)
    }
    return open.version
  }

  /** Seconds from now that answers made at the last withOpen() hold, at most `max`. */
  maxAge(locatorId: string, max: number): number {
    const until = this.open.get(locatorId)?.until ?? Infinity
    return until === Infinity ? max : Math.max(0, Math.min(max, Math.floor((until - this.now()) / 1000)))
  }
}
