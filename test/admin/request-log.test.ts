// The request log and request ids: one line per request on both APIs, never a key; an
// X-Request-Id on every answer, made or kept from a proxy, and the log line that names it.
import { describe, expect, test } from 'bun:test'
import { newSecretKey } from '../../src/core/ids'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { harness, throwingGeocoder } from './harness'

describe('request log', () => {
  test('one line per request with method, path, status, locator and request id; never the key', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const unknownKey = newSecretKey()
      await h.call('GET', '/admin/v1/locations')
      await h.call('GET', '/admin/v1/locations', undefined, unknownKey)
      // The lines may come after the answers: the wait is for them.
      const requests = await h.requestLines(2)
      expect(requests).toHaveLength(2)
      expect(requests[0]).toMatchObject({
        level: 'info',
        method: 'GET',
        path: '/admin/v1/locations',
        status: 200,
        locator: expect.stringMatching(/^lct_/),
        request_id: expect.any(String),
      })
      expect(requests[1]).toMatchObject({
        method: 'GET',
        path: '/admin/v1/locations',
        status: 401,
        request_id: expect.any(String),
      })
      const all = JSON.stringify(h.lines)
      expect(all).not.toContain(h.key)
      expect(all).not.toContain(unknownKey)
      expect(all).not.toContain(h.key.slice(3))
      expect(all).not.toContain(unknownKey.slice(3))
    } finally {
      h.close()
    }
  })

  test("a key's text without its sk_, sent in a path or as a request id, is redacted too", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const text = h.key.slice(3)
      const calls = [
        await h.call('GET', `/admin/v1/locations/${text}`),
        await h.call('POST', `/admin/v1/locations/${text}/delete`, {}),
        await h.call('GET', `/public/v1/${text}/locations`, undefined, null),
        await h.call('GET', '/admin/v1/locations', undefined, h.key, { 'x-request-id': text }),
        await h.call('GET', `/admin/v1/locations/${'x'.repeat(37)}`), // 37 letters: no key, left as it is
      ]
      expect(calls.map((c) => c.status)).toEqual([404, 404, 404, 200, 404])
      const requests = await h.requestLines(calls.length)
      expect(requests.map((l) => l.path)).toEqual([
        '/admin/v1/locations/[redacted]',
        '/admin/v1/locations/[redacted]/delete',
        '/public/v1/[redacted]/locations',
        '/admin/v1/locations',
        `/admin/v1/locations/${'x'.repeat(37)}`,
      ])
      expect(requests[3]!.request_id).toBe('[redacted]')
      expect(JSON.stringify(h.lines)).not.toContain(text)
    } finally {
      h.close()
    }
  })
})

describe('request ids on every API', () => {
  test('public requests too: a distinct X-Request-Id on each, 16 characters of [0-9a-z], and the log line that names it', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const a = await h.call('GET', '/public/v1/pk_unknown/filters?x=1', undefined, null)
      const b = await h.call('GET', '/public/v1/pk_unknown/filters', undefined, null)
      expect([a.status, b.status]).toEqual([404, 404])
      const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')]
      for (const id of ids) expect(id).toMatch(/^[0-9a-z]{16}$/)
      expect(ids[0]).not.toBe(ids[1])
      const requests = await h.requestLines(2)
      expect(requests).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: '/public/v1/pk_unknown/filters',
          status: 404,
          request_id: ids[0],
        }),
        expect.objectContaining({
          method: 'GET',
          path: '/public/v1/pk_unknown/filters',
          status: 404,
          request_id: ids[1],
        }),
      ])
    } finally {
      h.close()
    }
  })
})

