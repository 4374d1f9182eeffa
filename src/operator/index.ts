// What an operator does to the database (locators, keys, settings, custom field definitions, filter
// groups, priority rules), shared by the `storeloc` CLI, the demo loader and the first-start
// bootstrap. Plain functions over the store; errors are OperatorError with a message a person can
// act on, and a refused operation writes nothing.
import { readFileSync } from 'node:fs'
import { domainToASCII } from 'node:url'
import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { t } from 'elysia'
import { isFullUrl, schemaErrors, trimStrings } from '../locations/normalize'
import { LOCATION_ID } from '../core/ids'
import { codePoints, unprintableChar } from '../core/text'
import { CUSTOM_FIELD_ID, CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldType } from '../store/custom-fields'
import { MAX_RADIUS } from '../api/public/params'
import type { Store } from '../store'
import type { FilterGroup, FilterTag } from '../store/filters'
import { isExpired, type ApiKey } from '../store/keys'
import type { Locator, LocatorSettings } from '../store/locators'
import type { PriorityRule } from '../store/priority'

export class OperatorError extends Error {}

const HEX_COLOR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/

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

/** Why `text` may not be a name or label (it would break or disguise the CLI's tables and logs), or null. */
function unprintable(text: string): string | null {
  const char = unprintableChar(text)
  return char === null ? null : `may not hold line breaks, tabs, other control characters or invisible format characters (such as bidi controls); it holds ${char}`
}

/** Text given on the command line as the Management API and the CLI's files take text: see trimStrings. */
const cleanText = (text: string) => trimStrings(text) as string

function printable(text: string, what: string): void {
  const problem = unprintable(text)
  if (problem !== null) throw new OperatorError(`${what} ${problem}.`)
}

/** A new locator and its first secret key, committed together. */
/**
 * Shows a new secret key to the person who asked for it, inside the transaction that made it: if
 * it throws (the output could not be written), nothing is kept, so no key lives that nobody saw.
 */
export type Deliver<T> = (issued: T) => void

export function createLocator(store: Store, name: string, deliver: Deliver<{ locator: Locator; key: ApiKey; secret: string }> = () => {}): { locator: Locator; key: ApiKey; secret: string } {
  const trimmed = cleanText(name)
  if (trimmed === '' || codePoints(trimmed) > 200) throw new OperatorError('The locator name must be 1 to 200 characters.')
  printable(trimmed, 'The locator name')
  return store.write(() => {
    const locator = store.locators.insert(trimmed)
    const { key, secret } = store.keys.insert(locator.id, null)
    deliver({ locator, key, secret })
    return { locator, key, secret }
  })
}

