// The embedded geocoder on postcodes and districts as addresses write them: after the country's
// vehicle code and a dash ("A-1130 Wien", "D-80331 München"), and a district by its number or,
// in Vienna, its name ("Maxingstraße 13, Wien 13", "Paris 16e", "Wien-Hernals").
import { describe, expect, test } from 'bun:test'
import { distanceKm } from '../../src/geocode/embedded/near'
import { geo, useEmbeddedGeocoder } from './embedded-fixture'

useEmbeddedGeocoder()

/** District offices and town halls. */
const HIETZING = { lat: 48.1878, lng: 16.3004 }
const HERNALS = { lat: 48.2177, lng: 16.3318 }
const HALL_16 = { lat: 48.8637, lng: 2.2765 }
const HALL_15 = { lat: 48.8413, lng: 2.3004 }

describe("a postcode after its country's vehicle code and a dash", () => {
  test('names the country, for each whose postcodes the data has: a code alone is found, in it only', () => {
    for (const [address, country, postcode, city] of [
      ['A-1130', 'AT', '1130', undefined],
      ['A-1130 Wien', 'AT', '1130', 'Wien'],
      ['D-75015', 'DE', '75015', undefined], // Bretten's, not Paris's
      ['D-80331 München', 'DE', '80331', 'München'],
      ['D-60311 Frankfurt am Main', 'DE', '60311', 'Frankfurt am Main'], // a postcode, not a house number
      ['USA-10001 New York', 'US', '10001', 'New York'],
      ['F-75015', 'FR', '75015', undefined],
      ['F-75015 Paris', 'FR', '75015', 'Paris'],
      ['I-20121 Milano', 'IT', '20121', 'Milano'],
      ['I-10121', 'IT', '10121', undefined],
      ['E-28010 Madrid', 'ES', '28010', 'Madrid'],
      ['E-13001', 'ES', '13001', undefined], // Ciudad Real's, not Marseille's
      ['USA-10115', 'US', '10115', undefined], // New York's, not Berlin's
      ['AUS-2000', 'AU', '2000', undefined],
      ['CDN-M5V 2T6', 'CA', 'M5V', undefined],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, country: r?.parts.country, postcode: r?.parts.postcode }).toEqual({
        address,
        country,
        postcode,
      })
      if (city !== undefined) expect(r!.parts.city).toBe(city)
    }
    const bretten = geo.lookup('D-75015')!
    expect(distanceKm(bretten.lat, bretten.lng, 49.0363, 8.7072)).toBeLessThan(5)
    const paris15 = geo.lookup('Rue Péclet 31, F-75015 Paris')!
    expect(distanceKm(paris15.lat, paris15.lng, HALL_15.lat, HALL_15.lng)).toBeLessThan(1)
  })

  test('of a country whose postcodes the data lacks, names the country of the town', () => {
    for (const [address, country] of [
      ['CH-8001 Zürich', 'CH'],
      ['NL-1012 AB Amsterdam', 'NL'],
      ['B-1000 Bruxelles', 'BE'],
      ['L-1111 Luxembourg', 'LU'],
      ['DK-1200 København', 'DK'],
    ] as const)
      expect({ address, country: geo.lookup(address)?.parts.country }).toEqual({ address, country })
    expect(geo.lookup('CH-8001')).toBeNull()
  })

  test('is no country in a flat or suite number, nor where the code has not its shape', () => {
    const r = geo.lookup('200 Main Street, Suite A-100, Springfield, IL 62701')!
    expect(r.parts).toMatchObject({ country: 'US', postcode: '62701' })
    expect(geo.lookup('Flat B-1000, Main Road, Springfield, IL 62701')!.parts.country).toBe('US')
    expect(geo.lookup('D-1130 Wien')!.parts).toMatchObject({ country: 'AT', postcode: '1130' })
  })
})

