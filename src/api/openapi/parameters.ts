// The OpenAPI document's parameters and response headers (components/parameters, components/headers),
// with the bounds the code checks (src/core/limits.ts, src/locations/service.ts).
import { PUBLIC_TOKEN } from '../../core/ids'
import { MAX_LIMIT, MAX_MAP_TILES, MAX_RADIUS, MAX_SEARCH, MAX_TAGS, MAX_ZOOM } from '../../core/limits'
import { STATUS_WORDS } from '../../locations/model'
import { MAX_PAGE } from '../../locations/service'
import { LOCATION_ID_PATTERN } from './schemas'

const query = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
})

const ID = { type: 'string', pattern: LOCATION_ID_PATTERN }

/**
 * A pattern taking each of `words` in any case, as the server reads them: JSON Schema's patterns
 * have no flags, and an enum would make a client refuse `TRUE`, which the server takes. `empty`:
 * nothing is taken too; `trimmed`: spaces around, as the server trims them (JS trim is `\s`).
 */
const anyCase = (words: readonly string[], { empty = false, trimmed = false } = {}) => {
  const space = trimmed ? String.raw`\s*` : ''
  const choice = words
    .map((word) =>
      [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c}]`)).join(''),
    )
    .join('|')
  return `^${space}(?:${choice})${empty ? '?' : ''}${space}$`
}

const FLAG_WORDS = ['true', 'false', '1', '0']
/** A flag of a query string, as flagValue reads it: any case; nothing after "=" is refused. */
const FLAG = { type: 'string', pattern: anyCase(FLAG_WORDS, { trimmed: true }), example: 'true' }
/** A flag of the Query API, which reads nothing after "=" (or spaces alone) as false. */
const QUERY_FLAG = { type: 'string', pattern: anyCase(FLAG_WORDS, { empty: true, trimmed: true }), example: 'true' }
const ANY_CASE = ' `1` and `0` work too, in any case.'
const FLAG_NOTE = `${ANY_CASE} Nothing after \`=\` is refused, as it could mean either.`

/** The words besides `draft` that statusInput reads as draft. */
const DRAFT_WORDS = STATUS_WORDS.filter(([word, status]) => status === 'draft' && word !== 'draft').map(
  ([word]) => word,
)

/** Every parameter an operation may name, by its key in components/parameters. */
export const PARAMETERS = {
  locationId: { name: 'id', in: 'path', required: true, description: 'The location id.', schema: ID },
  clusterId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'A cluster id from a GET /clusters answer.',
    schema: { type: 'string', example: '3-loc_dkhqrs6gblioquwv' },
  },
  token: {
    name: 'token',
    in: 'path',
    required: true,
    description: "The locator's public token, `pk_` and 24 letters and digits. Safe in front-end code.",
    schema: { type: 'string', pattern: PUBLIC_TOKEN.source },
  },
  ifNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag of an earlier answer: the same ETag now gives 304 without a body.',
    schema: { type: 'string' },
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A new key (a UUID) per write, the same on its retries: a retry with the same key and request replays the first answer with `Idempotent-Replayed: true` and writes nothing; the key with another request is 422 `idempotency_key_reused`; while the first is running, 409 `conflict` with Retry-After; an answer not kept (over 1 MiB, or past the IDEMPOTENCY_MAX_MB of the day) makes its retry 410 `idempotency_answer_not_kept` (not made again). Kept 24 hours, per locator.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  },
  externalId: query(
    'external_id',
    'Only the location with this external id, as written, else but for invisible characters (a zero-width space, a BOM): a page of one, or of none. Several holding it so: 409 `conflict`, naming them.',
    {
      type: 'string',
      minLength: 1,
      maxLength: 100,
    },
  ),
  dryRun: query(
    'dry_run',
    `\`true\` answers what the request would do and writes nothing. The flag of CSV bodies; a JSON body may give it here too, and then the two must agree.${FLAG_NOTE}`,
    FLAG,
  ),
  deleteMissing: query(
    'delete_missing',
    `\`true\` also deletes the locator's locations whose external id no item has. The flag of CSV bodies; a JSON body may give it here too, and then the two must agree.${FLAG_NOTE}`,
    // The /docs/api page fills a parameter with its example: a try there never deletes by default.
    { ...FLAG, example: 'false' },
  ),
  maxDelete: query(
    'max_delete',
    'The most locations delete_missing may delete; more refuses the request (422 `validation_error`). For CSV bodies; a JSON body may give it here too, and then the two must agree.',
    { type: 'integer', minimum: 0 },
  ),
  format: query(
    'format',
    '`json` or `csv`, in any case. Left out: `csv` when the `Accept` header ranks `text/csv` above all else, else `json`.',
    {
      type: 'string',
      pattern: anyCase(['json', 'csv'], { trimmed: true }),
      default: 'json',
    },
  ),
  // No `default` keyword on these two: the /docs/api page sends a default, and they are refused
  // with format=json. Their descriptions name their defaults.
  separator: query(
    'separator',
    'CSV only: `,` (the default), `;` or `tab` between cells. With `;` (Excel where numbers have a decimal comma) coordinates have a decimal comma too.',
    { type: 'string', enum: [',', ';', 'tab'] },
  ),
  bom: query(
    'bom',
    `CSV only: \`true\` (the default): the file starts with a UTF-8 byte order mark, so Excel reads accents as written; \`false\` leaves it out, for programs.${FLAG_NOTE}`,
    FLAG,
  ),
  page: query('page', 'The page, from 1.', { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 }),
  adminLimit: query('limit', `The page size. Above ${MAX_LIMIT}: 400 limit_exceeded.`, {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: 10,
  }),
  status: query(
    'status',
    `Only locations of this status; both when left out or empty. ${DRAFT_WORDS.map((w) => `\`${w}\``)
      .join(', ')
      .replace(/, (?=[^,]*$)/, ' and ')} mean \`draft\`. Any case.`,
    {
      type: 'string',
      pattern: anyCase(
        STATUS_WORDS.map(([word]) => word),
        { empty: true },
      ),
      example: 'published',
    },
  ),
  bbox: query(
    'bbox',
    "A box: `west,south,east,north` in decimal degrees. The locations in it, at any distance; west > east crosses the antimeridian. Distances are measured from `lat`/`lng` or `near` when sent, else from the box's middle. Not with `all`, nor `radius`.",
    { type: 'string', pattern: '^[^,]+,[^,]+,[^,]+,[^,]+$', example: '2.25,48.81,2.42,48.9' },
  ),
  mapBbox: {
    ...query(
      'bbox',
      `The box the map shows: \`west,south,east,north\` in decimal degrees; west > east crosses the antimeridian. At most ${MAX_MAP_TILES} tiles across and down at the zoom asked (the world is 2^zoom tiles across, so the whole world up to zoom ${Math.log2(MAX_MAP_TILES)}); a larger box is 400 INVALID_PARAMETER.`,
      {
        type: 'string',
        pattern: '^[^,]+,[^,]+,[^,]+,[^,]+$',
        example: '-180,-90,180,90',
      },
    ),
    required: true,
  },
  zoom: {
    ...query(
      'zoom',
      "The zoom in 512-pixel Web Mercator tiles (Mapbox GL's, MapLibre's): a map of 256-pixel tiles (Leaflet) sends its zoom less one. From 17, every location is alone.",
      {
        type: 'integer',
        minimum: 0,
        maximum: MAX_ZOOM,
      },
    ),
    required: true,
  },
  lat: query('lat', "The centre's latitude, in decimal degrees. Required unless near, bbox or all=true is sent.", {
    type: 'number',
    minimum: -90,
    maximum: 90,
  }),
  lng: query('lng', "The centre's longitude, in decimal degrees. Required unless near, bbox or all=true is sent.", {
    type: 'number',
    minimum: -180,
    maximum: 180,
  }),
  radius: query('radius', "In `unit`. The locator's radius when left out, else 25.", {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_RADIUS,
  }),
  unit: query('unit', 'The unit of `radius` and of each distance.', {
    type: 'string',
    enum: ['miles', 'km'],
    default: 'miles',
  }),
  limit: query('limit', 'The page size.', { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 20 }),
  offset: query('offset', 'Results to skip. Past the end: an empty page with the total.', {
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
  }),
  tags: {
    ...query('tags[]', 'Tag values, matched case-insensitively; repeat the parameter for each.', {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_TAGS,
    }),
    style: 'form',
    explode: true,
  },
  tagsAlias: {
    ...query('tags', 'The same as `tags[]`; both may be sent, and their tags add up.', {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_TAGS,
    }),
    style: 'form',
    explode: true,
  },
  tagLogic: query('tagLogic', '`any`: one of the tags; `all`: every tag; `match`: one tag of each group named.', {
    type: 'string',
    enum: ['any', 'all', 'match'],
    default: 'any',
  }),
  search: query(
    'search',
    'Words in the name, address, description or tags; the last word is a prefix. When they match nothing as typed, typos are allowed: one edit in a word of 4 to 7 characters, two from 8.',
    { type: 'string', maxLength: MAX_SEARCH },
  ),
  sort: query(
    'sort',
    'Radius mode: `distance` (the default) or `priority`. Bbox mode: `distance` (the default), `name` or `priority`. With all=true: `name` (the default) or `priority`.',
    {
      type: 'string',
      enum: ['distance', 'name', 'priority'],
    },
  ),
  all: query(
    'all',
    `\`true\`: every published location, by name, with no centre and no distance.${ANY_CASE} Empty is \`false\`.`,
    QUERY_FLAG,
  ),
  near: query(
    'near',
    'The centre as text (a town, postcode or region, as GET /places reads it) instead of `lat` and `lng`.',
    { type: 'string', maxLength: MAX_SEARCH },
  ),
  nearLang: query(
    'lang',
    "With `near`: the language of the country name in the centre's label, and the visitor's country (`en-GB`), as GET /places takes them.",
    { type: 'string', examples: ['de', 'en-GB'], default: 'en' },
  ),
  q: {
    ...query('q', 'The text a visitor typed so far; the last word may be cut short.', {
      type: 'string',
      maxLength: MAX_SEARCH,
    }),
    required: true,
  },
  placesLimit: query('limit', 'How many places.', { type: 'integer', minimum: 1, maximum: 20, default: 5 }),
  placesLang: query(
    'lang',
    "The language of the labels' country names: its first two letters, any case (one not shipped: English). A region after it (`en-GB`) is the visitor's country, whose places come first among places ranked alike and of about as many people.",
    { type: 'string', examples: ['de', 'en-GB'], default: 'en' },
  ),
  openNow: query(
    'open_now',
    `\`true\`: only the locations open now, by their hours in their time zones; \`total\` counts only those.${ANY_CASE} Empty is \`false\`.`,
    QUERY_FLAG,
  ),
}

