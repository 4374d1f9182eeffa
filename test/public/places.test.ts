// GET /places through the Query API: places as a visitor types them (towns by any of their
// names, countries, regions) from the embedded geocoder's data, the locator's own locations
// breaking ties, with the guards, caching and CORS of the other routes. Names typed short or
// wrong: places-typed; beside an address's other parts: places-addresses; near=: places-near.
import { describe, expect, test } from 'bun:test'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'
import { createApp } from '../../src/server/app'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { env, get, maine, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

describe('GET /places', () => {
  test('a prefix as typed: the most prominent places first, each with exactly the documented fields', async () => {
    const found = await places('Lond')
    expect(found.length).toBe(5)
    expect(found[0]).toEqual({
      label: 'London, United Kingdom',
      lat: expect.closeTo(51.51, 1),
      lng: expect.closeTo(-0.13, 1),
      country: 'GB',
      precision: 'city',
    })
    for (const p of found) expect(Object.keys(p).sort()).toEqual(['country', 'label', 'lat', 'lng', 'precision'])
    // One letter, two: a list as short, the biggest first.
    expect((await places('L'))[0]!.label).toBe('London, United Kingdom') // a store near London ranks it first among the big
    expect((await places('lo'))[0]!.label).toBe('London, United Kingdom')
  })

  test('exonyms and accents: Cologne is Köln, Munich is München, Lisbon is Lisboa; case and accents do not matter', async () => {
    expect((await places('Cologne'))[0]).toMatchObject({ country: 'DE', label: 'Cologne, Germany' })
    expect((await places('koln'))[0]).toMatchObject({ country: 'DE', label: 'Köln, Germany' })
    expect((await places('MUNICH'))[0]).toMatchObject({ country: 'DE', label: 'Munich, Germany' })
    expect((await places('Lisbon'))[0]).toMatchObject({ country: 'PT' })
  })

  test('countries are named as people write them, in each language, and read back as themselves', async () => {
    const label = async (q: string, more = '') => (await places(q, more))[0]!.label
    expect(await label('Taipei')).toBe('Taipei, Taiwan')
    expect(await label('Prague')).toBe('Prague, Czechia')
    expect(await label('Hong Kong')).toBe('Hong Kong, Hong Kong')
    expect(await label('Moscow')).toBe('Moscow, Russia')
    expect(await label('Prague', '&lang=fr')).toBe('Prague, Tchéquie')
    expect(await label('Chicago', '&lang=it')).toBe('Chicago, IL, Stati Uniti')
    for (const [q, lang] of [
      ['Prague', 'fr'],
      ['Chicago', 'it'],
      ['Taipei', 'es'],
    ] as const) {
      const shown = await label(q, `&lang=${lang}`)
      expect([shown, await label(shown, `&lang=${lang}`)]).toEqual([shown, shown])
    }
  })

  test("a town's own name comes before a town it is only an old name of, unless that one is far bigger", async () => {
    const labels = async (q: string) => (await places(q)).map((p) => p.label)
    // Richmond, VA and Paterson, NJ have "Manchester" among their alternate names; Dayton, OH "Venice".
    expect((await labels('Manchester')).slice(0, 3)).toEqual([
      'Manchester, United Kingdom',
      'Manchester, NH, United States',
      'Manchester, CT, United States',
    ])
    expect((await labels('Venice'))[0]).toBe('Venice, Italy')
    expect((await labels('Brooklyn')).slice(0, 2)).toEqual([
      'Brooklyn, NY, United States',
      'Brooklyn, MD, United States',
    ])
    // Far bigger than every town of that name: Genève before Geneva, IL.
    expect((await labels('Geneva'))[0]).toBe('Geneva, Switzerland')
    expect((await labels('New York'))[0]).toBe('New York City, NY, United States')
    // A name written out ("Saint", "Fort", "Mount") is the town's own: St. Louis before Saint-Louis, Senegal.
    expect((await labels('Saint Louis'))[0]).toBe('St. Louis, MO, United States')
  })

  test("lang names the labels' country in that language; the label finds its place again", async () => {
    expect((await places('Lond', '&lang=de'))[0]!.label).toBe('London, Vereinigtes Königreich')
    expect((await places('Portland, OR', '&lang=fr'))[0]!.label).toBe('Portland, OR, États-Unis')
    expect((await places('10115', '&lang=es'))[0]!.label).toMatch(/^10115 Berlin, Alemania$/)
    expect((await places('Köln', '&lang=NL-be'))[0]!.label).toBe('Köln, Duitsland')
    // A language not shipped, or none: English.
    for (const more of ['&lang=pt', '&lang=', ''])
      expect((await places('Lond', more))[0]!.label).toBe('London, United Kingdom')
    for (const [q, lang] of [
      ['Lond', 'de'],
      ['Portland, OR', 'fr'],
      ['Köln', 'it'],
      ['75001', 'es'],
    ]) {
      const label = (await places(q!, `&lang=${lang}`))[0]!.label
      expect((await places(label, `&lang=${lang}`))[0]!.label).toBe(label)
    }
  })

  test('a country by its whole name in a few languages, or an everyday alias; not by a code names begin with', async () => {
    for (const [q, country, label] of [
      ['Germany', 'DE', 'Germany'],
      ['Deutschland', 'DE', 'Germany'],
      ['allemagne', 'DE', 'Germany'],
      ['Austria', 'AT', 'Austria'],
      ['USA', 'US', 'United States'],
      ['UK', 'GB', 'United Kingdom'],
    ] as const)
      expect((await places(q))[0]).toEqual({
        label,
        lat: expect.any(Number),
        lng: expect.any(Number),
        country,
        precision: 'country',
      })
    expect((await places('Germany', '&lang=de'))[0].label).toBe('Deutschland')
    // Codes begin too many names: "De" is Delhi and Denver as typed, not Germany.
    expect((await places('De', '&limit=20')).some((p) => p.precision === 'country')).toBe(false)
  })

  test("the locator's own locations break ties: Portland, Oregon for one; Portland, Maine for a locator with a store there", async () => {
    expect((await places('Portland'))[0]!.label).toBe('Portland, OR, United States')
    const ranked = await places('Portland', '', maine)
    expect(ranked[0]!.label).toBe('Portland, ME, United States')
    expect(ranked[1]!.label).toBe('Portland, OR, United States')
  })

  test('a store near lifts a place found by its own name, not one the text is only an old name of', async () => {
    const other = createLocator(env.store, 'Chicago stores')
    setLocatorSettings(env.store, other.locator.id, { queryApi: 'on' })
    const body = { name: 'Loop', address: 'State Street', coordinates: { lat: 41.88, lng: -87.63 } }
    expect((await env.call('POST', '/admin/v1/locations', { key: other.secret, body })).status).toBe(201)
    const chicago = env.store.locators.get(other.locator.id)!.publicToken!
    // Lemont, IL, 40 km from the store, was once Athens.
    const labels = (await places('Athens', '&limit=10', chicago)).map((p) => p.label)
    expect(labels[0]).toBe('Athens, Greece')
    expect(labels.indexOf('Lemont, IL, United States')).toBeGreaterThan(labels.indexOf('Athens, GA, United States'))
  })

  test('a store near lifts a place the text is the name it is known by: Cologne is Köln beside a store near Cologne, MN', async () => {
    const other = createLocator(env.store, 'Minneapolis and Köln stores')
    setLocatorSettings(env.store, other.locator.id, { queryApi: 'on' })
    // Cologne, MN is 43 km from the first; the second is in Köln.
    for (const [name, lat, lng] of [
      ['Uptown', 44.9489, -93.2983],
      ['Schildergasse', 50.9365, 6.9524],
    ] as const) {
      const body = { name, address: `${name} street`, coordinates: { lat, lng } }
      expect((await env.call('POST', '/admin/v1/locations', { key: other.secret, body })).status).toBe(201)
    }
    const both = env.store.locators.get(other.locator.id)!.publicToken!
    const labels = (await places('Cologne', '', both)).map((p) => p.label)
    expect(labels[0]).toBe('Cologne, Germany')
    expect(labels.indexOf('Cologne, MN, United States')).toBeGreaterThan(0)
    const near = await get(`${both}/locations?near=Cologne&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Cologne, Germany')
  })

  test('limit: 5 by default, 1 to 20; q is required; text that folds to nothing finds nothing', async () => {
    expect(await places('San', '&limit=12')).toHaveLength(12)
    expect(await places('San', '&limit=1')).toHaveLength(1)
    for (const bad of ['&limit=0', '&limit=21', '&limit=two']) {
      const res = await get(`${token}/places?q=San${bad}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('INVALID_PARAMETER')
      expect(res.body.error.message).toContain('limit')
    }
    for (const q of ['', 'q=', 'q=%20%20']) {
      const res = await get(`${token}/places?${q}`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('q is required')
    }
    expect(await places('!!!')).toEqual([])
    expect(await places('xyzqxyzq')).toEqual([])
  })

  test("Europe's first-level regions are places, by their names in the widget's languages; a town of the name comes first", async () => {
    const first = async (q: string) => {
      const [p] = await places(q)
      return p === undefined ? null : `${p.label} (${p.precision})`
    }
    // Each shown by the name typed.
    for (const [names, country] of [
      [['Bavaria', 'Bayern', 'Bavière'], 'Germany'],
      [['Nordrhein-Westfalen', 'North Rhine-Westphalia'], 'Germany'],
      [['Scotland', 'Schottland', 'Écosse'], 'United Kingdom'],
      [['Noord-Holland', 'North Holland'], 'Netherlands'],
      [['Île-de-France'], 'France'],
      [['Catalonia', 'Catalunya', 'Cataluña'], 'Spain'],
      [['Tuscany', 'Toscana'], 'Italy'],
      [['Tirol', 'Tyrol'], 'Austria'],
      [['Vlaanderen', 'Flanders'], 'Belgium'],
    ] as const)
      for (const q of names) expect({ q, first: await first(q) }).toEqual({ q, first: `${q}, ${country} (region)` })
    expect(await first('Ile de France')).toBe('Île-de-France, France (region)')
    expect(await first('Berlin')).toBe('Berlin, Germany (city)')
    expect(await first('Utrecht')).toBe('Utrecht, Netherlands (city)')
    // Bavaria's towns, not those of a neighbour: its reach is about 100 km around its middle.
    const bavaria = await get(`${token}/locations?near=Bayern&unit=km`)
    expect(bavaria.body.meta.query.radius).toBeGreaterThan(80)
    expect(bavaria.body.meta.query.radius).toBeLessThan(200)
    // Its centre, a mean of its towns, to 5 decimals as a town's point is.
    const { lat, lng } = bavaria.body.meta.query.center
    expect([lat, lng].map((x: number) => Math.round(x * 1e5) / 1e5)).toEqual([lat, lng])
  })

  test("the names of an object's own members are words like any other: never a 500", async () => {
    for (const q of [
      'constructor',
      'Constructor',
      'CONSTRUCTOR,',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'valueOf',
    ]) {
      const found = await get(`${token}/places?q=${encodeURIComponent(q)}`)
      expect({ q, status: found.status, places: Array.isArray(found.body.data?.places) }).toEqual({
        q,
        status: 200,
        places: true,
      })
      const near = await get(`${token}/locations?near=${encodeURIComponent(q)}`)
      expect({ q, near: near.status === 200 || near.body.error?.code === 'PLACE_NOT_FOUND' }).toEqual({ q, near: true })
    }
  })

  test('the guards of the other routes: token, Query API on, referrers; CORS, ETag, rate headers', async () => {
    expect((await get('pk_nope/places?q=Lond')).body.error.code).toBe('INVALID_TOKEN')
    const res = await get(`${token}/places?q=Lond`, { origin: 'https://shop.example' })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    expect(res.headers.get('ratelimit-limit')).not.toBeNull()
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    const etag = res.headers.get('etag')!
    expect((await get(`${token}/places?q=Lond`, { 'if-none-match': etag })).status).toBe(304)
    setLocatorSettings(env.store, env.locatorId, { referrers: 'shop.example' })
    try {
      const refused = await get(`${token}/places?q=Lond`, { origin: 'https://elsewhere.example' })
      expect(refused.status).toBe(403)
      expect(refused.body.error.code).toBe('REFERRER_NOT_ALLOWED')
    } finally {
      setLocatorSettings(env.store, env.locatorId, { referrers: '' })
    }
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'off' })
    try {
      expect((await get(`${token}/places?q=Lond`)).body.error.code).toBe('API_NOT_ENABLED')
    } finally {
      setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    }
  })
})

