// The Management API's location body, declared once. Validation that a schema cannot express
// (URLs with a protocol, custom field ids, status aliases) lives in normalize.ts.
import { Type as t } from '@sinclair/typebox'
import { DAYS } from '../store/locations'
import { SPECIAL_HOURS_MAX } from './opening'

export const CONTACT_KEYS = ['phone', 'email', 'website'] as const
export const SOCIAL_KEYS = ['instagram', 'facebook', 'twitter'] as const
const STATUS_INPUT = new Map<string, 'published' | 'draft'>([
  ['published', 'published'],
  ['draft', 'draft'],
  ['hidden', 'draft'],
  ['inactive', 'draft'],
  ['unpublished', 'draft'],
])

/**
 * The status a sent value names (any case; the aliases mean draft), or undefined. A Map, not an
 * object: "constructor" or "__proto__" named an object's inherited members and reached the database.
 */
export const statusInput = (raw: string): 'published' | 'draft' | undefined => STATUS_INPUT.get(raw.toLowerCase())
/** Every word statusInput reads, with the status it means. */
export const STATUS_WORDS: readonly (readonly [string, 'published' | 'draft'])[] = [...STATUS_INPUT]

const url = t.String({ maxLength: 2048 })
const keyed = <K extends readonly string[]>(keys: K, value: ReturnType<typeof t.String>) =>
  t.Partial(
    t.Object(Object.fromEntries(keys.map((k) => [k, value])) as { [P in K[number]]: typeof value }, {
      additionalProperties: false,
    }),
  )

export const Coordinates = t.Object(
  {
    lat: t.Number({ minimum: -90, maximum: 90 }),
    lng: t.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
)

/** The chain's own code for a location; null (or "") for none. Checked in normalize.ts, which says why. */
export const EXTERNAL_ID_MAX = 100
const externalId = t.Union([
  t.String({ maxLength: EXTERNAL_ID_MAX, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' }),
  t.Null(),
])

const fields = {
  external_id: externalId,
  name: t.String({ minLength: 1, maxLength: 200 }),
  address: t.String({ minLength: 1, maxLength: 500 }),
  coordinates: Coordinates,
  description: t.String({ maxLength: 10_000 }),
  tags: t.Array(t.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }),
  contact: t.Object(
    {
      phone: t.Optional(t.String({ maxLength: 50 })),
      email: t.Optional(t.String({ maxLength: 254 })),
      website: t.Optional(url),
    },
    { additionalProperties: false },
  ),
  social: keyed(SOCIAL_KEYS, url),
  hours: keyed(DAYS, t.String({ maxLength: 100 })),
  special_hours: t.Record(t.String(), t.String({ maxLength: 100 }), { maxProperties: SPECIAL_HOURS_MAX }),
  timezone: t.Union([t.String({ maxLength: 64 }), t.Null()]),
  custom_fields: t.Record(t.String(), t.String({ maxLength: 2000 }), { maxProperties: 100 }),
  image_url: url,
  status: t.String(),
}

/** POST /locations: name and address required, the rest optional. */
export const CreateLocationBody = t.Object({
  external_id: t.Optional(fields.external_id),
  name: fields.name,
  address: fields.address,
  coordinates: t.Optional(fields.coordinates),
  description: t.Optional(fields.description),
  tags: t.Optional(fields.tags),
  contact: t.Optional(fields.contact),
  social: t.Optional(fields.social),
  hours: t.Optional(fields.hours),
  special_hours: t.Optional(fields.special_hours),
  timezone: t.Optional(fields.timezone),
  custom_fields: t.Optional(fields.custom_fields),
  image_url: t.Optional(fields.image_url),
  status: t.Optional(fields.status),
})
export type CreateLocationBody = typeof CreateLocationBody.static

/** POST /locations/{id}: every field optional; only those sent change. */
export const UpdateLocationBody = t.Partial(CreateLocationBody)
export type UpdateLocationBody = typeof UpdateLocationBody.static

/** The top-level fields a location body may carry; anything else is ignored (id, timestamps...). */
export const LOCATION_FIELDS = Object.keys(fields) as (keyof typeof fields)[]
