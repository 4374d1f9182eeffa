// The schemas of the OpenAPI document: the request bodies the Management API validates with
// (src/locations/model.ts), and the answers as the code writes them (src/locations/service.ts,
// src/indexes/present.ts, src/api/public/answer.ts, the error tables). Closed where the answer is.
import { type TProperties, type TSchema, Type as t } from '@sinclair/typebox'
import { LANGS } from '../../core/languages'
import { MAX_LIMIT, MAX_ZOOM } from '../../core/limits'
import { PRECISIONS } from '../../geocode/geocoder'
import { BULK_MAX_ITEMS } from '../../locations/bulk'
import { CONTACT_KEYS, CreateLocationBody, SOCIAL_KEYS, UpdateLocationBody } from '../../locations/model'
import { CUSTOM_FIELD_TYPES } from '../../store/custom-fields'
import { DAYS } from '../../store/locations'
import { ADMIN_ERRORS } from '../admin/errors'
import { PUBLIC_ERRORS } from '../public/errors'

/** A reference to another schema of components/schemas. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const ref = (name: string) => t.Unsafe(schemaRef(name))
const closed = (properties: TProperties, options: object = {}) =>
  t.Object(properties, { additionalProperties: false, ...options })
const oneOf = (values: readonly string[], options: object = {}) =>
  t.Unsafe<string>({ type: 'string', enum: [...new Set(values)], ...options })
/** An object with every key of `keys`, each a string ('' when unset). */
const strings = (keys: readonly string[]) => closed(Object.fromEntries(keys.map((k) => [k, t.String()])))
const nullable = (schema: TSchema, options: { description?: string } = {}) => t.Union([schema, t.Null()], options)

/** The ids newLocationId makes. */
export const LOCATION_ID_PATTERN = '^loc_[0-9a-z]{16}$'
const LOCATION_ID = t.String({
  pattern: LOCATION_ID_PATTERN,
  description: '`loc_` and 16 lowercase letters or digits.',
})
const LatLng = closed({
  lat: t.Number({ minimum: -90, maximum: 90 }),
  lng: t.Number({ minimum: -180, maximum: 180 }),
})
const UNITS = ['miles', 'km'] as const

/** What the Management API's location fields mean beyond their schema (src/locations/normalize.ts checks these). */
const BODY_NOTES: Record<string, string> = {
  external_id:
    'Your own code for the location, 1 to 100 characters without control characters, unique within the locator (another location with it: 409 `conflict`). `null` or `""` removes it.',
  coordinates: 'Used as sent. Left out, the address is geocoded.',
  tags: 'Matched case-insensitively; the first spelling of each is kept. `null` is refused: leave the field out.',
  contact: '`website` must be a full URL with its protocol. On update, keys merge; `""` clears a key.',
  social: 'Profile URLs with their protocol. On update, keys merge; `""` clears a key.',
  hours:
    'Free text per day, such as `09:00-18:00`, `9am-5pm`, `09:00-12:00, 13:00-18:00`, `closed` or `24 hours`. Text that cannot be read is kept and counts as unknown: the answer lists it in `hours_unread`. On update, keys merge; `""` clears a key.',
  special_hours:
    'Hours text for dates (`YYYY-MM-DD`, in the location\'s time zone), such as holidays; each replaces its weekday\'s hours that day. On update, keys merge; `""` clears a date.',
  timezone:
    "An IANA time zone name, such as `Europe/Berlin`. Left out or `null`: the zone of the coordinates, looked up offline. A zone equal to the coordinates' one is not kept apart from them.",
  custom_fields: 'Keys are custom field ids from GET /admin/v1/custom_fields; values are checked by their type.',
  image_url: 'A full URL with its protocol.',
  status: '`published` (the default) or `draft`; `hidden`, `inactive` and `unpublished` mean `draft`. Any case.',
}

/** A TypeBox body schema as JSON Schema (its symbol keys dropped), with the notes above on its properties. */
function documentedBody(schema: TSchema, description: string): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(schema)) as { properties: Record<string, Record<string, unknown>> }
  for (const [name, property] of Object.entries(plain.properties)) {
    if (BODY_NOTES[name] !== undefined) property.description = BODY_NOTES[name]
  }
  return { ...plain, description }
}

const EXTERNAL_ID = t.String({ description: "The business's own code for the location, unique within the locator." })

