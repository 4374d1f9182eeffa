// The Management API's Idempotency-Key answers: one per locator and key, written in the
// transaction of the write it answers, so a write and its answer are kept together or not at all.
import type { Database } from 'bun:sqlite'

/** How long an answer is kept for a retry with its key. */
export const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60_000

/** An answer kept for its key: `body` null when it was over the size kept, `bytes` its size (UTF-8) either way. */
export type KeptAnswer = { fingerprint: string; status: number; body: string | null; bytes: number; createdAt: string }

/**
 * The body column of an answer not kept: this and its size. An answer is JSON, so always starts
 * with "{", which this never does.
 */
const NOT_KEPT = 'not kept: '

const bodyColumn = (answer: Pick<KeptAnswer, 'body' | 'bytes'>) => answer.body ?? `${NOT_KEPT}${answer.bytes}`

/** Thrown by save() when the key already has a live answer: another request with it committed first. */
export class IdempotencyKeyTaken extends Error {}

const cutoff = (now: number) => new Date(now - IDEMPOTENCY_KEPT_MS).toISOString()

const HOUR_MS = 3_600_000

/** The hour `now` is in, counted from 1970 (UTC): idempotency_bytes' rows. */
const hourOf = (now: number) => Math.floor(now / HOUR_MS)

export function idempotencyRepo(db: Database) {
  const get = db.prepare<
    { fingerprint: string; status: number; body: string; created_at: string },
    [string, string, string]
  >(
    'SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE locator_id = ? AND key = ? AND created_at >= ?',
  )
  // An answer past its 24 hours is replaced; a live one is kept (no row changes: the caller's key is taken).
  const save = db.prepare<
    unknown,
    { locator_id: string; key: string; fingerprint: string; status: number; body: string; now: string; cutoff: string }
  >(
    `INSERT INTO idempotency_keys (locator_id, key, fingerprint, status, body, created_at)
     VALUES ($locator_id, $key, $fingerprint, $status, $body, $now)
     ON CONFLICT (locator_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
       body = excluded.body, created_at = excluded.created_at WHERE idempotency_keys.created_at < $cutoff`,
  )
  const prune = db.prepare<unknown, [string, number]>(
    'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)',
  )
  // The current hour and the 23 before it (and any after, once a clock stepped back): ~24 rows of the primary key.
  const dayBytes = db.prepare<{ bytes: number }, [string, number]>(
    'SELECT total(bytes) AS bytes FROM idempotency_bytes WHERE locator_id = ? AND hour > ?',
  )
  const addBytes = db.prepare<unknown, [string, number, number]>(
    `INSERT INTO idempotency_bytes (locator_id, hour, bytes) VALUES (?, ?, ?)
     ON CONFLICT (locator_id, hour) DO UPDATE SET bytes = bytes + excluded.bytes`,
  )
  const pruneBytes = db.prepare<unknown, [number, number]>(
    'DELETE FROM idempotency_bytes WHERE (locator_id, hour) IN (SELECT locator_id, hour FROM idempotency_bytes WHERE hour <= ? LIMIT ?)',
  )
  return {
    /** The live answer kept for this key, or null. */
    get(locatorId: string, key: string, now = Date.now()): KeptAnswer | null {
      const row = get.get(locatorId, key, cutoff(now))
      if (!row) return null
      const kept = !row.body.startsWith(NOT_KEPT)
      return {
        fingerprint: row.fingerprint,
        status: row.status,
        body: kept ? row.body : null,
        bytes: kept ? Buffer.byteLength(row.body) : Number(row.body.slice(NOT_KEPT.length)),
        createdAt: row.created_at,
      }
    },
    /** Keeps the answer to a write; call inside that write's transaction. Throws IdempotencyKeyTaken when the key has a live answer. */
    save(locatorId: string, key: string, answer: Omit<KeptAnswer, 'createdAt'>, now = Date.now()): void {
      const { changes } = save.run({
        locator_id: locatorId,
        key,
        fingerprint: answer.fingerprint,
        status: answer.status,
        body: bodyColumn(answer),
        now: new Date(now).toISOString(),
        cutoff: cutoff(now),
      })
      if (changes === 0) throw new IdempotencyKeyTaken(`Idempotency key ${key} already has an answer.`)
      if (answer.body !== null) addBytes.run(locatorId, hourOf(now), answer.bytes)
    },
    /**
     * The bytes of `locatorId`'s answers kept whole (body not null) in this hour and the 23 before,
     * by every process; in a write transaction, none can add to them before it commits.
     */
    dayBytes(locatorId: string, now = Date.now()): number {
      return dayBytes.get(locatorId, hourOf(now) - 24)!.bytes
    },
    /**
     * Deletes at most `limit` answers past their 24 hours, and hours of kept bytes past dayBytes';
     * call inside a write transaction. Returns how many rows, so fewer than `limit`: none is left.
     */
    prune(limit: number, now = Date.now()): number {
      const hours = pruneBytes.run(hourOf(now) - 24, limit).changes
      return hours + prune.run(cutoff(now), limit - hours).changes
    },
  }
}
export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>
