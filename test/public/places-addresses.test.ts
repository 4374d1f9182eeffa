// GET /places for what addresses write beside a town: its region or country, its postcode
// before or after it, its district, a street and number; postcodes and regions alone.
import { describe, expect, test } from 'bun:test'
import { haversineKm } from '../helpers'
import { get, ids, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

describe('GET /places', () => {
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
    // With a space between them, as visitors type them: the district, else the town.
    for (const [q, label] of [
      ['Köln Ehrenfeld', 'Köln, Germany'],
      ['Köln Eh', 'Köln, Germany'],
      ['München Schwabing', 'München, Germany'],
      ['Stuttgart Bad Cannstatt', 'Stuttgart, Germany'],
      ['Hamburg St Pauli', 'St. Pauli, Germany'],
      ['Hamburg St. Pauli', 'St. Pauli, Germany'],
      ['Hamburg St P', 'St. Pauli, Germany'],
      ['New York Brooklyn', 'Brooklyn, NY, United States'],
      // A country or region of words after the town narrows it, as after a comma.
      ['San Jose Costa Rica', 'San José, Costa Rica'],
      ['Wellington New Zealand', 'Wellington, New Zealand'],
      ['Portland Oregon USA', 'Portland, OR, United States'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // "St." or "Saint" after a town by another name begins one name: "Mont" is Mons's other name.
    for (const q of ['Mont St Michel', 'Mont Saint Michel'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    // A place the district only begins is a suburb beside a space, within 15 km: not
    // Noordwijkerhout (30 km), Ribeirão (20 km), nor for "Köln E" Erftstadt (20 km).
    for (const [q, label] of [
      ['Amsterdam Noord', 'Amsterdam, Netherlands'],
      ['Porto Ribeira', 'Porto, Portugal'],
      ['Wien F', 'Favoriten, Austria'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    expect((await places('Köln E')).map((p) => p.label)).not.toContain('Erftstadt, Germany')
    // Nor before a district a small town by another name: "Bad" is also Badou, Togo (24,000).
    for (const q of ['Bad Godesberg', 'Bad Cannstatt'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    expect(await first('Soho, London')).toBe('London, United Kingdom')
    // After a comma, a town and its district: there, not a place of the first words elsewhere.
    for (const [q, label] of [
      ['Broadway, New York Manhattan', 'Manhattan, NY, United States'],
      ['Broadway, Manhattan New York', 'Manhattan, NY, United States'],
      ['Broadway, Brooklyn New York', 'Brooklyn, NY, United States'],
    ] as const)
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({
        q,
        labels: expect.arrayContaining([label]),
      })
    expect((await places('Broadway, New York Manhattan')).map((p) => p.label)).not.toContain(
      'Broadway, VA, United States',
    )
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
    for (const text of ['Köln-Ehrenfeld', 'Köln Ehrenfeld']) {
      const near = await get(`${token}/locations?near=${encodeURIComponent(text)}&radius=5&unit=km`)
      expect({ text, label: near.body.meta.query.center.label }).toEqual({ text, label: 'Köln, Germany' })
      expect(near.body.data.locations.map((l: { id: string }) => l.id)).toEqual([ids.koeln])
    }
  })

  test('a town named cut short far off is no district', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    // "Vaihingen" is also Vaihingen an der Enz's name cut short, 23 km from Stuttgart: the
    // district the data lacks, so the town. A city of millions reaches 30 km: Kingston upon Thames.
    for (const [q, label] of [
      ['Stuttgart Vaihingen', 'Stuttgart, Germany'],
      ['Stuttgart-Vaihingen', 'Stuttgart, Germany'],
      ['Vaihingen, Stuttgart', 'Stuttgart, Germany'],
      ['London Kingston', 'Kingston upon Thames, United Kingdom'],
      ['Vaihingen Enz', 'Vaihingen an der Enz, Germany'],
      // A name cut short of a word that is no river's or region's join is the town's own:
      // Almere (Almere Stad, 25 km), Ansan (Ansan-si, 18 km), Bitterfeld (Bitterfeld-Wolfen).
      ['Amsterdam Almere', 'Almere Stad, Netherlands'],
      ['Gwangmyeong Ansan', 'Ansan-si, South Korea'],
      ['Halle Bitterfeld', 'Bitterfeld-Wolfen, Germany'],
      // After a dash, a district: a village of its name 25 to 30 km off is a namesake.
      ['Frankfurt-Griesheim', 'Frankfurt am Main, Germany'],
      ['München-Moosach', 'München, Germany'],
      ['Mainz-Bretzenheim', 'Mainz, Germany'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // A city so named is meant as much as the town: both, the town first.
    for (const [q, labels] of [
      ['Marseille Aix', ['Marseille, France', 'Aix-en-Provence, France']],
      ['Dallas Fort Worth', ['Dallas, TX, United States', 'Fort Worth, TX, United States']],
      ['Dallas-Fort Worth', ['Dallas, TX, United States', 'Fort Worth, TX, United States']],
    ] as const)
      expect({ q, labels: (await places(q)).map((p) => p.label).slice(0, 2) }).toEqual({ q, labels: [...labels] })
  })

  test("a town's name without the word that joins it to a river's is that name", async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    // "Offenbach Main" is Offenbach am Main, not Offenbach and the town "Main" begins (Maintal).
    for (const [q, label] of [
      ['Offenbach Main', 'Offenbach, Germany'],
      ['Offenbach (Main)', 'Offenbach, Germany'],
      ['Offenbach Queich', 'Offenbach an der Queich, Germany'],
      ['Weil Rhein', 'Weil am Rhein, Germany'],
      ['Newcastle Tyne', 'Newcastle upon Tyne, United Kingdom'],
      ['Boulogne Mer', 'Boulogne-sur-Mer, France'],
      ['Alcala Henares', 'Alcalá de Henares, Spain'],
      // Or with another in its place.
      ['Kingston on Thames', 'Kingston upon Thames, United Kingdom'],
      ['Rothenburg an der Tauber', 'Rothenburg ob der Tauber, Germany'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
  })

  test('a dash between spaces parts a name that is no place from the town after it, as a comma does', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    // A hotel's name before the town: the town, as the geocoder places the address.
    for (const q of ['Hotel Post - Frankfurt Oder', 'Hotel Post – Frankfurt Oder', 'Hotel Post, Frankfurt Oder'])
      expect({ q, first: await first(q) }).toEqual({ q, first: 'Frankfurt (Oder), Germany' })
    // Parted, where no place is named as typed: no town "Müller" or "Edeka" begins, nor one typo off.
    for (const q of ['Müller - Dortmund Hbf', 'Edeka - Kiel Holtenau', 'Bäckerei - Xyz'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
  })

  test('a region\'s name and "State" is the region, alone or ending an address', async () => {
    const labels = async (q: string) => (await places(q)).map((p) => p.label)
    for (const [q, label] of [
      ['Washington State', 'Washington, United States'],
      ['washington state', 'Washington, United States'],
      ['State of Washington', 'Washington, United States'],
      ['New York State', 'New York, United States'],
      ['10 Main Street Washington State', 'Washington, United States'],
      ['10 Main Street, Washington State', 'Washington, United States'],
    ] as const)
      expect({ q, labels: await labels(q) }).toEqual({ q, labels: [label] })
    // Not a town's whole name: State College is a town.
    expect((await labels('State College'))[0]).toBe('State College, PA, United States')
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

  test('an address without a comma: the town that ends it, after the street and number', async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    expect(await first('10 Downing Street London')).toBe('London, United Kingdom')
    expect(await first('Hauptstraße 5 Wien')).toBe('Wien, Austria')
    expect(await first('200 Main Street New York')).toBe('New York City, NY, United States')
    expect(await first('5 Rue de Rivoli Paris')).toBe('Paris, France')
    expect(await first('1600 Pennsylvania Avenue Washington DC')).toBe('Washington, DC, United States')
    // With a region or postal district after the town, or the postcode before it.
    expect(await first('1 Main St Portland OR')).toBe('Portland, OR, United States')
    expect(await first('221B Baker Street London NW1')).toBe('London, United Kingdom')
    expect(await first('5 Avenue Foch 75016 Paris')).toBe('75016 Paris, France')
    // The words after the number name no place whole: nothing, not a town they half spell.
    expect(await places('10 Downing Street Qxlo')).toEqual([])
    expect(await places('Hauptstraße 5')).toEqual([])
  })

  test("an address without a comma: a house number before the town is no postcode, nor a run no place's name", async () => {
    const first = async (q: string) => (await places(q))[0]?.label
    // "700 New York" finds York as typed: the number is read with the town only as a postcode.
    expect(await first('5th Avenue 700 New York')).toBe('New York City, NY, United States')
    expect(await first('Fifth Avenue 700 New York')).toBe('New York City, NY, United States')
    // The words after the number find first a place they do not name whole: nothing.
    expect(await places('Windows 10 Home')).toEqual([]) // Homestead, FL
  })

  test('an address without a comma: one word after a number is a town only after a street', async () => {
    // No street before the number: names of things, not addresses; a word after them is no
    // small town of that name (Ozd, Hungary, is "Center"; Heathrow, FL).
    for (const q of ['Covid 19 Test Center', 'Terminal 5 Heathrow', 'Gate 12 Lübeck'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    // A city of a million people after them is still meant, as is a town of the page's language.
    for (const [q, more, label] of [
      ['Gate 12 Berlin', '', 'Berlin, Germany'],
      ['Apollo 13 Houston', '', 'Houston, TX, United States'],
      ['Gate 12 Lübeck', '&lang=de', 'Lübeck, Deutschland'],
    ] as const)
      expect({ q, first: (await places(q, more))[0]?.label }).toEqual({ q, first: label })
    expect(await places('Terminal 5 Heathrow', '&lang=de')).toEqual([])
    // On an English page, a town of 100,000 people of an English-speaking country (of the
    // page's region where it names one) is likely meant: Boston, not on a German page.
    for (const more of ['', '&lang=en', '&lang=en-US'])
      expect({ more, first: (await places('Route 1 Boston', more))[0]?.label }).toEqual({
        more,
        first: 'Boston, MA, United States',
      })
    expect(await places('Route 1 Boston', '&lang=de')).toEqual([])
    expect(await places('Route 1 Boston', '&lang=en-AU')).toEqual([])
    for (const more of ['&lang=en', '&lang=en-US', '&lang=en-GB'])
      for (const q of ['Covid 19 Test Center', 'Terminal 5 Heathrow'])
        expect({ q, more, labels: (await places(q, more)).map((p) => p.label) }).toEqual({ q, more, labels: [] })
    // A street's word, or a number after a street's name of words: the town.
    const first = async (q: string) => (await places(q))[0]?.label
    expect(await first('Calle Mayor 5 Madrid')).toBe('Madrid, Spain')
    expect(await first('Via Roma 10 Torino')).toBe('Torino, Italy')
    expect(await first('Downing Street 10 London')).toBe('London, United Kingdom')
    expect(await first('Unter den Linden 1 Berlin')).toBe('Berlin, Germany')
    // A unit's, suite's, shop's or floor's number is part of an address: the town after it.
    for (const [q, label] of [
      ['Unit 7 Leeds', 'Leeds, United Kingdom'],
      ['Suite 100 Denver', 'Denver, CO, United States'],
      ['Level 2 Lübeck', 'Lübeck, Germany'],
      ['Shop 3 Sydney', 'Sydney, NSW, Australia'],
      ['Flat 2 London', 'London, United Kingdom'],
      ['Flat 2 Wales', 'Wales, United Kingdom'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // A region's name after a unit or a street is where the address is, whether or not a town
    // is named so too: "Unit 4 Texas" is the state (Texas is a village in Mexico), and so are
    // "Unit 4 Ohio" and "Hauptstraße 5 Bayern", no town's names.
    for (const [q, label] of [
      ['Unit 4 Texas', 'Texas, United States'],
      ['Unit 4, Texas', 'Texas, United States'],
      ['10 Main Street, Texas', 'Texas, United States'],
      ['Unit 4 Ohio', 'Ohio, United States'],
      ['10 Main Street Ohio', 'Ohio, United States'],
      ['Unit 4 Bavaria', 'Bavaria, Germany'],
      ['Hauptstraße 5 Bayern', 'Bayern, Germany'],
      ['Shop 3 Queensland', 'Queensland, Australia'],
      // A town of that name elsewhere, or a small one in its country, is no address's town:
      // Floridablanca, Colombia; Victoria, BC; Ontario, CA; Delaware, OH; Oregon, OH.
      ['Suite 10 Florida', 'Florida, United States'],
      ['10 Main Street Florida', 'Florida, United States'],
      ['Suite 1 Virginia', 'Virginia, United States'],
      ['Unit 4 Victoria', 'Victoria, Australia'],
      ['Unit 5 Ontario', 'Ontario, Canada'],
      ['Unit 1 Delaware', 'Delaware, United States'],
      ['Suite 5 Oregon', 'Oregon, United States'],
      // With a comma too, as an address is read without one.
      ['10 Main Street, Florida', 'Florida, United States'],
      ['Suite 10, Florida', 'Florida, United States'],
      ['10 Main Street, Victoria', 'Victoria, Australia'],
      ['Unit 5, Ontario', 'Ontario, Canada'],
      ['Suite 5, Oregon', 'Oregon, United States'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // The town of 20,000 or more a region shares its name with is still the town, with a comma
    // or without: an address names its town before its region ("..., Washington, DC").
    for (const [q, label] of [
      ['1600 Pennsylvania Avenue, Washington', 'Washington, DC, United States'],
      ['Unit 4, Washington', 'Washington, DC, United States'],
      ['Suite 200 Washington', 'Washington, DC, United States'],
      ['10 Main Street Washington', 'Washington, DC, United States'],
      ['1600 Pennsylvania Avenue Washington', 'Washington, DC, United States'],
      ['Rue de Rivoli 5, Quebec', 'Québec, QC, Canada'],
      ['Calle 5, Mexico', 'Mexico City, Mexico'],
      ['5 Rue X, Luxembourg', 'Luxembourg, Luxembourg'],
      // A country's own town of its name, its capital, with a comma or without.
      ['5 Rue X Luxembourg', 'Luxembourg, Luxembourg'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // A town of a big country that bears its name is no capital: Rivas, Nicaragua, and Aqsay,
    // Kazakhstan, by another name; Mozambique, Mozambique (Ilha de Moçambique) by its own.
    for (const [q, label] of [
      ['Rua 5 Mozambique', 'Mozambique'],
      ['Rua 5, Mozambique', 'Mozambique'],
      ['Calle 5 Nicaragua', 'Nicaragua'],
      ['Calle 5, Nicaragua', 'Nicaragua'],
      ['Ulitsa Abaya 5 Kazakhstan', 'Kazakhstan'],
      ['Ulitsa Abaya 5, Kazakhstan', 'Kazakhstan'],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: label })
    // A word after a unit that names only a village, or a town by another name, is no town
    // meant: "Center" is Ózd, Hungary by another name and Center, TX (5,727), "Centre" Centre, AL.
    for (const q of ['Shop 3 Center', 'Shop 3 Centre', 'Unit 5 Mall', 'Suite 2 Plaza'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
    expect(await first('Calle 5 de Mayo 10 Ciudad de Mexico')).toBe('Ciudad de Mexico, Mexico')
    for (const q of ['Route 66', '7 Eleven', 'Studio 54', 'Area 51', 'Pier 1 Imports'])
      expect({ q, labels: (await places(q)).map((p) => p.label) }).toEqual({ q, labels: [] })
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
})
