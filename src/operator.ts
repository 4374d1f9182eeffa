// What an operator does to the database (locators, keys, custom field definitions), shared by the
// `storeloc` CLI and the first-start bootstrap. Plain functions over the store; errors are
// OperatorError with a message a person can act on.
import { CUSTOM_FIELD_ID, CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldType } from './store/custom-fields'
import type { Store } from './store'
import type { ApiKey } from './store/keys'
import type { Locator } from './store/locators'

export class OperatorError extends Error {}

export function requireLocator(store: Store, id: string): Locator {
  const locator = store.locators.get(id)
  if (!locator) throw new OperatorError(`No locator ${JSON.stringify(id)}. \`storeloc locator list\` shows them.`)
  return locator
}

function requireKey(store: Store, id: string): ApiKey {
  const key = store.keys.get(id)
  if (!key) throw new OperatorError(`No API key record ${JSON.stringify(id)}. \`storeloc key list LOCATOR_ID\` shows them.`)
  return key
}

/** A new locator and its first secret key, committed together. */
export function createLocator(store: Store, name: string): { locator: Locator; key: ApiKey; secret: string } {
  const trimmed = name.trim()
  if (trimmed === '' || trimmed.length > 200) throw new OperatorError('The locator name must be 1 to 200 characters.')
  return store.write(() => {
    const locator = store.locators.insert(trimmed)
    const { key, secret } = store.keys.insert(locator.id, null)
    return { locator, key, secret }
  })
}

function futureDate(iso: string, now: Date): string {
  const t = Date.parse(iso)
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso) || Number.isNaN(t)) {
    throw new OperatorError(`--expires must be an ISO date such as 2027-01-31 or 2027-01-31T12:00:00Z; got ${JSON.stringify(iso)}.`)
  }
  if (t <= now.getTime()) throw new OperatorError(`--expires must be in the future; got ${iso}.`)
  return new Date(t).toISOString()
}

export function createKey(store: Store, locatorId: string, expires: string | null, now = new Date()): { key: ApiKey; secret: string } {
  requireLocator(store, locatorId)
  const expiresAt = expires === null ? null : futureDate(expires, now)
  return store.write(() => store.keys.insert(locatorId, expiresAt))
}

export function revokeKey(store: Store, keyId: string): ApiKey {
  const key = requireKey(store, keyId)
  if (key.status === 'revoked') throw new OperatorError(`Key ${keyId} is already revoked.`)
  store.write(() => store.keys.revoke(key))
  return store.keys.get(keyId)!
}

/**
 * Issues a new key for the same locator and lets the old one work for `graceHours` more, so
 * deployed systems can switch over. With 0 the old key stops at once.
 */
export function rotateKey(store: Store, keyId: string, graceHours: number, now = new Date()): { old: ApiKey; key: ApiKey; secret: string } {
  if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > 24 * 365) {
    throw new OperatorError('--grace-hours must be a number of hours from 0 to 8760.')
  }
  const old = requireKey(store, keyId)
  if (old.status === 'revoked') throw new OperatorError(`Key ${keyId} is revoked; create a new key instead.`)
  if (old.expiresAt !== null && Date.parse(old.expiresAt) <= now.getTime()) throw new OperatorError(`Key ${keyId} has already expired; create a new key instead.`)
  const graceEnd = new Date(now.getTime() + graceHours * 3_600_000).toISOString()
  return store.write(() => {
    const { key, secret } = store.keys.insert(old.locatorId, null)
    // Never lengthen an expiry that was already sooner than the grace period.
    if (old.expiresAt === null || old.expiresAt > graceEnd) store.keys.setExpiry(old, graceEnd)
    return { old: store.keys.get(old.id)!, key, secret }
  })
}

export function addCustomField(
  store: Store,
  locatorId: string,
  field: { id: string; name: string; type: string; label?: string | null; color?: string | null },
): CustomField {
  requireLocator(store, locatorId)
  if (!CUSTOM_FIELD_ID.test(field.id)) {
    throw new OperatorError(`--id must start with a lowercase letter and hold only a-z, 0-9 and _ (64 at most); got ${JSON.stringify(field.id)}.`)
  }
  if (field.name.trim() === '' || field.name.length > 100) throw new OperatorError('--name must be 1 to 100 characters.')
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(field.type)) {
    throw new OperatorError(`--type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}; got ${JSON.stringify(field.type)}.`)
  }
  if (field.color && !/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(field.color)) {
    throw new OperatorError(`--color must be a hex colour such as #1a7f37; got ${JSON.stringify(field.color)}.`)
  }
  if (store.customFields.get(locatorId, field.id)) throw new OperatorError(`Locator ${locatorId} already has a custom field ${JSON.stringify(field.id)}.`)
  return store.write(() =>
    store.customFields.insert(locatorId, {
      id: field.id,
      name: field.name.trim(),
      type: field.type as CustomFieldType,
      label: field.label ?? null,
      color: field.color ?? null,
    }),
  )
}

/** Removes a definition and, in the same transaction, its values from every location. */
export function removeCustomField(store: Store, locatorId: string, fieldId: string): { clearedLocations: number } {
  requireLocator(store, locatorId)
  if (!store.customFields.get(locatorId, fieldId)) throw new OperatorError(`Locator ${locatorId} has no custom field ${JSON.stringify(fieldId)}.`)
  return store.write(() => {
    const clearedLocations = store.locations.dropCustomField(locatorId, fieldId)
    store.customFields.remove(locatorId, fieldId)
    return { clearedLocations }
  })
}
