// Idempotency-Key on the Management API's POSTs, as the IETF draft "The Idempotency-Key HTTP
// Header Field" describes: a retry with the same key and request replays the first answer; the
// same key with another request is 422; while the first is still running, 409.
import { byteSizes } from '../../core/byte-size'
import { sha256Hex } from '../../core/ids'
import { LocationError } from '../../locations/errors'
import type { AdminDeps } from '../../locations/service'
import { IdempotencyKeyTaken, type IdempotencyRepo, type KeptAnswer } from '../../store/idempotency'
import type { BodyDigest } from '../body-digest'
import { contentTypeMeant } from '../content-type'
import { AdminError } from './errors'

/** The header on a replayed answer: the write was not made again. */
export const REPLAY_HEADER = 'idempotent-replayed'

/**
 * The largest answer kept for replays, bytes: every answer but a bulk's with many deletions or
 * warnings (a 1,000-item bulk answer is 150 to 300 KB). A larger one is kept as its size alone,
 * and a retry is refused with idempotency_answer_not_kept, never made again.
 */
export const IDEMPOTENCY_MAX_ANSWER_BYTES = 1024 * 1024

/** idempotency_key_reused's message: the key, and when the other request used it. */
export const keyReused = (key: string, answer: Pick<KeptAnswer, 'createdAt'>) =>
  `The Idempotency-Key ${JSON.stringify(key)} was used with another request (another method, path, body or Content-Type) at ${answer.createdAt}. Use a new key for a new request.`

/**
 * idempotency_answer_not_kept's message: the key, its request's answer, why it was not kept (its
 * size, or else the locator's answers of the day: answerBudget), and where to read its result.
 */
export function answerNotKept(key: string, answer: Pick<KeptAnswer, 'createdAt' | 'status' | 'bytes'>): string {
  const [size, most] = byteSizes(answer.bytes, IDEMPOTENCY_MAX_ANSWER_BYTES)
  const why =
    answer.bytes > IDEMPOTENCY_MAX_ANSWER_BYTES
      ? `its answer (${size}) was over the ${most} kept for retries`
      : "its locator's answers kept for retries in 24 hours had reached the service's IDEMPOTENCY_MAX_MB setting, so its answer was not kept"
  return `The request with the Idempotency-Key ${JSON.stringify(key)} was made at ${answer.createdAt} and answered ${answer.status}, but ${why}. It was not made again: read the locations (GET /admin/v1/locations/export) to see its result.`
}

/**
 * Keeps the answers of a locator's keyed writes for their retries, each whole while the answers
 * it kept whole over the last 24 hours stay within `maxBytes`: past that, as its size alone (a
 * retry: idempotency_answer_not_kept), so a script looping keyed writes fills no disk. The day's
 * bytes are read from the store in the write's transaction: every process's and start's count.
 */
export function answerBudget(repo: IdempotencyRepo, maxBytes: number) {
  return {
    /** Keeps `answer` under `key`; call in the transaction of the write it answers. */
    keep(locatorId: string, key: string, answer: { fingerprint: string; status: number; body: string }): void {
      const now = Date.now()
      const bytes = Buffer.byteLength(answer.body)
      const whole = bytes <= IDEMPOTENCY_MAX_ANSWER_BYTES && repo.dayBytes(locatorId, now) + bytes <= maxBytes
      repo.save(locatorId, key, { ...answer, body: whole ? answer.body : null, bytes }, now)
    },
  }
}
export type AnswerBudget = ReturnType<typeof answerBudget>

