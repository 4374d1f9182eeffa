// GET /admin/v1/locations/{id} and POST /admin/v1/locations/{id}/delete: found, not found,
// bad ids, and the REST methods that are not routes.
import { test, expect, describe } from 'bun:test'
import { storeBody } from '../helpers'
import { withEnv, env, BASE, update, get, remove, created, expectNoChange, snapshot } from './locations-fixture'

withEnv()

describe('GET /locations/{id}', () => {
  test('returns the location, draft included', async () => {
    const location = await created(storeBody({ status: 'draft' }))
    const res = await get(location.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, location })
  })

  test('an unknown id gives 404 not_found saying it was not found', async () => {
    const res = await get('loc_doesnotexist0000')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ success: false, error: 'not_found', message: expect.stringMatching(/not found/i) })
    // A store code sent as an id: the answer says how to find one by it.
    const code = await get('AP-00001')
    expect(code.status).toBe(404)
    expect(code.body.message).toBe(
      'Location "AP-00001" was not found. Ids begin with loc_; to find a location by its external_id, GET /admin/v1/locations?external_id=AP-00001.',
    )
  })

  test("an id that is a sub-route's name misspelt: the 404 says which route was meant", async () => {
    await created(storeBody({ external_id: 'BULK-1' }))
    const before = snapshot()
    for (const [method, path, meant] of [
      ['POST', `${BASE}/bulkk`, 'POST /admin/v1/locations/bulk'],
      ['POST', `${BASE}/Bulk`, 'POST /admin/v1/locations/bulk'],
      ['GET', `${BASE}/exprot`, 'GET /admin/v1/locations/export'],
      ['GET', `${BASE}/EXPORTS`, 'GET /admin/v1/locations/export'],
      ['POST', `${BASE}/bulkk/delete`, 'POST /admin/v1/locations/bulk'],
      ['GET', `${BASE}/custom-fields`, 'GET /admin/v1/custom_fields'],
      ['GET', `${BASE}/customFields`, 'GET /admin/v1/custom_fields'],
      ['GET', `${BASE}/exort`, 'GET /admin/v1/locations/export'],
      ['POST', `${BASE}/bluk`, 'POST /admin/v1/locations/bulk'],
    ] as const) {
      const body = method === 'POST' ? { locations: [storeBody()] } : undefined
      const res = await env.call(method, path, body === undefined ? undefined : { body })
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error: 'not_found' })
      expect(res.body.message).toContain(`was not found. Did you mean ${meant}? Ids begin with loc_;`)
    }
    expect(snapshot()).toEqual(before)
    // A store code, however short, is not taken for a route; nor is an id. Nor a word a letter
    // changed or added away from one: a code as likely as a slip ("report", "import": not export).
    for (const id of ['BULK-1', 'AP-1', 'loc_bulk', 'LOC_EXPORT', 'report', 'import', 'bulky', 'bulb', 'blk', 'expert'])
      expect({ id, message: (await get(id)).body.message }).toEqual({
        id,
        message: expect.not.stringContaining('Did you mean'),
      })
  })

  test("a store code that is a slip of a route's name, when a location has it: no route guessed, its id said", async () => {
    const exports = await created(storeBody({ external_id: 'Exports' }))
    const before = snapshot()
    const message = `Location "Exports" was not found. Ids begin with loc_; the location whose external_id is "Exports" is ${exports.id}: /admin/v1/locations/${exports.id}.`
    for (const res of [await get('Exports'), await update('Exports', { name: 'X' }), await remove('Exports')])
      expect([res.status, res.body.message]).toEqual([404, message])
    expect(snapshot()).toEqual(before)
    // A code no location has is guessed at as before.
    expect((await get('Bulks')).body.message).toContain('Did you mean POST /admin/v1/locations/bulk?')
  })

  test('a blank id gives 400 invalid_request', async () => {
    const res = await get('%20')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
  })

  test('an id that is not valid percent-encoding gives 400 invalid_request saying so', async () => {
    for (const bad of ['%zz', '%E0%A4%A']) {
      for (const res of [await get(bad), await update(bad, { name: 'x' }), await remove(bad)]) {
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          success: false,
          error: 'invalid_request',
          message: expect.stringContaining('percent-encoded'),
        })
      }
    }
  })
})

