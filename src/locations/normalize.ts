// One normalize step for location bodies: schema check, the rules a schema cannot express, and
// the cleaned-up patch the service writes. Rejects with 422 validation_error and per-field details.
import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { gotInstead } from '../core/sent-value'
import { codePointName, codePoints } from '../core/text'
import { isFullUrl, keyShown, quoted, schemaErrors, trimStrings } from '../core/validation'
import type { CustomField } from '../store/custom-fields'
import type { AddressParts, Contact, Hours, LocationStatus, Social } from '../store/locations'
import { LocationError, type ValidationDetails } from './errors'
import { canonicalZone, checkOpeningFields } from './opening'
import {
  CONTACT_KEYS,
  CreateLocationBody,
  EXTERNAL_ID_MAX,
  LOCATION_FIELDS,
  SOCIAL_KEYS,
  statusInput,
  UpdateLocationBody,
} from './model'

/** What a body asks to change. In maps, '' means "clear this key". */
export type LocationPatch = {
  /** null: none (clears it). */
  externalId?: string | null
  name?: string
  address?: string
  coordinates?: { lat: number; lng: number }
  description?: string
  tags?: string[]
  contact?: Contact
  social?: Social
  hours?: Hours
  /** Dates' hours text; '' clears a date. */
  specialHours?: Record<string, string>
  /** null: the zone of the coordinates (clears the one set). */
  timezone?: string | null
  customFields?: Record<string, string>
  imageUrl?: string
  status?: LocationStatus
  /** The address's own parts, sent with coordinates: an import's part columns; never a request's body. */
  addressParts?: AddressParts
}

const MAP_FIELDS = new Set(['contact', 'social', 'hours', 'special_hours', 'custom_fields'])

/** Keeps the known top-level fields only; trims every string and makes it well-formed. */
export function pickLocationFields(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of LOCATION_FIELDS) if (Object.hasOwn(raw, key)) out[key] = trimStrings(raw[key])
  return out
}

/** Form fields are all strings: turn numeric coordinates back into numbers. */
export function coerceFormCoordinates(body: Record<string, unknown>): void {
  const c = body.coordinates
  if (!c || typeof c !== 'object' || Array.isArray(c)) return
  const rec = c as Record<string, unknown>
  for (const k of ['lat', 'lng']) {
    const v = rec[k]
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) rec[k] = Number(v)
  }
}

