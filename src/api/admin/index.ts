// The Management API routes (/admin/v1). Handlers only translate HTTP to service calls.
import { Elysia } from 'elysia'
import { formRefusal, type ParsedBody, parseBody, sentAs } from '../body'
import type { BodyDigest } from '../body-digest'
import { type AdminAuth, authenticate, KeyRefused } from './auth'
import { BULK_MAX_BODY_BYTES, bulkBodyError, csvBulkRequest, jsonBulkRequest, QUERY_FLAGS } from './bulk'
import { exportAnswer } from './export'
import { answerBudget, idempotentWrites } from './idempotency'
import { bulkUpsert } from '../../locations/bulk'
import { LocationError } from '../../locations/errors'
import { AdminError } from './errors'
import { adminMethods, methodNotAllowed } from './methods'
import { coerceFormCoordinates } from '../../locations/normalize'
import {
  createLocation,
  deleteLocation,
  getLocation,
  listCustomFields,
  listLocations,
  requireLocationId,
  takesOnly,
  updateLocation,
  type AdminDeps,
} from '../../locations/service'

/** The parsed body as the service expects it, or the documented error for a bad one. */
function bodyOf(parsed: unknown): unknown {
  const body = parsed as ParsedBody | undefined
  if (!body || body.kind === 'empty') return {}
  if (body.kind === 'too_large') throw new AdminError('payload_too_large')
  if (body.kind === 'encoded' || body.kind === 'charset' || body.kind === 'too_wide')
    throw new AdminError('invalid_request', body.reason)
  if (body.kind === 'invalid_json')
    throw new AdminError('invalid_request', `The request body is not valid JSON: ${body.reason}`)
  if (body.kind === 'invalid_form') throw new AdminError('invalid_request', formRefusal(body.reason))
  if (body.kind === 'form') {
    coerceFormCoordinates(body.value)
    return body.value
  }
  if (body.kind === 'csv') return {} // read as CSV on the bulk route only
  return body.value
}

/**
 * A body sent with a Content-Type that is not read (none, text/plain...) arrives empty. The errors
 * that follow (required fields on create, no fields on update) then say why: the caller did send
 * the fields (the spec's first common cause of validation errors).
 */
async function sayingWhyUnread<T>(parsed: unknown, run: () => Promise<T>): Promise<T> {
  const body = parsed as ParsedBody | undefined
  // An empty body's errors say so too: required fields alone read as if fields were sent wrong.
  if (body !== undefined && body.kind !== 'empty') return run()
  const why =
    body?.unread === undefined
      ? 'The request body was empty: send the fields as a JSON object.'
      : `The request body was not read: it was sent ${sentAs(body.unread)}. Send JSON with the header "Content-Type: application/json".`
  try {
    return await run()
  } catch (e) {
    if (!(e instanceof LocationError) || (e.kind !== 'validation_error' && e.kind !== 'invalid_request')) throw e
    throw new AdminError(e.kind, `${e.message} ${why}`, e.details)
  }
}

/** A request to a route of this API with a method it does not take: 405, with the methods it takes. */
function wrongMethod(request: Request): AdminError {
  const path = new URL(request.url).pathname
  return methodNotAllowed(request.method, path, adminMethods(path) ?? '')
}

/** Refuses any query parameter on a route that takes none, as the routes that take some refuse others. */
const noParams = (request: Request) => takesOnly(new URL(request.url).searchParams, [])

/**
 * Elysia sends "/locations/" to the routes of "/locations" (list, create): there, the ID of
 * /locations/{id} is missing (400, as the spec says), not a list or a new location.
 */
function refuseMissingId(url: URL): URL {
  if (url.pathname.endsWith('/')) requireLocationId('')
  return url
}

