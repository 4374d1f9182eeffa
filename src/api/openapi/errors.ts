// The errors of the OpenAPI document, made from the two error tables (ADMIN_ERRORS, PUBLIC_ERRORS):
// one named example per code in components/examples, and which codes each operation may answer.
import { damageText } from '../../store/damage'
import { ADMIN_ERRORS, type AdminErrorKind, locatorSwitchedOff } from '../admin/errors'
import { answerNotKept, keyReused } from '../admin/idempotency'
import { methodNotAllowed } from '../admin/methods'
import { noCluster } from '../public/clusters'
import { PUBLIC_ERROR_GUIDE } from '../public/docs'
import { databaseBusy, noEndpoint, PUBLIC_ERRORS, type PublicErrorCode, wrongMethod } from '../public/errors'
import { NO_PLACE, noPlace } from '../public/places'
import type { HeaderUse } from './parameters'
import { cliCommand } from '../../core/cli-command'

type Codes = { admin: AdminErrorKind; public: PublicErrorCode }
export type ErrorApi = keyof Codes
export type ErrorCode<A extends ErrorApi> = Codes[A]

const TABLES: { [A in ErrorApi]: Record<Codes[A], { status: number }> } = { admin: ADMIN_ERRORS, public: PUBLIC_ERRORS }

/**
 * Codes an operation answers only when its entry in OPERATIONS names them. Any other code of the
 * table may come from every operation of its API, so a code added to a table is documented at once.
 */
const NAMED_ONLY: { [A in ErrorApi]: readonly Codes[A][] } = {
  admin: [
    'limit_exceeded',
    'not_found',
    // Answers a method no operation has on an operation's path: components/examples holds it.
    'method_not_allowed',
    'conflict',
    'precondition_failed',
    'payload_too_large',
    'geocoding_failed',
    'idempotency_key_reused',
    'idempotency_answer_not_kept',
    'validation_error',
  ],
  // NOT_FOUND answers paths that are no operation, METHOD_NOT_ALLOWED methods no operation has:
  // components/examples holds them, no operation names them.
  public: [
    'MISSING_COORDINATES',
    'INVALID_COORDINATES',
    'LOCATION_NOT_FOUND',
    'CLUSTER_NOT_FOUND',
    'PLACE_NOT_FOUND',
    'PLACES_UNAVAILABLE',
    'NOT_FOUND',
    'METHOD_NOT_ALLOWED',
  ],
}

/** The codes an operation of `api` may answer, in table order: its API's common ones and those it names. */
export function errorCodes<A extends ErrorApi>(api: A, named: readonly Codes[A][] = []): Codes[A][] {
  const codes = Object.keys(TABLES[api]) as Codes[A][]
  return codes.filter((code) => named.includes(code) || !NAMED_ONLY[api].includes(code))
}

export const errorStatus = (api: ErrorApi, code: string): number =>
  (TABLES[api] as Record<string, { status: number }>)[code]!.status

/** A code as its answers' `error` field writes it: a Management API error's own word ("Authentication failed"). */
export const errorWord = (api: ErrorApi, code: string): string =>
  api === 'admin' ? ADMIN_ERRORS[code as AdminErrorKind].error : code

/** The key of a code's example in components/examples. */
export const exampleKey = (api: ErrorApi, code: string) => `${api}.${code}`

/** Messages as the code writes them where they say more than the table's default. */
const ADMIN_MESSAGES: Partial<Record<AdminErrorKind, string>> = {
  invalid_request: 'The page parameter must be a whole number of at least 1; got "0".',
  limit_exceeded: 'The limit parameter may not be greater than 500; got 1000.',
  unauthenticated: 'API key missing: send it in the header "Authorization: Bearer sk_...".',
  no_locator: locatorSwitchedOff('lct_0000000000000000'),
  not_found: 'Location "loc_dkhqrs6gblioquwv" was not found.',
  method_not_allowed: methodNotAllowed('DELETE', '/admin/v1/locations/loc_dkhqrs6gblioquwv', 'GET, HEAD, POST').message,
  conflict:
    'The external_id "BER-001" is already that of location loc_j505opj7n9y7b6gj ("Berlin Mitte"); external ids are unique within a locator. Update that location instead, or give it another external_id first.',
  precondition_failed:
    'locations[0]: location loc_j505opj7n9y7b6gj ("BER-001") was changed at 2026-12-02T02:27:31.441Z, after the if_updated_at sent (2026-12-01T18:04:12.009Z); nothing was written.',
  idempotency_key_reused: keyReused('a1b2', { createdAt: '2026-12-02T02:27:31.441Z' }),
  idempotency_answer_not_kept: answerNotKept('a1b2', {
    createdAt: '2026-12-02T02:27:31.441Z',
    status: 200,
    bytes: 1_468_006,
  }),
  geocoding_failed:
    'The address "Somewhere" could not be geocoded. Fix the address or send coordinates ({"lat": ..., "lng": ...}).',
  database_damaged: damageText('data/storeloc.db', 'database disk image is malformed'),
  error: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.',
}