/** A date, or a time with its offset (Z or +hh:mm): without one, Date.parse would read the machine's time zone. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/

function futureDate(iso: string, now: Date): string {
  const t = Date.parse(iso)
  const m = ISO_DATE.exec(iso)
  // A day the calendar has: Date.parse takes 2030-02-30 for 2030-03-02.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null
  if (!m || Number.isNaN(t) || day!.getUTCMonth() !== Number(m[2]) - 1 || day!.getUTCDate() !== Number(m[3])) {
    throw new OperatorError(`--expires must be an ISO date such as 2027-01-31, or a time with its offset such as 2027-01-31T12:00:00Z; got ${JSON.stringify(iso)}.`)
  }
  if (t <= now.getTime()) throw new OperatorError(`--expires must be in the future; got ${iso}.`)
  // Past 9999 (an offset can take 9999-12-31 there), toISOString writes "+010000-...", which no longer sorts as text.
  if (new Date(t).getUTCFullYear() > 9999) throw new OperatorError(`--expires must be no later than 9999-12-31T23:59:59Z; got ${iso}.`)
  return new Date(t).toISOString()
}

export function createKey(store: Store, locatorId: string, expires: string | null, now = new Date(), deliver: Deliver<{ key: ApiKey; secret: string }> = () => {}): { key: ApiKey; secret: string } {
  requireLocator(store, locatorId)
  const expiresAt = expires === null ? null : futureDate(expires, now)
  return store.write(() => {
    const issued = store.keys.insert(locatorId, expiresAt)
    deliver(issued)
    return issued
  })
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
export function rotateKey(store: Store, keyId: string, graceHours: number, now = new Date(), deliver: Deliver<{ old: ApiKey; key: ApiKey; secret: string }> = () => {}): { old: ApiKey; key: ApiKey; secret: string } {
  if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > 24 * 365) {
    throw new OperatorError('--grace-hours must be a number of hours from 0 to 8760.')
  }
  const old = requireKey(store, keyId)
  if (old.status === 'revoked') throw new OperatorError(`Key ${keyId} is revoked; create a new key instead.`)
  if (isExpired(old, now.getTime())) throw new OperatorError(`Key ${keyId} has already expired; create a new key instead.`)
  const graceEnd = new Date(now.getTime() + graceHours * 3_600_000).toISOString()
  return store.write(() => {
    const { key, secret } = store.keys.insert(old.locatorId, null)
    // Never lengthen an expiry that was already sooner than the grace period.
    if (old.expiresAt === null || Date.parse(old.expiresAt) > Date.parse(graceEnd)) store.keys.setExpiry(old, graceEnd)
    const rotated = { old: store.keys.get(old.id)!, key, secret }
    deliver(rotated)
    return rotated
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
  const name = cleanText(field.name)
  const label = field.label === undefined || field.label === null ? null : cleanText(field.label)
  if (name === '' || codePoints(name) > 100) throw new OperatorError('--name must be 1 to 100 characters.')
  printable(name, '--name')
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(field.type)) {
    throw new OperatorError(`--type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}; got ${JSON.stringify(field.type)}.`)
  }
  // Only a button shows a label (its text), only a badge a label and a colour (README, design.md):
  // anything else would be kept and never shown.
  const hasLabel = field.label !== undefined && field.label !== null
  const hasColor = field.color !== undefined && field.color !== null
  if (hasLabel && field.type !== 'button' && field.type !== 'badge') throw new OperatorError(`--label is for button and badge fields (the text they show); a ${field.type} field shows its value alone.`)
  if (hasColor && field.type !== 'badge') throw new OperatorError(`--color is for badge fields; a ${field.type} field has no colour.`)
  if (field.color !== undefined && field.color !== null && !HEX_COLOR.test(field.color)) {
    throw new OperatorError(`--color must be a hex colour, #RRGGBB or #RGB, such as #1a7f37; got ${JSON.stringify(field.color)}.`)
  }
  if (label !== null) {
    if (label === '' || codePoints(label) > 100) throw new OperatorError('--label must be 1 to 100 characters.')
    printable(label, '--label')
  }
  if (store.customFields.get(locatorId, field.id)) throw new OperatorError(`Locator ${locatorId} already has a custom field ${JSON.stringify(field.id)}.`)
  return store.write(() =>
    store.customFields.insert(locatorId, {
      id: field.id,
      name,
      type: field.type as CustomFieldType,
      label,
      color: field.color ?? null,
    }),
  )
}

/** Removes a definition and, in the same transaction, its values from every location. */
export function removeCustomField(store: Store, locatorId: string, fieldId: string): { clearedLocations: number } {
  requireLocator(store, locatorId)
  return store.write(() => {
    // Inside the transaction: rules set meanwhile (another process) cannot come to name a field gone.
    if (!store.customFields.get(locatorId, fieldId)) throw new OperatorError(`Locator ${locatorId} has no custom field ${JSON.stringify(fieldId)}.`)
    const naming = store.priority.list(locatorId).flatMap((rule, i) => ('custom_field' in rule && rule.custom_field === fieldId ? [i + 1] : []))
    if (naming.length > 0) {
      throw new OperatorError(
        `Priority rule${naming.length > 1 ? 's' : ''} ${naming.join(', ')} of locator ${locatorId} name${naming.length > 1 ? '' : 's'} the custom field ${JSON.stringify(fieldId)}: change the rules first (storeloc priority set ${locatorId} --file RULES.json), then remove the field.`,
      )
    }
    const clearedLocations = store.locations.dropCustomField(locatorId, fieldId)
    store.customFields.remove(locatorId, fieldId)
    return { clearedLocations }
  })
}

/** A JSON file's content, or an OperatorError saying why it could not be read. */
export function readJsonFile(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'ENOENT') throw new OperatorError(`No file ${path}.`)
    if (code === 'EISDIR') throw new OperatorError(`${path} is a directory, not a JSON file.`)
    throw new OperatorError(`Cannot read ${path}: ${(e as Error).message}`)
  }
  try {
    // A byte order mark (some editors save one) is no JSON.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (e) {
    throw new OperatorError(`${path} is not valid JSON: ${(e as Error).message}`)
  }
}

