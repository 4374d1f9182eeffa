// Place labels through GET /places and near=: a place the text names by another whole name is
// shown by it, where that name is the place's and the visitor has typed it whole; a page's
// language and the postcodes of its countries.
import { describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { env, get, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

describe('GET /places labels', () => {
  test('a place found by another whole name is shown by it, spelt as typed where the data spells it so', async () => {
    const first = async (q: string, lang = 'en') => (await places(q, `&lang=${lang}`))[0]?.label
    expect(await first('München', 'de')).toBe('München, Deutschland')
    expect(await first('münchen')).toBe('München, Germany')
    expect(await first('Munchen')).toBe('Munchen, Germany')
    expect(await first('Münch')).toBe('Munich, Germany') // a name begun: the place's own
    expect(await first('Bayern', 'de')).toBe('Bayern, Deutschland')
    expect(await first('Normandia', 'it')).toBe('Normandia, Francia')
    expect(await first('Normandía', 'es')).toBe('Normandía, Francia')
    // The same name with words more or fewer is not another: the place's own says more.
    expect(await first('Washington D.C.')).toBe('Washington, DC, United States')
    expect(await first('Frankfurt')).toBe('Frankfurt am Main, Germany')
    // In lower case only in the data ("roma" of Rome, GA): found, not shown so.
    expect((await places('roma')).map((p) => p.label)).not.toContain('roma, GA, United States')
    // Only the place a name is mostly meant for shows it: far the biggest of those it names.
    expect((await places('Londres')).slice(0, 2).map((p) => p.label)).toEqual([
      'Londres, United Kingdom',
      'City of London, United Kingdom',
    ])
    const labels = async (q: string) => (await places(q, '&limit=10')).map((p) => p.label)
    expect(await labels('Peking')).toContain('Pöcking, Germany')
    expect(await labels('Peking')).not.toContain('Peking, Germany')
    expect((await labels('New York')).filter((l) => l.startsWith('New York, WI'))).toEqual([])
    expect(await labels('Saint Louis')).not.toContain('Saint Louis, France') // Port-Saint-Louis-du-Rhône's
    // Not when a place's own name shows so: Datong by its own beside the town Datun, whatever
    // the limit, and as near= names its centre.
    expect((await places('Datun', '&limit=1'))[0].label).toBe('Datong, China')
    const datong = await get(`${token}/locations?near=Datun&radius=10&unit=km`)
    expect(datong.body.meta.query.center.label).toBe('Datong, China')
    expect((await labels('Datun')).slice(0, 2).sort()).toEqual(['Datong, China', 'Datun, China'])
    // A name another of the place's goes on from is likely typed only so far: not shown.
    expect((await labels('Bruxel'))[0]).toBe('Brussels, Belgium')
    expect((await labels('Mila'))[0]).toBe('Milan, Italy')
    expect((await labels('Bruxelles'))[0]).toBe('Bruxelles, Belgium')
    // Spellings in capitals, or with digits or brackets, are found, not shown.
    expect((await labels('TPHCM'))[0]).toBe('Ho Chi Minh City, Vietnam')
    expect((await labels('10.Bezirk'))[0]).not.toContain('10.Bezirk')
    const near = await get(`${token}/locations?near=${encodeURIComponent('Wien')}&radius=30&unit=km&lang=de`)
    expect(near.body.meta.query.center.label).toBe('Wien, Österreich')
  })

  test("a city's whole other name typed on a page in another language is shown, though another of its names goes on from it", async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0].label
    // "Praga" goes on from "Prag", "Brussels" from "Brussel", "Athens" from "Athen".
    expect(await first('Prag', 'de')).toBe('Prag, Tschechien')
    expect(await first('Brüssel', 'de')).toBe('Brüssel, Belgien')
    expect(await first('Athen', 'de')).toBe('Athen, Griechenland')
    expect(await first('Kopenhagen', 'de')).toBe('Kopenhagen, Dänemark')
    expect(await first('Neapel', 'de')).toBe('Neapel, Italien')
    expect(await first('Belgrad', 'de')).toBe('Belgrad, Serbien')
    expect(await first('Bukarest', 'de')).toBe('Bukarest, Rumänien')
    // An English page shows the data's name; a text that is also a town's own name is a name cut short.
    expect(await first('Prag', 'en')).toBe('Prague, Czechia')
    // Another page shows its own language's name, not the one typed where that is another's.
    expect(await first('Prag', 'fr')).toBe('Prague, Tchéquie')
    expect(await first('Prag', 'it')).toMatch(/^Praga, /)
    expect(await first('Neapel', 'fr')).toBe('Naples, Italie')
    expect(await first('Mila', 'de')).toBe('Milan, Italien')
    const near = await get(`${token}/locations?near=Prag&radius=30&unit=km&lang=de`)
    expect(near.body.meta.query.center.label).toBe('Prag, Tschechien')
  })

  test("a town's other or old name on a page in its country's language finds it first: a Spanish page's \"Gerona\" is Girona", async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0]?.label
    expect(await first('Gerona', 'es')).toBe('Girona, España') // Gerona, Philippines
    expect(await first('Vitoria', 'es')).toBe('Gasteiz / Vitoria, España') // Vitória, Brazil
    // Another page keeps the biggest; so does a Spanish one where a town of its countries is it.
    expect(await first('Vitoria', 'en')).toBe('Vitória, Brazil')
    expect(await first('Córdoba', 'es')).toBe('Córdoba, Argentina')
    expect(await first('Valencia', 'es')).toBe('Valencia, Venezuela')
    // France overseas is France: a French page's "Saint-Denis" is still Réunion's, the bigger.
    expect(await first('Saint-Denis', 'fr')).toBe('Saint-Denis, Réunion')
  })

  test("a town of the page's countries found first is one whose own name was typed, and never past a country", async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0]?.label
    // Gustavo A. Madero, a borough of Mexico City, was once Guadalupe too.
    expect(await first('Guadalupe', 'es')).toBe('Guadalupe, México')
    // Unless one that bears it as another has three times its people: León de los Aldama.
    expect(await first('León', 'es')).toBe('León de los Aldama, México') // León, Nicaragua
    expect(await first('Bruges', 'fr')).toBe('Bruges, Belgique') // Bruges, Gironde
    // The country, not its capital, as on an English page.
    expect(await first('Luxembourg', 'fr')).toBe('Luxembourg')
    expect(await first('Luxembourg', 'de')).toBe('Luxemburg')
  })

  test("a town of the page's countries is not found first past a town of the name with a store near it", async () => {
    const chain = createLocator(env.store, 'Valencia and Vitória stores')
    setLocatorSettings(env.store, chain.locator.id, { queryApi: 'on' })
    for (const [name, lat, lng] of [
      ['Plaza del Ayuntamiento', 39.4699, -0.3763], // Valencia, Spain
      ['Praia do Canto', -20.2976, -40.2958], // Vitória, Brazil
    ] as const) {
      const res = await env.call('POST', '/admin/v1/locations', {
        key: chain.secret,
        body: { name, address: name, coordinates: { lat, lng } },
      })
      expect(res.status).toBe(201)
    }
    const first = async (q: string) => (await places(q, '&lang=es', chain.locator.publicToken!))[0]?.label
    expect(await first('Valencia')).toBe('Valencia, España') // Valencia, Venezuela
    expect(await first('Vitoria')).toBe('Vitória, Brasil') // Gasteiz / Vitoria, España
  })

  test('a name typed only so far is not shown as typed on any page, though the data holds it as another name', async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0].label
    // The data holds "Amsterda", "Bruxel", "Firenz" as other names of Amsterdam, Brussels, Florence.
    expect(await first('Amsterda', 'de')).toBe('Amsterdam, Niederlande')
    expect(await first('Bruxel', 'de')).toBe('Brussels, Belgien')
    expect(await first('Firenz', 'it')).toBe('Firenze, Italia') // the page's language's name begun
    const words = ['Amsterdam', 'Bruxelles', 'Brussels', 'Praha', 'Prague', 'København', 'Copenhagen', 'Napoli']
    words.push('Naples', 'Athens', 'Beograd', 'Bucuresti', 'Wien', 'München', 'Milano', 'Firenze', 'Venezia', 'Lisboa')
    const asTyped = new Set<string>()
    for (const word of words)
      for (let n = 4; n < [...word].length; n++) {
        const begun = [...word].slice(0, n).join('')
        for (const lang of ['de', 'fr', 'it', 'es', 'nl'])
          if ((await first(begun, lang)).split(',')[0]!.toLowerCase() === begun.toLowerCase()) asTyped.add(begun)
      }
    // Only whole names: other ones ("Prag", "Athen", "Brussel"), or places' own (Milan; Napo, Ecuador).
    expect([...asTyped].sort()).toEqual(['Athen', 'Brussel', 'Milan', 'Napo', 'Prag'])
  })

  test("a city's name in the page's language begun shows it, as that name typed whole does", async () => {
    const first = async (q: string, lang: string) => (await places(q, `&lang=${lang}`))[0]?.label
    for (const q of ['Mün', 'Münc', 'Munch', 'München'])
      expect({ q, first: await first(q, 'de') }).toEqual({ q, first: 'München, Deutschland' })
    expect(await first('Genov', 'it')).toBe('Genova, Italia')
    // The page's name not begun, or a page whose name is the data's: the data's.
    expect(await first('Munich', 'de')).toBe('Munich, Deutschland')
    expect(await first('Mün', 'fr')).toBe('Munich, Allemagne')
    expect(await first('Mün', 'en')).toBe('Munich, Germany')
  })

  test('a label typed back finds its place first, as near= does: the state of New York, not the city', async () => {
    // "New York" alone is the city; its label is "New York City, NY, United States".
    expect((await places('New York'))[0].label).toBe('New York City, NY, United States')
    const state = (await places('New York', '&limit=10')).find((p) => p.precision === 'region')
    expect(state.label).toBe('New York, United States')
    for (const [lang, label] of [
      ['en', 'New York, United States'],
      ['de', 'New York, Vereinigte Staaten'],
    ]) {
      expect({ label, first: (await places(label!, `&lang=${lang}`))[0] }).toEqual({
        label,
        first: { ...state, label },
      })
      const near = await get(`${token}/locations?near=${encodeURIComponent(label!)}&lang=${lang}`)
      expect(near.body.meta.query.center).toEqual({ lat: state.lat, lng: state.lng, label })
    }
    // Not a spelling no label has: "New York, USA" is still read as the words are.
    expect((await places('New York, USA'))[0].label).toBe('New York City, NY, United States')
  })

  test("a region's label writes of and and in small letters, as the region does", async () => {
    const region = async (q: string) => (await places(q, '&limit=10')).find((p) => p.precision === 'region')?.label
    expect(await region('Newfoundland')).toBe('Newfoundland and Labrador, Canada')
    expect(await region('District of Columbia')).toBe('District of Columbia, United States')
    expect(await region('Castilla-La Mancha')).toBe('Castilla-La Mancha, Spain')
  })

  test('a postcode by two names of one place at one point is given once: the name its others begin with', async () => {
    const labels = async (q: string) => (await places(q, '&limit=20')).map((p) => p.label)
    // The commune and La Poste's name of one row of France's data: the city, as the post writes it.
    expect(await labels('75001')).toEqual(['75001 Paris, France', '75001 Addison, TX, United States'])
    expect(await labels('69003')).toEqual(['69003 Lyon, France'])
    // Marseille's codes span arrondissements: four names, one point.
    expect(await labels('13007')).toEqual(['13007 Marseille, France'])
    expect((await labels('750')).filter((l) => l.includes('Arrondissement'))).toEqual([])
    expect((await labels('750')).filter((l) => l.startsWith('75001 Paris'))).toEqual(['75001 Paris, France'])
    // "Saint" cut short; a district the post names after its town.
    expect((await labels('01130')).filter((l) => l.includes('Germain'))).toEqual([
      '01130 Saint-Germain-de-Joux, France',
    ])
    expect((await labels('06150')).filter((l) => l.includes('Cannes'))).toEqual(['06150 Cannes, France'])
    // Typed, the arrondissement is still found, and the city before it.
    expect(await labels('75001 Paris 1er')).toEqual(['75001 Paris 1er Arrondissement, France'])
    expect(await labels('75001 Paris')).toEqual(['75001 Paris, France'])
    // Two villages the data places alike, named apart, stay two.
    const villages = (await labels('55606 K')).filter((l) => /Kellenbach|Königsau/.test(l))
    expect(villages.sort()).toEqual(['55606 Kellenbach, Germany', '55606 Königsau, Germany'])
    const near = await get(`${token}/locations?near=69003`)
    expect(near.body.meta.query.center.label).toBe('69003 Lyon, France')
  })

  test("four digits on a page in German, French, Dutch or Italian are its visitors' postcode, which the data lacks, not Australia's", async () => {
    const labels = async (q: string, lang: string) => (await places(q, `&lang=${lang}`)).map((p) => p.label)
    expect((await labels('8001', 'en'))[0]).toBe('8001 Melbourne, VIC, Australia')
    for (const lang of ['de', 'fr', 'nl', 'it']) expect(await labels('8001', lang)).toEqual([])
    expect((await labels('8001', 'es'))[0]).toBe('8001 Melbourne, VIC, Australia')
    // Of Austria's, the data has Vienna's districts' only: Linz's 4020 is not Redcliffe's.
    expect(await labels('4020', 'de')).toEqual([])
    expect(await labels('1010', 'de')).toEqual(['1010 Wien, Österreich'])
    expect((await labels('4020 Linz', 'de'))[0]).toBe('Linz, Österreich')
    const near = await get(`${token}/locations?near=4020&lang=de`)
    expect(near.status).toBe(400)
    expect(near.body.error.code).toBe('PLACE_NOT_FOUND')
    expect(near.body.error.message).toContain('Austria, Switzerland')
  })

  test("the locator's stores weigh over the page's language: a Sydney locator's German page finds Sydney's 2000", async () => {
    const chain = createLocator(env.store, 'Sydney stores')
    setLocatorSettings(env.store, chain.locator.id, { queryApi: 'on' })
    const res = await env.call('POST', '/admin/v1/locations', {
      key: chain.secret,
      body: { name: 'Pitt Street', address: 'Pitt Street', coordinates: { lat: -33.8688, lng: 151.2093 } },
    })
    expect(res.status).toBe(201)
    const sydney = chain.locator.publicToken!
    const labels = async (q: string, lang: string, tok: string) =>
      (await places(q, `&lang=${lang}`, tok)).map((p) => p.label)
    for (const lang of ['de', 'fr', 'nl', 'it', 'en']) {
      const found = await labels('2000', lang, sydney)
      expect({ lang, first: found[0] ?? null }).toEqual({ lang, first: expect.stringMatching(/^2000 .*, NSW, /) })
    }
    // Its stores say nothing of Melbourne's 8001, nor of another locator's visitors.
    expect(await labels('8001', 'de', sydney)).toEqual([])
    expect(await labels('2000', 'de', token)).toEqual([])
    // A visitor whose region says where they are means their own: Neuchâtel's, Stockerau's.
    for (const lang of ['de-CH', 'fr-CH', 'de-AT'])
      expect({ lang, found: await labels('2000', lang, sydney) }).toEqual({ lang, found: [] })
    const near = await get(`${sydney}/locations?near=2000&lang=de`)
    expect(near.status).toBe(200)
    expect(near.body.meta.query.center.label).toMatch(/^2000 .*, NSW, Australien$/)
  })

  test("a locator's other country's postcode comes after the page's own: Wien's 1010 first, then Sydney's", async () => {
    const chain = createLocator(env.store, 'Wien and Sydney stores')
    setLocatorSettings(env.store, chain.locator.id, { queryApi: 'on' })
    for (const [name, lat, lng] of [
      ['Graben', 48.2087, 16.3695],
      ['Pitt Street', -33.8688, 151.2093],
    ] as const) {
      const res = await env.call('POST', '/admin/v1/locations', {
        key: chain.secret,
        body: { name, address: name, coordinates: { lat, lng } },
      })
      expect(res.status).toBe(201)
    }
    const both = chain.locator.publicToken!
    const found = (await places('1010', '&lang=de', both)).map((p) => p.label)
    expect(found).toEqual(['1010 Wien, Österreich', '1010 Sydney, NSW, Australien'])
    const near = await get(`${both}/locations?near=1010&lang=de`)
    expect(near.body.meta.query.center.label).toBe('1010 Wien, Österreich')
  })
})

