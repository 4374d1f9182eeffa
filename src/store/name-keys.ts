// The name_key column (migration 13) of the rows a migration found: each location's name as
// nameKey folds it, filled in the migration's transaction.
import type { Database } from 'bun:sqlite'
import { nameKey } from '../core/text'

/** Fills name_key of every location that has none: read first, then written, not while a read steps over them. */
export function fillNameKeys(db: Database): void {
  const rows = db.query<{ seq: number; name: string }, []>('SELECT seq, name FROM locations WHERE name_key IS NULL')
  const set = db.prepare<unknown, [string, number]>('UPDATE locations SET name_key = ? WHERE seq = ?')
  for (const { seq, name } of rows.all()) set.run(nameKey(name), seq)
}
