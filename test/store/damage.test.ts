// A store that met a damaged page writes nothing more: its writes, its shared commits and its
// bookkeeping (a key's last use) are refused from then on.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { createKey, createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { DamagedError } from '../../src/store/damage'
import { tempDir } from '../helpers'

test('after a corruption is noted, write, writeSoon and markUsed write nothing', async () => {
  const dir = tempDir()
  const store = openStore(join(dir, 'damage.db'))
  try {
    const locatorId = createLocator(store, 'Damaged').locator.id
    const { key } = createKey(store, locatorId, null)
    store.db.exec("UPDATE api_keys SET last_used_at = '2000-01-01T00:00:00.000Z'")
    const lastUse = () =>
      store.db.query<{ at: string }, [string]>('SELECT last_used_at AS at FROM api_keys WHERE id = ?').get(key.id)!.at
    const locators = () => store.locators.count()

    expect(store.damaged()).toBeNull()
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' })
    store.noteDamage(new Error('not a corruption'))
    expect(store.damaged()).toBeNull()
    store.noteDamage(corrupt)
    expect(store.damaged()).toBeInstanceOf(DamagedError)
    expect(store.damaged()!.message).toContain('database disk image is malformed')

    expect(store.keys.markUsed(key.id)).toBe(false)
    expect(lastUse()).toBe('2000-01-01T00:00:00.000Z')
    expect(() => store.write(() => store.locators.insert('Another'))).toThrow(DamagedError)
    await expect(store.writeSoon(() => store.locators.insert('Another'))).rejects.toBeInstanceOf(DamagedError)
    expect(locators()).toBe(1)
  } finally {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
