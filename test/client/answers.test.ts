// Answers that are not the Management API's, as a proxy, a load balancer or another service at
// baseUrl gives them, from a real server on 127.0.0.1: each ends the call with a StorelocError
// `invalid_response` whose message says what came (an HTML page's title, no body, the JSON), not
// a TypeError from reading it, nor a success without the route's field.
import { afterAll, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'

/** Each path's answer: its status, body and Content-Type. */
const answers: Record<string, [number, string, string]> = {
  '/nginx-502': [502, NGINX_502, 'text/html'],
  '/login': [200, '<!doctype html>\n<html><head>\n<title> Sign in </title></head><body>...</body></html>', 'text/html'],
  '/untitled': [503, '<html><body><h1>Service\nUnavailable</h1><script>var x = 1</script></body></html>', 'text/html'],
  '/empty-502': [502, '', 'text/plain'],
  '/no-content': [204, '', 'text/plain'],
  '/null-500': [500, 'null', 'application/json'],
  '/null-200': [200, 'null', 'application/json'],
  '/string-400': [400, '"Bad request"', 'application/json'],
  '/other-200': [200, '{"status":"ok","version":"2.1"}', 'application/json'],
  '/proxy-401': [401, '{"message":"Unauthorized"}', 'application/json'],
  '/gateway-503': [
    503,
    '{"error":{"code":503,"message":"The service is unavailable.","status":"UNAVAILABLE"}}',
    'application/json',
  ],
}
/** The requests the server got, "METHOD /path". */
const asked: string[] = []
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const { pathname } = new URL(request.url)
    asked.push(`${request.method} ${pathname}`)
    // A proxy sending http to https, here to another path of the same server.
    if (pathname.startsWith('/moved/'))
      return new Response('<html><head><title>301 Moved Permanently</title></head></html>', {
        status: 301,
        headers: {
          location: `${new URL(request.url).origin}/other-200${pathname.slice('/moved'.length)}`,
          'content-type': 'text/html',
        },
      })
    const [status, body, type] = answers[`/${new URL(request.url).pathname.split('/')[1]}`]!
    return new Response(body === '' ? null : body, { status, headers: { 'content-type': type } })
  },
})
afterAll(() => server.stop(true))

/** A client whose requests reach `path`'s answer; one try, so a retried status ends at once. */
const at = (path: string) =>
  new StorelocClient({ baseUrl: `${server.url.origin}${path}`, apiKey: 'sk_test', attempts: 1 })

/** How the call ended: the error's status, code and message, or what it returned. */
const ended = (call: Promise<unknown>) =>
  call.then(
    (value) => ({ value }),
    (e) =>
      e instanceof StorelocError ? { status: e.status, code: e.code, message: e.message } : { thrown: String(e) },
  )

describe("StorelocClient meeting an answer that is not the Management API's", () => {
  test("an HTML page is said by its title, or its text, as a proxy's error page", async () => {
    expect(await ended(at('/nginx-502').customFields())).toEqual({
      status: 502,
      code: 'invalid_response',
      message: "GET /admin/v1/custom_fields: 502 Bad Gateway (an HTML page, not the Management API's answer)",
    })
    expect(await ended(at('/login').getLocation('loc_1'))).toEqual({
      status: 200,
      code: 'invalid_response',
      message: "GET /admin/v1/locations/loc_1: Sign in (an HTML page, not the Management API's answer)",
    })
    expect(await ended(at('/untitled').createLocation({ name: 'A', address: 'B' }))).toEqual({
      status: 503,
      code: 'invalid_response',
      message: "POST /admin/v1/locations: Service Unavailable (an HTML page, not the Management API's answer)",
    })
  })

  test('an answer with no body says so', async () => {
    expect(await ended(at('/empty-502').bulkUpsert({ locations: [] }))).toEqual({
      status: 502,
      code: 'invalid_response',
      message: 'POST /admin/v1/locations/bulk: a 502 answer with no body',
    })
    expect(await ended(at('/no-content').deleteLocation('loc_1'))).toEqual({
      status: 204,
      code: 'invalid_response',
      message: 'POST /admin/v1/locations/loc_1/delete: a 204 answer with no body',
    })
  })

  test("JSON that is no object, or a success without the route's field, is no answer of the API", async () => {
    expect(await ended(at('/null-500').customFields())).toEqual({
      status: 500,
      code: 'invalid_response',
      message: 'GET /admin/v1/custom_fields: null',
    })
    expect(await ended(at('/null-200').listLocations())).toEqual({
      status: 200,
      code: 'invalid_response',
      message: 'GET /admin/v1/locations: null',
    })
    expect(await ended(at('/string-400').customFields())).toEqual({
      status: 400,
      code: 'invalid_response',
      message: 'GET /admin/v1/custom_fields: "Bad request"',
    })
    expect(await ended(at('/other-200').findByExternalId('S1'))).toEqual({
      status: 200,
      code: 'invalid_response',
      message:
        'GET /admin/v1/locations?external_id=S1: {"status":"ok","version":"2.1"} (no "locations" in it: is baseUrl the service\'s address?)',
    })
    // A proxy's JSON error object is an error like the API's, its message kept.
    expect(await ended(at('/proxy-401').customFields())).toEqual({
      status: 401,
      code: 'error',
      message: 'Unauthorized',
    })
    // One whose `error` is an object of its own (an API gateway's): its message, not "[object Object]".
    expect(await ended(at('/gateway-503').customFields())).toEqual({
      status: 503,
      code: 'error',
      message: 'The service is unavailable.',
    })
  })

  test('a redirect is not followed: a write is not sent on as a GET, and the error names where to', async () => {
    asked.length = 0
    const moved = `${server.url.origin}/other-200/admin/v1/locations`
    expect(await ended(at('/moved').createLocation({ name: 'A', address: 'B' }))).toEqual({
      status: 301,
      code: 'invalid_response',
      message: `POST /admin/v1/locations: a 301 redirect to ${moved}, not followed: is baseUrl the service's address?`,
    })
    expect(await ended(at('/moved').customFields())).toMatchObject({ status: 301, code: 'invalid_response' })
    expect(asked).toEqual(['POST /moved/admin/v1/locations', 'GET /moved/admin/v1/custom_fields'])
  })
})