/** A schema error's path as a field's name ("/hours/monday": "hours.monday"), each key cut as keyShown cuts it. */
const dotted = (path: string) => path.replace(/^\//, '').split('/').map(keyShown).join('.')

/**
 * The one range message of the number fields (coordinates.lat and coordinates.lng), with the number
 * sent when it is one (1e999 parses as Infinity); a latitude a longitude could be, beside a
 * longitude a latitude could be, is most likely the two swapped (-122.39, 37.79), and it says so.
 * A longitude of 0 is a placeholder (0, 0 is read as none), no latitude swapped in.
 */
function inRange(field: string, value: unknown, coordinates: unknown): string {
  const lat = field.endsWith('lat')
  const range = `The ${field} field must be between ${lat ? '-90 and 90' : '-180 and 180'}`
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${range}.`
  const lng = (coordinates as { lng?: unknown } | null | undefined)?.lng
  const swapped = lat && Math.abs(value) <= 180 && typeof lng === 'number' && lng !== 0 && Math.abs(lng) <= 90
  return `${range}; got ${value}${swapped ? `, with ${lng} as the longitude: are latitude and longitude swapped?` : '.'}`
}

function typeMessage(field: string, schema: TSchema, value: unknown, coordinates: unknown): string {
  const top = field.split('.')[0]!
  // A map's key takes "" for none, and on an update "" is how to clear it: leaving it out keeps it.
  const entry = MAP_FIELDS.has(top) && field.includes('.')
  const nullNote =
    value === null
      ? entry
        ? ' It was sent as null: send "" for none (on an update, "" clears it), or leave the key out.'
        : ' It was sent as null: leave the field out instead.'
      : ''
  if (schema.type === 'array') return `The ${field} field must be an array.${nullNote}`
  if (schema.type === 'object' && MAP_FIELDS.has(top) && !field.includes('.')) {
    return `The ${field} field must be an array of key/value pairs (a JSON object).${nullNote}`
  }
  if (schema.type === 'object' && top === 'coordinates')
    return `The ${field} field must be an object with numeric lat and lng.${nullNote}`
  if (schema.type === 'object') return `The ${field} field must be an object.${nullNote}`
  // A number too large for a double (1e999, 400 digits) arrives from JSON.parse as Infinity.
  if (schema.type === 'number') {
    if (typeof value === 'number') return inRange(field, value, coordinates)
    if (typeof value !== 'string') return `The ${field} field must be a number.`
    // A number out of range, unquoted, would be refused for its range: no number to send is named.
    const sent = decimal(value.trim())
    if (sent !== null && (sent < schema.minimum || sent > schema.maximum))
      return `The ${field} field must be a number between ${schema.minimum} and ${schema.maximum}; got ${JSON.stringify(value)}, a string.`
    return `The ${field} field must be a number${gotInstead(value, decimal, '')}`
  }
  // The contract's values are strings, numbers too ("3" for a number custom field): say how.
  if (typeof value === 'number' || typeof value === 'boolean')
    return `The ${field} field must be a string: send ${value} as "${value}".`
  return `The ${field} field must be a string.${nullNote}`
}

const tooLong = (field: string, max: number) => `The ${field} field may not be greater than ${max} characters.`

/** A string-or-null field (timezone) sent something else: a longer string, a number, an object. */
function unionMessage(field: string, schemas: TSchema[], value: unknown): string {
  const string = schemas.find((x) => x.type === 'string')
  if (typeof value === 'string' && string?.maxLength !== undefined && value.length > string.maxLength)
    return tooLong(field, string.maxLength)
  return `The ${field} field must be a string or null; got ${quoted(value)}.`
}

/**
 * A coordinate missing beside the other one: a point is both or none, so say which to give. Not
 * what none does: a new store is placed by its address, a stored one keeps its point.
 */
function besideOther(field: string, coordinates: unknown): string {
  const other = field === 'coordinates.lat' ? 'lng' : field === 'coordinates.lng' ? 'lat' : null
  // A null coordinate is none given: nothing stands beside the missing one.
  if (other === null || (coordinates as Record<string, unknown> | null | undefined)?.[other] == null) return ''
  const given = other === 'lat' ? 'latitude' : 'longitude'
  return ` beside the ${given}: give both, or neither`
}

/** `coordinates`: the body's, for a coordinate's range message. */
function messageFor(e: ValueError, coordinates: unknown): string {
  const field = dotted(e.path)
  const s = e.schema as TSchema & Record<string, number>
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `The ${field} field is required${besideOther(field, coordinates)}.`
    case ValueErrorType.StringMinLength:
      return field.startsWith('tags.') ? `The ${field} field must not be empty.` : `The ${field} field is required.`
    case ValueErrorType.StringMaxLength:
      return tooLong(field, s.maxLength)
    case ValueErrorType.ArrayMaxItems:
      return `The ${field} field may not have more than ${s.maxItems} items.`
    case ValueErrorType.ObjectMaxProperties:
      return `The ${field} field may not have more than ${s.maxProperties} entries.`
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
      return inRange(field, e.value, coordinates)
    case ValueErrorType.ObjectAdditionalProperties: {
      const parent = field.split('.').slice(0, -1).join('.')
      const allowed =
        parent === 'contact'
          ? CONTACT_KEYS
          : parent === 'social'
            ? SOCIAL_KEYS
            : parent === 'coordinates'
              ? ['lat', 'lng']
              : ['monday', '...', 'sunday']
      return `The ${field} field is not allowed; ${parent} takes ${allowed.join(', ')}.`
    }
    case ValueErrorType.Union:
      return unionMessage(field, s.anyOf as unknown as TSchema[], e.value)
    case ValueErrorType.Array:
    case ValueErrorType.Object:
    case ValueErrorType.Number:
    case ValueErrorType.String:
      return typeMessage(field, e.schema, e.value, coordinates)
    default:
      return `The ${field} field is invalid: ${e.message}.`
  }
}

/** How a JSON body writes a number custom field's value; a CSV cell, always text, needs no such hint. */
export const NUMBER_AS_STRING = ', written as a string ("12" or "-2.5")'

const isEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)
/** "mailto:a@b.de", an address as a link holds it (copied from a page or a sheet), is the address a@b.de. */
const withoutMailto = (email: string) => email.replace(/^mailto:\s*/i, '')
/** Yext's "Emails" and many sheets list a store's addresses in one cell, split by commas, semicolons or spaces. */
const SEVERAL_EMAILS = /[\s,;]+/

/** Why an email field is refused: of a list of addresses, that one is kept and which to write. */
function emailProblem(email: string): string {
  const listed = email.split(SEVERAL_EMAILS).filter((e) => e !== '')
  if (listed.length > 1 && listed.every((e) => isEmail(withoutMailto(e))))
    return `The contact.email field holds ${listed.length} email addresses; a location keeps one. Write the one customers should write to, such as ${quoted(withoutMailto(listed[0]!))}.`
  return `The contact.email field must be a valid email address, such as info@example.com; got ${quoted(email)}.`
}

const isNumeric = (v: string) => /^-?\d+(\.\d+)?$/.test(v)
/** A string's number as JSON writes it, else null: what a coordinate sent as a string meant. */
const decimal = (v: string) => (isNumeric(v) ? Number(v) : null)

/** The most fields a refusal lists; the last also says how many more there are: 700 unknown keys make no 2 MB answer. */
const MAX_FIELDS_LISTED = 20

/**
 * Validates a location body (already picked and trimmed) and returns the patch it asks for.
 * `mode` create requires name and address.
 */
export function normalizeLocationBody(
  body: Record<string, unknown>,
  mode: 'create' | 'update',
  definitions: CustomField[],
): LocationPatch {
  const details: ValidationDetails = {}
  const unlisted = new Set<string>()
  const add = (field: string, message: string) => {
    if (details[field] === undefined && Object.keys(details).length >= MAX_FIELDS_LISTED) {
      unlisted.add(field)
      return
    }
    const list = (details[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }
  const seen = new Set<string>(['external_id']) // checkExternalId says it in words of its own
  checkExternalId(body.external_id, add)
  for (const e of schemaErrors(mode === 'create' ? CreateLocationBody : UpdateLocationBody, body)) {
    const field = dotted(e.path)
    if (seen.has(field)) continue // first error per field: "required" before "must be a string"
    seen.add(field)
    add(field, messageFor(e, body.coordinates))
  }

  for (const [name, value] of Object.entries(body)) if (name !== 'external_id') checkControls(value, name, add)
  const status = body.status
  if (typeof status === 'string' && statusInput(status) === undefined) {
    add('status', 'The status field must be published or draft (hidden, inactive and unpublished mean draft).')
  }
  const checkUrl = (field: string, value: unknown) => {
    if (typeof value === 'string' && value !== '' && !isFullUrl(value)) {
      add(field, `The ${field} field must be a valid URL including the protocol (https://...); got ${quoted(value)}.`)
    }
  }
  const contact = body.contact as Record<string, unknown> | undefined
  if (contact && typeof contact === 'object') {
    checkUrl('contact.website', contact.website)
    if (typeof contact.email === 'string' && contact.email !== '' && !isEmail(withoutMailto(contact.email))) {
      add('contact.email', emailProblem(contact.email))
    }
  }
  const social = body.social as Record<string, unknown> | undefined
  if (social && typeof social === 'object') for (const k of SOCIAL_KEYS) checkUrl(`social.${k}`, social[k])
  checkUrl('image_url', body.image_url)
  checkOpeningFields(body, add)

  const custom = body.custom_fields as Record<string, unknown> | undefined
  if (custom && typeof custom === 'object' && !Array.isArray(custom)) {
    const byId = new Map(definitions.map((d) => [d.id, d]))
    for (const [id, value] of Object.entries(custom)) {
      const field = `custom_fields.${keyShown(id)}`
      const def = byId.get(id)
      if (!def) {
        const known = definitions.map((d) => d.id).join(', ') || 'none are defined'
        add(
          field,
          `The ${field} field is not a custom field of this locator (GET /custom_fields lists them: ${known}).`,
        )
        continue
      }
      if (typeof value !== 'string' || value === '') continue
      if (def.type === 'number' && !isNumeric(value))
        add(field, `The ${field} field must be a number${NUMBER_AS_STRING}.`)
      if ((def.type === 'url' || def.type === 'button') && !isFullUrl(value))
        add(field, `The ${field} field must be a valid URL including the protocol (https://...); got ${quoted(value)}.`)
      if (def.type === 'email' && !isEmail(withoutMailto(value)))
        add(field, `The ${field} field must be a valid email address, such as info@example.com; got ${quoted(value)}.`)
    }
  }

  if (unlisted.size > 0)
    Object.values(details)
      .at(-1)!
      .push(
        `And ${unlisted.size} more field${unlisted.size === 1 ? ' is' : 's are'} refused, not listed: fix those listed, then send it again to see the rest.`,
      )
  if (Object.keys(details).length > 0) throw new LocationError('validation_error', undefined, details)

  const b = body as UpdateLocationBody
  const patch: LocationPatch = {}
  if (b.external_id !== undefined) patch.externalId = b.external_id === '' ? null : b.external_id
  if (b.name !== undefined) patch.name = b.name
  if (b.address !== undefined) patch.address = b.address
  if (b.coordinates !== undefined) patch.coordinates = { lat: b.coordinates.lat, lng: b.coordinates.lng }
  if (b.description !== undefined) patch.description = b.description
  if (b.tags !== undefined) patch.tags = uniqueTags(b.tags)
  if (b.contact !== undefined)
    patch.contact = b.contact.email === undefined ? b.contact : { ...b.contact, email: withoutMailto(b.contact.email) }
  if (b.social !== undefined) patch.social = b.social
  if (b.hours !== undefined) patch.hours = b.hours
  if (b.special_hours !== undefined) patch.specialHours = b.special_hours
  if (b.timezone !== undefined)
    patch.timezone = b.timezone === null || b.timezone === '' ? null : canonicalZone(b.timezone)
  if (b.custom_fields !== undefined) {
    // An email field's value as contact.email's: "mailto:" is the link's, not the address's.
    const email = new Set(definitions.filter((d) => d.type === 'email').map((d) => d.id))
    patch.customFields = Object.fromEntries(
      Object.entries(b.custom_fields).map(([id, v]) => [id, email.has(id) ? withoutMailto(v) : v]),
    )
  }
  if (b.image_url !== undefined) patch.imageUrl = b.image_url
  if (b.status !== undefined) patch.status = statusInput(b.status)!
  return patch
}