const AdminLocation = closed(
  {
    id: LOCATION_ID,
    external_id: nullable(EXTERNAL_ID),
    name: t.String(),
    address: t.String(),
    coordinates: LatLng,
    description: t.String(),
    tags: t.Array(t.String()),
    contact: strings(CONTACT_KEYS),
    social: strings(SOCIAL_KEYS),
    hours: strings(DAYS),
    special_hours: t.Record(t.String(), t.String(), { description: 'Hours text by date (YYYY-MM-DD).' }),
    timezone: t.String({ description: 'The IANA time zone: the one set, or the one of the coordinates.' }),
    hours_unread: t.Array(t.String(), {
      description: 'The days (`monday`...) and dates whose hours text could not be read: they count as unknown.',
    }),
    custom_fields: t.Record(t.String(), t.String()),
    image_url: t.String(),
    status: oneOf(['published', 'draft']),
    geocoding: nullable(closed({ precision: oneOf(PRECISIONS), source: t.String() }), {
      description:
        'How the point and address parts were found: by the geocoder, or (`source` `reverse`) for coordinates sent, by the reverse lookup. Null when no town is near those coordinates, or a moved pin keeps its address parts.',
    }),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  },
  {
    description: 'A location with every field. Unset text is `""`.',
  },
)

const adminAnswer = (properties: TProperties, description: string) =>
  closed({ success: t.Literal(true), ...properties }, { description })

/** The public location's fields; a GET /locations item may add its distance. */
const publicLocation: TProperties = {
  id: LOCATION_ID,
  external_id: t.Optional(nullable(EXTERNAL_ID)),
  name: t.String(),
  coordinates: closed(
    {
      ...LatLng.properties,
      approximate: t.Optional(
        t.Literal(true, {
          description:
            'Only when a geocoder placed the point at the postcode, town or coarser, not at the store: its directions are best asked for by the address.',
        }),
      ),
    },
    { description: "Without `approximate` the point is the store's own: sent, or found at its street." },
  ),
  address: closed({
    formatted: t.String({
      description:
        'The stored address. The parts are those the geocoder read in it, and those it lacks from the embedded data at the point.',
    }),
    street: t.Optional(t.String()),
    city: t.Optional(t.String()),
    region: t.Optional(t.String()),
    postcode: t.Optional(t.String()),
    country: t.Optional(t.String()),
  }),
  contact: strings(CONTACT_KEYS),
  social: closed(
    Object.fromEntries(SOCIAL_KEYS.map((k) => [k, t.String({ description: 'A handle, `""` when unset.' })])),
  ),
  hours: strings(DAYS),
  timezone: t.String({
    description: "The location's IANA time zone, such as `Europe/Paris`: set for it, or that of its coordinates.",
  }),
  open_now: nullable(t.Boolean(), {
    description: 'Open at the time of the request, by its hours in its time zone; null when its hours do not say.',
  }),
  next_change: nullable(t.String({ format: 'date-time' }), {
    description:
      'When it next opens or closes, in its own offset then (`2026-12-24T14:00:00+01:00`); null when not known within eight days.',
  }),
  hours_today: nullable(t.String(), {
    description:
      "The hours text of its local date at the time of the request: that date's special hours when it has them, else its weekday's `hours`; null when there is none.",
  }),
  tags: t.Record(
    t.String({ description: 'A filter group id; `_default` for tags in no group.' }),
    closed({
      name: t.String(),
      items: t.Array(closed({ value: t.String(), label: t.String(), color: t.Optional(t.String()) })),
    }),
  ),
  customFields: t.Array(
    closed({
      token: t.String({ pattern: '^cf_' }),
      key: t.String(),
      name: t.String(),
      type: oneOf(CUSTOM_FIELD_TYPES),
      value: t.String(),
      label: t.Optional(t.String()),
      color: t.Optional(t.String()),
    }),
    { description: 'In the order the fields are defined; a field without a value is left out.' },
  ),
  image: t.String(),
  description: t.String(),
}

const publicAnswer = (data: TProperties, description: string, more: TProperties = {}) =>
  closed({ success: t.Literal(true), data: closed(data), ...more }, { description })

const link = (description: string) => t.Optional(t.String({ format: 'uri', description }))

/** A public page's pagination: its links ready to use. */
const publicPagination = () =>
  closed({
    offset: t.Integer({ minimum: 0 }),
    limit: t.Integer({ minimum: 1, maximum: MAX_LIMIT }),
    total: t.Integer({ minimum: 0 }),
    hasMore: t.Boolean(),
    next: link('The next page: present while hasMore is true.'),
    prev: link('The previous page: present after the first page.'),
  })