export type AdminRouteDeps = AdminDeps & {
  maxBodyBytes: number
  /** The most bytes of answers a locator keeps for Idempotency-Key retries over 24 hours (IDEMPOTENCY_MAX_MB). */
  idempotencyMaxBytes: number
  /** Told the key a request sent and its locator, once found, refused or not (for the request log). */
  onKey?: (request: Request, locatorId: string, keyId: string) => void
}

type WriteContext = {
  request: Request
  body: unknown
  set: { status?: number | string }
  auth: { locator: { id: string } }
}

/**
 * Tells `onKey` the key a request sent, once checked (before its body is read: a request cut
 * while its body comes is logged with its key too), whether it was refused or not.
 */
function tellKey(found: { auth: AdminAuth } | { failed: unknown }, request: Request, onKey: AdminRouteDeps['onKey']) {
  if (onKey === undefined) return
  if ('auth' in found) onKey(request, found.auth.locator.id, found.auth.keyId)
  else if (found.failed instanceof KeyRefused) onKey(request, found.failed.locatorId, found.failed.keyId)
}

/** The body of a request whose key check failed: never read, never handled. */
const UNREAD = Object.freeze({})

// A request's key, checked once: before its body is read, so one without a working key costs no
// reading or parsing (up to 8 MiB). Whatever the check throws (a refusal, a busy or damaged
// database) is thrown where routes resolve the key: thrown while parsing, it would be Elysia's
// ParseError, a 400.
function keyChecks(deps: AdminRouteDeps) {
  const auths = new WeakMap<Request, { auth: AdminAuth } | { failed: unknown }>()
  return (request: Request) => {
    let found = auths.get(request)
    if (found === undefined) {
      try {
        found = { auth: authenticate(deps.store, request.headers.get('authorization')) }
      } catch (e) {
        found = { failed: e }
      }
      auths.set(request, found)
      tellKey(found, request, deps.onKey)
    }
    return found
  }
}

