// The embedded geocoder on the small words of towns' names: the words that join a town's name to
// a river's or region's, left out or written otherwise ("Stratford Avon", "Kingston on Thames");
// "of", "the" and their like, which name no place alone between a name's words ("State of Ohio");
// and two cities side by side, neither the other's district ("Marseille Aix").
import { describe, expect, test } from 'bun:test'
import { geo, useEmbeddedGeocoder } from './embedded-fixture'

useEmbeddedGeocoder()

const city = (address: string) => {
  const r = geo.lookup(address)
  return { address, city: r?.parts.city ?? null, country: r?.parts.country ?? null }
}

describe("a town's name with its joining word", () => {
  test('left out, or another in its place, is that name', () => {
    for (const [address, name, country] of [
      ['Stratford Avon', 'Stratford-upon-Avon', 'GB'],
      ['10 High St, Stratford Avon', 'Stratford-upon-Avon', 'GB'],
      ['Newcastle Tyne', 'Newcastle upon Tyne', 'GB'],
      ['Kingston Thames', 'Kingston upon Thames', 'GB'],
      ['Kingston on Thames', 'Kingston upon Thames', 'GB'],
      ['Rothenburg Tauber', 'Rothenburg ob der Tauber', 'DE'],
      ['Rothenburg an der Tauber', 'Rothenburg ob der Tauber', 'DE'],
      ['Alcala Henares', 'Alcalá de Henares', 'ES'],
      ['Las Palmas Gran Canaria', 'Las Palmas de Gran Canaria', 'ES'],
      // Dutch "op" and "bij", English "under": not Bergen, Norway.
      ['Bergen Zoom', 'Bergen op Zoom', 'NL'],
      ['Markt 1, Bergen Zoom', 'Bergen op Zoom', 'NL'],
      ['Wijk Duurstede', 'Wijk bij Duurstede', 'NL'],
      ['Newcastle Lyme', 'Newcastle under Lyme', 'GB'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
  })

  test('written as the data has it, dashed or not, is still that name', () => {
    for (const [address, name] of [
      ['Stratford upon Avon', 'Stratford-upon-Avon'],
      ['Frankfurt am Main', 'Frankfurt am Main'],
      ['Newcastle upon Tyne', 'Newcastle upon Tyne'],
      ['Kingston upon Thames', 'Kingston upon Thames'],
      ['Rothenburg ob der Tauber', 'Rothenburg ob der Tauber'],
      ['Bourg-en-Bresse', 'Bourg-en-Bresse'],
      ['Bourg en Bresse', 'Bourg-en-Bresse'],
    ] as const)
      expect(city(address).city).toBe(name)
  })

  test("left out beside a slash or a space, its last word a street's, is still that name", () => {
    // Not refused for the many Neustadts: "Weinstraße" is the town's, no street's.
    for (const address of [
      'Neustadt/Weinstraße',
      'Neustadt Weinstraße',
      'Hauptstr. 5, Neustadt/Weinstraße',
      // Nor is the town's whole name a street before a code that is also a state's.
      'Neustadt an der Weinstraße, DE',
      'Neustadt/Weinstraße, DE',
    ])
      expect(geo.lookup(address)).toMatchObject({ lat: 49.35009, parts: { city: 'Neustadt', country: 'DE' } })
  })

  test('left out beside a slash between spaces, is that name as beside a slash alone', () => {
    // Not Frankfurt am Main, 440 km off, nor refused: the slash is no word of its own.
    for (const [address, name, country] of [
      ['Frankfurt / Oder', 'Frankfurt (Oder)', 'DE'],
      ['Halle / Saale', 'Halle (Saale)', 'DE'],
      ['Neustadt / Weinstraße', 'Neustadt', 'DE'],
      ['Rothenburg / Tauber', 'Rothenburg ob der Tauber', 'DE'],
      ['Kingston / Thames', 'Kingston upon Thames', 'GB'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
  })

  test('left out beside a dash between spaces, is that name; two towns are refused', () => {
    // Not Frankfurt am Main, 440 km off: the words beside the dash name a town without it.
    for (const [address, name, country] of [
      ['Frankfurt - Oder', 'Frankfurt (Oder)', 'DE'],
      ['Frankfurt – Oder', 'Frankfurt (Oder)', 'DE'],
      ['Hauptstr. 5, Frankfurt - Oder', 'Frankfurt (Oder)', 'DE'],
      ['Halle - Saale', 'Halle (Saale)', 'DE'],
      // A dash after another: the words back to that one.
      ['Hotel Post - Frankfurt - Oder', 'Frankfurt (Oder)', 'DE'],
      ['Lauf – Pegnitz', 'Lauf an der Pegnitz', 'DE'],
      ['Burton – Trent', 'Burton upon Trent', 'GB'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
    // "Mesa Rancho" (Mesa del Rancho) begins inside a town's name: no place is read across the
    // dash. Two towns, neither the other's district, are neither guessed: Leipzig (a city) lies
    // 35 km from Halle.
    for (const address of ['Costa Mesa - Rancho Cucamonga', 'Halle – Saale - Leipzig'])
      expect(geo.lookup(address)).toBeNull()
    // Frankfurt (Oder), 80 km off, is no city of 100,000 beside Berlin, as after a space; not
    // Frankfurt am Main, named by a word of it.
    expect(city('Berlin - Frankfurt - Oder')).toEqual({
      address: 'Berlin - Frankfurt - Oder',
      city: 'Berlin',
      country: 'DE',
    })
    expect(city('Berlin Frankfurt Oder').city).toBe('Berlin')
  })

  test("left out after a spaced dash and a name that is no place's, is that name, as after a comma", () => {
    // A hotel's name before the town: not Frankfurt am Main, read from "Frankfurt" alone.
    for (const address of [
      'Hotel Post - Frankfurt Oder',
      'Hotel Post – Frankfurt Oder',
      'Hotel Post, Frankfurt Oder',
      'Hauptstr. 5, Hotel Post - Frankfurt Oder',
    ])
      expect(city(address)).toEqual({ address, city: 'Frankfurt (Oder)', country: 'DE' })
  })
})

describe('a town "bei" (near) another', () => {
  test('is the town first named, the other narrowing it, as a comma parts them', () => {
    for (const address of [
      'Norderstedt bei Hamburg',
      'Norderstedt b. Hamburg',
      'Rathausallee 5, Norderstedt bei Hamburg',
      'Norderstedt bei Hamburg, Germany',
      // "bei" cut short without its dot; a street and its number before the town, with no comma.
      'Norderstedt b Hamburg',
      'Rathausallee 5 Norderstedt bei Hamburg',
      'Rathausallee 5 22846 Norderstedt bei Hamburg',
    ])
      expect(city(address)).toEqual({ address, city: 'Norderstedt', country: 'DE' })
    expect(city('Halle bei Leipzig')).toEqual({ address: 'Halle bei Leipzig', city: 'Halle (Saale)', country: 'DE' })
    // A place whose whole name holds "bei" is that place, "bei" cut short or not.
    for (const address of ['Neustadt bei Coburg', 'Neustadt b. Coburg', 'Neustadt b Coburg', 'Neustadt B. Coburg'])
      expect(city(address)).toEqual({ address, city: 'Neustadt bei Coburg', country: 'DE' })
    // A town near one no place is alone ("Coburg" is in Australia too) is the town.
    for (const address of ['Rödental b. Coburg', 'Rödental b Coburg', 'Rödental bei Coburg'])
      expect(city(address)).toEqual({ address, city: 'Rödental', country: 'DE' })
    expect(geo.lookup('Kleinkleckersdorf b. Coburg')).toBeNull()
    // A town the data lacks near a city is that city: the nearest the text tells.
    expect(city('Kleinkleckersdorf bei Hamburg')).toMatchObject({ city: 'Hamburg' })
    // "Bei" opening a part begins a street's or a spot's name ("Bei der Kirche"): no town.
    expect(geo.lookup('Bei Hamburg')).toBeNull()
  })
})

describe('"of", "the" and their like', () => {
  test("opening a part capitalised, one that is a city's own name is that city; the word after one binds to it", () => {
    // Van, Turkey (370,000), narrowed to its Edremit, not the bigger Edremit of Balıkesir, 1,400 km off.
    expect(geo.lookup('Van Edremit')).toMatchObject({
      lat: expect.closeTo(38.42, 2),
      parts: { city: 'Edremit', country: 'TR' },
    })
    expect(city('Van Nuys')).toEqual({ address: 'Van Nuys', city: 'Van Nuys', country: 'US' })
    expect(city('Laan van Meerdervoort 10 Den Haag')).toMatchObject({ country: 'NL' })
    // "Palmas" after "Las" is no Palmas, Brazil: Las Palmas and Telde, as beside a spaced dash.
    for (const address of ['Las Palmas-Telde', 'Las Palmas - Telde'])
      expect(city(address)).toEqual({ address, city: 'Telde', country: 'ES' })
  })

  test('between the words of a name are no place alone, nor is the word before "of"', () => {
    // "Ohio" alone names a state, no town: so does "State of Ohio" (not Of, Turkey).
    expect(geo.lookup('Ohio')).toBeNull()
    expect(geo.lookup('State of Ohio')).toBeNull()
    // Not Bay, Philippines.
    expect(city('Bay of Plenty').country).not.toBe('PH')
    // Not Leh, India, by its other name "Le".
    expect(city('Circuit de la Sarthe Le Mans')).toEqual({
      address: 'Circuit de la Sarthe Le Mans',
      city: 'Le Mans',
      country: 'FR',
    })
  })

  test('opening a part, with the word after them, are a street\'s: "Am Ende" names no town', () => {
    for (const address of ['Am Ende', 'Im Winkel', 'An der Alster', 'Am Mellensee'])
      expect(city(address).city).toBeNull()
    expect(city('Am Markt 5, Bremen').city).toBe('Bremen')
  })

  test("a region's or a street's word inside a town's whole name is the town's", () => {
    // Limburg is a province of Belgium and of the Netherlands; "Weinstraße" a street's word.
    for (const [address, name, country] of [
      ['Limburg an der Lahn', 'Limburg an der Lahn', 'DE'],
      ['Neustadt an der Weinstraße', 'Neustadt', 'DE'],
      ['Hauptstraße 1, Neustadt an der Weinstraße', 'Neustadt', 'DE'],
      // A region's code ending a place's name still narrows it.
      ['1600 Pennsylvania Avenue Washington DC', 'Washington', 'US'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
    // A street's name is no town's of a few people: Park Avenue, Queensland.
    expect(city('Park Avenue').city).toBeNull()
  })

  test("alone, or as a place's whole name, are still that place", () => {
    expect(city('Of')).toEqual({ address: 'Of', city: 'Of', country: 'TR' })
    expect(city('The Hague').city).toBe('The Hague')
    expect(city('City of London').city).toBe('City of London')
  })

  test('a country\'s name after "of" ends a longer name: "Port of Spain" is in Trinidad', () => {
    expect(city('Port of Spain')).toEqual({ address: 'Port of Spain', city: 'Port of Spain', country: 'TT' })
    expect(city('Douglas, Isle of Man').city).toBe('Douglas')
  })
})

describe('two towns side by side', () => {
  test('a city beside a town, none its district, is neither guessed', () => {
    // Aix-en-Provence is 25 km from Marseille, and named cut short: no district of it.
    for (const address of ['Marseille Aix', 'Aix Marseille', 'Dallas Fort Worth']) expect(city(address).city).toBeNull()
  })

  test('beside a dash as beside a space', () => {
    // Caracas (3 million people) lies 57 km from La Victoria: too far for its district.
    for (const address of ['Dallas-Fort Worth', 'Raleigh-Durham', 'La Victoria-Caracas'])
      expect(city(address).city).toBeNull()
  })

  test('beside a dash between spaces as beside a dash alone', () => {
    // Neither the town the more words name (La Victoria) nor the heavier (Fort Worth); Bishoftu
    // lies 45 km from Addis Ababa. Bonn, 24 km from Köln, is its district.
    for (const address of [
      'La Victoria - Caracas',
      'Dallas - Fort Worth',
      'Dallas – Fort Worth',
      'Addis Ababa - Bishoftu',
      'Taboão da Serra - Várzea Paulista',
      // Once refused, not read again with "Norfolk" as Norfolk Island, the country, and so as
      // Newport, Wales: Norfolk, Virginia, lies 31 km from Newport News.
      'Newport News - Norfolk',
    ])
      expect(city(address)).toEqual({ address, city: null, country: null })
    expect(city('Köln - Bonn')).toEqual({ address: 'Köln - Bonn', city: 'Bonn', country: 'DE' })
    expect(city('Hamburg - St. Pauli')).toEqual({ address: 'Hamburg - St. Pauli', city: 'St. Pauli', country: 'DE' })
    // Miami Gardens lies 12 km from Hollywood, Florida: its district, not Miami (27 km), named by
    // a word of it.
    for (const address of ['Hollywood - Miami Gardens', 'Hollywood-Miami Gardens'])
      expect(city(address)).toEqual({ address, city: 'Miami Gardens', country: 'US' })
    // Not Mons ("Mon" is one of its names): "Fri" is only a Greek hamlet's other name.
    for (const address of ['Mon - Fri', 'Mon - Fri: 9:00am - 5:00pm']) expect(geo.lookup(address)).toBeNull()
  })

  test('a district before a dash between spaces, no town near the city after it, is that city', () => {
    // Not Bondy, France ("Bondi" is one of its names), nor refused as Pinheiro, Maranhão (2,000
    // km off) and São Paulo: the place before the dash is a district the data has no town for.
    for (const [address, name, country] of [
      ['Pinheiros - São Paulo', 'São Paulo', 'BR'],
      ['Miraflores - Lima', 'Lima', 'PE'],
      ['Bondi - Sydney', 'Sydney', 'AU'],
      ['Bondi – Sydney', 'Sydney', 'AU'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
  })

  test('a town before a dash is of the country where the words after it name a town', () => {
    // Not Lincoln, Nebraska, Saint Petersburg ("Petrópolis" is one of its names), Hyderabad,
    // India, nor Mérida, Mexico: the namesake beside the other town, too far for its district.
    for (const address of [
      'Lincoln-Kingston upon Hull',
      'Lincoln - Kingston upon Hull',
      'Petrópolis - Duque de Caxias',
      'Petrópolis - Nova Iguaçu',
      'Hyderabad - Tando Allahyar',
      'Mérida – El Vigía',
      'Esmeraldas-Santa Luzia',
      'Worcester – Sutton Coldfield',
    ])
      expect(city(address)).toEqual({ address, city: null, country: null })
    // "Stoney Creek" is only another name of a village in Wisconsin: Hamilton, Ontario, stays.
    expect(city('Hamilton-Stoney Creek')).toEqual({ address: 'Hamilton-Stoney Creek', city: 'Hamilton', country: 'CA' })
  })

  test("a town of several words before a dash is that town, not its last word's", () => {
    // Not San (Mali), York (England) nor Angeles City (Philippines): the town, read as beside a
    // space, its district after it (Oakland, 13 km off) or a city too far for one (Long Beach).
    for (const [address, name, country] of [
      ['San Francisco-Oakland', 'Oakland', 'US'],
      ['New York-Newark', 'Newark', 'US'],
      ['Los Angeles-Long Beach', null, null],
      ['Frankfurt am Main-Höchst', 'Frankfurt am Main', 'DE'],
    ] as const) {
      expect(city(address)).toEqual({ address, city: name, country })
      const spaced = address.replace('-', ' ')
      expect(city(spaced)).toEqual({ address: spaced, city: name, country })
    }
  })

  test("a word of the place's name beside a town's dash is no town alone", () => {
    // Not Paulista, Pernambuco, nor Santa Cruz, Bolivia: Várzea Paulista (111,000 people) lies
    // 46 km from Taboão da Serra, a city too far for its district, so neither is guessed.
    // Pulong Santa Cruz lies 45 km from Lipa City: two towns, as the dash between spaces reads.
    for (const address of [
      'Taboão da Serra-Várzea Paulista',
      'Embu-Várzea Paulista',
      'Brandon-St. Petersburg',
      'Lipa City – Pulong Santa Cruz',
    ])
      expect(city(address).city).toBeNull()
    // Nor before it: not Rio de Janeiro, San Jose, California, nor Vinh, 700 km off; nor Santo
    // Domingo, nor Cairo, each a city too far for the other's district.
    for (const address of [
      'Rio Claro-Paulínia',
      'San Jose del Monte-Biñan',
      'Vĩnh Long-Thốt Nốt',
      'Santo Domingo Este – San Pedro de Macorís',
      'Cairo - Madīnat Sittah Uktūbar',
    ])
      expect(city(address).city).toBeNull()
  })

  test("a town's district lies as far off as the place search reads one", () => {
    // Bonn is 24 km from Köln, Potsdam 27 km from Berlin: the district, as /places shows it.
    for (const [address, name, country] of [
      ['Köln Bonn', 'Bonn', 'DE'],
      ['Köln-Bonn', 'Bonn', 'DE'],
      ['Berlin Potsdam', 'Potsdam', 'DE'],
      ['Potsdam Berlin', 'Berlin', 'DE'],
      ['London Kingston', 'Kingston upon Thames', 'GB'],
      // A town with its district beside it, before a heavier namesake of the district far off.
      ['Tampa St Petersburg', 'St. Petersburg', 'US'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
  })

  test('tells a town from its namesake abroad as big', () => {
    // Cambridge, Richmond and Saint-Denis have namesakes abroad nearly as big; the district after
    // them is of one country only, as /places shows it.
    for (const [address, name, country] of [
      ['Cambridge Boston', 'Boston', 'US'],
      ['Richmond London', 'London', 'GB'],
      ['Saint-Denis Paris', 'Paris', 'FR'],
    ] as const)
      expect(city(address)).toEqual({ address, city: name, country })
    // Newcastle, NSW, has a Gateshead too, 3,231 people to England's 77,649: either is meant.
    for (const address of ['Cambridge', 'Newcastle-Gateshead']) expect(city(address).city).toBeNull()
  })

  test("a district, or a small town named cut short, is the town's or its district's", () => {
    for (const [address, name] of [
      ['Stuttgart Vaihingen', 'Stuttgart'],
      ['Brooklyn New York', 'Brooklyn'],
      ['Frankfurt Main', 'Frankfurt am Main'],
    ] as const)
      expect(city(address).city).toBe(name)
  })

  test('after a dash, a small namesake of the district beyond 15 km is not it', () => {
    // Griesheim near Darmstadt is 29 km from Frankfurt, Moosach (Ebersberg) 25 km from Munich,
    // Bretzenheim (Nahe) 30 km from Mainz: the districts so named are ones the data lacks.
    for (const [address, name] of [
      ['Frankfurt-Griesheim', 'Frankfurt am Main'],
      ['München-Moosach', 'Munich'],
      ['Mainz-Bretzenheim', 'Mainz'],
      ['Köln-Bonn', 'Bonn'],
    ] as const)
      expect(city(address).city).toBe(name)
  })
})
