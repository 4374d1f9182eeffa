// Shared by the tests of storeloc's locator settings, filters and priority (settings-*.test.ts): a
// temporary database path for each test, the CLI run on it, and a snapshot of the rows it could touch.
import { openStore } from '../../src/store'
import { dbPath, json } from './temp-database'

export { dbPath, dir, file, json, storeloc, useTempDatabase } from './temp-database'

/** Rows of every table a refused command could have touched, to prove it wrote nothing. */
export function snapshot() {
  const store = openStore(dbPath)
  try {
    const rows = (sql: string) => store.db.query(sql).all()
    return {
      locators: rows('SELECT * FROM locators ORDER BY id'),
      filterGroups: rows('SELECT * FROM filter_groups ORDER BY locator_id, position'),
      filterTags: rows('SELECT * FROM filter_tags ORDER BY locator_id, group_id, position'),
      priority: rows('SELECT * FROM priority_rules ORDER BY locator_id, position'),
      changes: rows('SELECT count(*) AS n FROM changes'),
    }
  } finally {
    store.close()
  }
}

export const newLocator = (name = 'Acme') => json('locator', 'create', '--name', name).locator