describe('a request id a proxy sends', () => {
  test('is kept, answered and logged, on both APIs, when it is plain text of 8 to 64 characters; else one is made', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const id = (path: string, sent: string) =>
        h.call('GET', path, undefined, path.startsWith('/admin') ? h.key : null, { 'x-request-id': sent })
      const nginx = '0f8fad5b-d9cb-469f-a165-70867728950e'
      const answers = [
        await id('/public/v1/pk_unknown/filters', nginx),
        await id('/admin/v1/locations', 'lb-7.west:Req_0042'),
        await id('/public/v1/pk_unknown/filters', 'a b\tc'),
        await id('/admin/v1/locations', 'x'.repeat(65)),
        await id('/admin/v1/locations', 'short'),
      ].map((r) => r.headers.get('x-request-id'))
      expect(answers.slice(0, 2)).toEqual([nginx, 'lb-7.west:Req_0042'])
      for (const made of answers.slice(2)) expect(made).toMatch(/^[0-9a-z]{16}$/)
      const requests = await h.requestLines(5)
      expect(requests.map((l) => l.request_id)).toEqual(answers)
    } finally {
      h.close()
    }
  })
})

describe('request log lines of long paths', () => {
  test("quote the path's first 512 characters and its length, a key across the cut redacted whole", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const long = `/admin/v1/locations/${'a'.repeat(15_000)}`
      // The key starts 20 characters before the cut: cut first, its 20 characters would not look like a key.
      const straddling = `/admin/v1/locations/${'b'.repeat(512 - 20 - 20)}${h.key}${'-'.repeat(1000)}`
      for (const path of [long, straddling]) expect((await h.call('GET', path)).status).toBe(404)
      const requests = await h.requestLines(2)
      const [first, second] = requests
      expect(first).toMatchObject({
        method: 'GET',
        status: 404,
        path: `${long.slice(0, 512)}...`,
        path_chars: long.length,
      })
      expect(second).toMatchObject({
        path: expect.stringMatching(/b{20}sk_\[redacted\]-+\.\.\.$/),
        path_chars: straddling.length,
      })
      expect(JSON.stringify(h.lines)).not.toContain(h.key.slice(3, 20))
      expect(JSON.stringify(h.lines).length).toBeLessThan(3000)
    } finally {
      h.close()
    }
  })
})

describe('request log lines of kept answers', () => {
  test('an answer sent from the response cache is logged like any other, under its own request id', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const { locator } = createLocator(h.store, 'Logged')
      const token = setLocatorSettings(h.store, locator.id, { queryApi: 'on' }).publicToken
      const path = `/public/v1/${token}/filters`
      const answers = []
      for (let i = 0; i < 3; i++) answers.push(await h.call('GET', path, undefined, null)) // the third is kept since the second
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
      expect(answers[2]!.text).toBe(answers[1]!.text)
      expect(h.cacheHits()).toBe(1)
      const ids = answers.map((a) => a.headers.get('x-request-id'))
      const requests = await h.requestLines(3, (l) => l.path === path)
      expect(requests).toEqual(
        ids.map((id) =>
          expect.objectContaining({ method: 'GET', path, status: 200, request_id: id, ms: expect.any(Number) }),
        ),
      )
    } finally {
      h.close()
    }
  })

  test("public lines name the token's locator, as the Management API's name the key's: made and kept answers, the app's, its refusals; an unknown token none", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const { locator } = createLocator(h.store, 'Logged')
      const token = setLocatorSettings(h.store, locator.id, { queryApi: 'on' }).publicToken
      const off = createLocator(h.store, 'Off').locator // its Query API off: 403
      const paths = [
        ...Array(3).fill(`/public/v1/${token}/locations?all=true`), // made on the fast path, then kept
        `/public/v1/${token}/filters`,
        `/public/v1/${token}/locations/loc_unknown`,
        `/public/v1/${off.publicToken}/filters`,
        '/public/v1/pk_unknown/filters',
      ]
      const statuses = []
      for (const path of paths) statuses.push((await h.call('GET', path, undefined, null)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 404, 403, 404])
      expect(h.cacheHits()).toBe(1) // the third all=true
      const requests = await h.requestLines(paths.length)
      expect(requests.map((l) => l.locator)).toEqual([
        locator.id,
        locator.id,
        locator.id,
        locator.id,
        locator.id,
        off.id,
        null,
      ])
    } finally {
      h.close()
    }
  })
})

