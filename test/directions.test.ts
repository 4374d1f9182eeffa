// The directions links of a point the geocoder placed only at its town: the address text a maps
// service searches for names its town, region and country, and the town's point goes along as a
// hint where the service takes one. A store's own point is sent as it is.
import { expect, test } from 'bun:test'
import { addressText, directionsUrl } from '../src/core/directions'

const SPRINGFIELD = {
  coordinates: { lat: 39.7817, lng: -89.6501, approximate: true },
  address: { formatted: '12 Main Street, Springfield', city: 'Springfield', region: 'Illinois', country: 'US' },
}

test("a bare street and town: the region and country the geocoder read go after it, each service's way", () => {
  const to = '12%20Main%20Street%2C%20Springfield%2C%20Illinois%2C%20United%20States'
  expect(directionsUrl('google', SPRINGFIELD)).toBe(`https://www.google.com/maps/dir/?api=1&destination=${to}`)
  expect(directionsUrl('apple', SPRINGFIELD)).toBe(`https://maps.apple.com/?daddr=${to}&sll=39.7817%2C-89.6501`)
  expect(directionsUrl('osm', SPRINGFIELD)).toBe(
    `https://www.openstreetmap.org/directions?to=${to}#map=12/39.7817/-89.6501`,
  )
})

test('a part the text already holds is not said twice, nor a country it names in a language shipped or short', () => {
  const parts = { postcode: '10435', city: 'Berlin', country: 'DE' }
  expect(addressText({ formatted: 'Kastanienallee 7, 10435 Berlin', ...parts })).toBe(
    'Kastanienallee 7, 10435 Berlin, Germany',
  )
  expect(addressText({ formatted: 'Kastanienallee 7, 10435 Berlin, Deutschland', ...parts })).toBe(
    'Kastanienallee 7, 10435 Berlin, Deutschland',
  )
  expect(addressText({ formatted: '1 Quay St, Newport, Wales', city: 'Newport', country: 'GB' })).toBe(
    '1 Quay St, Newport, Wales',
  )
  expect(addressText({ formatted: '1 Bellevue Ave, Newport, RI, USA', city: 'Newport', country: 'US' })).toBe(
    '1 Bellevue Ave, Newport, RI, USA',
  )
  // A word of another ("Hof" in "Bahnhofstraße") is not the part.
  expect(addressText({ formatted: 'Bahnhofstraße 3', city: 'Hof', country: 'DE' })).toBe(
    'Bahnhofstraße 3, Hof, Germany',
  )
})

test('a country code counts only as codes are written, in capitals: not "Ch." (chemin), "in", "at"', () => {
  expect(
    addressText({ formatted: 'Ch. des Mines 9, 1202 Genève', postcode: '1202', city: 'Genève', country: 'CH' }),
  ).toBe('Ch. des Mines 9, 1202 Genève, Switzerland')
  expect(addressText({ formatted: 'Shop 4 in Phoenix Mall, Pune', city: 'Pune', country: 'IN' })).toBe(
    'Shop 4 in Phoenix Mall, Pune, India',
  )
  expect(addressText({ formatted: 'Kiosk at Hauptplatz, Graz', city: 'Graz', country: 'AT' })).toBe(
    'Kiosk at Hauptplatz, Graz, Austria',
  )
  expect(addressText({ formatted: 'Rue du Rhône 1, CH-1204 Genève', city: 'Genève', country: 'CH' })).toBe(
    'Rue du Rhône 1, CH-1204 Genève',
  )
  expect(addressText({ formatted: 'Hauptplatz 1, Linz, AT', city: 'Linz', country: 'AT' })).toBe(
    'Hauptplatz 1, Linz, AT',
  )
})

test('a region given as a code ("IN", "ME") is said only by that code in capitals, not the word "in"', () => {
  expect(
    addressText({
      formatted: 'Shop 3 in Castleton Mall, Indianapolis',
      city: 'Indianapolis',
      region: 'IN',
      country: 'US',
    }),
  ).toBe('Shop 3 in Castleton Mall, Indianapolis, IN, United States')
  expect(addressText({ formatted: '1 Main St, Portland, ME', city: 'Portland', region: 'ME', country: 'US' })).toBe(
    '1 Main St, Portland, ME, United States',
  )
  // After the town too: the offline geocoder gives a US state as its code.
  expect(
    addressText({ formatted: 'Indianapolis, in Castleton Mall', city: 'Indianapolis', region: 'IN', country: 'US' }),
  ).toBe('Indianapolis, in Castleton Mall, IN, United States')
  expect(addressText({ formatted: 'Denver, Co-op Market', city: 'Denver', region: 'CO', country: 'US' })).toBe(
    'Denver, Co-op Market, CO, United States',
  )
})

