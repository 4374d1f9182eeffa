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
    },
    /** Deletes at most `limit` answers past their 24 hours; call inside a write transaction. Returns how many. */
    prune(limit: number, now = Date.now()): number {
      return prune.run(cutoff(now), limit).changes
    },
  }
}
export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>
