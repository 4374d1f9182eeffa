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
  const list = db.prepare<{ rule: string }, [string]>(
    'SELECT rule FROM priority_rules WHERE locator_id = ? ORDER BY position',
  )
  const remove = db.prepare<unknown, [string]>('DELETE FROM priority_rules WHERE locator_id = ?')
  const insert = db.prepare<unknown, [string, number, string]>(
    'INSERT INTO priority_rules (locator_id, position, rule) VALUES (?, ?, ?)',
  )
  // ranked_custom_values (migration 3): the values of the fields the rules name, kept by triggers from then on.
  const dropValues = db.prepare<unknown, [string, string]>(
    'DELETE FROM ranked_custom_values WHERE locator_id = ? AND field NOT IN (SELECT value FROM json_each(?))',
  )
  const fillValues = db.prepare<unknown, [string, string]>(
    "INSERT OR IGNORE INTO ranked_custom_values SELECT l.locator_id, j.key, j.value, l.id FROM locations AS l, json_each(l.custom_fields) AS j WHERE l.locator_id = ? AND l.status = 'published' AND j.key = ? AND j.type != 'null'",
  )
  const fieldsOf = (rules: PriorityRule[]) =>
    new Set(rules.flatMap((rule) => ('custom_field' in rule ? [rule.custom_field] : [])))
  const rulesOf = (locatorId: string) => list.all(locatorId).map((r) => JSON.parse(r.rule) as PriorityRule)
  return {
    list: rulesOf,
    /**
     * Deletes the locator's rules and writes `rules` in their place, in order, with the values of
     * the custom fields they name kept from now on (ranked_custom_values); call inside a write
     * transaction.
     */
    replace(locatorId: string, rules: PriorityRule[]): void {
      const before = fieldsOf(rulesOf(locatorId))
      const after = fieldsOf(rules)
      remove.run(locatorId)
      rules.forEach((rule, position) => insert.run(locatorId, position, JSON.stringify(rule)))
      // A field newly named is filled from the rows (a scan of the locator's, once); one no longer named is dropped.
      dropValues.run(locatorId, JSON.stringify([...after]))
      for (const field of after) if (!before.has(field)) fillValues.run(locatorId, field)
      changes.append(locatorId, 'priority', null, 'upsert')
    },
  }
}
export type PriorityRepo = ReturnType<typeof priorityRepo>
