// Management API listing: paging, the pagination object, the status filter, parameter errors,
// custom field definitions, unknown routes and the health endpoints.
import { test, expect, describe, beforeEach, afterEach } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const list = (query = '') => env.call('GET', `${BASE}${query}`)

/** Creates n locations named "Store 1".."Store n" in order; returns their ids in creation order. */
async function seed(n: number, status: (i: number) => string = () => 'published'): Promise<string[]> {
  const ids: string[] = []
  for (let i = 1; i <= n; i++) {
    const res = await env.call('POST', BASE, { body: storeBody({ name: `Store ${i}`, status: status(i) }) })
    expect(res.status).toBe(201)
    ids.push(res.body.location.id)
  }
  return ids
}

const idsOf = (body: { locations: { id: string }[] }) => body.locations.map((l) => l.id)

describe('GET /locations paging', () => {
  test('an empty locator: total_pages 0, next and previous null', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      locations: [],
      pagination: { page: 1, limit: 10, total: 0, total_pages: 0, next: null, previous: null },
    })
  })

  test('limit defaults to 10; next links carry only page when limit was not sent', async () => {
    const ids = await seed(23)
    const p1 = await list()
    expect(p1.status).toBe(200)
    expect(idsOf(p1.body)).toEqual(ids.slice(0, 10))
    expect(p1.body.pagination).toEqual({
      page: 1,
      limit: 10,
      total: 23,
      total_pages: 3,
      next: '/admin/v1/locations?page=2',
      previous: null,
    })

    const p2 = await list('?page=2')
    expect(idsOf(p2.body)).toEqual(ids.slice(10, 20))
    expect(p2.body.pagination).toEqual({
      page: 2,
      limit: 10,
      total: 23,
      total_pages: 3,
      next: '/admin/v1/locations?page=3',
      previous: '/admin/v1/locations?page=1',
    })

    const p3 = await list('?page=3')
    expect(idsOf(p3.body)).toEqual(ids.slice(20))
    expect(p3.body.pagination).toEqual({
      page: 3,
      limit: 10,
      total: 23,
      total_pages: 3,
      next: null,
      previous: '/admin/v1/locations?page=2',
    })
  })

  test('limit=5 over 23 locations: exact pagination on every page, links carry the limit', async () => {
    const ids = await seed(23)
    const seen: string[] = []
    for (let page = 1; page <= 5; page++) {
      const res = await list(`?limit=5&page=${page}`)
      expect(res.status).toBe(200)
      expect(res.body.success).toBe(true)
      expect(res.body.pagination).toEqual({
        page,
        limit: 5,
        total: 23,
        total_pages: 5,
        next: page < 5 ? `/admin/v1/locations?page=${page + 1}&limit=5` : null,
        previous: page > 1 ? `/admin/v1/locations?page=${page - 1}&limit=5` : null,
      })
      expect(res.body.locations).toHaveLength(page < 5 ? 5 : 3)
      seen.push(...idsOf(res.body))
    }
    // Every location exactly once, in creation order.
    expect(seen).toEqual(ids)
  })

  test('following next links walks every page exactly once', async () => {
    const ids = await seed(12)
    const seen: string[] = []
    let path: string | null = `${BASE}?limit=4`
    let pages = 0
    while (path !== null) {
      const res: Awaited<ReturnType<TestEnv['call']>> = await env.call('GET', path)
      expect(res.status).toBe(200)
      seen.push(...idsOf(res.body))
      path = res.body.pagination.next
      pages++
      expect(pages).toBeLessThanOrEqual(3)
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(ids)
  })

  test('listed locations are complete Location objects, draft and published alike', async () => {
    await seed(2, (i) => (i === 1 ? 'draft' : 'published'))
    const res = await list()
    expect(res.body.locations).toHaveLength(2)
    for (const l of res.body.locations) {
      expect((await env.call('GET', `${BASE}/${l.id}`)).body.location).toEqual(l)
    }
    expect(res.body.locations.map((l: { status: string }) => l.status)).toEqual(['draft', 'published'])
  })

  test('a page past the end is empty, with next null and previous pointing back', async () => {
    await seed(23)
    const res = await list('?limit=5&page=9')
    expect(res.status).toBe(200)
    expect(res.body.locations).toEqual([])
    // previous leads back to the last page that has locations, not to another empty one.
    expect(res.body.pagination).toEqual({
      page: 9,
      limit: 5,
      total: 23,
      total_pages: 5,
      next: null,
      previous: '/admin/v1/locations?page=5&limit=5',
    })
    const back = await env.call('GET', res.body.pagination.previous)
    expect(back.body.locations).toHaveLength(3)
  })

  test('page 2 of an empty locator is empty with next null', async () => {
    const res = await list('?page=2')
    expect(res.status).toBe(200)
    expect(res.body.locations).toEqual([])
    expect(res.body.pagination).toEqual({
      page: 2,
      limit: 10,
      total: 0,
      total_pages: 0,
      next: null,
      previous: '/admin/v1/locations?page=1',
    })
  })

  test('limit=500 is accepted', async () => {
    const ids = await seed(3)
    const res = await list('?limit=500')
    expect(res.status).toBe(200)
    expect(idsOf(res.body)).toEqual(ids)
    expect(res.body.pagination).toEqual({ page: 1, limit: 500, total: 3, total_pages: 1, next: null, previous: null })
  })

  test('the total and pages follow deletes', async () => {
    const ids = await seed(11)
    expect((await list()).body.pagination.total_pages).toBe(2)
    expect((await env.call('POST', `${BASE}/${ids[0]}/delete`)).status).toBe(200)
    const res = await list()
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 10, total_pages: 1, next: null, previous: null })
    expect(idsOf(res.body)).toEqual(ids.slice(1))
  })
})