test('a postcode written with other spacing or case is not said again', () => {
  expect(
    addressText({ formatted: '10 Downing St, London SW1A2AA', city: 'London', postcode: 'SW1A 2AA', country: 'GB' }),
  ).toBe('10 Downing St, London SW1A2AA, United Kingdom')
  expect(
    addressText({ formatted: 'Damrak 1, 1012lg Amsterdam', city: 'Amsterdam', postcode: '1012 LG', country: 'NL' }),
  ).toBe('Damrak 1, 1012lg Amsterdam, Netherlands')
  // Not within a longer number, nor made of a house number and another.
  expect(
    addressText({ formatted: 'Damrak 10, 12 Amsterdam', city: 'Amsterdam', postcode: '1012', country: 'NL' }),
  ).toBe('Damrak 10, 12 Amsterdam, 1012, Netherlands')
  expect(addressText({ formatted: 'Route 104350, Berlin', city: 'Berlin', postcode: '10435', country: 'DE' })).toBe(
    'Route 104350, Berlin, 10435, Germany',
  )
})

test("a country is named as people write it, and read so: not CLDR's long forms", () => {
  expect(addressText({ formatted: "1 Queen's Road Central, Central", city: 'Central', country: 'HK' })).toBe(
    "1 Queen's Road Central, Central, Hong Kong",
  )
  expect(addressText({ formatted: "1 Queen's Road Central, Hong Kong", city: 'Hong Kong', country: 'HK' })).toBe(
    "1 Queen's Road Central, Hong Kong",
  )
  expect(addressText({ formatted: '1 Sule Pagoda Rd, Yangon, Myanmar', city: 'Yangon', country: 'MM' })).toBe(
    '1 Sule Pagoda Rd, Yangon, Myanmar',
  )
  expect(
    addressText({ formatted: 'Ferhadija 1, Sarajevo, Bosnia and Herzegovina', city: 'Sarajevo', country: 'BA' }),
  ).toBe('Ferhadija 1, Sarajevo, Bosnia and Herzegovina')
})

test('no parts, or a country that is no code: the text as written', () => {
  expect(addressText({ formatted: ' Oranienstraße 185, Berlin ' })).toBe('Oranienstraße 185, Berlin')
  expect(addressText({ formatted: 'Oranienstraße 185, Berlin', country: 'Germany' })).toBe('Oranienstraße 185, Berlin')
})

test("a store's own point, or an approximate one without address text: the point, with no hint", () => {
  const own = { ...SPRINGFIELD, coordinates: { lat: 39.8, lng: -89.65 } }
  expect(directionsUrl('apple', own)).toBe('https://maps.apple.com/?daddr=39.8%2C-89.65')
  expect(directionsUrl('osm', own)).toBe('https://www.openstreetmap.org/directions?to=39.8%2C-89.65')
  const blank = { ...SPRINGFIELD, address: { formatted: '  ', country: 'US' } }
  expect(directionsUrl('google', blank)).toBe('https://www.google.com/maps/dir/?api=1&destination=39.7817%2C-89.6501')
})

test('a region the text writes short, in any case, with or without periods, is not said again', () => {
  const us = { city: 'Springfield', region: 'Illinois', country: 'US' }
  expect(addressText({ formatted: 'Springfield, IL', ...us })).toBe('Springfield, IL, United States')
  expect(addressText({ formatted: '1 Main St, Springfield, Ill. 62701', ...us })).toBe(
    '1 Main St, Springfield, Ill. 62701, United States',
  )
  expect(addressText({ formatted: '1 Main St, Springfield, il', ...us })).toBe(
    '1 Main St, Springfield, il, United States',
  )
  expect(addressText({ formatted: '1 Main St, Springfield, ILLINOIS', ...us })).toBe(
    '1 Main St, Springfield, ILLINOIS, United States',
  )
  expect(addressText({ formatted: '1 Broadway, New York, N.Y.', city: 'New York', region: 'NY', country: 'US' })).toBe(
    '1 Broadway, New York, N.Y., United States',
  )
  expect(
    addressText({
      formatted: '1 George St, Sydney NSW 2000',
      city: 'Sydney',
      region: 'New South Wales',
      country: 'AU',
    }),
  ).toBe('1 George St, Sydney NSW 2000, Australia')
  for (const written of ['BY', 'Bayern', 'Bavaria', 'bavaria'])
    for (const region of ['Bayern', 'Bavaria'])
      expect(
        addressText({ formatted: `Marienplatz 1, 80331 München, ${written}`, city: 'München', region, country: 'DE' }),
      ).toBe(`Marienplatz 1, 80331 München, ${written}, Germany`)
})