/** Every schema of components/schemas, by name. */
export const SCHEMAS = {
  CreateLocationBody: documentedBody(CreateLocationBody, 'POST /admin/v1/locations: `name` and `address` required.'),
  UpdateLocationBody: documentedBody(UpdateLocationBody, 'POST /admin/v1/locations/{id}: only the fields sent change.'),
  AdminLocation,
  AdminLocationAnswer: adminAnswer({ location: ref('AdminLocation') }, 'One location.'),
  AdminLocationList: adminAnswer(
    {
      locations: t.Array(ref('AdminLocation')),
      pagination: closed({
        page: t.Integer({ minimum: 1 }),
        limit: t.Integer({ minimum: 1, maximum: MAX_LIMIT }),
        total: t.Integer({ minimum: 0 }),
        total_pages: t.Integer({ minimum: 0 }),
        next: nullable(t.String({ description: "The next page's path; null on the last page." })),
        previous: nullable(t.String({ description: "The previous page's path; null on the first page." })),
      }),
    },
    'A page of locations, published and draft, in the order they were created.',
  ),
  AdminLocationExport: adminAnswer(
    { locations: t.Array(ref('AdminLocation')) },
    'Every location of the locator (of `status`, when given), in the order they were created.',
  ),
  AdminDeleteAnswer: adminAnswer({ message: t.String() }, 'The location was deleted.'),
  BulkUpsertBody: closed(
    {
      locations: t.Array(
        t.Union([
          t.Intersect(
            [
              ref('UpdateLocationBody'),
              t.Object({
                id: t.Optional(nullable(LOCATION_ID, { description: 'null: as when left out.' })),
                delete: t.Optional(t.Literal(false, { description: 'An ordinary item: as when left out.' })),
              }),
            ],
            {
              description:
                'Matched by `id`, else by `external_id`, else created (then `name` and `address` are required).',
            },
          ),
          closed(
            {
              id: t.Optional(nullable(LOCATION_ID)),
              external_id: t.Optional(nullable(EXTERNAL_ID)),
              delete: t.Literal(true),
              if_updated_at: t.Optional(
                nullable(
                  t.String({
                    format: 'date-time',
                    description:
                      "The location's `updated_at` as read (GET, the export). Changed since, the request is refused with `412 precondition_failed` and nothing is written, so another write's change is never deleted unseen. null: as when left out, no condition. Not read for a delete item that names no location (`absent`).",
                  }),
                ),
              ),
            },
            {
              // One of the two names the location; the other may be null, as an export's row has it.
              anyOf: (['id', 'external_id'] as const).map((name) => ({
                required: [name],
                properties: { [name]: { type: 'string', minLength: 1 } },
              })),
              description:
                'A delete item: deletes the location with this `id`, else this `external_id` (both given, they must be the same location); one of them may be null, as when left out. Nothing else may be sent with it but `if_updated_at`. One naming no location deletes nothing and is no error: its result says `absent`.',
            },
          ),
        ]),
        { maxItems: BULK_MAX_ITEMS },
      ),
      dry_run: t.Optional(t.Boolean({ default: false, description: 'Answer what would be done; write nothing.' })),
      delete_missing: t.Optional(
        t.Boolean({
          default: false,
          description:
            "Also delete the locator's locations whose external id no item has. Refused (422 `validation_error`) when it would delete every location with one, or a location whose code an item to create gives but for leading zeros (`1` for `0001`): that store would be made again with a new id.",
        }),
      ),
      max_delete: t.Optional(
        nullable(
          t.Integer({
            minimum: 0,
            description:
              'The most locations delete_missing may delete; more refuses the request (422 `validation_error`), so a cut-short list deletes nothing. null or absent: no limit.',
          }),
        ),
      ),
      success: t.Optional(t.Boolean({ description: "Read and ignored: an export's JSON answer posts back as it is." })),
    },
    { description: 'Up to 1,000 locations, all written or none.' },
  ),
  BulkUpsertAnswer: adminAnswer(
    {
      dry_run: t.Boolean(),
      created: t.Integer({ minimum: 0 }),
      updated: t.Integer({ minimum: 0 }),
      unchanged: t.Integer({ minimum: 0 }),
      deleted: t.Integer({ minimum: 0 }),
      absent: t.Integer({
        minimum: 0,
        description: 'Delete items that named no location of the locator: there was nothing to delete.',
      }),
      results: t.Array(
        closed({
          index: nullable(
            t.Integer({ minimum: 0, description: "The item's place; null for a location delete_missing deleted." }),
          ),
          line: t.Optional(t.Integer({ minimum: 1, description: "CSV bodies: the line the item's row starts on." })),
          id: nullable(t.String({ description: 'null for a location a dry run would create.' })),
          external_id: nullable(EXTERNAL_ID),
          name: t.Optional(t.String({ description: "Deleted locations only: the location's name." })),
          action: oneOf(['created', 'updated', 'unchanged', 'deleted', 'absent'], {
            description: '`absent`: a delete item that named no location; `id` is then null.',
          }),
          changes: t.Optional(
            t.Array(t.String(), {
              description:
                'Updates only: the fields that change, as `name`, `coordinates`, `geocoding`, or a key of a map such as `hours.monday` or `custom_fields.parking`.',
            }),
          ),
          geocoding: nullable(closed({ precision: oneOf(PRECISIONS), source: t.String() })),
          warnings: t.Array(t.String(), {
            description:
              "Points worth a look; the item is written all the same. Placed only at city level or coarser; a point in another country than the row's `country`, or far from its postcode or the town its address names; hours text that could not be read (kept, and counted as unknown); a field that is not a location's, not read; a cell a spreadsheet spoilt or read otherwise than written (a postcode's lost leading zero); a store code that may be a stored one's without its leading zeros; a location to create without an external_id that repeats a stored one or an earlier item; with `absent`, what the delete item named.",
          }),
        }),
      ),
      unknown_columns: t.Optional(t.Array(t.String(), { description: 'CSV bodies: header cells not read.' })),
      notes: t.Optional(
        t.Array(t.String(), {
          description:
            "What is said of the request as a whole. Of any body: how many locations to create without an external_id have the name and address, or the name and a point within 10 m, of a location the locator has (each such result's warnings name it), and the fix: give each its store code as external_id; and those that repeat an earlier one of the same body (its name and address), naming each and the one it repeats. Of a CSV body with no row of a store: what its lines were read as (the header again, title lines), or that no line is below the header. Of any CSV body: a column another tool's export fills with what no field takes (StoreRocket's `hours_id`), and what to write instead.",
        }),
      ),
    },
    'What was done (or, in a dry run, would be).',
  ),
  LocatorAnswer: adminAnswer(
    { locator: closed({ id: t.String({ pattern: '^lct_' }), name: t.String() }) },
    "The key's locator.",
  ),
  CustomFieldList: adminAnswer(
    { custom_fields: t.Array(closed({ id: t.String(), name: t.String(), type: oneOf(CUSTOM_FIELD_TYPES) })) },
    "The locator's custom field definitions.",
  ),
  AdminError: closed(
    {
      success: t.Literal(false),
      error: oneOf(Object.values(ADMIN_ERRORS).map((e) => e.error)),
      message: t.String(),
      details: t.Optional(
        t.Record(t.String(), t.Array(t.String()), {
          description:
            'validation_error: each field with its messages. precondition_failed: each delete item whose location changed (`locations[i].if_updated_at`).',
        }),
      ),
    },
    { description: 'An error of the Management API (and of /healthz and /readyz).' },
  ),
  Location: closed(publicLocation, { description: 'A published location.' }),
  ListedLocation: closed(
    {
      ...publicLocation,
      distance: t.Optional(
        closed(
          { value: t.Number({ minimum: 0 }), unit: oneOf(UNITS) },
          {
            description:
              "From the centre: in radius mode, and in bbox mode, from the box's middle or `lat`/`lng`. Not with `all=true` without a centre.",
          },
        ),
      ),
    },
    { description: 'A published location in a GET /locations answer.' },
  ),
  LocationsAnswer: publicAnswer(
    {
      locations: t.Array(ref('ListedLocation')),
      pagination: publicPagination(),
    },
    'A page of published locations.',
    {
      meta: closed(
        {
          query: t.Optional(
            closed({
              center: closed({
                lat: t.Number({ minimum: -90, maximum: 90 }),
                lng: t.Number({ minimum: -180, maximum: 180 }),
                label: t.Optional(t.String({ description: 'With near: the place it named.' })),
              }),
              radius: t.Optional(t.Number({ exclusiveMinimum: 0, description: 'Radius mode.' })),
              bbox: t.Optional(
                t.Array(t.Number(), {
                  minItems: 4,
                  maxItems: 4,
                  description: 'Bbox mode: the box as sent, west, south, east, north.',
                }),
              ),
              unit: oneOf(UNITS),
            }),
          ),
        },
        {
          description:
            "Radius and bbox mode: the query (a bbox query's centre: where its distances are measured from). With all=true: `{}`.",
        },
      ),
    },
  ),
  LocationAnswer: publicAnswer({ location: ref('Location') }, 'One published location.'),
  ClustersAnswer: publicAnswer(
    {
      clusters: t.Array(
        closed({
          id: t.String({ description: 'For GET /clusters/{id}/leaves.' }),
          lat: t.Number({ minimum: -90, maximum: 90 }),
          lng: t.Number({ minimum: -180, maximum: 180 }),
          count: t.Integer({ minimum: 2, description: 'Its locations that pass the filters.' }),
          expansion_zoom: t.Integer({
            minimum: 1,
            maximum: MAX_ZOOM,
            description: 'The zoom at which its locations are no longer all in one cluster.',
          }),
        }),
        { description: 'Clusters whose centre (the mean of their locations) lies in the box.' },
      ),
      locations: t.Array(
        closed({
          id: t.String(),
          lat: t.Number({ minimum: -90, maximum: 90 }),
          lng: t.Number({ minimum: -180, maximum: 180 }),
          name: t.String(),
        }),
        { description: 'Locations alone at this zoom, in the box.' },
      ),
      total: t.Integer({ minimum: 0, description: 'The locations in the clusters and alone.' }),
    },
    'The clusters and single locations of the box at the zoom.',
    {
      meta: closed({
        query: closed({
          bbox: t.Array(t.Number(), { minItems: 4, maxItems: 4 }),
          zoom: t.Integer({ minimum: 0, maximum: MAX_ZOOM }),
        }),
      }),
    },
  ),
  LeavesAnswer: publicAnswer(
    {
      locations: t.Array(ref('Location')),
      pagination: publicPagination(),
    },
    "A cluster's locations, by name.",
    { meta: closed({ query: closed({ cluster: t.String() }) }) },
  ),
  FilterGroup: closed({
    id: t.String({ description: '`_default` for the tags in no group.' }),
    name: t.String(),
    label: t.String(),
    singleSelect: t.Boolean(),
    inline: t.Boolean(),
    hidden: t.Boolean(),
    hideInLocationDetails: t.Boolean(),
    tags: t.Array(
      closed({
        value: t.String(),
        label: t.String(),
        color: t.Optional(t.String()),
        image: t.Optional(t.String()),
      }),
    ),
  }),
  FiltersAnswer: publicAnswer({ filters: t.Array(ref('FilterGroup')) }, 'The filter groups, `_default` last.', {
    meta: closed(
      {
        radius: t.Number({ exclusiveMinimum: 0, description: "The locator's default radius, in its unit." }),
        unit: oneOf(UNITS),
        language: oneOf(LANGS, {
          description:
            "The language of the locator's own pages (/l/{token}: the finder page, store pages, the directory) when their link has no `?lang=`; a link to them in another language adds `?lang=`.",
        }),
      },
      {
        description:
          "The locator's default radius and unit: what a finder shows before its visitor chooses. GET /locations measures in miles unless sent a unit. And the language of its own pages.",
      },
    ),
  }),
  Place: closed({
    label: t.String({
      description: 'The town (with its state or province where it has one) and country; a postcode with its town.',
    }),
    lat: t.Number({ minimum: -90, maximum: 90 }),
    lng: t.Number({ minimum: -180, maximum: 180 }),
    country: t.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2.' }),
    precision: oneOf(['city', 'postcode', 'region', 'country']),
  }),
  PlacesAnswer: publicAnswer({ places: t.Array(ref('Place')) }, 'The places the text names, best first.'),
  PublicError: closed(
    {
      success: t.Literal(false),
      error: closed({
        code: oneOf(Object.keys(PUBLIC_ERRORS)),
        message: t.String(),
        docs: t.String({ format: 'uri-reference', description: "The code's section of GET /docs." }),
      }),
    },
    { description: 'An error of the Query API.' },
  ),
  Health: closed({ status: oneOf(['ok', 'starting']) }),
  Readiness: closed({
    status: oneOf(['ready', 'degraded']),
    message: t.Optional(t.String()),
    locators: t.Optional(t.Array(t.String(), { description: 'The locators whose index cannot be built.' })),
  }),
  NotReady: closed({
    status: oneOf(['starting', 'loading', 'failed']),
    message: t.String(),
    locators: t.Optional(t.Array(t.String())),
  }),
}

export type SchemaName = keyof typeof SCHEMAS
