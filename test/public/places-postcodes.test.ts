// Postcodes beside their towns in GET /places and near=: each town of a postcode is placed where
// that postcode is (the namesake among its neighbours, not the country's biggest of that name),
// an arrondissement's postcode is at its arrondissement (Paris's at its town hall), a Vienna
// district's at its district, and a postcode's town by another name than La Poste's is shown once.
import { describe, expect, test } from 'bun:test'
import { distanceKm } from '../../src/geocode/embedded/near'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { env, get, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

/** Kirn's town hall: 55606 is Kirn's postcode and its villages'. */
const KIRN = { lat: 49.7883, lng: 7.4577 }
/** The town hall of Paris's 16th arrondissement, 71 avenue Henri-Martin. */
const HALL_16 = { lat: 48.8637, lng: 2.2765 }

describe("a German postcode's towns", () => {
  test('are the namesakes near the postcode: 55606 Limbach is the village near Kirn, not Limbach in Saxony', async () => {
    const [limbach] = await places('55606 Limbach')
    expect(limbach).toMatchObject({ label: '55606 Limbach, Germany', country: 'DE' })
    expect(distanceKm(limbach.lat, limbach.lng, KIRN.lat, KIRN.lng)).toBeLessThan(15)
    // Every town of the postcode (Bärweiler and Horbach have namesakes far off too).
    const towns = (await places('55606', '&limit=20')).filter((p) => p.country === 'DE')
    expect(towns.length).toBeGreaterThan(5)
    for (const t of towns)
      expect({ label: t.label, near: distanceKm(t.lat, t.lng, KIRN.lat, KIRN.lng) < 20 }).toEqual({
        label: t.label,
        near: true,
      })
  })

  test('near= takes the same point', async () => {
    const res = await get(`${token}/locations?near=${encodeURIComponent('55606 Limbach')}`)
    expect(res.status).toBe(200)
    const { lat, lng } = res.body.meta.query.center
    expect(distanceKm(lat, lng, KIRN.lat, KIRN.lng)).toBeLessThan(15)
  })
})

describe("an arrondissement's postcode", () => {
  test('beside "Paris" or alone is Paris\'s, at its town hall, before Boulogne-Billancourt, whose addresses La Poste also routes through 75016', async () => {
    const paris = (await places('Paris'))[0]
    expect(paris.label).toBe('Paris, France')
    const found = await places('75016 Paris')
    expect(found[0].label).toBe('75016 Paris, France')
    expect(distanceKm(found[0].lat, found[0].lng, HALL_16.lat, HALL_16.lng)).toBeLessThan(1)
    expect(distanceKm(found[0].lat, found[0].lng, paris.lat, paris.lng)).toBeGreaterThan(4)
    // The code alone: its own town first, the most populous of those it serves.
    expect((await places('75016')).map((p) => p.label).slice(0, 2)).toEqual([
      '75016 Paris, France',
      '75016 Boulogne-Billancourt, France',
    ])
    // Boulogne-Billancourt is still found by its own name beside the postcode.
    const boulogne = found.find((p) => p.label === '75016 Boulogne-Billancourt, France')
    expect(boulogne).toBeDefined()
    expect(found.filter((p) => p.lat === boulogne.lat && p.lng === boulogne.lng)).toEqual([boulogne])
    const res = await get(`${token}/locations?near=${encodeURIComponent('75016 Paris')}`)
    expect(res.body.meta.query.center).toMatchObject({ lat: found[0].lat, lng: found[0].lng })
  })

  test("alone lists Paris 16e first for a locator with a store in Boulogne-Billancourt, nearer Boulogne's point", async () => {
    const chain = createLocator(env.store, 'Paris stores')
    setLocatorSettings(env.store, chain.locator.id, { queryApi: 'on' })
    for (const [name, lat, lng] of [
      ['Boulogne', 48.8354, 2.2413],
      ['Opéra', 48.8712, 2.3322],
    ] as const) {
      const res = await env.call('POST', '/admin/v1/locations', {
        key: chain.secret,
        body: { name, address: `${name} road`, coordinates: { lat, lng } },
      })
      expect(res.status).toBe(201)
    }
    const labels = (await places('75016', '', chain.locator.publicToken!)).map((p) => p.label)
    expect(labels.slice(0, 2)).toEqual(['75016 Paris, France', '75016 Boulogne-Billancourt, France'])
  })

  test('alone lists its town of most people first, of any country: "75015" is Paris, not Bretten, Germany', async () => {
    const first = async (q: string) => (await places(q))[0].label
    expect(await first('75015')).toBe('75015 Paris, France')
    expect(await first('13001')).toBe('13001 Marseille, France') // not Ciudad Real, Spain
    expect(await first('20122')).toBe('20122 Milano, Italy')
    expect(await first('10115')).toBe('10115 Berlin, Germany') // before New York's, as before
  })

  test("begun lists each code's first town before a code's others: \"7501\" is Paris's 75010 to 75014", async () => {
    const labels = async (q: string) => (await places(q)).map((p) => p.label)
    expect(await labels('7501')).toEqual([10, 11, 12, 13, 14].map((n) => `750${n} Paris, France`))
    expect((await labels('750')).slice(0, 3)).toEqual([1, 2, 3].map((n) => `7500${n} Paris, France`))
    // However many towns a code begun has: 2800 is Orange's and some 60 villages' around it, and
    // "280" still reaches Madrid's 28001 on, and for a store in Madrid lists them first.
    const codes = (found: string[]) => found.map((label) => label.split(' ')[0])
    expect(codes((await places('280', '&limit=20')).map((p) => p.label)).slice(0, 4)).toEqual([
      '2800',
      '28000',
      '28001',
      '28002',
    ])
    const madrid = createLocator(env.store, 'Madrid')
    setLocatorSettings(env.store, madrid.locator.id, { queryApi: 'on' })
    const body = { name: 'Sol', address: 'Puerta del Sol', coordinates: { lat: 40.4169, lng: -3.7035 } }
    expect((await env.call('POST', '/admin/v1/locations', { key: madrid.secret, body })).status).toBe(201)
    const sol = await places('280', '', env.store.locators.get(madrid.locator.id)!.publicToken!)
    expect(sol.map((p) => p.label)).toEqual([1, 2, 3, 4, 5].map((n) => `2800${n} Madrid, Spain`))
  })

  test('alone weighs a Spanish code\'s town by its people: "28010" is Madrid, not a village near Novara', async () => {
    const first = async (q: string) => (await places(q))[0].label
    expect(await first('28010')).toBe('28010 Madrid, Spain')
    expect(await first('08020')).toBe('08020 Barcelona, Spain')
    expect(await first('46010')).toBe('46010 Valencia, Spain')
    expect(await first('13001')).toBe('13001 Marseille, France') // Ciudad Real's fewer people
  })

  test("in Lyon and Marseille is at its arrondissement's point, which the data has, not the city's", async () => {
    for (const [q, district, city] of [
      ['69003 Lyon', 'Lyon 03', 'Lyon'],
      ['13005 Marseille', 'Marseille 05', 'Marseille'],
    ] as const) {
      const [at, own, whole] = await Promise.all([q, district, city].map(async (t) => (await places(t))[0]))
      expect({ q, label: at.label, at: [at.lat, at.lng] }).toEqual({ q, label: `${q}, France`, at: [own.lat, own.lng] })
      expect([whole.lat, whole.lng]).not.toEqual([own.lat, own.lng])
    }
  })

  test('is shown once, though the data names it twice ("Paris", "Paris 16e Arrondissement")', async () => {
    for (const q of ['75016', '75016 Paris', '75116']) {
      const inParis = (await places(q, '&limit=20')).filter((p) => p.label.startsWith(`${q.slice(0, 5)} Paris`))
      expect({ q, labels: inParis.map((p) => p.label) }).toEqual({ q, labels: [`${q.slice(0, 5)} Paris, France`] })
    }
  })

  test("is labelled by its city alike in all of Paris's 20 (La Poste writes the 16th's \"PARIS 16\"), Lyon's and Marseille's", async () => {
    const codes: [string, string][] = [
      ...Array.from({ length: 20 }, (_, i): [string, string] => [`750${String(i + 1).padStart(2, '0')}`, 'Paris']),
      ['75116', 'Paris'],
      ...Array.from({ length: 9 }, (_, i): [string, string] => [`6900${i + 1}`, 'Lyon']),
      ...Array.from({ length: 16 }, (_, i): [string, string] => [`130${String(i + 1).padStart(2, '0')}`, 'Marseille']),
    ]
    for (const [code, city] of codes) {
      const inFrance = (await places(code, '&limit=20')).filter((p) => p.country === 'FR')
      expect({ code, label: inFrance[0].label }).toEqual({ code, label: `${code} ${city}, France` })
    }
  })
})

/** District offices: Hietzing's at Hietzinger Kai 1-3, Hernals' at Elterleinplatz 14. */
const HIETZING = { lat: 48.1878, lng: 16.3004 }
const HERNALS = { lat: 48.2177, lng: 16.3318 }

describe("Vienna's postcodes", () => {
  test('"1130" is Hietzing\'s, on a German or Austrian page, beside "Wien", and in near=', async () => {
    const vienna = (await places('Wien'))[0]
    for (const [q, more, label] of [
      ['1130', '&lang=de', '1130 Wien, Österreich'],
      ['1130', '&lang=de-AT', '1130 Wien, Österreich'],
      ['1130', '&lang=en-AT', '1130 Wien, Austria'],
      ['1130 Wien', '', '1130 Wien, Austria'],
      ['1130 Vienna', '', '1130 Wien, Austria'],
    ] as const) {
      const found = await places(q, more)
      expect({ q, more, labels: found.map((p) => p.label) }).toEqual({ q, more, labels: [label] })
      expect(found[0].country).toBe('AT')
      expect(distanceKm(found[0].lat, found[0].lng, HIETZING.lat, HIETZING.lng)).toBeLessThan(1)
      expect(distanceKm(found[0].lat, found[0].lng, vienna.lat, vienna.lng)).toBeGreaterThan(4)
    }
    const res = await get(`${token}/locations?near=1130&lang=de`)
    expect(res.status).toBe(200)
    expect(res.body.meta.query.center).toMatchObject({ label: '1130 Wien, Österreich', lat: 48.18623, lng: 16.2965 })
  })

  test("each of the 23 districts' is its own point in Vienna: Hernals' at its office, not the gazetteer's, 5 km off in the woods", async () => {
    const vienna = (await places('Wien'))[0]
    const points = new Set<string>()
    for (let n = 1; n <= 23; n++) {
      const code = `1${String(n).padStart(2, '0')}0`
      const [at] = await places(code, '&lang=de')
      expect({ code, label: at.label, inVienna: distanceKm(at.lat, at.lng, vienna.lat, vienna.lng) < 15 }).toEqual({
        code,
        label: `${code} Wien, Österreich`,
        inVienna: true,
      })
      points.add(`${at.lat},${at.lng}`)
    }
    expect(points.size).toBe(23)
    const [hernals] = await places('1170', '&lang=de')
    expect(distanceKm(hernals.lat, hernals.lng, HERNALS.lat, HERNALS.lng)).toBeLessThan(0.5)
  })
})
