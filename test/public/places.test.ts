// GET /places and near= through the Query API: places as a visitor types them (towns by any of
// their names, postcodes, regions) from the embedded geocoder's data, the locator's own locations
// breaking ties, with the guards, caching and CORS of the other routes.
import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { haversineKm } from '../helpers'
import { env, get, ids, maine, places, token, usePlacesEnv } from './places-fixture'

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

  test("a name cut short: a city known by the name typed before the towns named so; a hamlet's exact name does not come first", async () => {
    // Munich is München by an alternate name: while it is typed, Munich leads.
    for (const q of ['Münc', 'Münch', 'Münche', 'Munch'])
      expect({ q, first: (await places(q))[0]!.label }).toEqual({ q, first: 'Munich, Germany' })
    // "Barc", "Frank" and "Rost" are hamlets' whole names, and more often a city's cut short.
    expect((await places('Barc'))[0]!.label).toBe('Barcelona, Spain')
    expect((await places('Frank'))[0]!.label).toBe('Frankfurt am Main, Germany')
    expect((await places('Rost')).map((p) => p.label)).toContain('Rostock, Germany')
    expect((await places('Rost')).map((p) => p.label)).not.toContain('Røst, Norway')
    // Typed whole, a small place's name is still first.
    expect((await places('Frasne'))[0]!.label).toBe('Frasne, France')
    // Places shown alike are shown once: the city of Münster, not its namesake villages too.
    const munster = (await places('Munster', '&limit=20')).map((p) => p.label)
    expect(munster[0]).toBe('Münster, Germany')
    expect(new Set(munster).size).toBe(munster.length)
    // A borough found only by another name that begins with its town's ("Londonska opshtina
    // Brent") is not suggested beside the town: "Lond" is London, then other towns.
    const lond = await places('Lond', '&limit=10')
    const london = lond[0]!
    expect(london.label).toBe('London, United Kingdom')
    expect(lond.filter((p) => haversineKm(p, london) < 30).map((p) => p.label)).toEqual([london.label])
    expect((await places('Brent'))[0]!.label).toBe('Brent, United Kingdom')
  })

  test('typos, when nothing matches as typed: an edit from four characters, two from eight with the first letter right', async () => {
    expect((await places('Lodnon'))[0]!.label).toBe('London, United Kingdom') // two letters swapped: one edit
    expect((await places('Frnakfurt'))[0]!.label).toBe('Frankfurt am Main, Germany')
    expect((await places('Brelin'))[0]!.label).toBe('Berlin, Germany')
    // From five characters a whole name comes first, by any of its names: München, not Mönchengladbach.
    expect((await places('Mnchen'))[0]!.label).toBe('Munich, Germany')
    // A town's own name counts more than a big city's rare one: Bristol, not Brussels ("Brisel").
    expect((await places('Bristl'))[0]!.label).toBe('Bristol, United Kingdom')
    expect((await places('Bermen'))[0]!.label).toBe('Bremen, Germany')
    // A whole other name a typo off weighs a tenth, as another name begun does: "Firen" begins Firenze
    // (Florence), and is a typo of one of Düren's other names (for a locator with no store near either).
    expect((await places('Firen', '', maine))[0]!.label).toBe('Florence, Italy')
    expect((await places('Lodn'))[0]!.label).toBe('London, United Kingdom') // four: more often cut short (Łódź is whole)
    expect((await places('Amsetrdma'))[0]!.label).toBe('Amsterdam, Netherlands') // two edits, nine characters
    expect(await places('Lnodno')).toEqual([]) // two edits, six characters
    expect((await places('Eidnbrugh'))[0]!.label).toBe('Edinburgh, United Kingdom')
    expect(await places('Qdinbrugh')).toEqual([]) // the same two edits, but its first letter is one of them
    // A text that matches as typed gets no typo's places: Parsippany begins with "Parsi", Paris is an edit off.
    expect((await places('Parsi', '&limit=20')).map((p) => p.label)).toEqual(['Parsippany, NJ, United States'])
    // near= takes the best of them, and meta names it.
    const near = await get(`${token}/locations?near=Lodnon&radius=30&unit=km`)
    expect(near.body.meta.query.center.label).toBe('London, United Kingdom')
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual([ids.soho, ids.camden, ids.croydon])
  })

  test('a region or country after the town narrows it, with a comma or as a last word', async () => {
    const first = async (q: string) => (await places(q))[0]!.label
    expect(await first('Portland, OR')).toBe('Portland, OR, United States')
    expect(await first('Portland OR')).toBe('Portland, OR, United States')
    expect(await first('Portland, Ore')).toBe('Portland, OR, United States') // cut short
    expect(await first('Springfield, Illinois')).toBe('Springfield, IL, United States')
    expect(await first('Paris, TX')).toBe('Paris, TX, United States')
    expect(await first('Cambridge, UK')).toBe('Cambridge, United Kingdom')
    expect(await first('Sydney NSW')).toBe('Sydney, NSW, Australia')
    expect(await first('Vancouver BC')).toBe('Vancouver, BC, Canada')
    expect(await first('München, Bayern')).toBe('München, Germany') // a region only the country is known of
    // The labels this route gives find their place again.
    for (const q of ['Köln', 'Portland, OR', 'Dublin, Ireland'])
      expect(await first(await first(q))).toBe(await first(q))
    // A piece that names no region or country is left out; a whole name is never cut in two.
    expect(await first('Bondi Beach, Sydney')).toBe('Bondi Beach, NSW, Australia')
    expect(await first('New York')).toBe('New York City, NY, United States') // the city, not the state
    expect(await first('California')).toBe('California, United States')
    // A whole code is not cut short ("WA" is not Wales); a region named is no region asked for.
    expect((await places('Newport, WA')).map((p) => p.country)).not.toContain('GB')
    expect(await first('Washington, DC')).toBe('Washington, DC, United States')
  })

  test('alternate names of villages as typed, next to a whole name one letter off; no typos in a postcode', async () => {
    // Mutzschen's old name, as typed. Jüchen, one letter off too, is near the store in Köln.
    expect((await places('Müchen', '', maine))[0]!.label).toBe('Munich, Germany')
    expect((await places('Müchen'))[0]!.label).toBe('Jüchen, Germany')
    expect((await places('Lisboa'))[0]!.label).toBe('Lisboa, Portugal') // a big city's own: no typo tried
    expect(await places('SW1A')).toEqual([]) // not Swadlincote
  })

  test('a postcode beside its town: the postcode its town confirms, else the town', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    for (const q of ['10115 Berlin', '10115 Ber', 'Berlin 10115', '10115 Berlin, Germany'])
      expect(await first(q)).toBe('10115 Berlin, Germany')
    expect(await first('Paris 75001')).toBe('75001 Paris, France')
    // After a region, as Americans and Australians write it.
    expect(await first('Sydney NSW 2000')).toBe('2000 Sydney, NSW, Australia')
    expect(await first('San Francisco CA 94103')).toBe('94103 San Francisco, CA, United States')
    // Another name of the town, within 15 km of the postcode's place.
    expect(await first('80331 Munich')).toBe('80331 München, Germany')
    // Postcodes the data does not have (Austria's outside Vienna, the Netherlands, Britain): the town.
    expect(await first('4020 Linz')).toBe('Linz, Austria')
    expect(await first('1012 AB Amsterdam')).toBe('Amsterdam, Netherlands')
    expect(await first('SW1A 1AA London')).toBe('London, United Kingdom')
    // A postcode its town does not confirm: the town, in a country whose postcodes look so.
    expect(await first('10115 Paris')).toBe('Paris, France')
    // Words that are no postcode and no town beside it give nothing, as before.
    for (const q of ['5th Avenue', 'Route 66', '123 Main Street']) expect(await places(q)).toEqual([])
    // near= reads them the same way.
    const near = await get(`${token}/locations?near=${encodeURIComponent('4020 Linz')}&radius=30&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Linz, Austria')
  })

  test('a district beside its town: the district the data has near the town, else the town', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    // As Germans write it (a dash) and as others do (a comma): the data has no Ehrenfeld.
    for (const q of ['Köln-Ehrenfeld', 'Köln – Ehrenfeld', 'Ehrenfeld, Köln', 'Ehrenfeld, Köln, Germany', 'Köln-Ehr'])
      expect({ q, first: await first(q) }).toEqual({ q, first: 'Köln, Germany' })
    for (const q of ['München-Schwabing', 'Schwabing, München'])
      expect({ q, first: await first(q) }).toEqual({ q, first: 'München, Germany' })
    expect(await first('Soho, London')).toBe('London, United Kingdom')
    // Before a dash, a village is no district's town: Frasne has about two thousand people.
    expect(await places('Frasne-Xyzzy')).toEqual([])
    // A district the data has, cut short too.
    expect(await first('Wien-Fav')).toBe('Favoriten, Austria')
    // A town's own name with a dash, one typo off, is still that town, not the town before the dash.
    expect(await first('Stratford-upon-Avn')).toBe('Stratford-upon-Avon, United Kingdom')
    // A town before many dashes, and one whose own name has dashes before its district's.
    expect(await first(`Berlin${'-x'.repeat(96)}`)).toBe('Berlin, Germany')
    expect(await first('Castrop-Rauxel-Habinghorst')).toBe('Castrop-Rauxel, Germany')
    expect(await places(`${'a-'.repeat(96)}a`)).toEqual([])
    const near = await get(`${token}/locations?near=${encodeURIComponent('Köln-Ehrenfeld')}&radius=5&unit=km`)
    expect(near.body.meta.query.center.label).toBe('Köln, Germany')
    expect(near.body.data.locations.map((l: { id: string }) => l.id)).toEqual([ids.koeln])
  })

  test('a postcode after the comma, alone or after its region', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    for (const q of ['San Francisco, CA 94103', 'San Francisco, CA, 94103'])
      expect({ q, first: await first(q) }).toEqual({ q, first: '94103 San Francisco, CA, United States' })
    expect(await first('Paris, 75011')).toBe('75011 Paris, France')
    // The region before the postcode picks the country: 75001 is Paris's in France, Addison's in Texas.
    expect(await first('Paris, Texas 75001')).toBe('Paris, TX, United States')
    expect(await first('Paris, France 75001')).toBe('75001 Paris, France')
    // A postcode of another region than the one named is not it; nor is a town that region lacks.
    for (const q of ['San Francisco, TX 94103', 'Sydney, VIC 2000', '94103, TX'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    expect(await first('Portland, ME 04101')).toBe('04101 Portland, ME, United States')
  })

  test("a city's everyday short name comes first, then what the letters begin", async () => {
    for (const [q, label] of [
      ['LA', 'Los Angeles, CA, United States'],
      ['L.A.', 'Los Angeles, CA, United States'],
      ['SF', 'San Francisco, CA, United States'],
      ['DC', 'Washington, DC, United States'],
      ['NYC', 'New York City, NY, United States'],
    ] as const)
      expect({ q, first: (await places(q))[0]?.label }).toEqual({ q, first: label })
    expect((await places('LA', '&limit=3')).map((p) => p.label)[1]).toBe('Lagos, Nigeria')
  })

  test("a city's short name comes first though a store is near a town of that name: NOLA is New Orleans beside Naples", async () => {
    const other = createLocator(env.store, 'Naples stores')
    setLocatorSettings(env.store, other.locator.id, { queryApi: 'on' })
    // Nola, Italy is 25 km from the store; Texas has none of the locator's.
    const body = { name: 'Toledo', address: 'Via Toledo', coordinates: { lat: 40.8427, lng: 14.2488 } }
    expect((await env.call('POST', '/admin/v1/locations', { key: other.secret, body })).status).toBe(201)
    const naples = env.store.locators.get(other.locator.id)!.publicToken!
    const labels = (await places('NOLA', '', naples)).map((p) => p.label)
    expect(labels.slice(0, 2)).toEqual(['New Orleans, LA, United States', 'Nola, Italy'])
    const near = await get(`${naples}/locations?near=NOLA`)
    expect(near.body.meta.query.center.label).toBe('New Orleans, LA, United States')
  })

  test('an address as written: a ZIP+4, a street and number before the town', async () => {
    for (const q of ['94103-1234', '94103-12', 'San Francisco, CA 94103-1234'])
      expect({ q, first: (await places(q))[0]?.label }).toEqual({
        q,
        first: '94103 San Francisco, CA, United States',
      })
    expect((await places('200 Main Street, Springfield, IL 62701'))[0]!.label).toBe(
      '62701 Springfield, IL, United States',
    )
    expect((await places('Unter den Linden 1, 10117 Berlin'))[0]!.label).toBe('10117 Berlin, Germany')
    // Only a piece with a number and a word is read as a street: a town that is not there is still nothing.
    for (const q of ['San Francisco, TX 94103', '94103, TX']) expect(await places(q)).toEqual([])
  })

  test('a whole postcode of a country the data has no postcodes for finds nothing, not a town it half spells', async () => {
    for (const q of ['1012 JW', '1012 AB', 'E1 6NF'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    expect((await places('1012 AB Amsterdam'))[0]!.label).toBe('Amsterdam, Netherlands')
  })

  test('a postal district after its town gives the town, in its country; initials with dots are a code', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    for (const [q, town] of [
      ['London W1', 'London, United Kingdom'],
      ['SW1A London', 'London, United Kingdom'],
      ['Manchester M1', 'Manchester, United Kingdom'],
      ['Dublin 2', 'Dublin, Ireland'],
      ['Dublin D02', 'Dublin, Ireland'],
      ['Paris 11e', '75011 Paris, France'], // an arrondissement is its code (places-written.test.ts)
      ['Paris 16', '75016 Paris, France'],
      ['Paris 21e', 'Paris, France'],
      ['Washington, D.C.', 'Washington, DC, United States'],
      ['Washington D.C.', 'Washington, DC, United States'],
      ['Bristol, U.K.', 'Bristol, United Kingdom'],
    ])
      expect({ q, first: await first(q!) }).toEqual({ q, first: town })
    // A district's shape beside a town of another country is no district: no W1 in Chicago, no 2 in Toronto.
    for (const q of ['Chicago W1', 'Toronto 2']) expect(await places(q)).toEqual([])
  })

  test('a whole Canadian postcode, or one typed past its first three characters, finds their area', async () => {
    for (const q of ['M5V 3L9', 'm5v3l9', 'M5V 3', 'M5V 3L9, Canada', 'Toronto, ON M5V 3L9', 'M5V 3L9 Toronto'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: ['M5V, Canada'] })
    // Beside a town far from it, the town as typed, as for a postcode the data lacks.
    expect((await places('Vancouver, BC M5V 3L9'))[0]!.label).toBe('Vancouver, BC, Canada')
  })

  test("a postcode's label: its town and region where the data has them; each label finds itself first", async () => {
    expect((await places('M5V'))[0]!.label).toBe('M5V, Canada')
    expect((await places('94103'))[0]!.label).toBe('94103 San Francisco, CA, United States')
    for (const q of ['75001', '2000', '94103', 'M5V', '10115'])
      for (const { label } of await places(q))
        expect({ label, first: (await places(label))[0]?.label }).toEqual({ label, first: label })
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

  test('postcodes and regions', async () => {
    const berlin = (await places('10115')).find((p) => p.country === 'DE')
    expect(berlin).toMatchObject({ label: '10115 Berlin, Germany' })
    expect(haversineKm(berlin, { lat: 52.53, lng: 13.38 })).toBeLessThan(10)
    const california = (await places('California'))[0]
    expect(california).toMatchObject({
      precision: 'region',
      country: 'US',
      label: 'California, United States',
    })
    expect(haversineKm(california, { lat: 36.5, lng: -119.5 })).toBeLessThan(400)
  })

  test("a region's code alone, in capitals: the region first, the most populous of a code two share first", async () => {
    const labels = async (q: string) => (await places(q)).slice(0, 2).map((p) => p.label)
    expect((await labels('TX'))[0]).toBe('Texas, United States')
    expect((await labels('NSW'))[0]).toBe('New South Wales, Australia')
    expect((await labels('ON'))[0]).toBe('Ontario, Canada')
    expect(await labels('WA')).toEqual(['Washington, United States', 'Western Australia, Australia'])
    // In small letters, the start of a name, as before: "tx" finds no Texas.
    expect((await labels('tx'))[0]).not.toBe('Texas, United States')
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

describe('near= on GET /locations', () => {
  test('the best place is the centre: the same answer as its coordinates, and meta says which place', async () => {
    const near = await get(`${token}/locations?near=Lond&radius=30&unit=km`)
    expect(near.status).toBe(200)
    const center = near.body.meta.query.center
    expect(center.label).toBe('London, United Kingdom')
    const byCoords = await get(`${token}/locations?lat=${center.lat}&lng=${center.lng}&radius=30&unit=km`)
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual(byCoords.body.data.locations.map((l: any) => l.id))
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual([ids.soho, ids.camden, ids.croydon])
    expect(byCoords.body.meta.query.center.label).toBeUndefined()
    // lang names the label's country as GET /places does; the centre is the same.
    const german = await get(`${token}/locations?near=Lond&radius=30&unit=km&lang=de`)
    expect(german.body.meta.query.center).toEqual({ ...center, label: 'London, Vereinigtes Königreich' })
    expect(german.body.data.locations).toEqual(near.body.data.locations)
    expect((await get(`${token}/locations?near=Lond&radius=30&unit=km&lang=pt`)).body.meta.query.center).toEqual(center)
    // An exonym, and other parameters beside it.
    const cologne = await get(`${token}/locations?near=Cologne&radius=10&unit=km&open_now=false`)
    expect(cologne.body.data.locations.map((l: any) => l.id)).toEqual([ids.koeln])
  })

  test('a region or country as the centre: the radius reaches most of its towns, at least', async () => {
    // Germany's centre is its towns' centre, near Kassel: Köln is 200 km from it, London 700.
    const germany = await get(`${token}/locations?near=Germany&unit=km`)
    expect(germany.body.meta.query.center.label).toBe('Germany')
    expect(germany.body.meta.query.radius).toBeGreaterThan(250)
    expect(germany.body.meta.query.radius).toBeLessThan(500)
    expect(germany.body.data.locations.map((l: any) => l.id)).toEqual([ids.koeln])
    // The same reach in miles.
    const miles = await get(`${token}/locations?near=Germany`)
    expect(Math.abs(miles.body.meta.query.radius - germany.body.meta.query.radius / 1.609344)).toBeLessThan(1)
    // A smaller radius sent is widened to the reach (a store finder's 25 miles); a larger one is kept.
    const small = await get(`${token}/locations?near=Germany&radius=10&unit=km`)
    expect(small.body.meta.query.radius).toBe(germany.body.meta.query.radius)
    const large = await get(`${token}/locations?near=Germany&radius=900&unit=km`)
    expect(large.body.meta.query.radius).toBe(900)
    // A region that shares its name with the country's alias is the region.
    const england = await get(`${token}/locations?near=England`)
    expect(england.body.meta.query.center.label).toBe('England, United Kingdom')
    expect(england.body.data.locations.map((l: any) => l.id).sort()).toEqual([ids.soho, ids.camden, ids.croydon].sort())
    // A region alike: California's towns lie 400 km and more apart; a town keeps the default.
    const california = await get(`${token}/locations?near=California&unit=km`)
    expect(california.body.meta.query.radius).toBeGreaterThan(300)
    expect((await get(`${token}/locations?near=Sacramento`)).body.meta.query.radius).toBe(25)
  })

  test('a text that names no place is 400 PLACE_NOT_FOUND; near with lat/lng or all=true is 400 INVALID_PARAMETER', async () => {
    const none = await get(`${token}/locations?near=xyzqxyzq`)
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('PLACE_NOT_FOUND')
    expect(none.body.error.message).toContain('xyzqxyzq')
    // A postcode of a country the data has no postcodes of says so.
    for (const [q, country] of [
      ['E1 6NF', 'United Kingdom'],
      ['1012 JW', 'Netherlands'],
    ]) {
      const res = await get(`${token}/locations?near=${encodeURIComponent(q!)}`)
      expect(res.body.error).toMatchObject({
        code: 'PLACE_NOT_FOUND',
        message: `near "${q}" looks like a postcode of ${country}, whose postcodes the place data does not have: send a town instead. GET /places suggests places as a visitor types.`,
      })
    }
    // A postcode the text only begins is no answer to near=, though GET /places suggests it as one
    // types: "1012" (Amsterdam) is not 10120 (Spain), "E1" (London) not E1A (Canada).
    for (const q of ['1012', 'E1']) {
      const res = await get(`${token}/locations?near=${q}`)
      expect({ q, code: res.body.error?.code }).toEqual({ q, code: 'PLACE_NOT_FOUND' })
    }
    expect((await places('1012')).some((p) => p.label.startsWith('1012'))).toBe(true)
    expect((await get(`${token}/locations?near=1012`)).body.error.message).toContain(
      'is no postcode the place data has; it may be one of Austria, Switzerland, Belgium, Denmark, Norway, Netherlands, whose',
    )
    expect((await get(`${token}/locations?near=10115`)).body.meta.query.center.label).toBe('10115 Berlin, Germany')
    // Digits alone name a place whole or none: no town a typo away.
    expect((await get(`${token}/locations?near=10`)).body.error?.code).toBe('PLACE_NOT_FOUND')
    // "near me" is the visitor's own position, not a town a typo away (Néa Mesimvría).
    for (const q of ['near me', 'Near me', 'in meiner Nähe', 'près de moi']) {
      const res = await get(`${token}/locations?near=${encodeURIComponent(q)}`)
      expect(res.body.error).toMatchObject({
        code: 'PLACE_NOT_FOUND',
        message: `near "${q}" asks for the visitor's own position, which only their browser knows: send lat and lng from it instead. GET /places suggests places as a visitor types.`,
      })
      expect(await places(q)).toEqual([])
    }
    for (const qs of ['near=Lond&lat=51.5&lng=-0.1', 'near=Lond&lat=51.5', 'near=Lond&all=true']) {
      const res = await get(`${token}/locations?${qs}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('INVALID_PARAMETER')
      expect(res.body.error.message).toContain('near')
    }
    // Empty: no centre named, as if not sent.
    expect((await get(`${token}/locations?near=`)).body.error.code).toBe('MISSING_COORDINATES')
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