describe('GET /locations status filter', () => {
  test('published, draft, and both when omitted', async () => {
    // 1..7: odd published, even draft.
    const ids = await seed(7, (i) => (i % 2 === 1 ? 'published' : 'draft'))
    const published = ids.filter((_, i) => i % 2 === 0)
    const draft = ids.filter((_, i) => i % 2 === 1)

    const p = await list('?status=published')
    expect(idsOf(p.body)).toEqual(published)
    expect(p.body.pagination).toEqual({ page: 1, limit: 10, total: 4, total_pages: 1, next: null, previous: null })
    for (const l of p.body.locations) expect(l.status).toBe('published')

    const d = await list('?status=draft')
    expect(idsOf(d.body)).toEqual(draft)
    expect(d.body.pagination.total).toBe(3)
    for (const l of d.body.locations) expect(l.status).toBe('draft')

    expect(idsOf((await list()).body)).toEqual(ids)
  })

  test('pages of either status, and of both, follow creation order', async () => {
    // Runs of each status, so that a page of both takes from either and from both.
    const ids = await seed(11, (i) => ([2, 3, 4, 8, 9].includes(i) ? 'draft' : 'published'))
    const draft = ids.filter((_, i) => [2, 3, 4, 8, 9].includes(i + 1))
    const pages = async (query: string) => {
      const got: string[][] = []
      for (let page = 1; page <= 4; page++) got.push(idsOf((await list(`?limit=3&page=${page}${query}`)).body))
      return got
    }
    expect(await pages('')).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6, 9), ids.slice(9)])
    expect(await pages('&status=draft')).toEqual([draft.slice(0, 3), draft.slice(3), [], []])
    expect((await pages('&status=published')).flat()).toEqual(ids.filter((id) => !draft.includes(id)))
  })

  test('a parameter the route does not take is 400, with the one meant: externalId would list every location', async () => {
    await seed(3, () => 'published')
    const res = await list('?externalId=S1')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      success: false,
      error: 'invalid_request',
      message:
        'The externalId parameter is unknown (did you mean external_id?): this route takes limit, page, status and external_id.',
    })
    expect((await list('?sort=name')).body.message).toStartWith('The sort parameter is unknown: this route takes')
    // A cache-buster's "_" (jQuery's cache: false) means nothing.
    expect((await list('?_=1733280000000')).status).toBe(200)
  })

  test('the status is carried in next and previous links', async () => {
    await seed(7, (i) => (i <= 5 ? 'draft' : 'published'))
    const p1 = await list('?status=draft&limit=2')
    expect(p1.body.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      total_pages: 3,
      next: '/admin/v1/locations?page=2&limit=2&status=draft',
      previous: null,
    })
    const p2 = await list('?status=draft&limit=2&page=2')
    expect(p2.body.pagination).toMatchObject({
      next: '/admin/v1/locations?page=3&limit=2&status=draft',
      previous: '/admin/v1/locations?page=1&limit=2&status=draft',
    })
    const noLimit = await list('?status=draft&page=1')
    expect(noLimit.body.pagination).toMatchObject({ total: 5, total_pages: 1, next: null, previous: null })
  })

  test('the aliases hidden, inactive and unpublished filter drafts', async () => {
    const ids = await seed(3, (i) => (i === 2 ? 'draft' : 'published'))
    for (const alias of ['hidden', 'inactive', 'unpublished']) {
      const res = await list(`?status=${alias}`)
      expect(res.status).toBe(200)
      expect(idsOf(res.body)).toEqual([ids[1]!])
      expect(res.body.pagination.total).toBe(1)
    }
  })

  test('an alias is carried in links as draft', async () => {
    await seed(3, () => 'draft')
    const res = await list('?status=hidden&limit=1')
    expect(res.body.pagination.next).toBe('/admin/v1/locations?page=2&limit=1&status=draft')
  })
})

