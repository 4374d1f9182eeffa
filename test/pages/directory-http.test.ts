// The store directory's HTTP behaviour: a place written otherwise redirects to its canonical URL;
// unknown places, tokens and locators switched off answer 404; the pages' policy and ETags, a
// name's markup escaped, the whole app's routes, and a page made while a write lands.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { directoryResponse } from '../../src/api/pages/directory-page'
import { IndexRegistry } from '../../src/indexes/registry'
import { setLocatorSettings } from '../../src/operator'
import { locationRecord, otherProcess } from '../helpers'
import { FIXTURE_NOW, send } from '../public/fixture'
import { items, makePagesFixture, type PagesFixture, pagesApp } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

describe('a locator in several countries', () => {
  test('a place written otherwise answers 301 to its canonical URL, keeping the language', async () => {
    for (const [path, to] of [
      ['/stores/FR', '/stores/fr'],
      ['/stores/Fr/PARIS?lang=de', '/stores/fr/paris?lang=de'],
      ['/stores/fr/Orl%C3%A9ans', '/stores/fr/orleans'],
    ]) {
      const res = await f.page(`/l/${f.token}${path}`)
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 301,
        location: `http://localhost/l/${f.token}${to}`,
      })
    }
  })

  test('an unknown country or town: 404 in the language asked, linking to the directory; never indexed', async () => {
    for (const path of ['/stores/zz', '/stores/fr/atlantis', '/stores/gb/paris', '/stores/%zz', '/stores/fr/%E2%82']) {
      const res = await f.page(`/l/${f.token}${path}`)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.text).toContain('<h1>Place not found</h1>')
      expect(res.text).toContain(`<a href="${f.top()}">See all stores</a>`)
      expect(res.text).toContain('<meta name="robots" content="noindex">')
    }
    const german = await f.page(`/l/${f.token}/stores/fr/atlantis?lang=de`)
    expect(german.status).toBe(404)
    expect(german.text).toContain('<html lang="de">')
    expect(german.text).toContain('<h1>Ort nicht gefunden</h1>')
    expect(german.text).toContain(`<a href="${f.top()}?lang=de">Alle Geschäfte ansehen</a>`)
    for (const page of ['0', '2', 'abc', '-1'])
      expect((await f.page(`/l/${f.token}/stores/fr?page=${page}`)).status).toBe(404)
  })

  test('404 for an unknown token, a locator switched off, or its Query API off', async () => {
    const notFound = async (path: string) => {
      const res = await f.page(path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.text).toContain('<h1>Store locator not found</h1>')
    }
    await notFound('/l/pk_unknown/stores')
    await notFound('/l/pk_unknown/stores/fr/paris')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    try {
      await notFound(`/l/${f.token}/stores`)
      await notFound(`/l/${f.token}/stores/fr`)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'on' })
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { active: 'off' })
    try {
      await notFound(`/l/${f.token}/stores/fr/paris`)
    } finally {
      setLocatorSettings(f.env.store, f.env.locatorId, { active: 'on' })
    }
    expect((await f.page(`/l/${f.token}/stores`)).status).toBe(200)
  })

  test("the store pages' policy: no script; an ETag that only a write changes", async () => {
    const res = await f.page(`/l/${f.token}/stores/fr`)
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; base-uri 'none'; form-action 'none'",
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    // Its style is in the page: no stylesheet to wait for before it shows.
    expect(res.text).not.toContain('<link rel="stylesheet"')

    // Stores opening and closing hours later change nothing; a new store does.
    let clock = FIXTURE_NOW
    const registry = new IndexRegistry(f.env.store, undefined, { now: () => clock, buildRetryMs: 0 })
    const app = pagesApp({ ...f.deps, registry })
    const path = `/l/${f.token}/stores/fr/paris`
    const etag = (await f.page(path, {}, app)).headers.get('etag')!
    expect(etag).toBeTruthy()
    clock += 6 * 3_600_000
    expect((await f.page(path, { 'if-none-match': etag }, app)).status).toBe(304)
    const id = await f.create({
      name: 'New Paris Bikes',
      address: '1 Rue Neuve, 75001 Paris',
      coordinates: { lat: 48.861, lng: 2.341 },
    })
    const after = await f.page(path, { 'if-none-match': etag }, app)
    expect(after.status).toBe(200)
    expect(items(after.text).some((s) => s.url.includes(id))).toBe(true)
    await f.env.call('POST', `/admin/v1/locations/${id}/delete`)
    expect(items((await f.page(path)).text).some((s) => s.url.includes(id))).toBe(false)
  })

  test('a name with markup is escaped', async () => {
    const name = '<b>Bold</b> & "Co" </ul><script>alert(1)</script>'
    const id = await f.create({ name, address: '3 Rue X, 75003 Paris', coordinates: { lat: 48.863, lng: 2.36 } })
    try {
      const { text } = await f.page(`/l/${f.token}/stores/fr/paris`)
      expect(text).not.toContain('<b>')
      expect(text).not.toContain('<script>alert')
      expect(items(text).find((s) => s.url.includes(id))!.name).toBe(name)
    } finally {
      await f.env.call('POST', `/admin/v1/locations/${id}/delete`)
    }
  })

  test('in the whole app, /stores is the directory and no store: store pages and the sitemap stay as they were', async () => {
    const get = (path: string) => send(f.env.app, `http://localhost/l/${f.token}${path}`)
    expect((await get('/stores')).text).toContain('<h1>Store directory</h1>')
    expect((await get('/stores/fr')).text).toContain('<h1>Stores in France</h1>')
    expect((await get('/stores/fr/paris')).text).toContain('<h1>Stores in Paris</h1>')
    expect((await get(`/${f.ids.velo}`)).text).toContain('<h1>Vélo Café Bikes</h1>')
    expect((await get(`/${f.ids.velo}/velo-cafe-bikes`)).status).toBe(200)
    expect((await get('/sitemap.xml')).text).toContain('<urlset ')
  })
})

describe('a write while a page is made', () => {
  test('the page carries the ETag of what it shows: one ETag, one body', async () => {
    await f.create({ name: 'A write', address: 'x', coordinates: { lat: 48.85, lng: 2.35 } }) // the kept directory is old
    const pending = directoryResponse(f.deps, new Request(f.top()), f.token, [])
    // The directory has been read; another process adds a store in a country it lacks, and the registry learns of it.
    otherProcess(f.env.store, (other) => {
      const record = locationRecord(f.env.locatorId, {
        name: 'Tokyo Shop',
        address: 'Ginza 1, Tokyo',
        coordinates: { lat: 35.67, lng: 139.77 },
      })
      other.locations.insert({ ...record, addressParts: { city: 'Tokyo', country: 'JP' } })
    })
    f.deps.registry.sync()
    const first = await pending
    const second = await directoryResponse(f.deps, new Request(f.top()), f.token, [])
    const [a, b] = [await first.text(), await second.text()]
    expect([a.includes('Japan'), b.includes('Japan')]).toEqual([false, true])
    expect(first.headers.get('etag')).not.toBe(second.headers.get('etag'))
    const again = await directoryResponse(
      f.deps,
      new Request(f.top(), { headers: { 'if-none-match': first.headers.get('etag')! } }),
      f.token,
      [],
    )
    expect(again.status).toBe(200)
  })
})
