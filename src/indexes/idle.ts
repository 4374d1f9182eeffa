// What the idle sync does each second to the indexes built: finds those nobody queried for a
// while (their memory let go), and folds small deltas into their bases once writes stop.
import type { Entry } from './entry'

/**
 * The locators of `entries` no public request has asked for in `idleMs` or more (as seen by this
 * function's calls: a locator is idle from the first call that finds it unused since the call
 * before). Marks each entry used since the last call as unused from `now`.
 */
export function idleLocators(entries: Map<string, Entry>, idleMs: number, now: number): [string, Entry][] {
  const idle: [string, Entry][] = []
  for (const [locatorId, entry] of entries) {
    if (entry.used) {
      entry.used = false
      entry.usedAt = now
    } else if (now - entry.usedAt >= idleMs) idle.push([locatorId, entry])
  }
  return idle
}

/**
 * Starts a compaction, in background tasks, of each index with enough changes since its base was
 * built (LocatorIndex.settle) that no change reached in `quietMs` or more, or whose base is
 * `staleMs` old or more: a burst of writes is folded into the base once it stops, and writes
 * that never stop (one a second) are folded in every `staleMs`, not left to grow in the delta
 * towards its bound for hours. A quiet index's cluster tree written since its build is built
 * anew. Returns the locators whose compaction it started.
 */
export function settleDeltas(entries: Map<string, Entry>, quietMs: number, staleMs: number, now: number): string[] {
  const started: string[] = []
  // Compared as sums (now >= then + ms), as callers compute their times: a difference of two
  // fractional times can come out a hair below the sum's (150.00000000000003 or 149.99...).
  for (const [locatorId, entry] of entries) {
    const quiet = now >= entry.writtenAt + quietMs
    if (!quiet && now < entry.index.baseBuiltAt + staleMs) continue
    if (entry.index.settle()) started.push(locatorId)
    // After a quiet time every process answers its clusters as a tree built now would (the same
    // points, the same tree): a compaction builds it anew, and else this does.
    else if (quiet) entry.index.settleClusters()
  }
  return started
}