test('a street named after a region, before the town, does not say the region', () => {
  expect(
    addressText({
      formatted: '12 Illinois Street, Springfield',
      city: 'Springfield',
      region: 'Illinois',
      country: 'US',
    }),
  ).toBe('12 Illinois Street, Springfield, Illinois, United States')
  expect(
    addressText({ formatted: '5 Indiana Ave, Indianapolis', city: 'Indianapolis', region: 'IN', country: 'US' }),
  ).toBe('5 Indiana Ave, Indianapolis, IN, United States')
  expect(
    addressText({
      formatted: 'Bayernstraße 3, Bayern Allee 1, Nürnberg',
      city: 'Nürnberg',
      region: 'Bayern',
      country: 'DE',
    }),
  ).toBe('Bayernstraße 3, Bayern Allee 1, Nürnberg, Bayern, Germany')
  // Where regions are not written short, a short word is no region's: "La" is not Liguria's.
  expect(
    addressText({ formatted: 'Via Roma 1, 19121 La Spezia', city: 'La Spezia', region: 'Liguria', country: 'IT' }),
  ).toBe('Via Roma 1, 19121 La Spezia, Liguria, Italy')
})

test('in text all in capitals a code counts only where a country stands, last', () => {
  expect(addressText({ formatted: 'SHOP 4 IN PHOENIX MALL, PUNE', city: 'Pune', country: 'IN' })).toBe(
    'SHOP 4 IN PHOENIX MALL, PUNE, India',
  )
  expect(addressText({ formatted: 'KIOSK AT HAUPTPLATZ, GRAZ', city: 'Graz', country: 'AT' })).toBe(
    'KIOSK AT HAUPTPLATZ, GRAZ, Austria',
  )
  expect(addressText({ formatted: 'HAUPTPLATZ 1, LINZ, AT', city: 'Linz', country: 'AT' })).toBe(
    'HAUPTPLATZ 1, LINZ, AT',
  )
  expect(addressText({ formatted: 'HAUPTPLATZ 1, AT-4020 LINZ', city: 'Linz', country: 'AT' })).toBe(
    'HAUPTPLATZ 1, AT-4020 LINZ',
  )
  expect(addressText({ formatted: '123 MAIN ST, DENVER CO', city: 'Denver', region: 'Colorado', country: 'US' })).toBe(
    '123 MAIN ST, DENVER CO, United States',
  )
  expect(
    addressText({
      formatted: 'SHOP 3 IN CASTLETON MALL, INDIANAPOLIS',
      city: 'Indianapolis',
      region: 'IN',
      country: 'US',
    }),
  ).toBe('SHOP 3 IN CASTLETON MALL, INDIANAPOLIS, IN, United States')
})

test('a code joined to a number by a hyphen is a road, not a country; a postcode so joined is one', () => {
  expect(addressText({ formatted: 'Rodovia BR-116 km 12, Fortaleza', city: 'Fortaleza', country: 'BR' })).toBe(
    'Rodovia BR-116 km 12, Fortaleza, Brazil',
  )
  expect(addressText({ formatted: '1 Pacific Coast Hwy US-101, Ventura', city: 'Ventura', country: 'US' })).toBe(
    '1 Pacific Coast Hwy US-101, Ventura, United States',
  )
  expect(addressText({ formatted: 'Autovía A-1 km 20, N-340, Madrid', city: 'Madrid', country: 'ES' })).toBe(
    'Autovía A-1 km 20, N-340, Madrid, Spain',
  )
  expect(addressText({ formatted: 'Strada E-45, Cesena', city: 'Cesena', country: 'IT' })).toBe(
    'Strada E-45, Cesena, Italy',
  )
  // A postcode: four digits or more, or the address's own.
  expect(
    addressText({ formatted: 'Laugavegur 1, IS-101 Reykjavík', city: 'Reykjavík', postcode: '101', country: 'IS' }),
  ).toBe('Laugavegur 1, IS-101 Reykjavík')
  expect(addressText({ formatted: 'Drottninggatan 1, SE-111 51 Stockholm', city: 'Stockholm', country: 'SE' })).toBe(
    'Drottninggatan 1, SE-111 51 Stockholm',
  )
  expect(addressText({ formatted: 'Stephansplatz 1, AT-1010 Wien', city: 'Wien', country: 'AT' })).toBe(
    'Stephansplatz 1, AT-1010 Wien',
  )
})

