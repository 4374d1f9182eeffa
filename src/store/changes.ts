import type { Database } from 'bun:sqlite'

export type ChangeEntity = 'locator' | 'key' | 'location' | 'custom_field' | 'filters' | 'priority'
/** `at`: when it was committed (ISO): with `seq`, what tells this change from another given the same seq (a backup restored into the file rewinds the log). */
export type Change = { seq: number; locatorId: string; entity: ChangeEntity; entityId: string | null; op: 'upsert' | 'delete'; at: string }

/** The change log. `append` must run inside the transaction of the write it records. */
export function changeLog(db: Database) {
  const insert = db.prepare<unknown, { locator_id: string; entity: string; entity_id: string | null; op: string; at: string }>(
    'INSERT INTO changes (locator_id, entity, entity_id, op, at) VALUES ($locator_id, $entity, $entity_id, $op, $at)',
  )
  const since = db.prepare<{ seq: number; locator_id: string; entity: ChangeEntity; entity_id: string | null; op: 'upsert' | 'delete'; at: string }, { seq: number; limit: number }>(
    'SELECT seq, locator_id, entity, entity_id, op, at FROM changes WHERE seq > $seq ORDER BY seq LIMIT $limit',
  )
  const atSeq = db.prepare<{ at: string }, [number]>('SELECT at FROM changes WHERE seq = ?')
  const last = db.prepare<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM changes')
  const lastFor = db.prepare<{ seq: number; at: string }, [string, number]>('SELECT seq, at FROM changes WHERE locator_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1')
  return {
    append(locatorId: string, entity: ChangeEntity, entityId: string | null, op: 'upsert' | 'delete'): void {
      insert.run({ locator_id: locatorId, entity, entity_id: entityId, op, at: new Date().toISOString() })
    },
    since(seq: number, limit = 10_000): Change[] {
      return since.all({ seq, limit }).map((r) => ({ seq: r.seq, locatorId: r.locator_id, entity: r.entity, entityId: r.entity_id, op: r.op, at: r.at }))
    },
    /** When change `seq` was committed; null when the log holds no such change. */
    at(seq: number): string | null {
      return atSeq.get(seq)?.at ?? null
    },
    lastSeq(): number {
      return last.get()?.seq ?? 0
    },
    /** The locator's last change up to `upTo` (a change log position), as its seq and `at`; null if none. */
    lastFor(locatorId: string, upTo: number): { seq: number; at: string } | null {
      return lastFor.get(locatorId, upTo) ?? null
    },
  }
}
export type ChangeLog = ReturnType<typeof changeLog>