// Locator settings ------------------------------------------------------------------------------

export const MAX_RATE_LIMIT = 1_000_000
const MAX_REFERRERS = 100
const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
/** An exact host (shop.example.com, localhost) or a wildcard over a domain's subdomains (*.example.com). */
const REFERRER_ENTRY = new RegExp(`^(?:\\*\\.)?(?:${HOST_LABEL}\\.)*${HOST_LABEL}$`)

/**
 * An entry's host as browsers send it in Origin and Referer: an international name (münchen.de,
 * *.bücher.example) in its punycode form (xn--mnchen-3ya.de), the way URL parsing spells it; ''
 * when it is no domain name. ASCII entries are left to REFERRER_ENTRY, as they are.
 */
function asciiHost(entry: string): string {
  if (!/[^\x00-\x7f]/.test(entry)) return entry
  const wildcard = entry.startsWith('*.') ? '*.' : ''
  const ascii = domainToASCII(entry.slice(wildcard.length))
  return ascii === '' ? '' : wildcard + ascii
}

/** Raw operator input, as typed on the command line. */
export type LocatorSettingsInput = {
  /** on | off: off switches the whole locator off (its keys get 401, its public token 404). */
  active?: string
  /** on | off */
  queryApi?: string
  /** Comma-separated hosts or *.host; '' clears the allowlist (every site may call), a list of only commas or spaces is refused. */
  referrers?: string
  /** Default search radius in the locator's unit, > 0 and <= 1000; '' (not blank: refused) goes back to the API default (25). */
  radius?: string
  /** miles | km: the unit of `radius` (answers are in the unit a query asks for, miles by default). */
  unit?: string
  /** Public requests per minute per token, 1 to 1,000,000. */
  rateLimit?: string
}

/**
 * Hosts as the referrer check compares them: lowercased, no scheme, path or port; duplicates dropped.
 * '' (and only '') is the empty list: a list of commas or spaces is a mistake (a variable that came
 * out empty, a host left out), not a request to let every site call.
 */
export function parseReferrers(raw: string): string[] {
  if (raw === '') return []
  if (raw.replaceAll(',', '').trim() === '') {
    throw new OperatorError(`--referrers ${JSON.stringify(raw)} names no host; to clear the allowlist (every site may call), give --referrers ''.`)
  }
  const out: string[] = []
  for (const part of raw.split(',')) {
    const entry = part.trim().toLowerCase()
    if (entry === '') continue
    const shown = JSON.stringify(part.trim())
    if (entry === '*' || entry === '*.*') {
      throw new OperatorError(`--referrers: ${shown} would allow every site; to allow every site, clear the list with --referrers ''.`)
    }
    if (entry.includes('://') || entry.includes('/')) {
      throw new OperatorError(`--referrers takes hosts, not URLs: write example.com, not https://example.com/; got ${shown}.`)
    }
    // An IPv6 address ("[::1]", "::1") holds colons too: it is no port, and no domain name either.
    if (entry.startsWith('[') || (entry.match(/:/g)?.length ?? 0) > 1) {
      throw new OperatorError(`--referrers takes domain names; an IPv6 address cannot be listed (a page served from one sends it as its Origin, and the allowlist is for sites); got ${shown}.`)
    }
    if (entry.includes(':')) throw new OperatorError(`--referrers takes hosts without a port (any port matches); got ${shown}.`)
    const host = asciiHost(entry)
    if (host === '') throw new OperatorError(`--referrers: ${shown} is not a domain name; entries are exact hosts such as shop.example.com or münchen.de, or wildcards such as *.example.com.`)
    if (host.length > 253 || !REFERRER_ENTRY.test(host)) {
      throw new OperatorError(`--referrers entries must be exact hosts such as shop.example.com or wildcards such as *.example.com; got ${shown}.`)
    }
    if (host.startsWith('*.') && !host.slice(2).includes('.')) {
      throw new OperatorError(`--referrers: ${shown} would allow a whole top-level domain; name a domain such as *.example.com.`)
    }
    if (!out.includes(host)) out.push(host)
  }
  if (out.length > MAX_REFERRERS) throw new OperatorError(`--referrers may list at most ${MAX_REFERRERS} hosts; got ${out.length}.`)
  return out
}

