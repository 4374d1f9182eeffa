// Priority rules, per locator: an ordered list. A location's rank is the index of the first rule it
// matches (unmatched: after every rule); sort=priority orders by rank, then distance or name.
import type { Database } from 'bun:sqlite'
import type { ChangeLog } from './changes'

export type PriorityRule =
  | { tag: string } // the location has this tag (case-insensitive)
  | { custom_field: string; value: string } // this custom field has exactly this value
  | { ids: string[] } // the location is one of these

/** A locator's priority rules, replaced as a whole. Each row holds one rule as JSON, in rank order. */
export function priorityRepo(db: Database, changes: ChangeLog) {
  const list = db.prepare<{ rule: string }, [string]>('SELECT rule FROM priority_rules WHERE locator_id = ? ORDER BY position')
  const remove = db.prepare<unknown, [string]>('DELETE FROM priority_rules WHERE locator_id = ?')
  const insert = db.prepare<unknown, [string, number, string]>('INSERT INTO priority_rules (locator_id, position, rule) VALUES (?, ?, ?)')
  return {
    list(locatorId: string): PriorityRule[] {
      return list.all(locatorId).map((r) => JSON.parse(r.rule) as PriorityRule)
    },
    /** Deletes the locator's rules and writes `rules` in their place, in order; call inside a write transaction. */
    replace(locatorId: string, rules: PriorityRule[]): void {
      remove.run(locatorId)
      rules.forEach((rule, position) => insert.run(locatorId, position, JSON.stringify(rule)))
      changes.append(locatorId, 'priority', null, 'upsert')
    },
  }
}
export type PriorityRepo = ReturnType<typeof priorityRepo>