describe('a district by its number or name', () => {
  test('"Maxingstraße 13, Wien 13" is Hietzing, as "1130 Wien" is, written any common way', () => {
    for (const address of [
      'Maxingstraße 13, Wien 13',
      'Maxingstraße 13, Wien XIII',
      'Maxingstraße 13, 13. Bezirk, Wien',
      'Maxingstraße 13, Wien-Hietzing',
      'Maxingstraße 13, A-1130 Wien',
      'Wien 13',
    ]) {
      const r = geo.lookup(address)!
      expect({ address, parts: r.parts }).toMatchObject({ address, parts: { city: 'Wien', postcode: '1130' } })
      expect(distanceKm(r.lat, r.lng, HIETZING.lat, HIETZING.lng)).toBeLessThan(1)
    }
  })

  test('"Wien-Hernals" is at its office, not the gazetteer\'s point in the Wienerwald', () => {
    for (const address of ['Elterleinplatz 14, Wien-Hernals', 'Wien-Hernals', 'Elterleinplatz 14, 1170 Wien-Hernals']) {
      const r = geo.lookup(address)!
      expect(distanceKm(r.lat, r.lng, HERNALS.lat, HERNALS.lng)).toBeLessThan(0.5)
    }
  })

  test('"Paris 16", "Paris 16e", "Paris XVIe" are at the 16th\'s town hall, not Paris\'s centre', () => {
    for (const address of ['Paris 16', 'Avenue Henri-Martin 71, Paris 16e', '71 avenue Henri-Martin, Paris XVIe']) {
      const r = geo.lookup(address)!
      expect({ address, parts: r.parts }).toMatchObject({ address, parts: { postcode: '75016', country: 'FR' } })
      expect(distanceKm(r.lat, r.lng, HALL_16.lat, HALL_16.lng)).toBeLessThan(1)
    }
    expect(geo.lookup('Paris')!.parts).toEqual({ city: 'Paris', country: 'FR' })
  })

  test('"1011 Wien", a post office box\'s code the data lacks, is Vienna, as before; so is each district\'s', () => {
    expect(geo.lookup('1011 Wien')!.parts).toEqual({ city: 'Vienna', country: 'AT' })
    // 1xx1 beside 1xx0 of each district: the box's code is the city's centre, the district's its own point.
    for (let n = 1; n <= 23; n++) {
      const [box, district] = [`1${String(n).padStart(2, '0')}1`, `1${String(n).padStart(2, '0')}0`]
      expect({ box, parts: geo.lookup(`${box} Wien`)?.parts }).toEqual({
        box,
        parts: { city: 'Vienna', country: 'AT' },
      })
      expect({ district, precision: geo.lookup(`${district} Wien`)?.precision }).toEqual({
        district,
        precision: 'postcode',
      })
    }
  })
})

