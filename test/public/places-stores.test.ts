// The locator's own stores in GET /places: a place near one comes before its namesakes and the
// places a prefix begins, as far as the text says nothing else; the biggest of those near first.
import { describe, expect, test } from 'bun:test'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { env, get, maine, places, usePlacesEnv } from './places-fixture'

usePlacesEnv()

/** A locator with a store at each point; its public token. */
async function locatorWith(stores: [string, number, number][]): Promise<string> {
  const made = createLocator(env.store, `Stores in ${stores.map(([name]) => name).join(', ')}`)
  setLocatorSettings(env.store, made.locator.id, { queryApi: 'on' })
  for (const [name, lat, lng] of stores) {
    const body = { name, address: 'Main Street', coordinates: { lat, lng } }
    expect((await env.call('POST', '/admin/v1/locations', { key: made.secret, body })).status).toBe(201)
  }
  return env.store.locators.get(made.locator.id)!.publicToken!
}

describe('a store near', () => {
  test('lifts a city a prefix begins by its own name, though the data names it otherwise: "Münch" is Munich', async () => {
    // As the demo's stores: in München and in Basel, 5 km from Münchenstein. GeoNames names
    // München "Munich", so "München" is one of its alternate names.
    const both = await locatorWith([
      ['Kaufingerstraße', 48.1391, 11.5713],
      ['Basel', 47.5596, 7.5886],
    ])
    expect((await places('Münch', '', both)).map((p) => p.label).slice(0, 2)).toEqual([
      'Munich, Germany',
      'Münchenstein, Switzerland',
    ])
    // Stores in Basel alone say Münchenstein.
    const basel = await locatorWith([['Basel', 47.5596, 7.5886]])
    expect((await places('Münch', '', basel))[0]!.label).toBe('Münchenstein, Switzerland')
  })
  test('lifts a city a typo names whole by its other name, when far the biggest so found: "Müchen" is Munich', async () => {
    // As the demo's: stores in München, in Köln (40 km from Jüchen) and in Cardiff (15 km from
    // Machen), each town one letter off too. Without the store in München, Jüchen (places.test.ts).
    const three = await locatorWith([
      ['Kaufingerstraße', 48.1391, 11.5713],
      ['Schildergasse', 50.9365, 6.9524],
      ['Queen Street', 51.4816, -3.1791],
    ])
    expect((await places('Müchen', '', three))[0]!.label).toBe('Munich, Germany')
    // On a page in another language, by the name the typo is one letter off, as "München" is shown.
    expect((await places('Müchen', '&lang=de', three))[0]!.label).toBe('München, Deutschland')
    expect((await places('Mnchen', '&lang=it', three))[0]!.label).toBe('München, Germania')
    expect((await places('Mnchen', '', three))[0]!.label).toBe('Munich, Germany')
    const near = await get(`${three}/locations?near=M%C3%BCchen&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Munich, Germany')
  })

  test('lifts a big city four letters name whole one typo off: "Wein" is Wien, "Kolm" Köln', async () => {
    const vienna = await locatorWith([['Stephansplatz', 48.2085, 16.3731]])
    expect((await places('Wein', '', vienna))[0]!.label).toBe('Vienna, Austria')
    // Not "Vienna, Österreich": on a page in another language, the name the typo is off, as "Wien"
    // typed is shown; in English the data's own, Vienna.
    expect((await places('Wein', '&lang=de', vienna))[0]!.label).toBe('Wien, Österreich')
    expect((await places('Wein', '&lang=fr', vienna))[0]!.label).toBe('Wien, Autriche')
    const inGerman = await get(`${vienna}/locations?near=Wein&radius=10&unit=km&lang=de`)
    expect(inGerman.body.meta.query.center.label).toBe('Wien, Österreich')
    const near = await get(`${vienna}/locations?near=Wein&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Vienna, Austria')
    // A store by Weinheim lifts it, the text begun: a word, or a town's name cut short, stays so.
    const weinheim = await locatorWith([['Hauptstraße', 49.5453, 8.6647]])
    expect((await places('Wein', '&lang=de', weinheim))[0]!.label).toBe('Weinheim, Deutschland')
    const koeln = await locatorWith([['Schildergasse', 50.9365, 6.9524]])
    expect((await places('Kolm', '', koeln))[0]!.label).toBe('Köln, Germany')
  })

  test('does not lift a village by an old name that far a bigger city has: "Peking" is Beijing', async () => {
    // Starnberg, 5 km from Pöcking, whose old name the data also has as Peking.
    const starnberg = await locatorWith([['Starnberg', 47.9972, 11.3406]])
    expect((await places('Peking', '', starnberg))[0]!.label).toBe('Peking, China')
    const near = await get(`${starnberg}/locations?near=Peking&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Peking, China')
  })

  test('lifts a town named whole by its own name, however few live there: "Bondi" is Bondi, not Bondy, France', async () => {
    // Bondi has 9,891 people, so five letters rank it with the names begun; Bondy is "Bondi" too.
    const sydney = await locatorWith([['George Street', -33.8688, 151.2093]])
    expect((await places('Bondi', '', sydney))[0]!.label).toBe('Bondi, NSW, Australia')
    const near = await get(`${sydney}/locations?near=Bondi&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Bondi, NSW, Australia')
    // Without a store near it, the bigger town by that name is first, as before.
    const koeln = await locatorWith([['Schildergasse', 50.9365, 6.9524]])
    expect((await places('Bondi', '', koeln))[0]!.label).toBe('Bondi, France')
  })

  test('lifts one of the towns "Mt." or "Ft." names written out: "Mt Vernon" beside a store in Illinois is Illinois\'s', async () => {
    const illinois = await locatorWith([['Main Street', 38.3173, -88.9031]])
    expect((await places('Mt Vernon', '', illinois))[0]!.label).toBe('Mount Vernon, IL, United States')
    const ohio = await locatorWith([['Main Street', 40.3934, -82.4857]])
    expect((await places('Mt Vernon', '', ohio))[0]!.label).toBe('Mount Vernon, OH, United States')
  })

  test('lifts the smaller town a dash or space and "St" follow beside a store: "Frankfurt Ste" by the Oder', async () => {
    const oder = await locatorWith([['Karl-Marx-Straße', 52.3471, 14.5506]])
    for (const q of [
      'Frankfurt',
      'Frankfurt (Oder)',
      'Frankfurt-St',
      'Frankfurt-Ste',
      'Frankfurt St',
      'Frankfurt Ste',
      'Frankfurt Str',
    ])
      expect({ q, first: (await places(q, '', oder))[0]?.label }).toEqual({ q, first: 'Frankfurt (Oder), Germany' })
    // Beside a store by the Main, the town by the Main, on any page.
    const main = await locatorWith([['Zeil', 50.1147, 8.6821]])
    for (const q of ['Frankfurt St', 'Frankfurt Ste'])
      for (const more of ['', '&lang=de', '&lang=en-US'])
        expect({ q, more, first: (await places(q, more, main))[0]?.label }).toEqual({
          q,
          more,
          first: more === '&lang=de' ? 'Frankfurt am Main, Deutschland' : 'Frankfurt am Main, Germany',
        })
  })

  test('makes a town after a thing\'s name and number meant: "Gate 12 Lübeck" beside a store in Lübeck', async () => {
    const luebeck = await locatorWith([['Breite Straße', 53.8682, 10.6853]])
    expect((await places('Gate 12 Lübeck', '', luebeck))[0]?.label).toBe('Lübeck, Germany')
    expect(await places('Gate 12 Lübeck')).toEqual([])
  })
})

describe("a postcode's towns beside the stores", () => {
  test('list the code\'s biggest town first: "2000" on a Sydney locator is Sydney, not Barangaroo', async () => {
    const sydney = await locatorWith([['George Street', -33.8688, 151.2093]])
    expect((await places('2000', '', sydney))[0]!.label).toBe('2000 Sydney, NSW, Australia')
    expect((await places('2000', '&lang=de', sydney))[0]!.label).toBe('2000 Sydney, NSW, Australien')
    const near = await get(`${sydney}/locations?near=2000&radius=10&unit=km`)
    expect(near.body.meta.query.center.label).toBe('2000 Sydney, NSW, Australia')
  })

  test("are the page's own countries' when stores are in both: \"3000\" on a German page of Bern and Melbourne is not Melbourne's", async () => {
    // Bern's 3000 is Swiss, whose postcodes the data lacks: a German page's visitors may be Swiss.
    const both = await locatorWith([
      ['Bern', 46.948, 7.4474],
      ['Melbourne', -37.8136, 144.9631],
    ])
    const countries = async (more: string, token: string) => (await places('3000', more, token)).map((p) => p.country)
    expect(await countries('&lang=de', both)).not.toContain('AU')
    expect((await get(`${both}/locations?near=3000&lang=de`)).body.error.code).toBe('PLACE_NOT_FOUND')
    // In English, or with stores by Melbourne alone, Melbourne's.
    expect((await places('3000', '&lang=en', both))[0]!.label).toBe('3000 Melbourne, VIC, Australia')
    const melbourne = await locatorWith([['Melbourne', -37.8136, 144.9631]])
    expect((await countries('&lang=de', melbourne))[0]).toBe('AU')
    // Stores in Munich, near Austria's middle but in Germany, are no Austrian visitors' stores.
    const munich = await locatorWith([
      ['Kaufingerstraße', 48.1391, 11.5713],
      ['Melbourne', -37.8136, 144.9631],
    ])
    expect((await countries('&lang=de', munich))[0]).toBe('AU')
  })
})

describe("the locator's countries", () => {
  test('lift the towns a text begins there over bigger ones elsewhere: a German locator\'s "Lüb" is Lübeck', async () => {
    // Stores in Berlin and München, none within 50 km of Lübeck or Fulda.
    const germany = await locatorWith([
      ['Alexanderplatz', 52.5219, 13.4132],
      ['Kaufingerstraße', 48.1391, 11.5713],
    ])
    expect((await places('Lüb', '', germany))[0]!.label).toBe('Lübeck, Germany')
    expect((await places('Ful', '&lang=de', germany))[0]!.label).toBe('Fulda, Deutschland')
    // A locator in Maine gets the biggest, as before; a whole name or a postcode is its own place.
    expect((await places('Lüb', '', maine))[0]!.label).not.toBe('Lübeck, Germany')
    expect((await places('Paris', '', germany))[0]!.label).toBe('Paris, France')
  })
})

describe('a word that names no town near the stores', () => {
  test("is no place far away: a tag's value or label, or a village abroad only a typo finds", async () => {
    const made = createLocator(env.store, 'Radhaus')
    setLocatorSettings(env.store, made.locator.id, { queryApi: 'on' })
    for (const [name, lat, lng, tags] of [
      ['Alexanderplatz', 52.5219, 13.4132, ['Werkstatt']],
      ['Kaufingerstraße', 48.1391, 11.5713, ['rental']],
    ] as const) {
      const body = { name, address: 'Hauptstraße 1', coordinates: { lat, lng }, tags }
      expect((await env.call('POST', '/admin/v1/locations', { key: made.secret, body })).status).toBe(201)
    }
    setFilters(env.store, made.locator.id, [
      { id: 'services', name: 'Services', label: 'Leistungen', tags: [{ value: 'rental', label: 'Verleih' }] },
    ])
    const radhaus = env.store.locators.get(made.locator.id)!.publicToken!
    // A tag's value (Wernstadt, Czechia, two letters off) and a label (Werneuchen, Brandenburg).
    expect(await places('Werkstatt', '&lang=de', radhaus)).toEqual([])
    expect(await places('Verleih', '&lang=de', radhaus)).toEqual([])
    const near = await get(`${radhaus}/locations?near=Werkstatt&radius=10&unit=km`)
    expect([near.status, near.body.error.code]).toEqual([400, 'PLACE_NOT_FOUND'])
    // A typo of a town near a store, or of a town of note, is still that town.
    expect((await places('Müchen', '', radhaus))[0]!.label).toBe('Munich, Germany')
    expect((await places('Venedg', '&lang=de', radhaus))[0]!.label).toBe('Venice, Italien')
  })
})

describe("a tag's word, given after the locator was asked", () => {
  test("names no place from then on, as a location's tag or as a filter's label", async () => {
    const made = createLocator(env.store, 'Tagged later')
    setLocatorSettings(env.store, made.locator.id, { queryApi: 'on' })
    const post = async (name: string, lat: number, lng: number, tags: string[]) => {
      const body = { name, address: 'Hauptstraße 1', coordinates: { lat, lng }, tags }
      expect((await env.call('POST', '/admin/v1/locations', { key: made.secret, body })).status).toBe(201)
    }
    await post('Alexanderplatz', 52.5219, 13.4132, [])
    const token = env.store.locators.get(made.locator.id)!.publicToken!
    // Each a typo off a town in the country of the store, until a tag of the locator's is the word.
    const labels = async (q: string) => (await places(q, '&lang=de', token)).map((p) => p.label)
    expect(await labels('Verleih')).toEqual(['Werneuchen, Deutschland'])
    expect(await labels('Wernigerodi')).toEqual(['Wernigerode, Deutschland'])
    await post('Kaufingerstraße', 48.1391, 11.5713, ['Verleih'])
    expect(await labels('Verleih')).toEqual([])
    // A filter's tag labelled as its value reads: the index is kept, its settings are new.
    setFilters(env.store, made.locator.id, [
      { id: 'services', name: 'Services', label: 'Leistungen', tags: [{ value: 'wernigerodi', label: 'Wernigerodi' }] },
    ])
    expect(await labels('Wernigerodi')).toEqual([])
  })
})

describe("the locator's countries, after its stores move", () => {
  test('are those the stores are in now, though their number is the same', async () => {
    const made = createLocator(env.store, 'Moving stores')
    setLocatorSettings(env.store, made.locator.id, { queryApi: 'on' })
    const ids: string[] = []
    for (const [name, lat, lng] of [
      ['Alexanderplatz', 52.5219, 13.4132],
      ['Kaufingerstraße', 48.1391, 11.5713],
    ] as const) {
      const res = await env.call('POST', '/admin/v1/locations', {
        key: made.secret,
        body: { name, address: 'Main Street', coordinates: { lat, lng } },
      })
      expect(res.status).toBe(201)
      ids.push(res.body.location.id)
    }
    const moving = env.store.locators.get(made.locator.id)!.publicToken!
    expect((await places('Lüb', '', moving))[0]!.label).toBe('Lübeck, Germany')
    // Both stores move to Paris: no longer a German locator, its "Lüb" is not Lübeck.
    for (const id of ids) {
      const body = { address: 'Rue de Rivoli 1, Paris', coordinates: { lat: 48.8606, lng: 2.3376 } }
      expect((await env.call('POST', `/admin/v1/locations/${id}`, { key: made.secret, body })).status).toBe(200)
    }
    expect((await places('Lüb', '', moving))[0]!.label).not.toBe('Lübeck, Germany')
  })
})