describe('request log of pages', () => {
  test("a page's line names its token's locator, as the Query API's do: finder, directory, sitemap, store pages; an unknown token none", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const { locator } = createLocator(h.store, 'Paged')
      const token = setLocatorSettings(h.store, locator.id, { queryApi: 'on' }).publicToken
      const off = createLocator(h.store, 'Off').locator // its Query API off: no pages
      const paths = [
        `/l/${token}`,
        `/l/${token}`, // the token now known to this process
        `/l/${token}/stores`,
        `/l/${token}/sitemap.xml`,
        `/l/${token}/loc_unknown`,
        `/l/${token}/loc_unknown/a-slug`,
        `/l/${off.publicToken}`,
        '/l/pk_unknown',
        '/widget.js',
        '/robots.txt', // a page route without a token
      ]
      const statuses = []
      for (const path of paths) statuses.push((await h.call('GET', path, undefined, null)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 404, 404, 404, 404, 200, 200])
      const requests = await h.requestLines(paths.length)
      expect(requests.map((l) => [l.path, l.locator])).toEqual(
        paths.map((path, i) => [path, i < 6 ? locator.id : i === 6 ? off.id : null]),
      )
    } finally {
      h.close()
    }
  })
  test('a page refused or redirected before it looks its token up names the locator too, though this process never looked the token up', async () => {
    const h = harness(throwingGeocoder, true, 2)
    try {
      const first = createLocator(h.store, 'Redirected').locator
      const second = createLocator(h.store, 'Refused').locator
      for (const { id } of [first, second]) setLocatorSettings(h.store, id, { queryApi: 'on' })
      const paths = [
        '/l/pk_unknown',
        `/l/${first.publicToken}/stores/`, // a trailing slash: redirected
        `/l/${second.publicToken}`, // past PAGE_RATE_LIMIT
        '/l/pk_unknown_too',
      ]
      const statuses = []
      for (const path of paths) statuses.push((await h.call('GET', path, undefined, null)).status)
      expect(statuses).toEqual([404, 308, 429, 429])
      const requests = await h.requestLines(paths.length)
      expect(requests.map((l) => [l.path, l.locator])).toEqual([
        [paths[0], null],
        [paths[1], first.id],
        [paths[2], second.id],
        [paths[3], null],
      ])
    } finally {
      h.close()
    }
  })
})

describe('X-Request-Id on every kind of response', () => {
  test('answers, errors of either API, unknown paths, preflights and health checks all carry one, each its own', async () => {
    const h = harness(throwingGeocoder)
    try {
      const locator = h.store.locators.list()[0]!
      setLocatorSettings(h.store, locator.id, { queryApi: 'on' })
      const token = locator.publicToken
      const calls: [string, string, string | null, number][] = [
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200],
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200], // asked twice: now kept
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200], // the kept answer
        ['GET', `/public/v1/${token}/locations?lat=1`, null, 400],
        ['GET', `/public/v1/${token}/nothing-here`, null, 404],
        ['OPTIONS', `/public/v1/${token}/locations`, null, 204],
        ['GET', '/admin/v1/locations', h.key, 200],
        ['GET', '/admin/v1/locations', null, 401],
        ['GET', '/admin/v1/nothing-here', h.key, 404],
        ['GET', '/healthz', null, 200],
      ]
      const ids = new Set<string>()
      for (const [method, path, key, status] of calls) {
        const res = await h.call(method, path, undefined, key)
        expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${status}`)
        const id = res.headers.get('x-request-id')
        expect(id).toMatch(/^[0-9a-z]{16}$/)
        ids.add(id!)
      }
      expect(ids.size).toBe(calls.length)
    } finally {
      h.close()
    }
  })
})