/** The external_id rules (model.ts): a string of 1 to 100 characters without control characters, or null. */
export function checkExternalId(value: unknown, add: (field: string, message: string) => void): void {
  if (value === undefined || value === null) return
  if (typeof value !== 'string') {
    // A store code sent as a number (a spreadsheet's 42) is the likeliest: say how to send it.
    const fix = Number.isFinite(value) ? `: send ${value} as "${value}".` : `; got ${quoted(value)}.`
    add('external_id', `The external_id field must be a string (or null for none)${fix}`)
    return
  }
  if (codePoints(value) > EXTERNAL_ID_MAX) add('external_id', tooLong('external_id', EXTERNAL_ID_MAX))
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value))
    add('external_id', 'The external_id field may not contain control characters (tabs, line breaks...).')
}

/**
 * Control characters no location's text holds: those of C0 but tab and line breaks, DEL, C1.
 * They mean nothing in a store's text, and break the CSV, terminal or page that shows it.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** Refuses control characters in the strings of `value` (field `field`), naming the first; walked without recursion, however deep. */
function checkControls(value: unknown, field: string, add: (field: string, message: string) => void): void {
  const stack: [unknown, string][] = [[value, field]]
  while (stack.length > 0) {
    const [v, name] = stack.pop()!
    if (typeof v === 'string') {
      const found = CONTROL.exec(v)
      if (found === null) continue
      add(
        name,
        `The ${name} field may not contain control characters; it has ${codePointName(found[0])} at character ${found.index + 1}.`,
      )
    } else if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, child(name, String(i))]))
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) stack.push([x, child(name, k)])
  }
}

/** A field's name one level down; past MAX_NAME characters (a value nested thousands deep) it ends in "…". */
const child = (name: string, key: string) =>
  name.endsWith('…') ? name : name.length > MAX_NAME ? `${name}.…` : `${name}.${keyShown(key)}`
const MAX_NAME = 120

/** Tags match case-insensitively, so keep the first spelling of each. */
function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const tag of tags) {
    const key = tag.toLowerCase()
    if (!seen.has(key)) {
      seen.add(key)
      out.push(tag)
    }
  }
  return out
}

/** Applies a map patch: '' clears a key, anything else sets it. */
export function mergeMap<T extends Record<string, string | undefined>>(current: T, patch: Partial<T> | undefined): T {
  if (!patch) return current
  const out: Record<string, string> = { ...(current as Record<string, string>) }
  for (const [k, v] of Object.entries(patch)) {
    if (v === '' || v === undefined) delete out[k]
    else out[k] = v
  }
  return out as T
}