describe('POST /locations/{id}/delete', () => {
  test('deletes: success body, then 404 on get, update and a second delete', async () => {
    const l = await created(storeBody({ status: 'draft' }))
    const res = await remove(l.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: expect.any(String) })
    expect(res.body.message.length).toBeGreaterThan(0)

    for (const after of [await get(l.id), await update(l.id, { name: 'x' }), await remove(l.id)]) {
      expect(after.status).toBe(404)
      expect(after.body).toEqual({ success: false, error: 'not_found', message: expect.stringMatching(/not found/i) })
    }
    expect((await env.call('GET', BASE)).body.pagination.total).toBe(0)
  })

  test('deletes only the location named', async () => {
    const a = await created(storeBody({ name: 'A' }))
    const b = await created(storeBody({ name: 'B' }))
    expect((await remove(a.id)).status).toBe(200)
    expect((await get(b.id)).body.location).toEqual(b)
  })

  test('an unknown id gives 404 not_found', async () => {
    await created()
    const res = await expectNoChange(() => remove('loc_doesnotexist0000'))
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
  })

  test('a missing id gives 400 invalid_request', async () => {
    await created()
    for (const path of [`${BASE}//delete`, `${BASE}/%20/delete`]) {
      const res = await expectNoChange(() => env.call('POST', path))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
    }
  })

  test('DELETE, PUT or PATCH on /locations/{id} (REST habits): 405 with the methods it takes and where the action is, and nothing changes', async () => {
    const location = await created()
    const habits: Record<string, string> = {
      DELETE: ' A location is deleted with POST /admin/v1/locations/{id}/delete.',
      PUT: ' A location is updated with POST /admin/v1/locations/{id} (the fields sent change, the others stay).',
      PATCH: ' A location is updated with POST /admin/v1/locations/{id} (the fields sent change, the others stay).',
    }
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const res = await expectNoChange(() =>
        env.call(method, `${BASE}/${location.id}`, method === 'DELETE' ? {} : { body: { name: 'Renamed' } }),
      )
      expect({ status: res.status, allow: res.headers.get('allow'), body: res.body }).toEqual({
        status: 405,
        allow: 'GET, HEAD, POST, OPTIONS',
        body: {
          success: false,
          error: 'method_not_allowed',
          message: `${method} ${BASE}/${location.id} is not allowed: this route takes GET, HEAD, POST.${habits[method]}`,
        },
      })
    }
    expect((await get(location.id)).body.location).toEqual(location)
    // A route's other method is not read as a location id ("Location \"bulk\" was not found").
    const bulk = await env.call('GET', `${BASE}/bulk`)
    expect({ status: bulk.status, allow: bulk.headers.get('allow'), body: bulk.body }).toEqual({
      status: 405,
      allow: 'POST, OPTIONS',
      body: {
        success: false,
        error: 'method_not_allowed',
        message: `GET ${BASE}/bulk is not allowed: this route takes POST.`,
      },
    })
    const exported = await expectNoChange(() => env.call('POST', `${BASE}/export`, { body: { name: 'X' } }))
    expect([exported.status, exported.headers.get('allow'), exported.body.message]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
      `POST ${BASE}/export is not allowed: this route takes GET, HEAD.`,
    ])
    // Every route's other methods, the key checked or not: those that would be another route's
    // (GET /bulk as GET /{id}, POST /export as an update) too, and a body is not read.
    const others: [string, string, string][] = [
      ['GET', `${BASE}/bulk`, 'POST'],
      ['HEAD', `${BASE}/bulk`, 'POST'],
      ['POST', `${BASE}/export`, 'GET, HEAD'],
      ['DELETE', BASE, 'GET, HEAD, POST'],
      ['PUT', `${BASE}/`, 'GET, HEAD, POST'],
      ['GET', `${BASE}/${location.id}/delete`, 'POST'],
      ['PATCH', '/admin/v1/custom_fields', 'GET, HEAD'],
      ['DELETE', `${BASE}/bulk`, 'POST'],
    ]
    for (const [method, path, allow] of others)
      for (const key of [undefined, null, 'sk_nope'] as const) {
        const body = method === 'POST' ? '{not json' : undefined
        const headers = { 'content-type': 'application/json' }
        const res = await env.call(method, path, { ...(key === undefined ? {} : { key }), body, headers })
        const error = method === 'HEAD' ? '' : 'method_not_allowed'
        expect([method, key, res.status, res.headers.get('allow'), res.body.error ?? res.body]).toEqual([
          method,
          key,
          405,
          `${allow}, OPTIONS`,
          error,
        ])
      }
    // A path that is no route stays 404, naming the routes there are.
    const none = await env.call('DELETE', `${BASE}/${location.id}/delete/now`)
    expect([none.status, none.body.error]).toEqual([404, 'not_found'])
    expect(none.body.message).toContain('POST /admin/v1/locations/bulk (many at once)')
    expect(none.body.message).not.toContain('lives under')
    // Outside /admin/v1, where it is.
    expect((await env.call('GET', '/admin/locations')).body.message).toBe(
      'No route GET /admin/locations. The Management API lives under /admin/v1.',
    )
  })
})

