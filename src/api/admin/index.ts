// The Management API routes (/admin/v1). Handlers only translate HTTP to service calls.
import { Elysia } from 'elysia'
import { parseBody, type ParsedBody } from '../body'
import { authenticate } from './auth'
import { LocationError } from '../../locations/errors'
import { AdminError } from './errors'
import { coerceFormCoordinates } from '../../locations/normalize'
import {
  createLocation,
  deleteLocation,
  getLocation,
  listCustomFields,
  listLocations,
  requireLocationId,
  updateLocation,
  type AdminDeps,
} from '../../locations/service'

/** The parsed body as the service expects it, or the documented error for a bad one. */
function bodyOf(parsed: unknown): unknown {
  const body = parsed as ParsedBody | undefined
  if (!body || body.kind === 'empty') return {}
  if (body.kind === 'too_large') throw new AdminError('payload_too_large')
  if (body.kind === 'invalid_json')
    throw new AdminError('invalid_request', `The request body is not valid JSON: ${body.reason}`)
  if (body.kind === 'invalid_form')
    throw new AdminError('invalid_request', `The form body could not be read: ${body.reason}`)
  if (body.kind === 'form') {
    coerceFormCoordinates(body.value)
    return body.value
  }
  return body.value
}

/**
 * A body sent with a Content-Type that is not read (none, text/plain...) arrives empty. The errors
 * that follow (required fields on create, no fields on update) then say why: the caller did send
 * the fields (the spec's first common cause of validation errors).
 */
async function sayingWhyUnread<T>(parsed: unknown, run: () => Promise<T>): Promise<T> {
  const body = parsed as ParsedBody | undefined
  if (body?.kind !== 'empty' || body.unread === undefined) return run()
  const sent = body.unread === '' ? 'without a Content-Type header' : `as ${JSON.stringify(body.unread.slice(0, 100))}`
  try {
    return await run()
  } catch (e) {
    if (!(e instanceof LocationError) || (e.kind !== 'validation_error' && e.kind !== 'invalid_request')) throw e
    throw new AdminError(
      e.kind,
      `${e.message} The request body was not read: it was sent ${sent}. Send JSON with the header "Content-Type: application/json".`,
      e.details,
    )
  }
}

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
  /** Told which locator a request acted for (for the request log). */
  onAuthenticated?: (request: Request, locatorId: string) => void
}

export function adminRoutes(deps: AdminRouteDeps) {
  return new Elysia({ name: 'admin', prefix: '/admin/v1' })
    .onParse(({ request }) => parseBody(request, deps.maxBodyBytes))
    .resolve(({ request }) => {
      const auth = authenticate(deps.store, request.headers.get('authorization'))
      deps.onAuthenticated?.(request, auth.locator.id)
      return { auth }
    })
    .get('/locations', ({ auth, request }) => ({
      success: true,
      ...listLocations(deps, auth.locator.id, refuseMissingId(new URL(request.url)).searchParams),
    }))
    .get('/locations/:id', ({ auth, params }) => ({
      success: true,
      location: getLocation(deps, auth.locator.id, params.id),
    }))
    .post('/locations', async ({ auth, body, set, request }) => {
      refuseMissingId(new URL(request.url))
      const location = await sayingWhyUnread(body, () => createLocation(deps, auth.locator.id, bodyOf(body)))
      set.status = 201
      return { success: true, location }
    })
    .post('/locations/:id', async ({ auth, params, body }) => ({
      success: true,
      location: await sayingWhyUnread(body, () => updateLocation(deps, auth.locator.id, params.id, bodyOf(body))),
    }))
    .post('/locations//delete', () => {
      throw new AdminError(
        'invalid_request',
        'The location ID is missing from the path: /admin/v1/locations/{id}/delete.',
      )
    })
    .post('/locations/:id/delete', async ({ auth, params, body }) => {
      // No body is read, but one over the limit is refused as on every write.
      if ((body as ParsedBody | undefined)?.kind === 'too_large') throw new AdminError('payload_too_large')
      return { success: true, message: await deleteLocation(deps, auth.locator.id, params.id) }
    })
    .get('/custom_fields', ({ auth }) => ({ success: true, custom_fields: listCustomFields(deps, auth.locator.id) }))
}
