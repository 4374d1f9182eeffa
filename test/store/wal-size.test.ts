// The -wal file's size on disk: a reader held open while much is written lets it grow, and the
// next write after the reader lets go cuts it back to WAL_KEPT_BYTES, not leaving it that big.
import { expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { WAL_KEPT_BYTES } from '../../src/store/db'
import { withTempStore } from '../helpers'

const env = withTempStore()

test('a WAL grown past its limit under a long reader is cut back once the reader is done', () => {
  const { store } = env
  const walSize = () => statSync(`${store.path}-wal`).size
  const reader = new Database(store.path, { readonly: true })
  try {
    reader.exec('BEGIN')
    reader.query('SELECT COUNT(*) FROM locators').get() // holds its snapshot: no checkpoint passes it
    const big = 'x'.repeat(1 << 20)
    for (let i = 0; i < 80; i++)
      store.write(() =>
        store.db.run('INSERT INTO geocode_cache VALUES (?, ?, ?, 0, 0)', ['test', `q${i}`, JSON.stringify(big)]),
      )
    expect(walSize()).toBeGreaterThan(WAL_KEPT_BYTES)
    reader.exec('COMMIT')
  } finally {
    reader.close()
  }
  store.db.exec('PRAGMA wal_checkpoint(PASSIVE)')
  store.write(() => store.db.run('DELETE FROM geocode_cache'))
  expect(walSize()).toBeLessThanOrEqual(WAL_KEPT_BYTES)
})
