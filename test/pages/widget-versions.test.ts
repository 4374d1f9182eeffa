// map.js asked for by the version widget.js was built with (?v=, the hash of its bytes), so a
// widget.js kept in a browser's cache never runs a map.js of another build: that version's answer
// may be kept for good, and another version's is 404 (the finder shows its list without a map).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Fixture, makeFixture, send } from '../public/fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

const get = (path: string, headers: Record<string, string> = {}) =>
  send(f.env.app, `http://localhost${path}`, { headers })

describe('map.js by version', () => {
  test("widget.js names map.js by its bytes' hash; that URL is kept for good, 304 on its ETag", async () => {
    const plain = await get('/widget/map.js')
    const version = plain.headers.get('etag')!.slice(1, -1)
    expect((await get('/widget.js')).text).toContain(`map.js?v=${version}`)
    const versioned = await get(`/widget/map.js?v=${version}`)
    expect({ status: versioned.status, cache: versioned.headers.get('cache-control') }).toEqual({
      status: 200,
      cache: 'public, max-age=31536000, immutable',
    })
    expect(versioned.text).toBe(plain.text)
    const zipped = await get(`/widget/map.js?v=${version}`, { 'accept-encoding': 'gzip' })
    const again = await get(`/widget/map.js?v=${version}`, {
      'accept-encoding': 'gzip',
      'if-none-match': zipped.headers.get('etag')!,
    })
    expect({ status: again.status, cache: again.headers.get('cache-control') }).toEqual({
      status: 304,
      cache: 'public, max-age=31536000, immutable',
    })
    // Without a version (a widget.js from before versions): the hour's cache, then revalidated.
    expect(plain.headers.get('cache-control')).toBe('public, max-age=3600')
  })

  test("another build's version is not found, and says so; widget.js's other files are as before", async () => {
    const stale = await get('/widget/map.js?v=0123abc')
    expect(stale.status).toBe(404)
    expect(stale.text).toContain('There is no widget file map.js of version 0123abc')
    expect(stale.headers.get('cache-control')).not.toContain('immutable')
    // A page's own ?v= on the files it links (a cache-buster) is no version: answered as without it.
    for (const path of ['/widget.js?v=2', '/widget.css?v=2', '/widget/leaflet.js?v=2']) {
      const res = await get(path)
      expect({ path, status: res.status, cache: res.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cache: 'public, max-age=3600',
      })
    }
  })
})
