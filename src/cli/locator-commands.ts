// The commands on locators and their secret keys.
import {
  counted,
  createKey,
  createLocator,
  deleteLocator,
  type LocatorSettingsInput,
  OperatorError,
  requireLocator,
  revokeKey,
  rotateKey,
  rotatePublicToken,
  SETTING_OPTIONS,
  setLocatorSettings,
} from '../operator'
import type { Command } from './context'
import {
  args,
  describeLocator,
  fieldJson,
  keyJson,
  locatorJson,
  required,
  SECRET_NOTE,
  table,
  UsageError,
} from './output'
import { cliCommand } from '../core/cli-command'

export const LOCATOR_COMMANDS: Record<string, Command> = {
  'locator create': ({ store, emitSecret }, rest) => {
    const { values } = args(rest, { name: { type: 'string' } }, 0)
    createLocator(store, required(values, 'name'), ({ locator, key, secret }) =>
      emitSecret(
        !!values.json,
        { locator: locatorJson(locator), key: { ...keyJson(key), secret_key: secret } },
        `${describeLocator(locator)}\nsecret key:          ${secret}\n\n${SECRET_NOTE}`,
      ),
    )
  },
  'locator list': ({ store, emit }, rest) => {
    const { values } = args(rest, {}, 0)
    const rows = store.locators.list().map(locatorJson)
    emit(!!values.json, rows, table(rows, ['id', 'name', 'public_token', 'query_api_enabled', 'active']))
  },
  'locator show': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, 1)
    const locator = requireLocator(store, positionals[0]!)
    const keys = store.keys.listForLocator(locator.id).map(keyJson)
    const fields = store.customFields.list(locator.id).map(fieldJson)
    const published = store.locations.count(locator.id, 'published')
    const draft = store.locations.count(locator.id, 'draft')
    emit(
      !!values.json,
      { ...locatorJson(locator), locations: { published, draft }, keys, custom_fields: fields },
      `${describeLocator(locator)}\nlocations:           ${published} published, ${draft} draft\n\nkeys:\n${table(keys, ['id', 'prefix', 'status', 'expires_at', 'last_used_at', 'exposed'])}`,
    )
  },
  'locator set': ({ store, emit }, rest) => {
    const spec = {
      name: { type: 'string' },
      active: { type: 'string' },
      'query-api': { type: 'string' },
      referrers: { type: 'string' },
      radius: { type: 'string' },
      unit: { type: 'string' },
      'rate-limit': { type: 'string' },
      'public-external-id': { type: 'string' },
      language: { type: 'string' },
    } as const
    const { values, positionals } = args(rest, spec, 1)
    const input: LocatorSettingsInput = {
      name: values.name as string | undefined,
      active: values.active as string | undefined,
      queryApi: values['query-api'] as string | undefined,
      referrers: values.referrers as string | undefined,
      radius: values.radius as string | undefined,
      unit: values.unit as string | undefined,
      rateLimit: values['rate-limit'] as string | undefined,
      publicExternalId: values['public-external-id'] as string | undefined,
      language: values.language as string | undefined,
    }
    if (Object.values(input).every((v) => v === undefined)) {
      throw new UsageError(`locator set needs at least one of ${SETTING_OPTIONS}.`)
    }
    const locator = setLocatorSettings(store, positionals[0]!, input)
    emit(!!values.json, locatorJson(locator), describeLocator(locator))
  },
  'locator rotate-token': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, 1)
    const old = requireLocator(store, positionals[0]!).publicToken
    const locator = rotatePublicToken(store, positionals[0]!)
    emit(
      !!values.json,
      { ...locatorJson(locator), previous_public_token: old },
      `New public token:  ${locator.publicToken}\nThe old token ${old} stopped working: update every page and app that embeds it.`,
    )
  },
  'locator delete': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, { yes: { type: 'boolean' } }, 1)
    const { locator, published, draft, keys } = deleteLocator(store, positionals[0]!, values.yes === true)
    emit(
      !!values.json,
      { deleted: locatorJson(locator), locations: { published, draft }, keys },
      `Deleted ${locator.id} ("${locator.name}"): ${counted(published + draft, 'location')}, ${counted(keys, 'key')}. Its public token ${locator.publicToken} and its keys no longer work.`,
    )
  },
  'key create': ({ store, emitSecret }, rest) => {
    const { values, positionals } = args(rest, { expires: { type: 'string' } }, 1)
    createKey(store, positionals[0]!, (values.expires as string | undefined) ?? null, new Date(), ({ key, secret }) =>
      emitSecret(
        !!values.json,
        { ...keyJson(key), secret_key: secret },
        `key id:      ${key.id}\nexpires:     ${key.expiresAt ?? 'never'}\nsecret key:  ${secret}\n\n${SECRET_NOTE}`,
      ),
    )
  },
  'key list': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, 1)
    const locator = requireLocator(store, positionals[0]!)
    const rows = store.keys.listForLocator(locator.id).map(keyJson)
    const text = table(rows, ['id', 'prefix', 'status', 'expires_at', 'last_used_at', 'exposed'])
    const exposed = rows.some((r) => r.exposed && r.status === 'active')
      ? `\n\nA key marked exposed was seen in a public request: rotate it with no grace period (${cliCommand('key rotate KEY_ID --grace-hours 0')}), so it stops working at once.`
      : ''
    emit(!!values.json, rows, text + exposed)
  },
  'key revoke': ({ store, emit }, rest) => {
    const { values, positionals } = args(rest, {}, 1)
    const key = revokeKey(store, positionals[0]!)
    emit(!!values.json, keyJson(key), `Revoked ${key.id} (${key.prefix}). Requests with it now get 401.`)
  },
  'key rotate': ({ store, emitSecret }, rest) => {
    const { values, positionals } = args(rest, { 'grace-hours': { type: 'string' } }, 1)
    const raw = (values['grace-hours'] as string | undefined) ?? '24'
    if (!/^\d+(\.\d+)?$/.test(raw))
      throw new OperatorError(
        `--grace-hours must be a number of hours, 0 or more (0: the old key stops at once); got ${JSON.stringify(raw)}.`,
      )
    rotateKey(store, positionals[0]!, Number(raw), new Date(), ({ old, key, secret }) =>
      emitSecret(
        !!values.json,
        { old: keyJson(old), key: { ...keyJson(key), secret_key: secret } },
        `New key id:  ${key.id}\nsecret key:  ${secret}\nOld key ${old.id} (${old.prefix}) stops working at ${old.expiresAt}.\n\n${SECRET_NOTE}`,
      ),
    )
  },
}
