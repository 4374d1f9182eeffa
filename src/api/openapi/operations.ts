// Every operation the service answers, one entry each: the OpenAPI document is made from this table
// (document.ts adds what an API's operations share: auth, the token, headers, common errors).
import { capMessage } from '../../locations/cap'
import { answerNotKept } from '../admin/idempotency'
import type { ErrorCode } from './errors'
import type { ParameterName } from './parameters'
import type { SchemaName } from './schemas'

/** An answer an operation documents: its status, body schema and what it means. */
export type Answer = {
  status: number
  schema: SchemaName
  description: string
  /** The answer may be a CSV file instead (text/csv). */
  csv?: boolean
}

type Common = {
  /** The operationId: unique, camelCase. */
  id: string
  method: 'get' | 'post'
  /** The full path, with {name} for path parameters (each named in `parameters`). */
  path: string
  summary: string
  description?: string
  parameters?: readonly ParameterName[]
  /** The JSON request body's schema. */
  body?: SchemaName
  /** A body the API takes as it is: what the /docs/api page's "Try it out" starts from. */
  example?: unknown
  /** The body may also be CSV (text/csv): this example, taken with `dry_run=true` in the query string. */
  csv?: string
  /** The same body's rows apart by tabs, as text/tab-separated-values. */
  tsv?: string
  ok: Answer
  /** Answers besides `ok` and the error table's. */
  also?: readonly Answer[]
  /** An error code's message as this operation writes it, where it differs from the shared example. */
  messages?: Readonly<Record<string, string>>
}

/**
 * `errors`: the codes of the API's table only this operation answers (errors.ts NAMED_ONLY); the
 * API's other codes are added to every operation. `service` operations use the Management API's
 * table (the same app answers them) but answer only the codes they name.
 */
export type Operation = Common &
  (
    | { api: 'admin'; errors?: readonly ErrorCode<'admin'>[] }
    | { api: 'public'; errors?: readonly ErrorCode<'public'>[] }
    | { api: 'service'; errors?: readonly ErrorCode<'admin'>[] }
  )

export type Api = Operation['api']

const ADMIN = '/admin/v1'
/** A single location's answer is never over 1 MiB: its 410 comes from the day's IDEMPOTENCY_MAX_MB. */
const notKept = (status: number) =>
  answerNotKept('a1b2', { createdAt: '2026-12-02T02:27:31.441Z', status, bytes: 1_203 })
const PUBLIC = '/public/v1/{token}'
const DOWNTOWN = {
  external_id: 'SPR-001',
  name: 'Downtown Store',
  address: '200 Main Street, Springfield, IL 62701',
  coordinates: { lat: 39.8017, lng: -89.6436 },
  tags: ['Parking', 'Wifi'],
  contact: { phone: '+1 217 555 0100', website: 'https://example.com/downtown' },
  hours: { monday: '09:00-18:00', sunday: 'closed' },
}
const LIST = [
  'lat',
  'lng',
  'radius',
  'unit',
  'limit',
  'offset',
  'tags',
  'tagsAlias',
  'tagLogic',
  'search',
  'sort',
  'all',
  'openNow',
  'near',
  'nearLang',
  'bbox',
] as const