test('a code joined to a word by "&" is a name: "AT&T"', () => {
  expect(addressText({ formatted: 'AT&T Shop, Mariahilfer Str. 1, Wien', city: 'Wien', country: 'AT' })).toBe(
    'AT&T Shop, Mariahilfer Str. 1, Wien, Austria',
  )
  expect(
    addressText({
      formatted: 'AT&T Plaza, 208 S Akard St, Dallas, TX',
      city: 'Dallas',
      region: 'Texas',
      country: 'US',
    }),
  ).toBe('AT&T Plaza, 208 S Akard St, Dallas, TX, United States')
})

test('a town\'s own short word is not its region\'s: the region goes after "St. George", "New London"', () => {
  // "St" begins South Carolina and South Australia as "NEW" begins New Hampshire: the town's name
  // says no region, and St. George (Utah), New London (Connecticut) and St Marys (NSW) are larger.
  expect(
    addressText({ formatted: '100 Main St, St. George', city: 'St. George', region: 'South Carolina', country: 'US' }),
  ).toBe('100 Main St, St. George, South Carolina, United States')
  expect(
    addressText({ formatted: '12 Main St, New London', city: 'New London', region: 'New Hampshire', country: 'US' }),
  ).toBe('12 Main St, New London, New Hampshire, United States')
  expect(
    addressText({ formatted: '5 Charles St, St Marys', city: 'St Marys', region: 'South Australia', country: 'AU' }),
  ).toBe('5 Charles St, St Marys, South Australia, Australia')
  expect(
    addressText({
      formatted: '100 Main St, St. George, SC 29477',
      city: 'St. George',
      region: 'South Carolina',
      country: 'US',
    }),
  ).toBe('100 Main St, St. George, SC 29477, United States')
})

test("a street's word is not its region's: only a word after the town or its postcode, or a piece's first", () => {
  const sc = { city: 'Columbia', region: 'South Carolina', country: 'US' }
  expect(addressText({ formatted: 'Columbia, 1200 Main St', ...sc })).toBe(
    'Columbia, 1200 Main St, South Carolina, United States',
  )
  expect(addressText({ formatted: '1200 Main St Columbia', ...sc })).toBe(
    '1200 Main St Columbia, South Carolina, United States',
  )
  expect(addressText({ formatted: '1200 Main St Columbia SC 29201', ...sc })).toBe(
    '1200 Main St Columbia SC 29201, United States',
  )
  expect(addressText({ formatted: 'Columbia, S.C.', ...sc })).toBe('Columbia, S.C., United States')
  expect(
    addressText({
      formatted: '1 Capitol St, Charleston, W.Va.',
      city: 'Charleston',
      region: 'West Virginia',
      country: 'US',
    }),
  ).toBe('1 Capitol St, Charleston, W.Va., United States')
})

test('a region or country in the name of the town is not said: "Kansas City", "Panama City"', () => {
  // Kansas City and Panama City each name two places: the larger in Missouri, and in Florida.
  expect(
    addressText({ formatted: '1 Main St, Kansas City', city: 'Kansas City', region: 'Kansas', country: 'US' }),
  ).toBe('1 Main St, Kansas City, Kansas, United States')
  expect(addressText({ formatted: 'Calle 50, Panama City', city: 'Panama City', country: 'PA' })).toBe(
    'Calle 50, Panama City, Panama',
  )
  expect(
    addressText({ formatted: '1 Main St, Kansas City, Kansas', city: 'Kansas City', region: 'Kansas', country: 'US' }),
  ).toBe('1 Main St, Kansas City, Kansas, United States')
  // Its name written twice names no region or country it holds either.
  expect(addressText({ formatted: 'Kuwait City, Kuwait City', city: 'Kuwait City', country: 'KW' })).toBe(
    'Kuwait City, Kuwait City, Kuwait',
  )
  expect(addressText({ formatted: 'Iowa City, Iowa City', city: 'Iowa City', region: 'Iowa', country: 'US' })).toBe(
    'Iowa City, Iowa City, Iowa, United States',
  )
  // A town named as its region or country is.
  expect(addressText({ formatted: '1 Broadway, New York', city: 'New York', region: 'New York', country: 'US' })).toBe(
    '1 Broadway, New York, United States',
  )
  expect(addressText({ formatted: '1 Raffles Pl, Singapore 048616', city: 'Singapore', country: 'SG' })).toBe(
    '1 Raffles Pl, Singapore 048616',
  )
})