describe('a postcode before a town of two words or more, without a comma', () => {
  test('is the postcode its town confirms ("10001 New York"), not a house number', () => {
    for (const [address, country, postcode, comma] of [
      ['10001 New York', 'US', '10001', '10001 New York, NY'],
      ['90210 Beverly Hills', 'US', '90210', 'Beverly Hills, CA 90210'],
      ['94103 San Francisco', 'US', '94103', 'San Francisco, CA 94103'],
      ['2000 Sydney NSW', 'AU', '2000', '2000 Sydney, NSW'],
      ['10115 Berlin Mitte', 'DE', '10115', '10115 Berlin'],
      ['34952 Port St Lucie', 'US', '34952', 'Port St Lucie, FL 34952'], // "St" within the town's name
    ] as const) {
      const [r, written] = [geo.lookup(address), geo.lookup(comma)!]
      expect({ address, country: r?.parts.country, postcode: r?.parts.postcode }).toEqual({
        address,
        country,
        postcode,
      })
      // Where the same code and town written with a comma are.
      expect({ address, at: [r!.lat, r!.lng], precision: r!.precision }).toEqual({
        address,
        at: [written.lat, written.lng],
        precision: written.precision,
      })
    }
  })

  test('is still a house number before a street, or beside a town that is not its own', () => {
    for (const [address, city] of [
      ['10001 Main Street New York', 'New York City'],
      ['1250 Broadway New York', 'New York City'],
      ['10019 Avenue of the Americas New York', 'New York City'],
      ['80331 Bad Tölz', 'Bad Tölz'], // München's code
      // A street's short word ends it before the town, though the number is the town's code too.
      ['2000 George St Sydney', 'Sydney'],
      ['3000 Collins St Melbourne', 'Melbourne'],
      ['2000 George Street, Sydney', 'Sydney'],
      ['2/2000 George St Sydney', 'Sydney'], // flat 2 of number 2000
      ['1010-1012 George St Sydney', 'Sydney'],
    ] as const) {
      const parts = geo.lookup(address)?.parts
      expect({ address, city: parts?.city, postcode: parts?.postcode }).toEqual({ address, city, postcode: undefined })
    }
  })

  test("is a house number after a floor's, unit's, suite's, flat's or shop's number, as without it", () => {
    for (const address of [
      'Level 3, 2000 George St Sydney',
      'Level 3 2000 George St Sydney',
      'Floor 2, 2000 George St Sydney',
      'Shop 2/2000 George St Sydney', // shop 2 of number 2000
      'Suite 5, 3000 Collins St Melbourne',
      'Unit 5 120 Oxford St Bondi Junction',
      'Flat 2, 2000 George St Sydney',
      'Flat 2 3000 Collins St Melbourne',
      'Etage 2, 2000 George St Sydney',
      '2. Stock, 2000 George St Sydney',
      '3. OG 3000 Collins St Melbourne',
    ]) {
      const [r, bare] = [
        geo.lookup(address),
        geo.lookup(address.replace(/^.*?(?=\d{3,}|\d\/)/, '').replace(/^\d\//, ''))!,
      ]
      expect({ address, parts: r?.parts, at: r && [r.lat, r.lng] }).toEqual({
        address,
        parts: bare.parts,
        at: [bare.lat, bare.lng],
      })
    }
    // A postcode after the street still places it.
    expect(geo.lookup('Level 3, 2000 George St, Sydney NSW 2000')?.parts.postcode).toBe('2000')
  })

  test("is a town's postcode where the town's name begins with a street word", () => {
    for (const [address, postcode, city] of [
      ['2066 Lane Cove NSW', '2066', 'Lane Cove'],
      ['2440 Crescent Head NSW', '2440', 'Crescent Head'],
      ['95531 Crescent City CA', '95531', 'Crescent City'],
    ] as const) {
      const parts = geo.lookup(address)?.parts
      expect({ address, postcode: parts?.postcode, city: parts?.city }).toEqual({ address, postcode, city })
    }
  })

  test('is a house number where a postcode its town confirms follows', () => {
    for (const [address, postcode] of [
      ['10004 Broadway New York NY 10023', '10023'],
      ['2000 Broadway Sydney NSW 2007', '2007'],
      ['1130 Hietzing Wien 1010', '1010'],
      ['75016 Paris 75001', '75001'],
    ] as const)
      expect({ address, postcode: geo.lookup(address)?.parts.postcode }).toEqual({ address, postcode })
  })
})

describe('a town after a street word, without a comma', () => {
  test('is the town, as with a comma, and the street words the street', () => {
    for (const [address, comma, street] of [
      ['12 Rue de la Paix Paris', '12 Rue de la Paix, Paris', '12 Rue de la Paix'],
      ['5 Via Roma Milano', '5 Via Roma, Milano', '5 Via Roma'],
      ['Via Roma Milano Italia', 'Via Roma, Milano, Italia', 'Via Roma'],
      ['Largo FL', 'Largo, FL', undefined],
      ['33770 Largo FL', '33770 Largo, FL', undefined],
      ['Laan van Meerdervoort 10 Den Haag', 'Laan van Meerdervoort 10, Den Haag', 'Laan van Meerdervoort 10'],
    ] as const) {
      const [r, written] = [geo.lookup(address), geo.lookup(comma)!]
      expect({ address, parts: r?.parts }).toEqual({ address, parts: { ...written.parts, street } })
      expect({ address, at: [r!.lat, r!.lng] }).toEqual({ address, at: [written.lat, written.lng] })
    }
  })

  test('leaves the words of a street its short word ends to the street: they name no town, as with a comma', () => {
    for (const [address, city] of [
      ['120 Oxford St Bondi Junction', 'Bondi Junction'], // not Oxford, England
      ['150 Palm Canyon Dr Palm Springs', 'Palm Springs'], // not Springs, South Africa
      ['12 Bay St Port Melbourne', 'Port Melbourne'], // not Melbourne
      ['40 Acland St St Kilda', 'Saint Kilda'],
      ['40 Beach Rd St Kilda', 'Saint Kilda'],
      ['90210 Rodeo Dr Beverly Hills', 'Beverly Hills'], // not Beverly, MA
      ['33 Park Rd New Plymouth', 'New Plymouth'], // not Plymouth, England
      ['350 Fifth Av New York', 'New York City'], // "Av" ends the street: not York, England
      // A range of numbers, or a flat's and the house's, is a house number too.
      ['12-14 Oxford St Bondi Junction', 'Bondi Junction'],
      ['5/120 Oxford St Bondi Junction', 'Bondi Junction'],
      // After a flat's or shop's part, as a part of its own.
      ['Unit 5, 120 Oxford St Bondi Junction', 'Bondi Junction'],
      ['Shop 2, 12 Bay St Port Melbourne', 'Port Melbourne'],
      // With no house number, a name before the short word.
      ['Oxford St Bondi Junction', 'Bondi Junction'],
      ['Acland St St Kilda', 'Saint Kilda'], // not Sète
      ['Palm Canyon Dr Palm Springs', 'Palm Springs'],
      ['Bay St Port Melbourne', 'Port Melbourne'],
    ] as const) {
      const [r, written] = [geo.lookup(address), geo.lookup(address.replace(/ (St|Rd|Dr|Av) /, ' $1, '))!]
      expect({ address, city: r?.parts.city, region: r?.parts.region, at: r && [r.lat, r.lng] }).toEqual({
        address,
        city,
        region: written.parts.region,
        at: [written.lat, written.lng],
      })
    }
  })

  test('is no word of a town whose name holds it', () => {
    for (const [address, city] of [
      ['Port St Lucie', 'Port Saint Lucie'],
      ['Port St Lucie FL', 'Port Saint Lucie'],
      ['East St Louis IL', 'East Saint Louis'],
      ['Bay St Louis MS', 'Bay Saint Louis'],
      ['Fort St John BC', 'Fort St. John'],
      ['St Albans', 'St Albans'],
      ['St. Louis', 'St. Louis'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test("is no street's end, with no house number, where it begins a town's name after a street", () => {
    for (const [address, city] of [
      ['Marktgasse St Gallen', 'Sankt Gallen'],
      ['Kirchgasse St. Gallen', 'Sankt Gallen'],
      ['Downtown St Louis', 'St. Louis'], // not Louisville
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('is no town alone, after a house number: "Hauptstr. 5 St. Pölten" is in St. Pölten, not Sète ("St")', () => {
    for (const address of [
      'Hauptstr. 5 St. Pölten',
      'Hauptstr 5 St Pölten',
      'Kremser Gasse 5 St. Pölten',
      'Hauptstr. 5, St. Pölten',
    ])
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city: 'Sankt Pölten' })
  })

  test("is no street's own name or word: those still name no town", () => {
    for (const address of ['5 Via Roma', 'Piazza del Duomo', '200 Main Street', 'Florida US'])
      expect({ address, r: geo.lookup(address) }).toEqual({ address, r: null })
  })
})

describe("a region's code after a town of two words, without a comma", () => {
  test('is the region: the town is the two words, as with a comma, not its bigger namesake of one', () => {
    for (const [address, comma] of [
      ['North Sydney NSW', 'North Sydney, NSW'], // not Sydney
      ['South Melbourne VIC', 'South Melbourne, VIC'],
      ['Port Melbourne VIC', 'Port Melbourne, VIC'],
      ['Bondi Junction NSW', 'Bondi Junction, NSW'], // not Bondi
      ['West Hollywood CA', 'West Hollywood, CA'], // not Hollywood
      ['120 Oxford Street Bondi Junction NSW', '120 Oxford Street, Bondi Junction, NSW'],
    ] as const) {
      const [r, written] = [geo.lookup(address), geo.lookup(comma)!]
      expect({ address, city: r?.parts.city, at: r && [r.lat, r.lng] }).toEqual({
        address,
        city: written.parts.city,
        at: [written.lat, written.lng],
      })
    }
  })
})

describe('"St." first in a town\'s name', () => {
  test('is "Sankt" or "Saint" where the data writes the name out: "St. Wendel" is no Stiring-Wendel', () => {
    for (const [address, city] of [
      ['St. Wendel', 'Sankt Wendel'],
      ['Hauptstr. 1, St. Wendel', 'Sankt Wendel'],
      ['St. Augustin', 'Sankt Augustin'], // not Tata, Hungary
      ['Bahnhofstr. 3 St. Ingbert', 'Sankt Ingbert'], // found nothing
      ['St. Johann in Tirol', 'Sankt Johann in Tirol'],
      ['St. Louis', 'St. Louis'], // a name as written comes first
      ['St Albans', 'St Albans'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('within a name too, where the name as written finds none: "Mont-St-Aignan" is no Mons', () => {
    for (const [address, city] of [
      ['Mont-St-Aignan', 'Mont-Saint-Aignan'], // Mons, Belgium
      ['Bourg-St-Maurice', 'Bourg-Saint-Maurice'], // Bourg-en-Bresse
      ['Pont-Ste-Maxence', 'Pont-Sainte-Maxence'], // found nothing
      ['Lake St. Louis', 'Lake Saint Louis'], // St. Louis
      ['1 Rue de Paris, Mont-St-Aignan', 'Mont-Saint-Aignan'],
      ['East St. Louis', 'East Saint Louis'], // as the data writes it
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('"Ft." and "Mt." are "Fort" and "Mount" as "St." is "Saint": "Ft St John" is no Saint John, NB', () => {
    for (const [address, city] of [
      ['Ft St John', 'Fort St. John'], // Saint John, NB
      ['Ft. St. John, BC', 'Fort St. John'],
      ['100 Main St, Ft St John', 'Fort St. John'],
      ['Mt Vernon', 'Mount Vernon'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('"Ft." or "Mt." alone is the most populous town so named written out: "Mt Vernon" is in New York', () => {
    // The data has "Mt. Vernon" only as Mount Vernon, IL's other name: no sign that town is meant.
    for (const [address, city, region] of [
      ['Mt Vernon', 'Mount Vernon', 'NY'],
      ['Mt. Vernon', 'Mount Vernon', 'NY'],
      ['Mt Pleasant', 'Mount Pleasant', 'SC'],
      ['Ft Myers', 'Fort Myers', 'FL'],
      ['St Charles', 'Saint Charles', 'MO'],
      ['Springfield', 'Springfield', 'MO'],
      ['Mt Vernon IL', 'Mount Vernon', 'IL'],
    ] as const) {
      const p = geo.lookup(address)?.parts
      expect({ address, city: p?.city, region: p?.region }).toEqual({ address, city, region })
    }
  })

  test('a town\'s own name written short weighs as its name: "St. Charles" is in Missouri, "St. Helier" Jersey', () => {
    for (const [address, city, region, country] of [
      ['St. Charles', 'Saint Charles', 'MO', 'US'], // St. Charles, MD, by its main name
      ['St Charles', 'Saint Charles', 'MO', 'US'],
      ['St. Helier', 'Saint Helier', undefined, 'JE'], // St. Helier, a part of Sutton, London
      ['St Helier, Jersey', 'Saint Helier', undefined, 'JE'],
      ['St. Charles, IL', 'St. Charles', 'IL', 'US'], // a region named still narrows
      ['St Helier, London', 'St. Helier', undefined, 'GB'],
    ] as const) {
      const p = geo.lookup(address)?.parts
      expect({ address, city: p?.city, region: p?.region, country: p?.country }).toEqual({
        address,
        city,
        region,
        country,
      })
    }
  })

  test('confirms a postcode as the town written out does: "83700 St-Raphaël" is Saint-Raphaël, France', () => {
    for (const [address, postcode, city] of [
      ['Rue Jean Aicard, 83700 St-Raphaël', '83700', 'Saint-Raphaël'], // refused: Saint-Raphaël, Haiti
      ['83700 St Raphael', '83700', 'Saint-Raphaël'],
      ['93200 St Denis', '93200', 'Saint-Denis'], // not Saint-Denis, Réunion
      ['F-93200 St-Denis', '93200', 'Saint-Denis'],
      ['66606 St. Wendel', '66606', 'Sankt Wendel'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, postcode: r?.parts.postcode }).toEqual({ address, city, postcode })
    }
  })
})

describe('"St.", "Ft." and "Mt." in a name, written short or out', () => {
  test('is the name written out in that region: "Ft Lee NJ" is Fort Lee, NJ, not the "Ft Lee" of Virginia', () => {
    for (const [address, city, region] of [
      ['Ft Lee NJ', 'Fort Lee', 'NJ'], // Fort Lee, VA, whose other name is "Ft Lee"
      ['Ft Lee, NJ', 'Fort Lee', 'NJ'],
      ['Mt Vernon WA', 'Mount Vernon', 'WA'], // Mount Vernon, IL, by its other name
      ['Mt Vernon, OH', 'Mount Vernon', 'OH'], // refused
      ['Mt Vernon IL', 'Mount Vernon', 'IL'],
      ['St Ives NSW', 'Saint Ives', 'NSW'], // St Ives, Cornwall
      ['Ft Worth TX', 'Fort Worth', 'TX'],
    ] as const) {
      const p = geo.lookup(address)?.parts
      expect({ address, city: p?.city, region: p?.region }).toEqual({ address, city, region })
    }
    // Alone, a name as written still comes first.
    expect(geo.lookup('St Ives')?.parts.country).toBe('GB')
  })

  test('is no town of another region where that region has none so named: refused', () => {
    // The data has no St Marys in New South Wales: not St. Marys, Georgia.
    expect(geo.lookup('St Marys NSW')).toBeNull()
  })

  test('a short word is part of the name: "Mt St Helens" is not St Helens, "Mont-St-Michel" not Mons', () => {
    // The data has neither Mount St. Helens nor Le Mont-Saint-Michel: no shorter name stands in.
    expect(geo.lookup('Mt St Helens')).toBeNull()
    expect(geo.lookup('Mount St Helens')).toBeNull()
    expect(geo.lookup('Mont-St-Michel')).toBeNull()
    expect(geo.lookup('Mont-St-Aignan')?.parts.city).toBe('Mont-Saint-Aignan')
  })

  test('after a town\'s dash and before a space, "St." begins its district: "Hamburg-St. Pauli" is St. Pauli', () => {
    for (const [address, city] of [
      ['Hamburg-St. Pauli', 'St. Pauli'],
      ['Hamburg-St. Georg', 'St. Georg'],
      ['Reeperbahn 1, 20359 Hamburg-St. Pauli', 'St. Pauli'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('a town and its district beside a space, as the place search reads them: "Hamburg St Pauli"', () => {
    for (const [address, city] of [
      ['Hamburg St Pauli', 'St. Pauli'],
      ['Hamburg St. Pauli', 'St. Pauli'],
      ['Reeperbahn 1, Hamburg St Pauli', 'St. Pauli'],
      ['Reeperbahn 1 Hamburg St Pauli', 'St. Pauli'],
      ['Landsberger Str. 500, München Pasing', 'Pasing'],
      // A region's name after the town narrows it; a district 23 km off is no district.
      ['Brooklyn New York', 'Brooklyn'],
      ['Stuttgart Vaihingen', 'Stuttgart'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
  })

  test('a town\'s own name written out is no old name of a bigger town: "Saint Charles" is in Missouri, not Denver', () => {
    const p = geo.lookup('Saint Charles')?.parts
    expect({ city: p?.city, region: p?.region }).toEqual({ city: 'Saint Charles', region: 'MO' })
    expect(geo.lookup('Saint Charles, IL')?.parts.city).toBe('St. Charles')
  })
})

describe('a name several towns of note bear as another, old name', () => {
  test('is not theirs, before the towns whose own name it is: "King St, Newtown" is no Tallahassee', () => {
    // Tallahassee, Hartford, Macon and others were once "Newtown": read so, it is no town's.
    expect(geo.lookup('King St, Newtown NSW')?.parts).toEqual({
      street: 'King St',
      city: 'Newtown',
      region: 'NSW',
      country: 'AU',
    })
    expect(geo.lookup('Newtown, Powys')?.parts.country).toBe('GB')
    // Without the state, Newtown in Sydney and in Wales are near alike: refused, as "Barcelona" is.
    expect(geo.lookup('King St, Newtown')).toBeNull()
    // An exonym one big town bears stays its: "Cologne" is Köln, "Londres" London.
    expect(geo.lookup('Cologne')?.parts.city).toBe('Köln')
    expect(geo.lookup('Londres')?.parts.city).toBe('London')
    // A town's own name cut short is its own, though other towns once bore it: Santa Cruz de la
    // Sierra is "Santa Cruz" today, Agadir was.
    expect(geo.lookup('Av. Cristo Redentor, Santa Cruz')?.parts.city).toBe('Santa Cruz de la Sierra')
  })
})

describe('a town of five words or six', () => {
  test('is found by its whole name, not by its first words: "Las Palmas de Gran Canaria" is no Palmas, Brazil', () => {
    for (const [address, city, country] of [
      ['Las Palmas de Gran Canaria', 'Las Palmas de Gran Canaria', 'ES'], // Palmas, Brazil
      ['Calle Triana 1, Las Palmas de Gran Canaria', 'Las Palmas de Gran Canaria', 'ES'],
      ['Santa Cruz de la Sierra', 'Santa Cruz de la Sierra', 'BO'], // "Santa Cruz" is many towns' other name
      ['San Cristóbal de las Casas', 'San Cristóbal de las Casas', 'MX'], // found nothing
      ['San Sebastián de los Reyes', 'San Sebastián de los Reyes', 'ES'], // Donostia / San Sebastián
      ['Sant Andreu de la Barca', 'Sant Andreu de la Barca', 'ES'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })
})