function parseSettings(input: LocatorSettingsInput): LocatorSettings {
  const patch: LocatorSettings = {}
  if (input.active !== undefined) {
    if (input.active !== 'on' && input.active !== 'off') throw new OperatorError(`--active must be on or off; got ${JSON.stringify(input.active)}.`)
    patch.active = input.active === 'on'
  }
  if (input.queryApi !== undefined) {
    if (input.queryApi !== 'on' && input.queryApi !== 'off') throw new OperatorError(`--query-api must be on or off; got ${JSON.stringify(input.queryApi)}.`)
    patch.queryApiEnabled = input.queryApi === 'on'
  }
  if (input.referrers !== undefined) patch.referrers = parseReferrers(input.referrers)
  if (input.radius !== undefined) {
    const raw = input.radius.trim()
    if (input.radius === '') patch.defaultRadius = null
    else {
      const radius = Number(raw)
      if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw) || !(radius > 0) || radius > MAX_RADIUS) {
        throw new OperatorError(`--radius must be a number greater than 0 and at most ${MAX_RADIUS} (in the locator's unit), or '' for the default of 25; got ${JSON.stringify(input.radius)}.`)
      }
      patch.defaultRadius = radius
    }
  }
  if (input.unit !== undefined) {
    if (input.unit !== 'miles' && input.unit !== 'km') throw new OperatorError(`--unit must be miles or km; got ${JSON.stringify(input.unit)}.`)
    patch.defaultUnit = input.unit
  }
  if (input.rateLimit !== undefined) {
    const raw = input.rateLimit.trim()
    const limit = Number(raw)
    if (!/^\d{1,7}$/.test(raw) || limit < 1 || limit > MAX_RATE_LIMIT) {
      throw new OperatorError(`--rate-limit must be a whole number of requests per minute from 1 to ${MAX_RATE_LIMIT}; got ${JSON.stringify(input.rateLimit)}.`)
    }
    patch.rateLimit = limit
  }
  return patch
}

/** Validates every setting first, then changes them all in one transaction (or none). */
export function setLocatorSettings(store: Store, id: string, input: LocatorSettingsInput): Locator {
  requireLocator(store, id)
  const patch = parseSettings(input)
  if (Object.keys(patch).length === 0) {
    throw new OperatorError('Nothing to change: give at least one of --active, --query-api, --referrers, --radius, --unit, --rate-limit.')
  }
  return store.write(() => store.locators.updateSettings(id, patch))
}

/** A new public token; the old one stops naming the locator as soon as this commits. */
export function rotatePublicToken(store: Store, id: string): Locator {
  requireLocator(store, id)
  return store.write(() => store.locators.rotateToken(id))
}

// Filters and priority rules: validation ---------------------------------------------------------

const MAX_LISTED_PROBLEMS = 20

/** `/0/tags/1/color` under `filters` -> `filters[0].tags[1].color`. */
function jsonPath(root: string, pointer: string): string {
  let out = root
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    out += /^\d+$/.test(key) ? `[${key}]` : `.${key}`
  }
  return out
}

/** What a string must look like, by field name, for pattern mismatches. */
const PATTERN_HINTS: Record<string, string> = {
  id: 'must be 1 to 64 letters, digits, _ or - (such as services or _default)',
  color: 'must be a hex colour such as #1a7f37 or #fff',
  ids: 'must be a location id such as loc_0123456789abcdef',
}