export const OPERATIONS: readonly Operation[] = [
  {
    api: 'admin',
    id: 'listLocations',
    method: 'get',
    path: `${ADMIN}/locations`,
    summary: 'List locations',
    description: 'Published and draft, in the order they were created.',
    parameters: ['page', 'adminLimit', 'status', 'externalId'],
    ok: { status: 200, schema: 'AdminLocationList', description: 'A page of locations.' },
    errors: ['limit_exceeded', 'conflict'],
  },
  {
    api: 'admin',
    id: 'createLocation',
    method: 'post',
    path: `${ADMIN}/locations`,
    summary: 'Create a location',
    description:
      'Without `coordinates`, the address is geocoded. Form bodies (urlencoded, multipart) are read too, with `a[b]` and `a[]` for nesting.',
    parameters: ['idempotencyKey'],
    body: 'CreateLocationBody',
    example: DOWNTOWN,
    ok: { status: 201, schema: 'AdminLocationAnswer', description: 'Created and committed.' },
    errors: [
      'conflict',
      'payload_too_large',
      'validation_error',
      'geocoding_failed',
      'idempotency_key_reused',
      'idempotency_answer_not_kept',
      'limit_exceeded',
    ],
    messages: {
      limit_exceeded: capMessage('lct_0000000000000000', 1_000_000, 1, 1_000_000),
      idempotency_answer_not_kept: notKept(201),
    },
  },
  {
    api: 'admin',
    id: 'exportLocations',
    method: 'get',
    path: `${ADMIN}/locations/export`,
    summary: 'Export every location',
    description:
      "All of the locator's locations at once, published and draft (or those of `status`), as JSON or, with `format=csv` (or no format and `Accept: text/csv`), as the CSV file that `locations import` and POST /admin/v1/locations/bulk read back with nothing changed. In CSV, a text cell that a spreadsheet would run as a formula (starting with =, +, - or @), and each part of a cell after `;` or a line break that would, gets a leading `'`, which reading takes off.",
    parameters: ['format', 'status', 'separator', 'bom'],
    ok: { status: 200, schema: 'AdminLocationExport', description: 'Every location.', csv: true },
  },
  {
    api: 'admin',
    id: 'getLocation',
    method: 'get',
    path: `${ADMIN}/locations/{id}`,
    summary: 'Read a location',
    description: 'Published or draft.',
    parameters: ['locationId'],
    ok: { status: 200, schema: 'AdminLocationAnswer', description: 'The location.' },
    errors: ['not_found'],
  },
  {
    api: 'admin',
    id: 'updateLocation',
    method: 'post',
    path: `${ADMIN}/locations/{id}`,
    summary: 'Update a location',
    description:
      'Only the fields sent change. An address sent without `coordinates` is geocoded again. An update that changes nothing keeps `updated_at`.',
    parameters: ['locationId', 'idempotencyKey'],
    body: 'UpdateLocationBody',
    example: { status: 'draft', contact: { phone: '' } },
    ok: { status: 200, schema: 'AdminLocationAnswer', description: 'The location as it is now.' },
    errors: [
      'not_found',
      'conflict',
      'payload_too_large',
      'validation_error',
      'geocoding_failed',
      'idempotency_key_reused',
      'idempotency_answer_not_kept',
    ],
    messages: { idempotency_answer_not_kept: notKept(200) },
  },
  {
    api: 'admin',
    id: 'deleteLocation',
    method: 'post',
    path: `${ADMIN}/locations/{id}/delete`,
    summary: 'Delete a location',
    description: 'Send no body. Afterwards the id gives 404 on every endpoint.',
    parameters: ['locationId', 'idempotencyKey'],
    ok: { status: 200, schema: 'AdminDeleteAnswer', description: 'Deleted.' },
    errors: ['not_found', 'conflict', 'payload_too_large', 'idempotency_key_reused', 'idempotency_answer_not_kept'],
    messages: { idempotency_answer_not_kept: notKept(200) },
  },
  {
    api: 'admin',
    id: 'upsertLocations',
    method: 'post',
    path: `${ADMIN}/locations/bulk`,
    summary: 'Create, update and delete many locations',
    description:
      'Up to 1,000 locations, each matched by `id`, else `external_id`, else created, or deleted by a delete item (`{"external_id": "X", "delete": true}`, or by `id`: one naming no location deletes nothing and its result says `absent`); all checked and geocoded before one transaction writes them (an address equal to the one the matched location has is not geocoded again: its point stays), so any problem is one 422 `validation_error` naming every failing item (`locations[i]`, or `line n` for CSV) and nothing is written. Store codes are checked as the request leaves them: an item may take the code of another location when another item gives that location another code or deletes it (the codes of two stores swapped, each matched by `id`). A CSV body (`text/csv`, the columns of `locations import`; UTF-8 unless the `charset` of its Content-Type names another, such as `text/csv; charset=windows-1252`) takes `dry_run`, `delete_missing` and `max_delete` in the query string. The body limit is 8 MiB.',
    parameters: ['idempotencyKey', 'dryRun', 'deleteMissing', 'maxDelete'],
    body: 'BulkUpsertBody',
    // A dry run, so that trying it writes nothing; the second store is geocoded, the third a delete item.
    example: {
      dry_run: true,
      locations: [
        DOWNTOWN,
        { external_id: 'WAS-001', name: 'Washington', address: '1600 Pennsylvania Avenue NW, Washington, DC 20500' },
        { external_id: 'CLOSED-042', delete: true },
      ],
    },
    csv: [
      'external_id,name,address,lat,lng,tags,delete',
      'SPR-002,Riverside Store,"10 River Road, Springfield, IL 62702",39.7817,-89.6501,Parking|Wifi,',
      'WAS-001,Washington,"1600 Pennsylvania Avenue NW, Washington, DC 20500",,,,',
      'CLOSED-042,,,,,,yes',
      '',
    ].join('\n'),
    tsv: [
      'external_id\tname\taddress\tlat\tlng\ttags\tdelete',
      'SPR-002\tRiverside Store\t10 River Road, Springfield, IL 62702\t39.7817\t-89.6501\tParking|Wifi\t',
      'WAS-001\tWashington\t1600 Pennsylvania Avenue NW, Washington, DC 20500\t\t\t\t',
      'CLOSED-042\t\t\t\t\t\tyes',
      '',
    ].join('\n'),
    ok: { status: 200, schema: 'BulkUpsertAnswer', description: 'Written, or in a dry run worked out.' },
    errors: [
      'conflict',
      'precondition_failed',
      'payload_too_large',
      'validation_error',
      'idempotency_key_reused',
      'idempotency_answer_not_kept',
      'limit_exceeded',
    ],
    messages: {
      limit_exceeded: capMessage('lct_0000000000000000', 999_500, 1_000, 1_000_000),
      payload_too_large:
        "The request body may not be larger than 8 MiB on this route. Send the locations in several requests (the CLI's locations import takes any number). With delete_missing, send each part without it: it looks only at its own request, so each part would delete the others' locations. Then delete the locations the list lacks, as examples/sync.ts does, or import the whole list with the CLI's locations import --delete-missing.",
    },
  },
  {
    api: 'admin',
    id: 'getLocator',
    method: 'get',
    path: `${ADMIN}/locator`,
    summary: "Name the key's locator",
    description:
      'The locator every route writes with this key: a script says it before writing, so a key of another locator is seen.',
    ok: { status: 200, schema: 'LocatorAnswer', description: 'Its id and name.' },
  },
  {
    api: 'admin',
    id: 'listCustomFields',
    method: 'get',
    path: `${ADMIN}/custom_fields`,
    summary: 'List custom fields',
    description: "Their ids are the keys a location's `custom_fields` may use.",
    ok: { status: 200, schema: 'CustomFieldList', description: 'The definitions.' },
  },
  {
    api: 'public',
    id: 'queryLocations',
    method: 'get',
    path: `${PUBLIC}/locations`,
    summary: 'Find published locations',
    description:
      'Radius mode: send `lat` and `lng`; locations within `radius` come nearest first. Bbox mode: `bbox=west,south,east,north`; the locations in the box come nearest its middle (or `lat`/`lng`) first. All mode: `all=true`; every published location comes, by name.',
    parameters: LIST,
    ok: { status: 200, schema: 'LocationsAnswer', description: 'A page of locations.' },
    errors: ['MISSING_COORDINATES', 'INVALID_COORDINATES', 'PLACE_NOT_FOUND', 'PLACES_UNAVAILABLE'],
  },
  {
    api: 'public',
    id: 'getPublicLocation',
    method: 'get',
    path: `${PUBLIC}/locations/{id}`,
    summary: 'Read a published location',
    parameters: ['locationId'],
    ok: { status: 200, schema: 'LocationAnswer', description: 'The location, with no distance.' },
    errors: ['LOCATION_NOT_FOUND'],
  },
  {
    api: 'public',
    id: 'queryClusters',
    method: 'get',
    path: `${PUBLIC}/clusters`,
    summary: "Cluster a map's box",
    description:
      'The published locations in the box, grouped as mapbox supercluster groups them at this zoom (40 px of a 512 px tile), after the filters: clusters with their count, and locations alone.',
    parameters: ['mapBbox', 'zoom', 'tags', 'tagsAlias', 'tagLogic', 'search', 'openNow'],
    ok: { status: 200, schema: 'ClustersAnswer', description: 'Clusters and single locations.' },
  },
  {
    api: 'public',
    id: 'listClusterLeaves',
    method: 'get',
    path: `${PUBLIC}/clusters/{id}/leaves`,
    summary: "List a cluster's locations",
    description: 'Send the filters the clusters were asked with.',
    parameters: ['clusterId', 'limit', 'offset', 'tags', 'tagsAlias', 'tagLogic', 'search', 'openNow'],
    ok: { status: 200, schema: 'LeavesAnswer', description: "A page of the cluster's locations." },
    errors: ['CLUSTER_NOT_FOUND'],
  },
  {
    api: 'public',
    id: 'listFilters',
    method: 'get',
    path: `${PUBLIC}/filters`,
    summary: 'List the filter groups',
    description: 'The groups as the operator set them, then `_default` with the tags in no group.',
    ok: { status: 200, schema: 'FiltersAnswer', description: 'The filter groups.' },
  },
  {
    api: 'public',
    id: 'findPlaces',
    method: 'get',
    path: `${PUBLIC}/places`,
    summary: 'Find places as a visitor types',
    description:
      "Towns by any of their names, postcodes and regions, from the embedded geocoder's data; a place near the locator's locations ranks before an equal one far from them.",
    parameters: ['q', 'placesLimit', 'placesLang'],
    ok: { status: 200, schema: 'PlacesAnswer', description: 'The places, best first.' },
    errors: ['PLACES_UNAVAILABLE'],
  },
  {
    api: 'service',
    id: 'health',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    description:
      'Answers while the process is up: "starting" until it serves (it may wait for the database), then "ok".',
    ok: { status: 200, schema: 'Health', description: 'Up.' },
  },
  {
    api: 'service',
    id: 'readiness',
    method: 'get',
    path: '/readyz',
    summary: 'Readiness',
    description: 'Ready once the database answers and the indexes are loaded. Point a load balancer here.',
    ok: { status: 200, schema: 'Readiness', description: 'Ready, or degraded: some locator or writes fail.' },
    also: [
      {
        status: 503,
        schema: 'NotReady',
        description: 'Starting, the indexes loading, or nothing can be served (the database file damaged or gone).',
      },
    ],
    errors: ['unavailable', 'error'],
  },
]