export function adminRoutes(deps: AdminRouteDeps) {
  const keyed = idempotentWrites(deps, answerBudget(deps.store.idempotency, deps.idempotencyMaxBytes))
  /** A write's answer: its own, or the one kept for its Idempotency-Key (replayed: not written again). */
  const write = async <T>(
    ctx: WriteContext,
    status: number,
    work: (d: AdminDeps) => Promise<T>,
    render: (result: T) => unknown,
  ) => {
    const bodyDigest = (ctx.body as { digest?: BodyDigest } | undefined)?.digest
    const out = await keyed({ request: ctx.request, locatorId: ctx.auth.locator.id, bodyDigest, status, work, render })
    if (out.replay) return out.response
    ctx.set.status = out.status
    return out.body
  }
  const checked = keyChecks(deps)
  return (
    new Elysia({ name: 'admin', prefix: '/admin/v1' })
      // Not a location's id (ids are loc_...) nor its update: a method the route does not take, 405
      // as on every route, before the key check and the body's reading (hooks bind the routes after them).
      .get('/locations/bulk', ({ request }) => {
        throw wrongMethod(request)
      })
      .post(
        '/locations/export',
        ({ request }) => {
          throw wrongMethod(request)
        },
        { parse: 'none' },
      )
      .onParse(({ request }) => {
        if ('failed' in checked(request)) return UNREAD
        const bulk = new URL(request.url).pathname.endsWith('/locations/bulk')
        const digest = request.headers.has('idempotency-key')
        const limit = bulk ? BULK_MAX_BODY_BYTES : deps.maxBodyBytes
        return parseBody(request, limit, { csv: bulk, flags: QUERY_FLAGS, jsonShape: bulk, digest })
      })
      .resolve(({ request }) => {
        const found = checked(request)
        if ('failed' in found) throw found.failed
        return { auth: found.auth }
      })
      .get('/locations', ({ auth, request }) => ({
        success: true,
        ...listLocations(deps, auth.locator.id, refuseMissingId(new URL(request.url)).searchParams),
      }))
      .get('/locations/export', ({ auth, request }) => exportAnswer(deps, auth.locator.id, request))
      .post('/locations/bulk', (ctx) => postBulk(deps, ctx, write))
      .post('/locations//delete', () => {
        throw new AdminError(
          'invalid_request',
          'The location ID is missing from the path: /admin/v1/locations/{id}/delete.',
        )
      })
      // The routes that take no query parameter: each refuses any before its handler, after the key check.
      .guard({ beforeHandle: ({ request }) => noParams(request) }, (app) =>
        app
          .get('/locations/:id', ({ auth, params }) => ({
            success: true,
            location: getLocation(deps, auth.locator.id, params.id),
          }))
          .post('/locations', (ctx) => {
            refuseMissingId(new URL(ctx.request.url))
            return write(
              ctx,
              201,
              (d) => sayingWhyUnread(ctx.body, () => createLocation(d, ctx.auth.locator.id, bodyOf(ctx.body))),
              (location) => ({ success: true, location }),
            )
          })
          .post('/locations/:id', (ctx) =>
            write(
              ctx,
              200,
              async (d) => {
                const body = bodyOf(ctx.body)
                // A path's fault is no body's: its error gets no word on how the body was sent.
                const id = requireLocationId(ctx.params.id)
                return sayingWhyUnread(ctx.body, () => updateLocation(d, ctx.auth.locator.id, id, body))
              },
              (location) => ({ success: true, location }),
            ),
          )
          .post('/locations/:id/delete', (ctx) => {
            // No body is read, but one over the limit is refused as on every write.
            if ((ctx.body as ParsedBody | undefined)?.kind === 'too_large') throw new AdminError('payload_too_large')
            return write(
              ctx,
              200,
              (d) => deleteLocation(d, ctx.auth.locator.id, ctx.params.id),
              (message) => ({ success: true, message }),
            )
          })
          // The locator the key writes: a script says it before writing, so a key of another is seen.
          .get('/locator', ({ auth }) => ({ success: true, locator: { id: auth.locator.id, name: auth.locator.name } }))
          .get('/custom_fields', ({ auth }) => ({
            success: true,
            custom_fields: listCustomFields(deps, auth.locator.id),
          })),
      )
  )
}

/** A write's answer, its own or the one kept for its Idempotency-Key: adminRoutes' `write`. */
type Write = <T>(
  ctx: WriteContext,
  status: number,
  work: (d: AdminDeps) => Promise<T>,
  render: (result: T) => unknown,
) => Promise<unknown>

/** POST /locations/bulk: a CSV body (flags in the query string) or a JSON one. */
async function postBulk(deps: AdminRouteDeps, ctx: WriteContext, write: Write) {
  const parsed = ctx.body as ParsedBody | undefined
  const params = new URL(ctx.request.url).searchParams
  if (parsed?.kind === 'csv') {
    const fields = deps.store.customFields.list(ctx.auth.locator.id)
    const { items, dryRun, deleteMissing, maxDelete, unknown, notes, noStore } = await csvBulkRequest(
      parsed,
      params,
      fields,
    )
    return write(
      ctx,
      200,
      (d) => bulkUpsert(d, ctx.auth.locator.id, items, { dryRun, deleteMissing, maxDelete, noStore }),
      (report) => {
        const all = [...notes, ...(report.notes ?? [])]
        return { success: true, ...report, unknown_columns: unknown, ...(all.length > 0 && { notes: all }) }
      },
    )
  }
  if (parsed?.kind !== 'json') throw bulkBodyError(parsed, ctx.request.headers.get('content-type') ?? '', params)
  const { items, dryRun, deleteMissing, maxDelete } = jsonBulkRequest(parsed.value, params)
  return write(
    ctx,
    200,
    (d) => bulkUpsert(d, ctx.auth.locator.id, items, { dryRun, deleteMissing, maxDelete }),
    (report) => ({ success: true, ...report }),
  )
}
