// The code_key column (migration 15), filled after migration 17: each store code as bareCode
// compares it, in the migration's transaction. Twins already stored (codes of a locator that
// differ by invisible characters alone) are left unkeyed, each of them: the unique index
// (migration 16) would refuse them, and every lookup reads the unkeyed rows.
import type { Database } from 'bun:sqlite'
import { bareCode } from '../core/text'

/** Fills code_key of every location with a store code and none: read first, then written. */
export function fillCodeKeys(db: Database): void {
  const rows = db
    .query<{ seq: number; locator_id: string; external_id: string }, []>(
      'SELECT seq, locator_id, external_id FROM locations WHERE external_id IS NOT NULL AND code_key IS NULL',
    )
    .all()
  const byKey = new Map<string, { key: string; seqs: number[] }>()
  for (const { seq, locator_id, external_id } of rows) {
    const key = bareCode(external_id)
    if (key === '') continue // invisible characters alone: every such code is each other's twin
    const both = `${locator_id}\u0000${key}`
    const held = byKey.get(both)
    if (held === undefined) byKey.set(both, { key, seqs: [seq] })
    else held.seqs.push(seq)
  }
  const set = db.prepare<unknown, [string, number]>('UPDATE locations SET code_key = ? WHERE seq = ?')
  for (const { key, seqs } of byKey.values()) if (seqs.length === 1) set.run(key, seqs[0]!)
}
