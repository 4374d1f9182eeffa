import type { Database } from 'bun:sqlite'

/**
 * Raw cache rows; the Geocoder layer decides what goes in and how long it lives. `writeSoon` is the
 * store's: a row is stored with the writes queued beside it, waiting for another process's lock
 * without stopping this one.
 */
export function geocodeCacheRepo(db: Database, writeSoon: <T>(fn: () => T) => Promise<T>) {
  const get = db.prepare<{ result: string | null; created_at: number; expires_at: number }, [string, string]>(
    'SELECT result, created_at, expires_at FROM geocode_cache WHERE provider = ? AND query = ?',
  )
  const put = db.prepare<
    unknown,
    { provider: string; query: string; result: string | null; created_at: number; expires_at: number }
  >(
    `INSERT INTO geocode_cache (provider, query, result, created_at, expires_at) VALUES ($provider, $query, $result, $created_at, $expires_at)
     ON CONFLICT (provider, query) DO UPDATE SET result = excluded.result, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  )
  const purge = db.prepare<unknown, [number]>('DELETE FROM geocode_cache WHERE expires_at <= ?')
  return {
    /** The stored JSON (null for a cached miss) and when it was stored (ms), or undefined when absent or expired. */
    get(provider: string, query: string, now: number): { result: string | null; createdAt: number } | undefined {
      const row = get.get(provider, query)
      if (!row || row.expires_at <= now) return undefined
      return { result: row.result, createdAt: row.created_at }
    },
    /** Stores a row; settles once it is committed. */
    put(provider: string, query: string, result: string | null, now: number, ttlMs: number): Promise<void> {
      return writeSoon(() => {
        put.run({ provider, query, result, created_at: now, expires_at: now + ttlMs })
      })
    },
    /** Deletes the expired rows, with the writes queued beside it; settles with how many once committed. */
    purgeExpired(now: number): Promise<number> {
      return writeSoon(() => purge.run(now).changes)
    },
  }
}
export type GeocodeCacheRepo = ReturnType<typeof geocodeCacheRepo>
