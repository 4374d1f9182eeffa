// Each location's public JSON, filled in by background tasks after an index is built, and laid
// out again in the index's space order once enough was written out of it.
import { type IndexEntry, type Schedule, stepEnd } from '../engine/locator-index'
import type { Store } from '../store'
import { isBusyError } from '../store/db'
import type { LocationRecord } from '../store/locations'
import type { Entry } from './entry'
import { publicJson } from './present'

/** Locations whose public JSON is read in one statement; a task reads pages until its turn ends (stepEnd) (PERF-041). */
export const JSON_FILL_PAGE = 64
/** Locations one background task of reorderJson() looks at: a turn of a few ms (PERF-036). */
const REORDER_PAGE = 4000
/** The JSON is laid out again once this share of its bytes was written since, and at least REORDER_MIN_BYTES. */
const REORDER_SHARE = 1 / 8
export const REORDER_MIN_BYTES = 1024 * 1024

/** What the fill needs of its registry. */
export type JsonFill = {
  store: Store
  schedule: Schedule
  /** See BUSY_RETRY_MS (bounds.ts); tests use small ones. */
  busyRetryMs: number
  /** See REORDER_MIN_BYTES; tests use small ones. */
  reorderMinBytes: number
  /** The locator's entry now: a task for one replaced meanwhile stops. */
  current: (locatorId: string) => Entry | undefined
}

/**
 * Makes `doc`'s public JSON from its row and keeps its slot in the index; null (the slot freed)
 * if `doc` is no longer its id's entry. `inOrder`: the JSON fill's, in space order (JsonArena).
 */
export function keepJson(entry: Entry, doc: IndexEntry, row: LocationRecord, inOrder = false): number | null {
  const slot = entry.arena.add(publicJson(row, entry.ctx), inOrder)
  if (entry.index.setJson(doc, slot)) return slot
  entry.arena.free(slot)
  return null
}

/**
 * Fills in public JSON, a page of locations per scheduled task, until every entry has it. In the
 * index's space order, so an answer's locations, near each other, have their JSON near each
 * other in the arena: an answer's 20 copies read one run, faster than in row order (PERF-036).
 */
export function fillJson(fill: JsonFill, locatorId: string, entry: Entry, order: IndexEntry[], from: number): void {
  fill.schedule(() => {
    // Replaced meanwhile, or its JSON is to be made again with new settings (refresh() starts a new fill).
    if (fill.current(locatorId) !== entry || entry.stale?.json) return
    const until = stepEnd()
    let next = from
    do {
      const page: IndexEntry[] = []
      const start = next
      // Entries replaced or removed since the order was taken got their JSON with the change.
      for (; next < order.length && page.length < JSON_FILL_PAGE; next++) {
        const doc = order[next]!
        if (entry.index.get(doc.id) === doc && entry.index.json(doc) === null) page.push(doc)
      }
      if (page.length === 0) continue
      let rows: [IndexEntry, LocationRecord | null][]
      try {
        rows = pageRows(fill.store, locatorId, page)
      } catch (e) {
        // Another process held the database: the same page again BUSY_RETRY_MS later (the fill
        // must not stop, or the preload that waits for it would never end).
        if (!isBusyError(e)) throw e
        if (fill.busyRetryMs === 0) return fillJson(fill, locatorId, entry, order, start)
        const timer = setTimeout(() => fillJson(fill, locatorId, entry, order, start), fill.busyRetryMs)
        ;(timer as { unref?: () => void }).unref?.()
        return
      }
      for (const [doc, record] of rows) {
        // A row gone meanwhile (another process's write) is made on demand, or never. The page
        // was taken in this turn: each doc is still its id's entry, without JSON.
        if (record === null) continue
        try {
          keepJson(entry, doc, record, true)
        } catch {
          // Its JSON cannot be made (a row written behind the service's back): an answer that
          // needs it tries again on demand and fails there, alone; the fill goes on.
        }
      }
    } while (next < order.length && performance.now() < until)
    if (next < order.length) fillJson(fill, locatorId, entry, order, next)
    else {
      entry.jsonReady = true
      entry.arena.trim() // the newest buffer's free space (up to 8 MB) is not held for the next few writes
      reorderLater(fill, locatorId, entry) // what queries made on demand meanwhile
    }
  })
}

/**
 * The published rows of a page of the fill, null for those gone. Read in one statement; when
 * that fails (a row that cannot be read, written behind the service's back), one by one, the
 * unreadable rows left out as gone: the fill must not stop (nor throw in its task, which would
 * end the process) for one row, whose answers then fail on demand. Throws a busy database's error.
 */
function pageRows(store: Store, locatorId: string, page: IndexEntry[]): [IndexEntry, LocationRecord | null][] {
  try {
    const records = new Map(
      store.locations
        .publishedByIds(
          locatorId,
          page.map((doc) => doc.id),
        )
        .map((r) => [r.id, r]),
    )
    return page.map((doc) => [doc, records.get(doc.id) ?? null])
  } catch (e) {
    if (isBusyError(e)) throw e
    return page.map((doc) => {
      try {
        const row = store.locations.get(locatorId, doc.id)
        return [doc, row && row.status === 'published' ? row : null]
      } catch (e) {
        if (isBusyError(e)) throw e // the whole page again later (fillJson)
        return [doc, null]
      }
    })
  }
}

/**
 * Lays the JSON written since the fill (changes, and what queries made on demand) out again in
 * the index's space order, once there is enough of it, in background tasks: the writes append
 * it in the order they come, so after many (a nightly sync that updates every location) an
 * answer's 20 locations would be read from 20 places of the arena, not from one run, and answers
 * be slower than on a fresh index (PERF-017).
 */
export function reorderLater(fill: JsonFill, locatorId: string, entry: Entry): void {
  if (entry.reordering || !entry.jsonReady || entry.arena.outOfOrder < REORDER_SHARE) return
  if (entry.arena.outOfOrder * entry.arena.bytes.live < fill.reorderMinBytes) return
  entry.reordering = true
  reorderJson(fill, locatorId, entry, null, 0)
}

function reorderJson(fill: JsonFill, locatorId: string, entry: Entry, order: IndexEntry[] | null, from: number): void {
  fill.schedule(() => {
    // Replaced meanwhile (its arena with it), or its JSON is to be made again with new settings.
    if (fill.current(locatorId) !== entry || entry.stale?.json) {
      entry.reordering = false
      return
    }
    // A compaction under way gives the base a new order: wait for it, and take that one.
    if (order === null && entry.index.compacting) return reorderJson(fill, locatorId, entry, null, 0)
    order ??= entry.index.entriesInSpaceOrder()
    const end = Math.min(order.length, from + REORDER_PAGE)
    for (let i = from; i < end; i++) {
      const doc = order[i]!
      // Entries replaced or removed since the order was taken got their JSON, as written, with the change.
      const slot = entry.index.get(doc.id) === doc ? entry.index.json(doc) : null
      if (slot !== null) entry.arena.reorder(slot)
    }
    if (end < order.length) return reorderJson(fill, locatorId, entry, order, end)
    entry.reordering = false
    entry.arena.trim()
  })
}
