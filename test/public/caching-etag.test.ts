// Cache-Control, ETag and If-None-Match (304) on the Query API: the ETag moving with every write to
// the locator and with nothing else, and error responses never cached.
import { describe, expect, test } from 'bun:test'
import { addCustomField, createLocator, setFilters, setLocatorSettings, setPriorityRules } from '../../src/operator'
import { appOn, CENTER, expectError, FILTERS, priorityRules, send } from './fixture'
import { storeBody } from '../helpers'
import { f, NEAR, urls, useCachingFixture } from './caching-fixture'

useCachingFixture()

describe('Cache-Control and ETag', () => {
  test('success responses are cacheable for 60 seconds and carry an ETag', async () => {
    for (const url of urls()) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=60')
      expect(res.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/)
    }
  })

  test('If-None-Match with the ETag gives 304 with no body; the same request gives the same ETag', async () => {
    for (const url of urls()) {
      const first = await f.get(url)
      const etag = first.headers.get('etag')!
      const again = await f.get(url)
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.text).toBe(first.text)
      const res = await f.get(url, { headers: { 'if-none-match': etag } })
      expect(res.status).toBe(304)
      expect(res.text).toBe('')
      expect(res.headers.get('etag')).toBe(etag)
      expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    }
  })

  test('If-None-Match listing several ETags, the current one among them, gives 304', async () => {
    const url = f.url('/locations', 'all=true')
    const etag = (await f.get(url)).headers.get('etag')!
    const res = await f.get(url, { headers: { 'if-none-match': `W/"0-stale", ${etag}` } })
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
  })

  test('If-None-Match: * gives 304 for an answer there is, and the error for a request that has none', async () => {
    for (const url of urls()) {
      const res = await f.get(url, { headers: { 'if-none-match': '*' } })
      expect({ url, status: res.status, text: res.text }).toEqual({ url, status: 304, text: '' })
    }
    const star = { headers: { 'if-none-match': '*' } }
    expectError(await f.get('/locations/loc_0000000000000000', star), 404, 'LOCATION_NOT_FOUND')
    expectError(await f.get(f.url('/locations', 'lat=abc&lng=1'), star), 400, 'INVALID_PARAMETER')
    expectError(await f.get(f.url('/locations', 'lat=95&lng=0'), star), 400, 'INVALID_COORDINATES')
    expectError(await f.get(f.url('/locations', ''), star), 400, 'MISSING_COORDINATES')
  })

  test('another ETag in If-None-Match gives the full answer', async () => {
    const url = f.url('/locations', 'all=true')
    const other = (await f.get(f.url('/filters'))).headers.get('etag')!
    for (const inm of [other, '"nope"', 'W/"0-0"']) {
      const res = await f.get(url, { headers: { 'if-none-match': inm } })
      expect(res.status).toBe(200)
      expect(res.body.data.locations.length).toBe(20)
    }
  })

  test("an ETag of the release before the answers' format changed (unit defaulting to the locator's) gives the full answer", async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '40', unit: 'km' })
    const url = f.url('/locations', NEAR)
    const res = await f.get(url)
    expect(res.body.meta.query.unit).toBe('miles') // the same URL answered in km before
    const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
    // As that release made them: the locator's version, the URL's hash.
    const before = `W/"${version}-${Bun.hash(new URL(url, 'http://localhost').href).toString(36)}"`
    expect(before).not.toBe(res.headers.get('etag'))
    const again = await f.get(url, { headers: { 'if-none-match': before } })
    expect(again.status).toBe(200)
    expect(again.body.meta.query.unit).toBe('miles')
  })

  test('an ETag of the release that showed a converted radius unrounded (format 2) gives the full answer, with the radius rounded', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '10', unit: 'km' })
    const url = f.url('/locations', NEAR)
    const res = await f.get(url)
    const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
    const before = `W/"${version}-${Bun.hash(url, 2).toString(36)}"` // ANSWER_FORMAT 2: radius 6.2137119223733395
    expect(before).not.toBe(res.headers.get('etag'))
    const again = await f.get(url, { headers: { 'if-none-match': before } })
    expect(again.status).toBe(200)
    expect(again.body.meta.query.radius).toBe(6.21)
  })

  test('different queries have different ETags', async () => {
    const queries = [
      f.url('/locations', 'all=true'),
      f.url('/locations', 'all=true&limit=5'),
      f.url('/locations', 'all=true&offset=20'),
      f.url('/locations', 'all=true&sort=priority'),
      f.url('/locations', 'all=true&tags[]=repair'),
      f.url('/locations', 'all=true&tags[]=rental'),
      f.url('/locations', 'all=true&search=bik'),
      f.url('/locations', NEAR),
      f.url('/locations', `${NEAR}&unit=km`),
      f.url('/locations', `${NEAR}&radius=10`),
      f.url('/locations', `lat=48.9&lng=${CENTER.lng}`),
      f.url(`/locations/${f.ids.velo}`),
      f.url(`/locations/${f.ids.eclair}`),
      f.url('/filters'),
    ]
    const etags = new Set<string>()
    for (const url of queries) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      etags.add(res.headers.get('etag')!)
    }
    expect(etags.size).toBe(queries.length)
  })

  test('the ETag is the same from another app on the same database (another process, or after a restart)', async () => {
    const other = appOn(f.env)
    for (const url of urls()) {
      const a = await f.get(url)
      const b = await f.get(url, { app: other })
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
      expect((await f.get(url, { app: other, headers: { 'if-none-match': a.headers.get('etag')! } })).status).toBe(304)
    }
  })

  test('a restart on another PUBLIC_BASE_URL gives other ETags (its answers link elsewhere): no 304 for the old links', async () => {
    const url = f.url('/locations', 'all=true&limit=5')
    const plain = await f.get(url)
    const based = appOn(f.env, { publicBaseUrl: 'https://stores.example.com' })
    const res = await f.get(url, { app: based, headers: { 'if-none-match': plain.headers.get('etag')! } })
    expect(res.status).toBe(200)
    expect(res.body.data.pagination.next).toStartWith('https://stores.example.com/')
    expect(res.headers.get('etag')).not.toBe(plain.headers.get('etag'))
    expect(
      (
        await f.get(url, {
          app: appOn(f.env, { publicBaseUrl: 'https://stores.example.com' }),
          headers: { 'if-none-match': res.headers.get('etag')! },
        })
      ).status,
    ).toBe(304)
  })

  test('a backup restored into the file: a write after it gives no ETag given before it for other rows, in a process started since', async () => {
    const url = f.url('/locations', 'all=true')
    const backupSeq = f.env.store.changes.lastSeq()
    expect(
      (await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Gone after the restore' }) })).status,
    ).toBe(201)
    const before = await f.get(url)
    expect(before.text).toContain('Gone after the restore')
    // What restoring the backup taken at backupSeq does: the row is gone and the log is back where it was.
    f.env.store.db.transaction(() => {
      f.env.store.db.run("DELETE FROM locations WHERE name = 'Gone after the restore'")
      f.env.store.db.run('DELETE FROM changes WHERE seq > ?', [backupSeq])
      f.env.store.db.run("UPDATE sqlite_sequence SET seq = ? WHERE name = 'changes'", [backupSeq])
    })()
    // The service restarted on the restored file, then a write that takes the seq given before.
    const restarted = appOn(f.env)
    expect(
      (await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Made after the restore' }) })).status,
    ).toBe(201)
    expect(f.env.store.changes.lastSeq()).toBe(backupSeq + 1)
    const res = await f.get(url, { app: restarted, headers: { 'if-none-match': before.headers.get('etag')! } })
    expect(res.status).toBe(200)
    expect(res.text).toContain('Made after the restore')
    expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'))
  })

  /** ETags of every url, before and after `write`; each must change, and the old one must no longer give 304. */
  async function expectEtagsChange(write: () => unknown | Promise<unknown>) {
    const before = await Promise.all(urls().map(async (u) => (await f.get(u)).headers.get('etag')!))
    await write()
    for (const [i, url] of urls().entries()) {
      const res = await f.get(url, { headers: { 'if-none-match': before[i]! } })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      expect(res.headers.get('etag')).not.toBe(before[i])
      expect(res.text.length).toBeGreaterThan(0)
    }
  }

  test('repeated identical requests between writes get the same bytes, and the first after a write the new answer', async () => {
    for (const url of urls()) {
      const first = await f.get(url)
      expect(first.status).toBe(200)
      expect(first.text.length).toBeGreaterThan(30)
      const hits = f.env.app.cacheHits()
      // The second is made again, and kept; the third and fourth are answered from the response cache.
      for (let i = 0; i < 3; i++) expect((await f.get(url)).text).toBe(first.text)
      expect({ url, hits: f.env.app.cacheHits() - hits }).toEqual({ url, hits: 2 })
    }
    expect(
      (await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { name: 'Aaa Vélo Renamed' } })).status,
    ).toBe(200)
    // all=true (by name: now first) and the location itself: their kept answers are for the version before.
    const hits = f.env.app.cacheHits()
    for (const url of [urls()[0]!, urls()[2]!]) expect((await f.get(url)).text).toContain('Aaa Vélo Renamed')
    expect(f.env.app.cacheHits()).toBe(hits)
  })

  test('a new location changes the ETag', async () => {
    await expectEtagsChange(async () => {
      const res = await f.env.call('POST', '/admin/v1/locations', {
        body: { name: 'New', address: '1 New Street', coordinates: { lat: 48.86, lng: 2.35 } },
      })
      expect(res.status).toBe(201)
    })
  })

  test('an update changes the ETag, and the new body shows it', async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { description: 'Now with pastries.' } }))
          .status,
      ).toBe(200)
    })
    expect((await f.get(`/locations/${f.ids.velo}`)).body.data.location.description).toBe('Now with pastries.')
  })

  test("an update to a location the query does not show still changes the ETag (the locator's version moved)", async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.hidden}`, { body: { description: 'still a draft' } }))
          .status,
      ).toBe(200)
    })
  })

  test('a status change and a delete change the ETag', async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.eclair}`, { body: { status: 'draft' } })).status,
      ).toBe(200)
    })
    await expectEtagsChange(async () => {
      expect((await f.env.call('POST', `/admin/v1/locations/${f.ids.bastille}/delete`)).status).toBe(200)
    })
  })

  test('settings, filters, custom fields and priority rules change the ETag', async () => {
    await expectEtagsChange(() => setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '999' }))
    await expectEtagsChange(() => setLocatorSettings(f.env.store, f.env.locatorId, { radius: '30', unit: 'km' }))
    await expectEtagsChange(() => setFilters(f.env.store, f.env.locatorId, [FILTERS[1]!]))
    await expectEtagsChange(() =>
      addCustomField(f.env.store, f.env.locatorId, { id: 'extra', name: 'Extra', type: 'text' }),
    )
    await expectEtagsChange(() => setPriorityRules(f.env.store, f.env.locatorId, priorityRules(f.ids).slice(1)))
  })

  test('the ETag stays the same across reads, time, and writes to another locator', async () => {
    const before = await Promise.all(urls().map(async (u) => (await f.get(u)).headers.get('etag')!))
    // reads through both APIs
    expect((await f.env.call('GET', '/admin/v1/locations?limit=50')).status).toBe(200)
    expect((await f.env.call('GET', `/admin/v1/locations/${f.ids.velo}`)).status).toBe(200)
    for (const u of urls()) await f.get(u)
    // writes to another locator
    const other = createLocator(f.env.store, 'Other')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on', rateLimit: '50' })
    const created = await f.env.call('POST', '/admin/v1/locations', {
      key: other.secret,
      body: { name: 'Elsewhere', address: '1 Other Street', coordinates: { lat: 48.86, lng: 2.35 } },
    })
    expect(created.status).toBe(201)
    expect(
      (
        await f.env.call('POST', `/admin/v1/locations/${created.body.location.id}`, {
          key: other.secret,
          body: { name: 'Elsewhere 2' },
        })
      ).status,
    ).toBe(200)
    addCustomField(f.env.store, other.locator.id, { id: 'other', name: 'Other', type: 'text' })
    await Bun.sleep(5)
    for (const [i, url] of urls().entries()) {
      const res = await f.get(url, { headers: { 'if-none-match': before[i]! } })
      expect({ url, status: res.status }).toEqual({ url, status: 304 })
    }
  })

  test('error responses are never cached and carry no ETag', async () => {
    for (const res of [
      await f.get(f.url('/locations')),
      await f.get(f.url('/locations', `${NEAR}&limit=0`)),
      await f.get(`/locations/${f.ids.hidden}`),
      await send(f.env.app, 'http://localhost/public/v1/nope/filters'),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('etag')).toBeNull()
    }
  })
})
