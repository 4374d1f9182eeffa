// The methods each Management API route takes, by path: a request with another method there is
// 405 method_not_allowed with this list as its Allow header (as the Query API answers), and
// OPTIONS there is 204 with it. Allow lists OPTIONS too; the messages name the methods that act.
import { AdminError } from './errors'

const PREFIX = '/admin/v1'

/** A route's path (after PREFIX, a trailing slash as Elysia's routes take it) and the methods it takes (HEAD as GET). */
const ROUTES: [RegExp, string][] = [
  [/^\/locations\/?$/, 'GET, HEAD, POST'],
  [/^\/locations\/export\/?$/, 'GET, HEAD'],
  [/^\/locations\/bulk\/?$/, 'POST'],
  [/^\/locations\/[^/]+\/delete\/?$/, 'POST'],
  [/^\/locations\/[^/]+\/?$/, 'GET, HEAD, POST'],
  [/^\/custom_fields\/?$/, 'GET, HEAD'],
  [/^\/locator\/?$/, 'GET, HEAD'],
]

/** The methods the Management API route at `path` takes; null when `path` is no route of it. */
export function adminMethods(path: string): string | null {
  if (!path.startsWith(`${PREFIX}/`)) return null
  const rest = path.slice(PREFIX.length)
  for (const [route, methods] of ROUTES) if (route.test(rest)) return methods
  return null
}

/** The delete without an id: a route of its own for POST, whose 400 says the id is missing; no route for other methods (404). */
const IDLESS_DELETE = /^\/locations\/\/delete\/?$/

/** Whether `method` at `path` reaches a Management API route, which checks the request's key: a route's methods, or the id-less delete's POST. */
export function takesAdminRoute(method: string, path: string): boolean {
  if (adminMethods(path)?.split(', ').includes(method)) return true
  return method === 'POST' && path.startsWith(`${PREFIX}/`) && IDLESS_DELETE.test(path.slice(PREFIX.length))
}

/** Allow for a route taking `methods` (RFC 9110 10.2.1): those, and OPTIONS, which every route answers. */
const allowHeader = (methods: string) => `${methods}, OPTIONS`

/**
 * OPTIONS on a route taking `methods`: 204 with Allow, with a key or without one (the routes are
 * no secret). No CORS header: a preflight from a page on another site is granted nothing.
 */
export const allowedMethods = (methods: string): Response =>
  new Response(null, { status: 204, headers: { allow: allowHeader(methods) } })

/** 405 for `method` on the route at `path`, which takes `allow`: the methods it does take, and where a REST habit's action is. */
export function methodNotAllowed(method: string, path: string, allow: string): AdminError {
  const habit =
    method === 'DELETE' && allow.includes('POST') && /^\/admin\/v1\/locations\/[^/]+\/?$/.test(path)
      ? ' A location is deleted with POST /admin/v1/locations/{id}/delete.'
      : method === 'PUT' || method === 'PATCH'
        ? ' A location is updated with POST /admin/v1/locations/{id} (the fields sent change, the others stay).'
        : ''
  return new AdminError(
    'method_not_allowed',
    `${method} ${path} is not allowed: this route takes ${allow}.${habit}`,
    undefined,
    undefined,
    allowHeader(allow),
  )
}