test('a service without place data (GEOCODER=none) says so: 501 PLACES_UNAVAILABLE', async () => {
  const app = createApp({
    store: env.store,
    geocoder: env.geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  for (const path of [`${token}/places?q=Lond`, `${token}/locations?near=Lond`]) {
    const res = await get(path, {}, app)
    expect(res.status).toBe(501)
    expect(res.body.error.code).toBe('PLACES_UNAVAILABLE')
  }
})

test("an answer's ETag changes with the place search's version: places ranked anew are sent again", async () => {
  const path = `${token}/places?q=Lond`
  const before = (await get(path)).headers.get('etag')!
  expect((await get(path, { 'if-none-match': before })).status).toBe(304)
  // The same data and locator under the next resolver version: no write in between.
  const source = placeSearchAt(DEFAULT_GEODATA_PATH)
  const next = Object.assign(() => source(), source, { version: `${source.version}+next` })
  const app = createApp({
    store: env.store,
    geocoder: env.geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
    places: next,
  })
  for (const sent of [path, `${token}/locations?near=Lond`]) {
    const etag = (await get(sent, {}, env.app)).headers.get('etag')!
    const res = await get(sent, { 'if-none-match': etag }, app)
    expect({ sent, status: res.status }).toEqual({ sent, status: 200 })
    expect(res.headers.get('etag')).not.toBe(etag)
    expect((await get(sent, { 'if-none-match': res.headers.get('etag')! }, app)).status).toBe(304)
  }
})
