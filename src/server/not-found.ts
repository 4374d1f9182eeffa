// The answer to a request no route outside the Query API takes: the app's, and a start's under
// the paths it serves by the app's routes (starting-answers.ts), so the two answer such a path
// alike.
import { AdminError } from '../api/admin/errors'
import { adminMethods, allowedMethods, methodNotAllowed } from '../api/admin/methods'
import { notFoundPage } from '../api/pages/store-page'

/** A scrape sent to the API port (a Prometheus target copied from it): where metrics are, not whether they are on. */
const METRICS_ELSEWHERE =
  'Metrics are never served on this port: they have a port of their own, METRICS_PORT (docs/operations.md, Metrics).'

const ADMIN_ROUTES =
  'The Management API has GET /admin/v1/locations, GET /admin/v1/locations/export, GET /admin/v1/locations/{id}, GET /admin/v1/custom_fields, GET /admin/v1/locator, POST /admin/v1/locations (create), POST /admin/v1/locations/{id} (update), POST /admin/v1/locations/{id}/delete (delete) and POST /admin/v1/locations/bulk (many at once).'

/** Under the pages' paths a person (or a search engine) asks: its errors are pages, not JSON. */
export const isPagePath = (path: string) => path === '/l' || path.startsWith('/l/') || path.startsWith('/widget/')

/** The answer to `request`, to `path` as Elysia read it, when no route takes it. */
export function notFoundAnswer(request: Request, path: string): Response {
  if (isPagePath(path)) return notFoundPage('Not found', 'No page has this address.')
  // OPTIONS, or a route's other method, most often a REST habit (PUT, PATCH or DELETE on /locations/{id}).
  const allow = adminMethods(path)
  if (allow !== null)
    return request.method === 'OPTIONS'
      ? allowedMethods(allow)
      : methodNotAllowed(request.method, path, allow).toResponse()
  // Through the error table, which does not quote back a secret key sent as the path. Under
  // /admin/v1: name the routes there are.
  const where =
    path === '/admin/v1' || path.startsWith('/admin/v1/')
      ? ADMIN_ROUTES
      : path === '/metrics'
        ? METRICS_ELSEWHERE
        : 'The Management API lives under /admin/v1.'
  return new AdminError('not_found', `No route ${request.method} ${path}. ${where}`).toResponse()
}