const VALIDATION_DETAILS = {
  name: ['The name field is required.'],
  'coordinates.lat': ['The coordinates.lat field must be between -90 and 90; got 95.'],
  'contact.website': [
    'The contact.website field must be a valid URL including the protocol (https://...); got "shop.example".',
  ],
}

const PRECONDITION_DETAILS = {
  'locations[0].if_updated_at': [
    'The location loc_j505opj7n9y7b6gj ("BER-001") was changed at 2026-12-02T02:27:31.441Z, not at 2026-12-01T18:04:12.009Z: another write changed it since it was read. Read it again (GET /admin/v1/locations/loc_j505opj7n9y7b6gj); if it is still to go, send its delete with its updated_at now.',
  ],
}

const PUBLIC_MESSAGES: Partial<Record<PublicErrorCode, string>> = {
  REFERRER_NOT_ALLOWED: `Requests from other.example are not in this locator's referrer allowlist. Its operator adds the site by giving the whole list again, the hosts listed now (\`${cliCommand('locator show lct_...')}\`) and this one: \`${cliCommand('locator set lct_... --referrers "LISTED_HOSTS,other.example"')}\`.`,
  MISSING_COORDINATES: 'lat is required unless near or bbox is sent, or all=true.',
  INVALID_COORDINATES: 'lat must be between -90 and 90; got "95".',
  INVALID_PARAMETER: 'sort must be one of name, priority; got "distance".',
  LOCATION_NOT_FOUND: 'Location "loc_0000000000000000" was not found.',
  CLUSTER_NOT_FOUND: noCluster('4-loc_zjn0ln3fty8z4z4t'),
  PLACE_NOT_FOUND: noPlace('Nowherington', NO_PLACE),
  NOT_FOUND: noEndpoint('GET', '/public/v1/pk_000000000000000000000000/stores'),
  METHOD_NOT_ALLOWED: wrongMethod('POST', '/public/v1/pk_000000000000000000000000/locations'),
  UNAVAILABLE: databaseBusy().message,
}

/** The base of the examples' docs links: a service on its default port. */
const EXAMPLE_BASE = 'http://localhost:3000'

type Example = { summary: string; description?: string; value: unknown }

/** The example of `code` of `api`'s table, with `message` (else the one the code writes most often). */
export function errorExample(api: ErrorApi, code: string, message?: string): Example {
  if (api === 'admin') {
    const kind = code as AdminErrorKind
    const entry = ADMIN_ERRORS[kind]
    const value: Record<string, unknown> = {
      success: false,
      error: entry.error,
      message: message ?? ADMIN_MESSAGES[kind] ?? entry.message,
    }
    if (kind === 'validation_error') value.details = VALIDATION_DETAILS
    if (kind === 'precondition_failed') value.details = PRECONDITION_DETAILS
    return { summary: `${entry.status} ${kind}`, value }
  }
  const publicCode = code as PublicErrorCode
  const entry = PUBLIC_ERRORS[publicCode]
  const said = message ?? PUBLIC_MESSAGES[publicCode] ?? entry.message
  return {
    summary: `${entry.status} ${code}`,
    description: PUBLIC_ERROR_GUIDE[publicCode].when,
    value: { success: false, error: { code, message: said, docs: `${EXAMPLE_BASE}/docs#${code}` } },
  }
}

/** One example per code of both tables, keyed by exampleKey. */
export function errorExamples(): Record<string, Example> {
  const examples: Record<string, Example> = {}
  for (const kind of Object.keys(ADMIN_ERRORS)) examples[exampleKey('admin', kind)] = errorExample('admin', kind)
  for (const code of Object.keys(PUBLIC_ERRORS)) examples[exampleKey('public', code)] = errorExample('public', code)
  return examples
}

/**
 * The headers an error answer of `api` with `status` carries. The rate's only when the token names
 * a locator; Vary only with the CORS headers; a 409's Retry-After only for a request whose
 * Idempotency-Key is still running; a 503's X-Service-Status only while the service starts.
 */
export function errorHeaders(api: ErrorApi, status: number): HeaderUse[] {
  const headers: HeaderUse[] = ['X-Request-Id', 'Cache-Control']
  if (api === 'public')
    headers.push('X-Robots-Tag', 'Vary?', 'RateLimit-Limit?', 'RateLimit-Remaining?', 'RateLimit-Reset?')
  if (api === 'admin' && status === 401) headers.push('WWW-Authenticate')
  if (status === 429 || status === 503) headers.push('Retry-After')
  if (status === 503) headers.push('X-Service-Status?')
  if (api === 'admin' && status === 409) headers.push('Retry-After?')
  return headers
}
