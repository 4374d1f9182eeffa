import { expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS } from '../../src/store/migrations'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'

test('a database made by an earlier version is migrated in place, its rows kept', () => {
  const dir = tempDir()
  try {
    const path = join(dir, 'old.db')
    const old = new Database(path)
    old.exec(MIGRATIONS[0]!)
    old.exec('PRAGMA user_version = 1')
    old.exec("INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ('lct_old', 'Old', 'pk_x', 'now', 'now')")
    old.close()
    const store = openStore(path)
    expect(store.db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length })
    expect(store.locators.get('lct_old')?.name).toBe('Old')
    expect(store.db.query("SELECT count(*) AS n FROM pragma_table_info('locations') WHERE name = 'geocoded_at'").get()).toEqual({ n: 1 })
    store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a database from a newer version is refused, not damaged', () => {
  const dir = tempDir()
  try {
    const path = join(dir, 'new.db')
    const db = new Database(path)
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`)
    db.close()
    expect(() => openStore(path)).toThrow(/newer than this program/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