test("a city-state: a region given as its country's code adds nothing, and its name is added once", () => {
  const sg = (formatted: string, region?: string) =>
    addressText({ formatted, city: 'Singapore', region, country: 'SG' })
  expect(sg('1 Raffles Place, Singapore, Singapore', 'SG')).toBe('1 Raffles Place, Singapore, Singapore')
  expect(sg('Singapore, Singapore', 'SG')).toBe('Singapore, Singapore')
  expect(sg('1 Raffles Place, Singapore 048616', 'sg')).toBe('1 Raffles Place, Singapore 048616')
  expect(sg('1 Raffles Place', 'SG')).toBe('1 Raffles Place, Singapore')
  expect(sg('1 Raffles Place')).toBe('1 Raffles Place, Singapore')
  expect(addressText({ formatted: 'Avenue de la Costa 1', city: 'Monaco', region: 'MC', country: 'MC' })).toBe(
    'Avenue de la Costa 1, Monaco',
  )
  // Another country's code as a region is a region: St. Gallen's canton is SG.
  expect(addressText({ formatted: 'Marktgasse 1, St. Gallen', city: 'St. Gallen', region: 'SG', country: 'CH' })).toBe(
    'Marktgasse 1, St. Gallen, SG, Switzerland',
  )
})

test('a code in a piece all in capitals is a word there, but for the last piece, in mixed text too', () => {
  expect(addressText({ formatted: 'SHOP 4 IN PHOENIX MALL, Pune', city: 'Pune', country: 'IN' })).toBe(
    'SHOP 4 IN PHOENIX MALL, Pune, India',
  )
  expect(addressText({ formatted: 'KIOSK AT HAUPTPLATZ, Graz', city: 'Graz', country: 'AT' })).toBe(
    'KIOSK AT HAUPTPLATZ, Graz, Austria',
  )
  expect(addressText({ formatted: 'Hauptplatz 1, 8010 Graz, AT', city: 'Graz', country: 'AT' })).toBe(
    'Hauptplatz 1, 8010 Graz, AT',
  )
  expect(addressText({ formatted: 'Bahnhofstrasse 1, CH 8001, Zürich', city: 'Zürich', country: 'CH' })).toBe(
    'Bahnhofstrasse 1, CH 8001, Zürich',
  )
  // Joined to a postcode it is the country's wherever it stands.
  expect(
    addressText({
      formatted: 'HAUPTPLATZ 1, AT-8010 GRAZ, STEIERMARK',
      city: 'Graz',
      region: 'Steiermark',
      country: 'AT',
    }),
  ).toBe('HAUPTPLATZ 1, AT-8010 GRAZ, STEIERMARK')
})

test('a town written short ("St.", "Mt.", "Ft.") is the town the geocoder names in full', () => {
  // The offline geocoder names towns as its gazetteer does: "Saint George", "Sankt Ingbert".
  expect(
    addressText({ formatted: '100 Main St, St. George, SC', city: 'Saint George', region: 'SC', country: 'US' }),
  ).toBe('100 Main St, St. George, SC, United States')
  expect(
    addressText({ formatted: '10 Main St, Mt. Pleasant, SC', city: 'Mount Pleasant', region: 'SC', country: 'US' }),
  ).toBe('10 Main St, Mt. Pleasant, SC, United States')
  expect(addressText({ formatted: 'Am Markt 1, St. Ingbert', city: 'Sankt Ingbert', country: 'DE' })).toBe(
    'Am Markt 1, St. Ingbert, Germany',
  )
  expect(
    addressText({
      formatted: '100 Main St, St. George',
      city: 'Saint George',
      region: 'South Carolina',
      country: 'US',
    }),
  ).toBe('100 Main St, St. George, South Carolina, United States')
})