/** A value as quoted in a message: JSON, cut short (nested too deep for JSON.stringify: its brackets). */
function shown(v: unknown): string {
  let text: string
  try {
    text = JSON.stringify(v) ?? String(v)
  } catch {
    text = Array.isArray(v) ? '[[[...]]]' : '{...}'
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function problemFor(root: string, e: ValueError, unknownField?: (at: string) => string): string {
  const at = jsonPath(root, e.path)
  const field = e.path.split('/').filter((p) => p !== '' && !/^\d+$/.test(p)).at(-1) ?? ''
  const s = e.schema as TSchema & Record<string, unknown>
  const got = e.value === undefined ? '' : `; got ${shown(e.value)}`
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${at} is required.`
    case ValueErrorType.ObjectAdditionalProperties:
      return unknownField ? unknownField(at) : `${at} is not a known field; the fields are ${Object.keys((s.properties as object) ?? {}).join(', ')}.`
    case ValueErrorType.String:
    case ValueErrorType.Boolean:
    case ValueErrorType.Number:
      return `${at} must be a ${s.type === 'string' ? 'string' : s.type === 'boolean' ? 'boolean (true or false)' : 'number'}${got}.`
    case ValueErrorType.Array:
      return `${at} must be an array${got}.`
    case ValueErrorType.Object:
      return `${at} must be an object${got}.`
    case ValueErrorType.StringMinLength:
      return `${at} must not be empty.`
    case ValueErrorType.StringMaxLength:
      return `${at} may be at most ${s.maxLength} characters.`
    case ValueErrorType.ArrayMinItems:
      return `${at} must have at least ${s.minItems} item(s).`
    case ValueErrorType.ArrayMaxItems:
      return `${at} may have at most ${s.maxItems} items.`
    case ValueErrorType.StringPattern:
      return `${at} ${PATTERN_HINTS[field] ?? `must match ${s.pattern}`}${got}.`
    default:
      return `${at}: ${e.message}${got}.`
  }
}

/** The schema's complaints about `value`, the first per field. */
function schemaProblems(schema: TSchema, value: unknown, root: string, unknownField?: (at: string) => string): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const e of schemaErrors(schema, value)) {
    if (seen.has(e.path)) continue // "is required" before "must be a string"
    seen.add(e.path)
    out.push(problemFor(root, e, unknownField))
  }
  return out
}

function refuse(what: string, problems: string[]): never {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${p}`)
  if (problems.length > MAX_LISTED_PROBLEMS) listed.push(`  ... and ${problems.length - MAX_LISTED_PROBLEMS} more.`)
  throw new OperatorError(`The ${what} were not changed:\n${listed.join('\n')}`)
}

const FilterTagInput = t.Object(
  {
    value: t.String({ minLength: 1, maxLength: 100 }),
    label: t.String({ minLength: 1, maxLength: 200 }),
    color: t.Optional(t.String({ pattern: HEX_COLOR.source })),
    image: t.Optional(t.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
)

const FilterGroupInput = t.Object(
  {
    id: t.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$' }),
    name: t.String({ minLength: 1, maxLength: 200 }),
    label: t.String({ minLength: 1, maxLength: 200 }),
    singleSelect: t.Optional(t.Boolean()),
    inline: t.Optional(t.Boolean()),
    hidden: t.Optional(t.Boolean()),
    hideInLocationDetails: t.Optional(t.Boolean()),
    tags: t.Optional(t.Array(FilterTagInput, { maxItems: 1000 })),
  },
  { additionalProperties: false },
)

/** A filters file: the groups as GET /filters returns them; booleans default to false, tags to []. */
export const FiltersInput = t.Array(FilterGroupInput, { maxItems: 100 })
export type FiltersInput = typeof FiltersInput.static

/** The groups `json` describes, or an OperatorError listing every problem (path and fix). */
export function parseFilters(json: unknown): FilterGroup[] {
  const value = trimStrings(json)
  const problems = schemaProblems(FiltersInput, value, 'filters')
  if (problems.length > 0) refuse('filters', problems)
  const input = value as FiltersInput
  const groupAt = new Map<string, number>()
  const tagAt = new Map<string, string>()
  const groups = input.map((g, i): FilterGroup => {
    const seenGroup = groupAt.get(g.id)
    if (seenGroup !== undefined) problems.push(`filters[${i}].id ${JSON.stringify(g.id)} is already the id of filters[${seenGroup}]; group ids must be unique.`)
    else groupAt.set(g.id, i)
    for (const field of ['name', 'label'] as const) {
      const problem = unprintable(g[field])
      if (problem !== null) problems.push(`filters[${i}].${field} ${problem}.`)
    }
    const tags = (g.tags ?? []).map((tag, j): FilterTag => {
      const at = `filters[${i}].tags[${j}]`
      const key = tag.value.toLowerCase()
      const first = tagAt.get(key)
      if (first !== undefined) problems.push(`${at}.value ${JSON.stringify(tag.value)} is already used at ${first}; tag values must be unique within a locator, ignoring case.`)
      else tagAt.set(key, at)
      if (tag.image !== undefined && !isFullUrl(tag.image)) problems.push(`${at}.image must be a full URL including the protocol (https://...); got ${shown(tag.image)}.`)
      const badLabel = unprintable(tag.label)
      if (badLabel !== null) problems.push(`${at}.label ${badLabel}.`)
      const out: FilterTag = { value: tag.value, label: tag.label }
      if (tag.color !== undefined) out.color = tag.color
      if (tag.image !== undefined) out.image = tag.image
      return out
    })
    return {
      id: g.id,
      name: g.name,
      label: g.label,
      singleSelect: g.singleSelect ?? false,
      inline: g.inline ?? false,
      hidden: g.hidden ?? false,
      hideInLocationDetails: g.hideInLocationDetails ?? false,
      tags,
    }
  })
  if (problems.length > 0) refuse('filters', problems)
  return groups
}

/** Replaces a locator's filter groups with those `json` describes (all of them, or nothing on a problem). */
export function setFilters(store: Store, locatorId: string, json: unknown): FilterGroup[] {
  requireLocator(store, locatorId)
  const groups = parseFilters(json)
  return store.write(() => {
    store.filters.replace(locatorId, groups)
    return store.filters.list(locatorId)
  })
}

// A priority rule is exactly one of these three shapes.
const TagRule = t.Object({ tag: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false })
const CustomFieldRule = t.Object({ custom_field: t.String({ minLength: 1, maxLength: 64 }), value: t.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false })
const IdsRule = t.Object({ ids: t.Array(t.String({ pattern: LOCATION_ID.source }), { minItems: 1, maxItems: 10_000 }) }, { additionalProperties: false })

const RULE_SHAPES = 'each rule is exactly one of {"tag": "..."}, {"custom_field": "...", "value": "..."} or {"ids": ["loc_...", ...]}'

/**
 * The rules `json` describes, or an OperatorError listing every problem. `customFields` are the
 * locator's defined custom field ids: a custom_field rule must name one of them.
 */
export function parsePriorityRules(json: unknown, customFields: readonly string[]): PriorityRule[] {
  const value = trimStrings(json)
  if (!Array.isArray(value)) throw new OperatorError(`The priority rules were not changed: they must be a JSON array in rank order; ${RULE_SHAPES}.`)
  if (value.length > 1000) refuse('priority rules', [`priority may have at most 1000 rules; got ${value.length}.`])
  const problems: string[] = []
  const rules: PriorityRule[] = []
  value.forEach((rule: unknown, i) => {
    const at = `priority[${i}]`
    if (!rule || typeof rule !== 'object' || Array.isArray(rule)) {
      problems.push(`${at} must be an object: ${RULE_SHAPES}.`)
      return
    }
    const r = rule as Record<string, unknown>
    const kind = 'tag' in r ? TagRule : 'custom_field' in r || 'value' in r ? CustomFieldRule : 'ids' in r ? IdsRule : null
    if (kind === null) {
      problems.push(`${at} is not a rule: ${RULE_SHAPES}.`)
      return
    }
    const found = schemaProblems(kind, r, at, (field) => `${field} is not allowed here: ${RULE_SHAPES}.`)
    if (found.length > 0) {
      problems.push(...found)
      return
    }
    if (kind === TagRule) rules.push({ tag: r.tag as string })
    else if (kind === CustomFieldRule) {
      const id = r.custom_field as string
      if (!customFields.includes(id)) {
        const known = customFields.length > 0 ? customFields.join(', ') : 'none are defined'
        problems.push(`${at}.custom_field ${JSON.stringify(id)} is not a custom field of this locator (${known}).`)
      }
      rules.push({ custom_field: id, value: r.value as string })
    } else rules.push({ ids: [...new Set(r.ids as string[])] })
  })
  if (problems.length > 0) refuse('priority rules', problems)
  return rules
}

/** Replaces a locator's priority rules (all of them, or nothing on a problem). */
export function setPriorityRules(store: Store, locatorId: string, json: unknown): PriorityRule[] {
  requireLocator(store, locatorId)
  return store.write(() => {
    // Inside the transaction: a custom field removed meanwhile cannot slip through.
    const rules = parsePriorityRules(json, store.customFields.list(locatorId).map((f) => f.id))
    store.priority.replace(locatorId, rules)
    return store.priority.list(locatorId)
  })
}