describe("a region written as the code of the page's own country", () => {
  test('is spelt out on that page, where the code reads as the country; near= finds the label shown', async () => {
    const labels = async (q: string, lang: string) => (await places(q, `&lang=${lang}&limit=10`)).map((p) => p.label)
    const de = await labels('Newark', 'de')
    expect(de).toContain('Newark, Delaware, Vereinigte Staaten')
    expect(de.filter((l) => l.includes(', DE,'))).toEqual([])
    expect(de).toContain('Newark, NJ, Vereinigte Staaten')
    expect(await labels('Newark', 'en')).toContain('Newark, DE, United States')
    expect((await labels("St. John's", 'nl'))[0]).toBe("St. John's, Newfoundland and Labrador, Canada")
    // The page's region's code too, as "CA" alone names Canada first on en-CA.
    const enCA = await labels('San Jose', 'en-CA')
    expect(enCA).toContain('San Jose, California, United States')
    expect(enCA.filter((l) => l.includes(', CA,'))).toEqual([])
    expect(await labels('San Jose', 'en-US')).toContain('San Jose, CA, United States')
    expect(await labels('Newark', 'de-AT')).toContain('Newark, Delaware, Vereinigte Staaten')
    const near = await get(
      `${token}/locations?near=${encodeURIComponent('Newark, Delaware, Vereinigte Staaten')}&lang=de`,
    )
    expect(near.body.meta.query.center).toMatchObject({ label: 'Newark, Delaware, Vereinigte Staaten', lat: 39.68372 })
  })

  test('alone in capitals is that country first, then the region: "DE" on a German page, "AT" on de-AT', async () => {
    const labels = async (q: string, lang: string) => (await places(q, `&lang=${lang}`)).map((p) => p.label)
    expect((await labels('DE', 'de')).slice(0, 2)).toEqual(['Deutschland', 'Delaware, Vereinigte Staaten'])
    expect((await labels('NL', 'nl')).slice(0, 2)).toEqual(['Nederland', 'Newfoundland and Labrador, Canada'])
    // So is the page's region's: a visitor in Austria means Austria, not Athens.
    expect((await labels('AT', 'de-AT'))[0]).toBe('Österreich')
    expect((await labels(' CH ', 'de-CH'))[0]).toBe('Schweiz')
    expect((await labels('BE', 'nl-BE'))[0]).toBe('België')
    expect((await labels('CA', 'en-CA')).slice(0, 2)).toEqual(['Canada', 'California, United States'])
    expect((await labels('DE', 'de-AT'))[0]).toBe('Deutschland')
    // Elsewhere the code is the region's, and a word in small letters no code.
    expect((await labels('AT', 'de'))[0]).not.toBe('Österreich')
    expect((await labels('CA', 'en-US'))[0]).toBe('California, United States')
    expect((await labels('DE', 'en'))[0]).toBe('Delaware, United States')
    expect((await labels('De', 'de'))[0]).not.toBe('Deutschland')
    const near = await get(`${token}/locations?near=DE&lang=de`)
    expect(near.body.meta.query.center).toMatchObject({ label: 'Deutschland' })
    const austria = await get(`${token}/locations?near=AT&lang=de-AT`)
    expect(austria.body.meta.query.center).toMatchObject({ label: 'Österreich' })
  })
})