test('a region given as a code is not said again where the address names it in full, in any of its names', () => {
  expect(
    addressText({ formatted: '5 Oak St, Springfield, Illinois', city: 'Springfield', region: 'IL', country: 'US' }),
  ).toBe('5 Oak St, Springfield, Illinois, United States')
  expect(
    addressText({
      formatted: '5 Oak St, Springfield Illinois 62701',
      city: 'Springfield',
      region: 'IL',
      country: 'US',
    }),
  ).toBe('5 Oak St, Springfield Illinois 62701, United States')
  for (const written of ['Bayern', 'Bavaria', 'BAYERN'])
    expect(
      addressText({
        formatted: `Marienplatz 1, 80331 München, ${written}`,
        city: 'München',
        region: 'BY',
        country: 'DE',
      }),
    ).toBe(`Marienplatz 1, 80331 München, ${written}, Germany`)
  expect(
    addressText({ formatted: '1 George St, Sydney, New South Wales', city: 'Sydney', region: 'NSW', country: 'AU' }),
  ).toBe('1 George St, Sydney, New South Wales, Australia')
  // The country's name is not its region's ("United States" holds the letters of "UT"), nor is a
  // piece that writes the code as a word ("Co-op"), nor a street's before the town.
  expect(
    addressText({ formatted: '1 Main St, Provo, United States', city: 'Provo', region: 'UT', country: 'US' }),
  ).toBe('1 Main St, Provo, United States, UT')
  expect(
    addressText({ formatted: '12 Illinois Street, Springfield', city: 'Springfield', region: 'IL', country: 'US' }),
  ).toBe('12 Illinois Street, Springfield, IL, United States')
})

test('a piece of several words names a region given as a code only by its words’ initials, not a street or a mall', () => {
  const text = (formatted: string, city: string, region: string, country: string) =>
    addressText({ formatted, city, region, country })
  // "Main Street" holds the letters of "MA" and "ME", but names no state: Springfield is in several.
  expect(text('Springfield, Main Street', 'Springfield', 'MA', 'US')).toBe(
    'Springfield, Main Street, MA, United States',
  )
  expect(text('Portland, Main Street', 'Portland', 'ME', 'US')).toBe('Portland, Main Street, ME, United States')
  expect(text('Denver, Cherry Creek Shopping Center', 'Denver', 'CO', 'US')).toBe(
    'Denver, Cherry Creek Shopping Center, CO, United States',
  )
  expect(text('Bloomington, Mall of America', 'Bloomington', 'MN', 'US')).toBe(
    'Bloomington, Mall of America, MN, United States',
  )
  expect(text('Los Angeles, Canoga Park', 'Los Angeles', 'CA', 'US')).toBe(
    'Los Angeles, Canoga Park, CA, United States',
  )
  expect(text('Hamburg, Hohe Bleichen 5', 'Hamburg', 'HH', 'DE')).toBe('Hamburg, Hohe Bleichen 5, HH, Germany')
  expect(text('Berlin, Bernauer Straße 1', 'Berlin', 'BE', 'DE')).toBe('Berlin, Bernauer Straße 1, BE, Germany')
  // A region's name of several words is written by their initials.
  for (const [formatted, city, region, country] of [
    ['Charlottetown, Prince Edward Island', 'Charlottetown', 'PE', 'CA'],
    ['Washington, District of Columbia', 'Washington', 'DC', 'US'],
    ["St. John's, Newfoundland and Labrador", "St. John's", 'NL', 'CA'],
    ['Köln, Nordrhein-Westfalen', 'Köln', 'NW', 'DE'],
    ['Köln, North Rhine-Westphalia', 'Köln', 'NW', 'DE'],
    ['Canberra, Australian Capital Territory', 'Canberra', 'ACT', 'AU'],
    ['Rorschach, St. Gallen', 'Rorschach', 'SG', 'CH'],
    ['Charleston, West Virginia', 'Charleston', 'WV', 'US'],
  ] as const)
    expect(text(formatted, city, region, country)).toBe(
      `${formatted}, ${new Intl.DisplayNames('en', { type: 'region' }).of(country)}`,
    )
})

