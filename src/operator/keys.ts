// Secret keys: made, revoked, rotated with a grace period.
import type { Store } from '../store'
import { isExpired, type ApiKey } from '../store/keys'
import { type Deliver, OperatorError, requireKey, requireLocator, writeFor } from './shared'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/

function futureDate(iso: string, now: Date): string {
  const t = Date.parse(iso)
  const m = ISO_DATE.exec(iso)
  // A day the calendar has: Date.parse takes 2030-02-30 for 2030-03-02.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null
  if (!m || Number.isNaN(t) || day!.getUTCMonth() !== Number(m[2]) - 1 || day!.getUTCDate() !== Number(m[3])) {
    throw new OperatorError(
      `--expires must be an ISO date such as 2027-01-31, or a time with its offset such as 2027-01-31T12:00:00Z; got ${JSON.stringify(iso)}.`,
    )
  }
  if (t <= now.getTime()) throw new OperatorError(`--expires must be in the future; got ${iso}.`)
  // Past 9999 (an offset can take 9999-12-31 there), toISOString writes "+010000-...", which no longer sorts as text.
  if (new Date(t).getUTCFullYear() > 9999)
    throw new OperatorError(`--expires must be no later than 9999-12-31T23:59:59Z; got ${iso}.`)
  return new Date(t).toISOString()
}

export function createKey(
  store: Store,
  locatorId: string,
  expires: string | null,
  now = new Date(),
  deliver: Deliver<{ key: ApiKey; secret: string }> = () => {},
): { key: ApiKey; secret: string } {
  requireLocator(store, locatorId)
  const expiresAt = expires === null ? null : futureDate(expires, now)
  return writeFor(store, locatorId, () => {
    const issued = store.keys.insert(locatorId, expiresAt)
    deliver(issued)
    return issued
  })
}

export function revokeKey(store: Store, keyId: string): ApiKey {
  const key = requireKey(store, keyId)
  if (key.status === 'revoked') throw new OperatorError(`Key ${keyId} is already revoked.`)
  // Read again inside: a locator deleted meanwhile took its keys with it.
  store.write(() => store.keys.revoke(requireKey(store, keyId)))
  return store.keys.get(keyId)!
}

/**
 * Issues a new key for the same locator and lets the old one work for `graceHours` more, so
 * deployed systems can switch over. With 0 the old key stops at once.
 */
export function rotateKey(
  store: Store,
  keyId: string,
  graceHours: number,
  now = new Date(),
  deliver: Deliver<{ old: ApiKey; key: ApiKey; secret: string }> = () => {},
): { old: ApiKey; key: ApiKey; secret: string } {
  if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > 24 * 365) {
    throw new OperatorError('--grace-hours must be a number of hours from 0 to 8760.')
  }
  const old = requireKey(store, keyId)
  if (old.status === 'revoked') throw new OperatorError(`Key ${keyId} is revoked; create a new key instead.`)
  if (isExpired(old, now.getTime()))
    throw new OperatorError(`Key ${keyId} has already expired; create a new key instead.`)
  const graceEnd = new Date(now.getTime() + graceHours * 3_600_000).toISOString()
  return writeFor(store, old.locatorId, () => {
    const { key, secret } = store.keys.insert(old.locatorId, null)
    // Never lengthen an expiry that was already sooner than the grace period.
    if (old.expiresAt === null || Date.parse(old.expiresAt) > Date.parse(graceEnd)) store.keys.setExpiry(old, graceEnd)
    const rotated = { old: store.keys.get(old.id)!, key, secret }
    deliver(rotated)
    return rotated
  })
}