describe('OPTIONS', () => {
  // Each route, and the methods it takes as Allow lists them.
  const routes = (id: string): [string, string][] => [
    [BASE, 'GET, HEAD, POST, OPTIONS'],
    [`${BASE}/`, 'GET, HEAD, POST, OPTIONS'],
    [`${BASE}/export`, 'GET, HEAD, OPTIONS'],
    [`${BASE}/bulk`, 'POST, OPTIONS'],
    [`${BASE}/${id}`, 'GET, HEAD, POST, OPTIONS'],
    [`${BASE}/${id}/delete`, 'POST, OPTIONS'],
    ['/admin/v1/custom_fields', 'GET, HEAD, OPTIONS'],
  ]

  test('on a route: 204 with the methods it takes in Allow, with a key or without one', async () => {
    const location = await created()
    for (const [path, allow] of routes(location.id))
      for (const key of [undefined, null, 'sk_nope'] as const) {
        const res = await env.call('OPTIONS', path, key === undefined ? {} : { key })
        expect([path, key, res.status, res.headers.get('allow'), res.body]).toEqual([path, key, 204, allow, ''])
      }
    expect((await get(location.id)).body.location).toEqual(location)
    // A path that is no route stays 404.
    const none = await env.call('OPTIONS', `${BASE}/${location.id}/delete/now`)
    expect([none.status, none.headers.get('allow'), none.body.error]).toEqual([404, null, 'not_found'])
  })

  test('with a body a write would take, on each route: 204, and nothing is written', async () => {
    const location = await created()
    const bodies: Record<string, unknown> = {
      [BASE]: storeBody({ name: 'Made by OPTIONS' }),
      [`${BASE}/bulk`]: { locations: [storeBody({ name: 'Made by OPTIONS' })], delete_missing: true },
      [`${BASE}/${location.id}`]: { name: 'Renamed by OPTIONS' },
    }
    const before = snapshot()
    for (const [path, allow] of routes(location.id)) {
      const res = await env.call('OPTIONS', path, { body: bodies[path] ?? { name: 'x' } })
      expect([path, res.status, res.headers.get('allow'), res.body]).toEqual([path, 204, allow, ''])
    }
    expect(snapshot()).toEqual(before)
  })

  test("a browser's preflight from another site is granted nothing: no CORS header on any answer", async () => {
    const location = await created()
    const origin = { origin: 'https://other.example' }
    const preflight = {
      ...origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    }
    const cors = (res: { headers: Headers }) => [...res.headers.keys()].filter((h) => h.startsWith('access-control-'))
    for (const [path] of routes(location.id))
      for (const key of [undefined, null] as const) {
        const res = await env.call('OPTIONS', path, { key, headers: preflight })
        expect([path, key, res.status, cors(res)]).toEqual([path, key, 204, []])
      }
    const answers = [
      await env.call('GET', BASE, { headers: origin }),
      await env.call('GET', `${BASE}/${location.id}`, { headers: origin }),
      await env.call('POST', `${BASE}/${location.id}`, { headers: origin, body: { name: 'Renamed' } }),
      await env.call('GET', BASE, { headers: origin, key: null }),
      await env.call('DELETE', `${BASE}/${location.id}`, { headers: origin }),
    ]
    expect(answers.map((res) => [res.status, cors(res)])).toEqual([
      [200, []],
      [200, []],
      [200, []],
      [401, []],
      [405, []],
    ])
  })
})