describe('GET /locations parameter errors', () => {
  test('limit above 500 gives 400 limit_exceeded, however the number is written', async () => {
    for (const limit of ['501', '501.0', ' 600 ']) {
      const res = await list(`?limit=${encodeURIComponent(limit)}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'limit_exceeded', message: expect.stringContaining('500') })
    }
  })

  test('a whole limit or page written with a decimal point, as the Query API takes it', async () => {
    await seed(3)
    const res = await list('?limit=1.0&page=2.00')
    expect(res.status).toBe(200)
    expect(res.body.pagination).toMatchObject({ page: 2, limit: 1, next: '/admin/v1/locations?page=3&limit=1' })
  })

  for (const huge of ['100000000000', '1000000000000000', '100000000000000000000', '9'.repeat(400)]) {
    test(`a huge limit (${huge.length} digits) is limit_exceeded too`, async () => {
      const res = await list(`?limit=${huge}`)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('limit_exceeded')
    })
  }

  for (const bad of ['0', '-1', 'abc', '1.5', '', '10abc', '1e2']) {
    test(`limit=${JSON.stringify(bad)} gives 400 invalid_request naming limit`, async () => {
      const res = await list(`?limit=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.stringContaining('limit') })
    })
  }

  for (const bad of ['0', '-2', 'abc', '1.5', '']) {
    test(`page=${JSON.stringify(bad)} gives 400 invalid_request naming page`, async () => {
      const res = await list(`?page=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.stringContaining('page') })
    })
  }

  for (const query of ['?page=1&page=2', '?limit=5&limit=5', '?status=draft&status=published']) {
    test(`a parameter given twice (${query}) gives 400 invalid_request naming it and its values`, async () => {
      const res = await list(query)
      const name = query.slice(1, query.indexOf('='))
      const values = [...new URLSearchParams(query).getAll(name)].map((v) => `"${v}"`).join(', ')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        success: false,
        error: 'invalid_request',
        message: `The ${name} parameter may be given once; got it 2 times (${values}).`,
      })
    })
  }

  for (const status of ['archived', 'constructor', '__proto__', 'toString']) {
    test(`an unknown status (${status}) gives 400 invalid_request`, async () => {
      const res = await list(`?status=${status}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.stringContaining('status') })
    })
  }
})

describe('GET /custom_fields', () => {
  test('an empty list when none are defined', async () => {
    const res = await env.call('GET', '/admin/v1/custom_fields')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, custom_fields: [] })
  })

  test('lists the definitions as {id, name, type}, in the order they were defined', async () => {
    addCustomField(env.store, env.locatorId, { id: 'zeta', name: 'Zeta', type: 'text' })
    addCustomField(env.store, env.locatorId, {
      id: 'alpha',
      name: 'Order online',
      type: 'button',
      label: 'Order',
      color: null,
    })
    addCustomField(env.store, env.locatorId, {
      id: 'promo',
      name: 'Promo',
      type: 'badge',
      label: 'New',
      color: '#1a7f37',
    })
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const res = await env.call('GET', '/admin/v1/custom_fields')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      custom_fields: [
        { id: 'zeta', name: 'Zeta', type: 'text' },
        { id: 'alpha', name: 'Order online', type: 'button' },
        { id: 'promo', name: 'Promo', type: 'badge' },
        { id: 'floor', name: 'Floor', type: 'number' },
      ],
    })
  })
})

describe('routes outside the resources', () => {
  test('unknown routes give a JSON 404', async () => {
    for (const [method, path] of [
      ['GET', '/admin/v1/nope'],
      ['GET', '/nope'],
      ['GET', '/admin/v2/locations'],
      ['POST', '/admin/v1/locations/loc_x/archive'],
    ] as const) {
      const res = await env.call(method, path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(res.body).toEqual({ success: false, error: 'not_found', message: expect.any(String) })
    }
  })

  test('/healthz and /readyz answer 200 without a key', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await env.call('GET', path, { key: null })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(typeof res.body).toBe('object')
    }
    expect((await env.call('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' })
    expect((await env.call('GET', '/readyz', { key: null })).body).toEqual({ status: 'ready' })
  })

  test('/readyz fails when the database is closed', async () => {
    env.store.db.close()
    const res = await env.call('GET', '/readyz', { key: null })
    expect(res.status).toBeGreaterThanOrEqual(500)
    // afterEach closes again; a second close of bun:sqlite is harmless.
  })
})
