import type { Database } from 'bun:sqlite'

export type ChangeEntity = 'locator' | 'key' | 'location' | 'custom_field' | 'filters' | 'priority'
/** `at`: when it was committed (ISO): with `seq`, what tells this change from another given the same seq (a backup restored into the file rewinds the log). */
export type Change = {
  seq: number
  locatorId: string
  entity: ChangeEntity
  entityId: string | null
  op: 'upsert' | 'delete'
  at: string
}

/** A row of the change log as read. */
type ChangeRow = {
  seq: number
  locator_id: string
  entity: ChangeEntity
  entity_id: string | null
  op: 'upsert' | 'delete'
  at: string
}

const change = (r: ChangeRow): Change => ({
  seq: r.seq,
  locatorId: r.locator_id,
  entity: r.entity,
  entityId: r.entity_id,
  op: r.op,
  at: r.at,
})

/** The own changes ownLocationChanges() can find: far more than a build's few seconds of writes. */
const OWN_KEPT = 100_000

/** The change log. `append` must run inside the transaction of the write it records. */
export function changeLog(db: Database) {
  const insert = db.prepare<
    unknown,
    { locator_id: string; entity: string; entity_id: string | null; op: string; at: string }
  >('INSERT INTO changes (locator_id, entity, entity_id, op, at) VALUES ($locator_id, $entity, $entity_id, $op, $at)')
  const since = db.prepare<ChangeRow, { seq: number; limit: number }>(
    'SELECT seq, locator_id, entity, entity_id, op, at FROM changes WHERE seq > $seq ORDER BY seq LIMIT $limit',
  )
  // The same, leaving out the location and key changes of the locators named (a JSON array), up to $through.
  const sinceSkipping = db.prepare<ChangeRow, { seq: number; through: number; skip: string; limit: number }>(
    "SELECT seq, locator_id, entity, entity_id, op, at FROM changes WHERE seq > $seq AND seq <= $through AND NOT (entity IN ('location', 'key') AND locator_id IN (SELECT value FROM json_each($skip))) ORDER BY seq LIMIT $limit",
  )
  const atSeq = db.prepare<{ at: string }, [number]>('SELECT at FROM changes WHERE seq = ?')
  const last = db.prepare<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM changes')
  const lastFor = db.prepare<{ seq: number; at: string }, [string, number]>(
    'SELECT seq, at FROM changes WHERE locator_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1',
  )
  const locationCount = db.prepare<{ n: number }, [string, number, number]>(
    "SELECT count(*) AS n FROM changes WHERE locator_id = ? AND entity = 'location' AND seq > ? AND seq <= ?",
  )
  const locationIds = db.prepare<{ id: string }, [string, number, number]>(
    "SELECT DISTINCT entity_id AS id FROM changes WHERE locator_id = ? AND seq > ? AND seq <= ? AND entity = 'location'",
  )
  const pruned = db.prepare<{ through: number }, []>('SELECT through FROM changes_pruned')
  const setPruned = db.prepare<unknown, [number]>('UPDATE changes_pruned SET through = ?')
  const firstAtOrAfter = db.prepare<{ seq: number }, [number, string]>(
    'SELECT seq FROM changes WHERE seq > ? AND at >= ? ORDER BY seq LIMIT 1',
  )
  const nth = db.prepare<{ seq: number }, [number, number]>(
    'SELECT seq FROM changes WHERE seq > ? ORDER BY seq LIMIT 1 OFFSET ?',
  )
  // Each locator's last change up to `through` stays: its version (IndexRegistry.version, lastFor)
  // from there on. Those kept by an earlier prune go once superseded (from seq 0: they are few).
  const removeThrough = db.prepare<unknown, { through: number }>(
    'DELETE FROM changes AS d WHERE d.seq <= $through AND d.seq < (SELECT max(seq) FROM changes AS c WHERE c.locator_id = d.locator_id AND c.seq <= $through)',
  )
  // Of the seqs given, the location changes of the locators given, in order.
  const ownRows = db.prepare<ChangeRow, [string, string]>(
    "SELECT seq, locator_id, entity, entity_id, op, at FROM changes WHERE seq IN (SELECT value FROM json_each(?)) AND entity = 'location' AND locator_id IN (SELECT value FROM json_each(?)) ORDER BY seq",
  )
  // The changes this connection appended, by seq (rising), each with its `at` and entity id, the
  // last OWN_KEPT or so. A write rolled back leaves its seq to another write, maybe another
  // process's: a row whose `at` and id are not those noted is not this one's.
  let own: number[] = []
  const ownMark = new Map<number, string>()
  const prunedThrough = (): number => pruned.get()?.through ?? 0
  const lastSeq = (): number => last.get()?.seq ?? 0
  return {
    append(locatorId: string, entity: ChangeEntity, entityId: string | null, op: 'upsert' | 'delete'): void {
      const at = new Date().toISOString()
      const { lastInsertRowid } = insert.run({ locator_id: locatorId, entity, entity_id: entityId, op, at })
      const seq = Number(lastInsertRowid)
      // A seq given again was rolled back with the seqs after it: those are not this process's.
      while (own.length > 0 && own.at(-1)! >= seq) ownMark.delete(own.pop()!)
      own.push(seq)
      ownMark.set(seq, `${at} ${entityId}`)
      if (own.length > 2 * OWN_KEPT) {
        for (const gone of own.slice(0, own.length - OWN_KEPT)) ownMark.delete(gone)
        own = own.slice(-OWN_KEPT)
      }
    },
    /** The location changes this process committed after `after` up to `through`, of the locators in `locators`, in order. */
    ownLocationChanges(after: number, through: number, locators: readonly string[]): Change[] {
      let lo = 0
      let hi = own.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (own[mid]! <= after) lo = mid + 1
        else hi = mid
      }
      const seqs: number[] = []
      for (let i = lo; i < own.length && own[i]! <= through; i++) seqs.push(own[i]!)
      if (seqs.length === 0) return []
      return ownRows
        .all(JSON.stringify(seqs), JSON.stringify(locators))
        .filter((r) => ownMark.get(r.seq) === `${r.at} ${r.entity_id}`)
        .map(change)
    },
    since(seq: number, limit = 10_000): Change[] {
      return since.all({ seq, limit }).map(change)
    },
    /** since(), up to `through`, without the location and key changes of the locators in `skip`. */
    sinceSkipping(seq: number, through: number, skip: readonly string[], limit = 10_000): Change[] {
      return sinceSkipping.all({ seq, through, skip: JSON.stringify(skip), limit }).map(change)
    },
    /** How many location changes the locator has after `after` up to `through` (counted in an index: ~2 ms for 50,000). */
    locationCount(locatorId: string, after: number, through: number): number {
      return locationCount.get(locatorId, after, through)!.n
    },
    /** The ids of the locator's locations changed after `after` up to `through`, each once. */
    locationIds(locatorId: string, after: number, through: number): string[] {
      return locationIds.all(locatorId, after, through).map((r) => r.id)
    },
    /** When change `seq` was committed; null when the log holds no such change. */
    at(seq: number): string | null {
      return atSeq.get(seq)?.at ?? null
    },
    lastSeq,
    /** The changes up to this seq may be gone (prune), each locator's last one up to it kept; 0 when none ever was. */
    prunedThrough,
    /** Where a prune of the changes committed before `before` (ISO) ends: the seq before the first change since, else the last. */
    pruneEnd(before: string): number {
      const first = firstAtOrAfter.get(prunedThrough(), before)
      return first === null ? lastSeq() : first.seq - 1
    },
    /**
     * Deletes the changes after prunedThrough() up to `end`, at most `limit` of them looked at,
     * each locator's last change up to there kept; call inside a write transaction. Returns the new
     * prunedThrough() (`end` once it got there). A process that had applied less than it builds
     * its indexes again (IndexRegistry.sync): the changes it has not seen may be gone.
     */
    prune(end: number, limit: number): number {
      const from = prunedThrough()
      if (end <= from) return from
      const through = Math.min(end, nth.get(from, limit - 1)?.seq ?? end)
      removeThrough.run({ through })
      setPruned.run(through)
      return through
    },
    /** The locator's last change up to `upTo` (a change log position), as its seq and `at`; null if none. */
    lastFor(locatorId: string, upTo: number): { seq: number; at: string } | null {
      return lastFor.get(locatorId, upTo) ?? null
    },
  }
}
export type ChangeLog = ReturnType<typeof changeLog>