/** The key the header carries (a quoted sf-string, or the bare token most clients send); null without one. */
export function idempotencyKeyOf(request: Request): string | null {
  const raw = request.headers.get('idempotency-key')
  if (raw === null) return null
  let key = raw.trim()
  const quoted = key.length >= 2 && key.startsWith('"') && key.endsWith('"')
  if (quoted) key = key.slice(1, -1)
  // Two headers reach here joined by ", ": neither key is meant.
  if ((!quoted && key.includes(',')) || key.includes('", "'))
    throw new AdminError(
      'invalid_request',
      'The Idempotency-Key header was sent twice, or holds a comma: send one key, without commas (a new UUID for each write is usual).',
    )
  if (key.includes('"'))
    throw new AdminError(
      'invalid_request',
      'The Idempotency-Key holds a double quote: quote the whole key ("..."), or send it bare, without quotes in it.',
    )
  if (!/^[\x20-\x7e]{1,255}$/.test(key))
    throw new AdminError(
      'invalid_request',
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters; a new UUID for each write is usual.',
    )
  return key
}

/**
 * The version of fingerprintOf's rule, its fingerprints' prefix: a fingerprint kept without one
 * was kept by a rule before, and is compared by it (unversionedFingerprintsOf); one kept with
 * `v4:`, `v3:` or `v2:` by that version's rule (BodyDigest's `v4`, `v3` and `v2`); one with
 * `v5:` by this rule, or by the v5 rule that reads no delimiter line's padding (BodyDigest's `v5`)
 * or a quoted backslash as FormData does (BodyDigest's `kept`); each, or by its rule as it read no
 * filename* (BodyDigest's `plain`).
 */
const FINGERPRINT_VERSION = 'v5:'
const FINGERPRINT_V4 = 'v4:'
const FINGERPRINT_V3 = 'v3:'
const FINGERPRINT_V2 = 'v2:'

/**
 * What tells one request from another under a key: method, path with query, what the body means
 * (a multipart body's parts, not its boundary), and what its Content-Type means but for JSON's
 * (the same CSV bytes in another charset are other text): `charset="UTF-8"` and none are one. No
 * Content-Type is JSON's over no body alone: a body without one is not read.
 */
function fingerprintOf(request: Request, body: BodyDigest, version = FINGERPRINT_VERSION, meant = body.meant): string {
  const url = new URL(request.url)
  const type = contentTypeMeant(request.headers.get('content-type') ?? '')
  const json = type === 'application/json' || (type === '' && body.bytes === EMPTY_DIGEST)
  const read = json ? '' : `\n${type}`
  return `${version}${sha256Hex(`${request.method} ${url.pathname}${queryCompared(url)}\n${meant}${read}`)}`
}

/**
 * The fingerprints a key kept before versions may hold, by the two rules that kept them: the
 * Content-Type lowercased and unspaced (none and JSON's adding nothing), or as it means with a
 * multipart boundary counted; both over the body's bytes. A key kept by either lives 24 hours
 * past an upgrade, and its retry still replays.
 */
function unversionedFingerprintsOf(request: Request, body: BodyDigest): string[] {
  const url = new URL(request.url)
  const header = request.headers.get('content-type') ?? ''
  const sent = `${request.method} ${url.pathname}${queryCompared(url)}\n${body.bytes}`
  const type = header.toLowerCase().replace(/\s+/g, '')
  const written = type === '' || /^application\/json(;charset=utf-8)?$/.test(type) ? '' : `\n${type}`
  const full = contentTypeMeant(header, true)
  const meant = full === 'application/json' || (full === '' && body.bytes === EMPTY_DIGEST) ? '' : `\n${full}`
  return [sha256Hex(`${sent}${written}`), sha256Hex(`${sent}${meant}`)]
}