test('a region given as a code counts as named only by a piece that is its name, not by one that holds its letters', () => {
  const text = (formatted: string, city: string, region: string, country?: string) =>
    addressText({ formatted, city, region, country })
  // Districts, units and suburbs that begin with the code's letter and hold the rest in order.
  for (const [formatted, city, region, country] of [
    ['Los Angeles, Chinatown', 'Los Angeles', 'CA', 'US'],
    ['Springfield, Midtown', 'Springfield', 'MO', 'US'],
    ['Provo, Unit 5', 'Provo', 'UT', 'US'],
    ['Miami, Floor 2', 'Miami', 'FL', 'US'],
    ['Kansas City, Kiosk 12', 'Kansas City', 'KS', 'US'],
    ['Perth, Wanneroo', 'Perth', 'WA', 'AU'],
    ['Ottawa, Orleans', 'Ottawa', 'ON', 'CA'],
  ] as const)
    expect(text(formatted, city, region, country)).toBe(
      `${formatted}, ${region}, ${new Intl.DisplayNames('en', { type: 'region' }).of(country)}`,
    )
  // With no country given, the country's name is still no region's.
  expect(text('1 Main St, Provo, United States', 'Provo', 'UT')).toBe('1 Main St, Provo, United States, UT')
  // A name in another spelling, accents aside; names of several words that are not their initials.
  expect(text('Montréal, Quebec', 'Montréal', 'QC', 'CA')).toBe('Montréal, Quebec, Canada')
  expect(text('8400 Winterthur, Zurich', 'Winterthur', 'ZH', 'CH')).toBe('8400 Winterthur, Zurich, Switzerland')
  expect(text('Magdeburg, Sachsen-Anhalt', 'Magdeburg', 'ST', 'DE')).toBe('Magdeburg, Sachsen-Anhalt, Germany')
  expect(text('Herisau, Appenzell Ausserrhoden', 'Herisau', 'AR', 'CH')).toBe(
    'Herisau, Appenzell Ausserrhoden, Switzerland',
  )
  expect(text('Perth, Western Australia', 'Perth', 'WA')).toBe('Perth, Western Australia')
})

test('a region given as a code is named by its name that holds the town\'s and is more: "Appenzell Innerrhoden"', () => {
  const text = (formatted: string, city: string, region: string, country?: string) =>
    addressText({ formatted, city, region, country })
  expect(text('Hauptgasse 1, 9050 Appenzell, Appenzell Innerrhoden', 'Appenzell', 'AI', 'CH')).toBe(
    'Hauptgasse 1, 9050 Appenzell, Appenzell Innerrhoden, Switzerland',
  )
  expect(text('Bahnhofstrasse 5, Basel, Basel-Stadt', 'Basel', 'BS', 'CH')).toBe(
    'Bahnhofstrasse 5, Basel, Basel-Stadt, Switzerland',
  )
})

test('a piece after the town alone that is its region\'s name names the region: "New York, New York"', () => {
  const text = (formatted: string, city: string, region: string, country?: string) =>
    addressText({ formatted, city, region, country })
  for (const [formatted, city, region, country] of [
    ['New York, New York', 'New York', 'NY', 'US'],
    ['350 5th Ave, New York, New York', 'New York', 'NY', 'US'],
    ['350 5th Ave, New York, New York 10118', 'New York', 'NY', 'US'],
    ['Washington, Washington', 'Washington', 'WA', 'US'],
    ['Hamburg, Hamburg 20095', 'Hamburg', 'HH', 'DE'],
    ['9000 St. Gallen, Sankt Gallen', 'St. Gallen', 'SG', 'CH'],
  ] as const)
    expect(text(formatted, city, region, country)).toBe(
      `${formatted}, ${new Intl.DisplayNames('en', { type: 'region' }).of(country)}`,
    )
  // The town's name alone, or after a street that holds it, is the town: its region goes after.
  expect(text('New York', 'New York', 'NY', 'US')).toBe('New York, NY, United States')
  expect(text('350 5th Ave, New York', 'New York', 'NY', 'US')).toBe('350 5th Ave, New York, NY, United States')
  expect(text('New York Ave 5, New York', 'New York', 'NY', 'US')).toBe('New York Ave 5, New York, NY, United States')
  expect(text('Springfield, Midtown', 'Springfield', 'MO', 'US')).toBe('Springfield, Midtown, MO, United States')
  // Washington, DC: a second "Washington" is the state's name, not the District's.
  expect(text('Washington, Washington', 'Washington', 'DC', 'US')).toBe('Washington, Washington, DC, United States')
  expect(text('Washington', 'Washington', 'DC', 'US')).toBe('Washington, DC, United States')
})
