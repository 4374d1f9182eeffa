import type { Database } from 'bun:sqlite'
import { isBusyError, storageFault } from './db'
import { hashSecret, keyDisplayPrefix, newKeyId, newSecretKey } from '../core/ids'
import type { ChangeLog } from './changes'

export type ApiKey = {
  id: string
  locatorId: string
  prefix: string
  status: 'active' | 'revoked'
  expiresAt: string | null
  lastUsedAt: string | null
  exposedAt: string | null
  createdAt: string
}

type Row = {
  id: string
  locator_id: string
  key_hash: string
  prefix: string
  status: 'active' | 'revoked'
  expires_at: string | null
  last_used_at: string | null
  exposed_at: string | null
  created_at: string
}

const fromRow = (r: Row): ApiKey => ({
  id: r.id,
  locatorId: r.locator_id,
  prefix: r.prefix,
  status: r.status,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  exposedAt: r.exposed_at,
  createdAt: r.created_at,
})

/** An expiry at or before `now` (ms) means the key no longer works. */
export const isExpired = (key: Pick<ApiKey, 'expiresAt'>, now: number = Date.now()) =>
  key.expiresAt !== null && Date.parse(key.expiresAt) <= now

/** Only recorded when the previous use is older than this, so reads do not each cost a write. */
const LAST_USED_RESOLUTION_MS = 60_000

/**
 * `bookkeeping` is a second connection with busy_timeout 0: recording a key's last use must never
 * make a read wait for, or fail on, another process's write lock. `refused`: whether writes are
 * refused now (the file found damaged or moved), which bookkeeping honours too.
 */
export function keyRepo(
  db: Database,
  changes: ChangeLog,
  bookkeeping: Database = db,
  refused: () => boolean = () => false,
) {
  const byId = db.prepare<Row, [string]>('SELECT * FROM api_keys WHERE id = ?')
  const byHash = db.prepare<Row, [string]>('SELECT * FROM api_keys WHERE key_hash = ?')
  const byLocator = db.prepare<Row, [string]>('SELECT * FROM api_keys WHERE locator_id = ? ORDER BY created_at, id')
  const insert = db.prepare<
    unknown,
    { id: string; locator_id: string; key_hash: string; prefix: string; expires_at: string | null; now: string }
  >(
    'INSERT INTO api_keys (id, locator_id, key_hash, prefix, expires_at, created_at) VALUES ($id, $locator_id, $key_hash, $prefix, $expires_at, $now)',
  )
  const revoke = db.prepare<unknown, [string]>("UPDATE api_keys SET status = 'revoked' WHERE id = ?")
  const setExpiry = db.prepare<unknown, [string, string]>('UPDATE api_keys SET expires_at = ? WHERE id = ?')
  const touch = bookkeeping.prepare<unknown, [string, string, string]>(
    'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
  )
  const expose = db.prepare<unknown, [string, string]>(
    'UPDATE api_keys SET exposed_at = ? WHERE id = ? AND exposed_at IS NULL',
  )

  return {
    get(id: string): ApiKey | null {
      const row = byId.get(id)
      return row ? fromRow(row) : null
    },
    listForLocator(locatorId: string): ApiKey[] {
      return byLocator.all(locatorId).map(fromRow)
    },
    /** The record and stored hash for a presented key, or null. */
    findBySecret(secret: string): (ApiKey & { hash: string }) | null {
      const row = byHash.get(hashSecret(secret))
      return row ? { ...fromRow(row), hash: row.key_hash } : null
    },
    /** Creates a key; call inside a transaction. The secret is returned here and nowhere else, ever. */
    insert(locatorId: string, expiresAt: string | null): { key: ApiKey; secret: string } {
      const secret = newSecretKey()
      const id = newKeyId()
      insert.run({
        id,
        locator_id: locatorId,
        key_hash: hashSecret(secret),
        prefix: keyDisplayPrefix(secret),
        expires_at: expiresAt,
        now: new Date().toISOString(),
      })
      changes.append(locatorId, 'key', id, 'upsert')
      return { key: fromRow(byId.get(id)!), secret }
    },
    revoke(key: ApiKey): void {
      revoke.run(key.id)
      changes.append(key.locatorId, 'key', key.id, 'upsert')
    },
    setExpiry(key: ApiKey, expiresAt: string): void {
      setExpiry.run(expiresAt, key.id)
      changes.append(key.locatorId, 'key', key.id, 'upsert')
    },
    /**
     * Bookkeeping, not data: not in the change log. Best effort: false when the database was locked,
     * or its storage refused the write (disk full, read-only, I/O error): a key's last use is not
     * worth refusing the request it authenticates, and every Management API read (each key's first
     * in a minute) answered 500 on a full disk or a read-only file.
     */
    markUsed(id: string, now = new Date()): boolean {
      if (refused()) return false
      try {
        touch.run(now.toISOString(), id, new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString())
        return true
      } catch (e) {
        if (isBusyError(e) || storageFault(e) !== null) return false
        throw e
      }
    },
    markExposed(id: string): void {
      if (!refused()) expose.run(new Date().toISOString(), id)
    },
  }
}
export type KeyRepo = ReturnType<typeof keyRepo>