/** Whether a kept fingerprint is this request's, compared by the rule it was kept by. */
function sameRequest(kept: string, request: Request, body: BodyDigest, fingerprint: string): boolean {
  // Each rule's meaning, and the same rule's before filename* named a file (BodyDigest's `plain`).
  const by = (version: string, ...meanings: (string | undefined)[]) =>
    meanings.some((meant) => meant !== undefined && kept === fingerprintOf(request, body, version, meant))
  const { plain } = body
  if (kept.startsWith(FINGERPRINT_VERSION))
    return kept === fingerprint || by(FINGERPRINT_VERSION, body.v5, body.kept, plain?.v5)
  if (kept.startsWith(FINGERPRINT_V4)) return by(FINGERPRINT_V4, body.v4 ?? body.meant, plain?.v4)
  if (kept.startsWith(FINGERPRINT_V3)) return by(FINGERPRINT_V3, body.v3 ?? body.meant, plain?.v3)
  if (kept.startsWith(FINGERPRINT_V2)) return by(FINGERPRINT_V2, body.v2 ?? body.meant, plain?.v2)
  return unversionedFingerprintsOf(request, body).includes(kept)
}

/**
 * The query string as sent, but a cache-buster's "_", which means nothing: a client adding a new
 * one to each try would make its retry another request. Untouched without one, so keys kept
 * before still match.
 */
function queryCompared(url: URL): string {
  if (!url.searchParams.has('_')) return url.search
  const params = new URLSearchParams(url.search)
  params.delete('_')
  return params.size > 0 ? `?${params}` : ''
}

const EMPTY_DIGEST = sha256Hex('')

export type KeyedWrite<T> = {
  request: Request
  locatorId: string
  /** The body's digests as parseBody gave them (none: an empty body). */
  bodyDigest: BodyDigest | undefined
  /** The answer's status on success. */
  status: number
  /** The write, given the deps to pass its service (with the hook that keeps the answer). */
  work: (deps: AdminDeps) => Promise<T>
  /** The answer's body for the write's result. */
  render: (result: T) => unknown
}

/** Runs keyed writes: at most one at a time per locator and key in this process; the database decides between processes. */
export function idempotentWrites(deps: AdminDeps, budget: AnswerBudget) {
  const running = new Set<string>()
  return async <T>(
    w: KeyedWrite<T>,
  ): Promise<{ status: number; body: unknown; replay: false } | { replay: true; response: Response }> => {
    const key = idempotencyKeyOf(w.request)
    if (key === null) return { status: w.status, body: w.render(await w.work(deps)), replay: false }
    const body = w.bodyDigest ?? { bytes: EMPTY_DIGEST, meant: EMPTY_DIGEST }
    const fingerprint = fingerprintOf(w.request, body)
    const kept = () => {
      const answer = deps.store.idempotency.get(w.locatorId, key)
      if (answer === null) return null
      if (!sameRequest(answer.fingerprint, w.request, body, fingerprint))
        throw new AdminError('idempotency_key_reused', keyReused(key, answer))
      if (answer.body === null) throw new AdminError('idempotency_answer_not_kept', answerNotKept(key, answer))
      const headers = { 'content-type': 'application/json; charset=utf-8', [REPLAY_HEADER]: 'true' }
      return { replay: true as const, response: new Response(answer.body, { status: answer.status, headers }) }
    }
    const first = kept()
    if (first !== null) return first
    const slot = `${w.locatorId}\n${key}`
    if (running.has(slot))
      throw new AdminError(
        'conflict',
        `A request with the Idempotency-Key ${JSON.stringify(key)} is still being processed. Retry once it has finished: the retry then gets its answer.`,
        undefined,
        1,
      )
    running.add(slot)
    try {
      const save = (result: unknown) =>
        budget.keep(w.locatorId, key, { fingerprint, status: w.status, body: JSON.stringify(w.render(result as T)) })
      const result = await w.work({ ...deps, inWrite: save })
      return { status: w.status, body: w.render(result), replay: false }
    } catch (e) {
      // Another process committed a write with this key while this one ran: this one was undone
      // at its commit, or failed on what the other wrote (a bulk's external ids). Its answer stands.
      const refused = e instanceof IdempotencyKeyTaken || e instanceof AdminError || e instanceof LocationError
      const theirs = refused ? kept() : null
      if (theirs !== null) return theirs
      throw e
    } finally {
      running.delete(slot)
    }
  }
}