export type ParameterName = keyof typeof PARAMETERS

/**
 * A response header, as an answer that always carries it declares it (document.ts makes one it carries
 * only sometimes so); `required` false: one no answer always carries, declared so once, here.
 */
const header = (description: string, type = 'string', required = true) => ({ description, required, schema: { type } })

/** Every response header an answer may carry, by its key in components/headers. */
export const HEADERS = {
  'X-Request-Id': header('The request id. The log files the request under it; quote it when reporting an error.'),
  ETag: header(
    'Changes with every write to the locator; on an answer that shows open states (GET /locations, /locations/{id}, /clusters/{id}/leaves, /clusters with open_now), also when one of its locations opens or closes. GET /filters, /places and /clusters without open_now keep theirs then.',
  ),
  'Cache-Control': header(
    'On the Query API, `public, max-age=60` on answers (on an answer that shows open states, less when a location opens or closes sooner), and `no-store` on errors. `no-store` on every answer of the Management API.',
  ),
  Vary: header(
    'On answers: `Origin`, or `Origin, Referer` when the locator has a referrer allowlist; then `Host` too when the service has no PUBLIC_BASE_URL (links then name the Host sent). On errors: `*` (an error is kept by no cache). On the Management API, an export that names no `format`: `Accept`, which chose JSON or CSV.',
  ),
  'X-Robots-Tag': header(
    'On every answer of the Query API: `noindex`. A crawler that runs a finder page fetches these answers as the page does; they are data, not pages to list. Store pages carry no such header.',
  ),
  'RateLimit-Limit': header("The token's requests a minute, in this process.", 'integer'),
  'RateLimit-Remaining': header('Requests left in this minute.', 'integer'),
  'RateLimit-Reset': header('Seconds until the minute ends.', 'integer'),
  'Retry-After': header(
    'Seconds to wait before trying again. On a 409 of the Management API: a request with the same Idempotency-Key is still running.',
    'integer',
  ),
  'X-Service-Status': header(
    "`starting` on each answer of a process that is starting (its database or the geocoder's data not ready): a 503 of the APIs and /readyz, and /healthz's 200. A client waits on it, not on the message; a busy database's 503 has the same code but not this header.",
    'string',
    false,
  ),
  'Idempotent-Replayed': header(
    '`true` when the answer is the replay of an earlier request with the same Idempotency-Key: nothing was written again.',
    'string',
    false,
  ),
  'WWW-Authenticate': header('`Bearer realm="admin"`.'),
  'Content-Disposition': header(
    'On a CSV file: `attachment; filename="locations-<locator id>.csv"`, the name a browser saves it under.',
    'string',
    false,
  ),
}

export type HeaderName = keyof typeof HEADERS
/** A header an answer declares; with "?" after its name, one it carries only sometimes. */
export type HeaderUse = HeaderName | `${HeaderName}?`
