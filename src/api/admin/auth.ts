import { hashSecret, isSecretKeyShaped, isWellFormedSecretKey, PUBLIC_TOKEN, sameSecretHash } from '../../core/ids'
import type { Store } from '../../store'
import { isExpired } from '../../store/keys'
import type { Locator } from '../../store/locators'
import { AdminError, locatorSwitchedOff } from './errors'
import { cliCommand } from '../../core/cli-command'

export type AdminAuth = { locator: Locator; keyId: string }

const fail = (message: string) => new AdminError('unauthenticated', message)

/**
 * A refusal of a key that exists (revoked, expired, its locator switched off): its id and
 * locator, for the request's log line, so the operator finds the script still sending it.
 */
export class KeyRefused extends AdminError {
  constructor(
    kind: 'unauthenticated' | 'no_locator',
    message: string,
    readonly keyId: string,
    readonly locatorId: string,
  ) {
    super(kind, message)
  }
}

/**
 * Resolves `Authorization: Bearer sk_...` to its locator. Each failure says which case it is;
 * no message ever repeats the presented key.
 */
export function authenticate(store: Store, header: string | null, now = new Date()): AdminAuth {
  if (!header || header.trim() === '') {
    throw fail('API key missing: send it in the header "Authorization: Bearer sk_...".')
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim())
  if (!m)
    throw fail('API key malformed: the Authorization header must read "Bearer sk_..." with the key after one space.')
  const secret = m[1]!
  if (!isSecretKeyShaped(secret)) {
    if (PUBLIC_TOKEN.test(secret))
      throw fail(
        `API key malformed: this is a locator's public token ("pk_..."), which the Query API under /public/v1 takes. The Management API takes a secret key ("sk_..."): \`${cliCommand('key create LOCATOR_ID')}\` makes one.`,
      )
    throw fail('API key malformed: keys are "sk_" followed by 38 letters and digits. Check that it was copied whole.')
  }
  if (!isWellFormedSecretKey(secret)) {
    throw fail(
      'API key malformed: its last 6 characters, a checksum of the others, do not match them, so a character was changed or mistyped. Copy the key again, whole.',
    )
  }
  const key = store.keys.findBySecret(secret)
  if (!key || !sameSecretHash(key.hash, hashSecret(secret))) throw fail('API key invalid: no such key exists.')
  const refused = (message: string, kind: 'unauthenticated' | 'no_locator' = 'unauthenticated') =>
    new KeyRefused(kind, message, key.id, key.locatorId)
  if (key.status === 'revoked')
    throw refused(
      `API key inactive: it has been revoked. Create a new key with \`${cliCommand('key create LOCATOR_ID')}\`.`,
    )
  if (isExpired(key, now.getTime())) {
    throw refused(
      `API key expired at ${key.expiresAt}. If it was rotated, use the key that replaced it; otherwise create one with \`${cliCommand('key create LOCATOR_ID')}\`.`,
    )
  }
  const locator = store.locators.get(key.locatorId)
  if (!locator)
    throw new AdminError('no_locator', 'No locator was found for this API key: its locator no longer exists.')
  if (!locator.active) throw refused(locatorSwitchedOff(locator.id), 'no_locator')
  // Recorded at most once a minute per key, so reads do not each take the write lock.
  if (key.lastUsedAt === null || now.getTime() - Date.parse(key.lastUsedAt) >= 60_000) store.keys.markUsed(key.id, now)
  return { locator, keyId: key.id }
}
