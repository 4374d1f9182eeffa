// Locations CSV addresses: how an address is made from a row's address cell and its parts.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { readLocationsCsv } from '../../src/locations/csv'
import { bodies } from './csv-read'

describe('address', () => {
  test('without an address column, the parts join in the order the country writes them', () => {
    const csv = [
      'name,street,city,zip,state,country',
      'A,1 Main St,Springfield,12345,IL,US',
      'B,,Paris,75001,,FR',
      'C,Rue 1,,,,',
      'D,,,,,',
      'E,,Berlin,,,',
    ].join('\n')
    const read = readLocationsCsv(csv)
    expect(read.rows.map((r) => r.body.address)).toEqual([
      '1 Main St, Springfield, IL 12345, US',
      '75001 Paris, FR',
      'Rue 1',
      undefined,
      'Berlin',
    ])
    expect(read.rows.map((r) => [r.country, r.postcode])).toEqual([
      ['US', '12345'],
      ['FR', '75001'],
      [null, null],
      [null, null],
      [null, null],
    ])
    expect(Object.keys(read.rows[3]!.body)).toEqual(['name'])
  })

  test('a code in lower case is the code: in a code column always, in a country column when the other rows write codes', () => {
    const read = (csv: string) => readLocationsCsv(csv).rows.map((r) => [r.body.address, r.country])
    for (const column of ['Country Code', 'country_iso'])
      expect(read(`name,city,${column}\nA,Boston,us\nB,Berlin,De\n`)).toEqual([
        ['Boston, US', 'US'],
        ['Berlin, DE', 'DE'],
      ])
    expect(read('name,city,Country Code\nA,Boston,us\n')).toEqual([['Boston, US', 'US']])
    expect(read('name,city,country\nA,Boston,us\nB,Berlin,de\nC,Paris,FR\n')).toEqual([
      ['Boston, US', 'US'],
      ['Berlin, DE', 'DE'],
      ['Paris, FR', 'FR'],
    ])
    // Beside names, a code takes the file's name of its country.
    expect(read('name,city,Country Code\nA,Boston,us\nB,Berlin,Germany\n')).toEqual([
      ['Boston, United States', 'US'],
      ['Berlin, Germany', 'Germany'],
    ])
    // In a country column, two letters alone or beside names may be a word: kept as written.
    expect(read('name,city,country\nA,Berlin,de\n')).toEqual([['Berlin, de', 'de']])
    expect(read('name,city,country\nA,Munich,de\nB,Berlin,Germany\n')).toEqual([
      ['Munich, de', 'de'],
      ['Berlin, Germany', 'Germany'],
    ])
    expect(read('name,city,country\nA,Berlin,de\nB,X,zz\n')).toEqual([
      ['Berlin, de', 'de'],
      ['X, zz', 'zz'],
    ])
  })

  test("a country's code is written as the name the file's other rows give countries, in their language", () => {
    const address = (csv: string) => readLocationsCsv(csv).rows.map((r) => [r.body.address, r.country])
    const header = 'name,street,city,postcode,country'
    expect(
      address(
        `${header}\nA,Marienplatz 1,München,80331,DE\nB,Kaufingerstr. 1,München,80331,Germany\nC,1 High St,London,SW1A 1AA,UK\nD,Damrak 1,Amsterdam,1012 LG,NL\n`,
      ),
    ).toEqual([
      ['Marienplatz 1, 80331 München, Germany', 'DE'],
      ['Kaufingerstr. 1, 80331 München, Germany', 'Germany'],
      ['1 High St, London SW1A 1AA, United Kingdom', 'UK'],
      ['Damrak 1, 1012 LG Amsterdam, Netherlands', 'NL'],
    ])
    // The file's own spelling of the country, and its language for the others.
    expect(
      address(
        `${header}\nA,Hauptstr. 1,Berlin,10115,DE\nB,Hauptstr. 2,Berlin,10115,Deutschland\nC,Damrak 1,Amsterdam,1012 LG,NL\n`,
      ),
    ).toEqual([
      ['Hauptstr. 1, 10115 Berlin, Deutschland', 'DE'],
      ['Hauptstr. 2, 10115 Berlin, Deutschland', 'Deutschland'],
      ['Damrak 1, 1012 LG Amsterdam, Niederlande', 'NL'],
    ])
    // A code in small letters ("de") among codes is the code, no spelling of the country's name.
    expect(address(`${header}\nA,Hauptstr. 1,Berlin,10115,de\nB,Damrak 1,Amsterdam,1012 LG,NL\n`)).toEqual([
      ['Hauptstr. 1, 10115 Berlin, DE', 'DE'],
      ['Damrak 1, 1012 LG Amsterdam, NL', 'NL'],
    ])
    // An address typed whole that ends with the country's name joins no name: no note says so.
    const whole = readLocationsCsv(
      'name,address,country\nA,"1 Main St, Chicago, United States",US\nB,"2 Main St, Chicago, United States",US\nC,"1 Rue de Rivoli, Paris",France\n',
    )
    expect(whole.rows.map((r) => r.body.address)).toEqual([
      '1 Main St, Chicago, United States',
      '2 Main St, Chicago, United States',
      '1 Rue de Rivoli, Paris',
    ])
    expect(whole.notes.filter((n) => n.includes('write the codes as names'))).toEqual([])
    // A file of codes alone is consistent as written: a re-import changes no address.
    expect(address(`${header}\nA,Hauptstr. 1,Berlin,10115,DE\nB,Damrak 1,Amsterdam,1012 LG,NL\n`)).toEqual([
      ['Hauptstr. 1, 10115 Berlin, DE', 'DE'],
      ['Damrak 1, 1012 LG Amsterdam, NL', 'NL'],
    ])
  })

  test('an address cell naming its city or postcode is kept, with the postcode it lacks; country and postcode are still given', () => {
    const read = readLocationsCsv(
      'name,address,city,postcode,country\nA,"1 Main St, Paris",Paris,75001,FR\nB,,Lyon,,\n',
    )
    expect(read.rows.map((r) => r.body)).toEqual([{ name: 'A', address: '1 Main St, 75001 Paris' }, { name: 'B' }])
    expect(read.rows.map((r) => [r.country, r.postcode])).toEqual([
      ['FR', '75001'],
      [null, null],
    ])
  })

  test('a house number follows its street, and a second street line comes before the town', () => {
    const csv = [
      'Filialnummer;Name;Straße;Hausnummer;PLZ;Ort;Land',
      'B1;Mitte;Friedrichstraße;120;10117;Berlin;Deutschland',
      'B2;Ohne;;7;;Köln;',
    ].join('\n')
    expect(bodies(csv)).toEqual([
      { external_id: 'B1', name: 'Mitte', address: 'Friedrichstraße 120, 10117 Berlin, Deutschland' },
      { external_id: 'B2', name: 'Ohne', address: '7, Köln' },
    ])
    expect(bodies('name,street,address 2,city\nA,1 Main St,Suite 4,Springfield\n')).toEqual([
      { name: 'A', address: '1 Main St, Suite 4, Springfield' },
    ])
  })

  test('a town is named by whole words and a postcode spaces aside; a street named after its town is a street line', () => {
    const csv = [
      'name;address;city;postcode',
      'Hof;Bahnhofstraße 12;Hof;95028', // "Hof" is in the word "Bahnhofstraße", not one of its own
      'Hamburg;Hamburger Straße 19;Hamburg;22083',
      'Albans;"1 Market St, St Albans AL1 3AA";Saint Albans;AL13AA', // the postcode written with a space
      'Damrak;"Damrak 1, 1012 LG Amsterdam";Amsterdam-Centrum;1012LG',
      'Genf;"Rue du Rhône 1, Genève";Geneve;',
      'Long;Gewerbepark 10117-3;Köln;1011', // a postcode within a longer number is not one
      'Road;10 London Road;London;', // a city within the street's name is not its town
      'Avenue;1000 N Chicago Ave;Chicago;',
      'Via;Via Roma 12;Roma;00184',
      'End;Friedrichstraße 120 Berlin;Berlin;', // one part ending with the city names it
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      'Bahnhofstraße 12, 95028 Hof',
      'Hamburger Straße 19, 22083 Hamburg',
      '1 Market St, St Albans AL1 3AA',
      'Damrak 1, 1012 LG Amsterdam',
      'Rue du Rhône 1, Genève',
      'Gewerbepark 10117-3, 1011 Köln',
      '10 London Road, London',
      '1000 N Chicago Ave, Chicago',
      'Via Roma 12, 00184 Roma',
      'Friedrichstraße 120 Berlin',
    ])
  })

  test('a kept address cell takes the house number and second line it plainly lacks into its street part', () => {
    const csv = [
      'name,address,house number,address 2,city,postcode,country',
      'A,"1 Main St, Springfield",,Suite 4,Springfield,,US',
      'B,"Hauptstraße, Berlin",5,,Berlin,,DE',
      'C,"Hauptstraße 5, Berlin",5,,Berlin,,DE', // has them: as written
      'D,"Hauptstraße 5,Berlin",,,,,', // nothing to add: as written, spacing too
      // The street part is the first that is not a unit's.
      'E,"Flat 2, High Street, London SW1A 1AA",10,,London,SW1A 1AA,GB',
      'F,"Unit 4, Main St, Springfield, IL 62701",10,,Springfield,62701,US',
      'G,"Hauptstraße\n10115 Berlin",12,,Berlin,10115,DE', // parts apart by a line break
      // A street part with a number has one, however written; a line with its numbers is there.
      'H,"Hauptstraße 10 a, 10115 Berlin",10a,,Berlin,10115,DE',
      'I,"Kalverstraat 12-A, 1012 Amsterdam",12A,,Amsterdam,1012,NL',
      'J,"100 Main St, Ste. 200, Springfield",,Suite 200,Springfield,,US',
      // A line's number that is also the street's is not the line; a street with a digit in its name takes its number.
      'K,"200 Park Ave, New York",200,Suite 200,New York,,US',
      'L,"Main Street 5, Springfield",5,Unit 5,Springfield,,DE',
      'M,"W 34th St, New York, NY 10001",350,,New York,10001,US',
      'N,"Straße des 17. Juni, 10623 Berlin",135,,Berlin,10623,DE',
      'O,"c/o Mall, Main Street, London",10,,London,,GB',
      'P,"# 5, Main St, Springfield",10,,Springfield,,US',
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      '1 Main St, Suite 4, Springfield',
      'Hauptstraße 5, Berlin',
      'Hauptstraße 5, Berlin',
      'Hauptstraße 5,Berlin',
      'Flat 2, 10 High Street, London SW1A 1AA',
      'Unit 4, 10 Main St, Springfield, IL 62701',
      'Hauptstraße 12\n10115 Berlin',
      'Hauptstraße 10 a, 10115 Berlin',
      'Kalverstraat 12-A, 1012 Amsterdam',
      '100 Main St, Ste. 200, Springfield',
      '200 Park Ave, Suite 200, New York',
      'Main Street 5, Unit 5, Springfield',
      '350 W 34th St, New York, NY 10001',
      'Straße des 17. Juni 135, 10623 Berlin',
      'c/o Mall, 10 Main Street, London',
      '# 5, 10 Main St, Springfield',
    ])
    // A street line that holds its number already is not given it twice.
    expect(bodies('Adresse;Hausnummer;PLZ;Ort\nHauptstraße 5;5;10117;Berlin\n')).toEqual([
      { address: 'Hauptstraße 5, 10117 Berlin' },
    ])
    expect(bodies('Adresse;Hausnummer\nHauptstraße;5\n')).toEqual([{ address: 'Hauptstraße 5' }])
  })

  test("a kept address cell takes the postcode and region it lacks, after its town in the country's order", () => {
    const csv = [
      'name,address,city,state,zip,country',
      'A,"200 Main Street, Springfield",Springfield,IL,62701,', // US, from the state and its ZIP code
      'B,"10 Elm St, Portland",Portland,ME,4101,', // a ZIP code's dropped zero put back
      'C,"5 High St, Springfield, Massachusetts",Springfield,MA,01103,', // the state by its name
      'D,"5 High St, Springfield, MA",Springfield,MA,01103,', // the ZIP code joins its state
      'E,"1 Main St, Springfield, USA",Springfield,IL,,US', // before the country it ends with
      'F,"Hauptstraße 5, Berlin",Berlin,,10117,DE', // the postcode before the town
      'G,"Friedrichstraße 120 Berlin",Berlin,Berlin,10117,DE', // the region named already
      'H,"10 Downing St, London",London,,SW1A 2AA,United Kingdom', // the postcode after the town
      'I,"1 Main St, Atlanta, Georgia",Atlanta,GA,30303,US', // a state named as a country is the state
      'J,"Via Roma 1, 00184 Roma",Roma,Lazio,00184,IT', // the region after the town
      'K,"Via Roma 1, 00184 Roma, Lazio",Roma,Lazio,00184,IT', // nothing lacking: as written
      'L,"1 Main St, Portland OR 97201",Portland,Oregon,97201,US', // the state's code within a part
      'M,"10 Illinois St, Springfield",Springfield,IL,62701,', // a street named after it names no state
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      '200 Main Street, Springfield, IL 62701',
      '10 Elm St, Portland, ME 04101',
      '5 High St, Springfield, Massachusetts 01103',
      '5 High St, Springfield, MA 01103',
      '1 Main St, Springfield, IL, USA',
      'Hauptstraße 5, 10117 Berlin',
      'Friedrichstraße 120 Berlin, 10117',
      '10 Downing St, London SW1A 2AA',
      '1 Main St, Atlanta, Georgia 30303',
      'Via Roma 1, 00184 Roma, Lazio',
      'Via Roma 1, 00184 Roma, Lazio',
      '1 Main St, Portland OR 97201',
      '10 Illinois St, Springfield, IL 62701',
    ])
    // The row's country for the import's checks: its cell, else what its postcode tells.
    expect(readLocationsCsv(csv).rows.map((r) => r.country)).toEqual([
      'US',
      'US',
      'US',
      'US',
      'US',
      'DE',
      'DE',
      'United Kingdom',
      'US',
      'IT',
      'IT',
      'US',
      'US',
    ])
  })

  test('a row with no country column is placed by its postcode, with its region and town', () => {
    const csv = [
      'name,street,street number,city,state,zip',
      'US,Main Street,200,Springfield,IL,62701', // a US state and one of its ZIP codes
      'US2,Main Street,200,Springfield,Illinois,62701-1234',
      'CA,Wellington St,111,Ottawa,ON,K1A 0A9', // a province and its code
      'AU,George St,100,Sydney,NSW,2000', // an Australian state and four digits
      'WA,Pike St,1,Seattle,WA,98101', // WA is Washington with five digits, Western Australia with four
      'WA2,Hay St,1,Perth,WA,6000',
      'DE,Friedrichstraße,120,Berlin,Berlin,10117', // neither: after the street, postcode first
      // Italian provinces share codes with US states, but a CAP is no ZIP code of that state.
      'PA,Via Roma,1,Palermo,PA,90100',
      'CO,Via Vittorio Emanuele,5,Como,CO,22100',
      'MI,Via Dante,7,Milano,MI,20121', // 20121 is a ZIP code, of Virginia
      'NT,Smith St,1,Darwin,NT,0800', // NT with an Australian postcode, not a Canadian one
      // Trento's CAPs are Tennessee ZIP codes too: there the ZIP code's town must be the row's.
      'TN,Via Belenzani,1,Trento,TN,38122',
      'TN2,Broadway,100,Nashville,TN,37203',
      'GB,High Street,10,St Albans,Hertfordshire,AL1 3AA', // a UK postcode tells the UK alone
      // A city-state is named once; a US state stays before its ZIP code, as addresses there write it.
      'HH,Jungfernstieg,1,Hamburg,hamburg,20354',
      'NY,Broadway,1,New York,New York,10006',
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      '200 Main Street, Springfield, IL 62701',
      '200 Main Street, Springfield, Illinois 62701-1234',
      '111 Wellington St, Ottawa, ON K1A 0A9',
      '100 George St, Sydney, NSW 2000',
      '1 Pike St, Seattle, WA 98101',
      '1 Hay St, Perth, WA 6000',
      'Friedrichstraße 120, 10117 Berlin',
      'Via Roma 1, 90100 Palermo, PA',
      'Via Vittorio Emanuele 5, 22100 Como, CO',
      'Via Dante 7, 20121 Milano, MI',
      '1 Smith St, Darwin, NT 0800',
      'Via Belenzani 1, 38122 Trento, TN',
      '100 Broadway, Nashville, TN 37203',
      '10 High Street, St Albans AL1 3AA, Hertfordshire',
      'Jungfernstieg 1, 20354 Hamburg',
      '1 Broadway, New York, New York 10006',
    ])
  })

  test("a postcode's leading zeros a spreadsheet dropped are put back: a US state's ZIP code, a five-digit country's code", () => {
    const read = readLocationsCsv(
      [
        'name,street,city,state,zip,country',
        'Boston,1 Main St,Boston,MA,2134,', // 02134 is in MA
        'Holtsville,1 Main St,Holtsville,NY,501,US', // 00501
        'Perth,1 Hay St,Perth,WA,6000,', // 06000 is no Washington ZIP code: an Australian postcode
        'Other,1 Main St,Boston,MA,2134,GB', // another country named: as written
        'Dresden,Prager Str. 1,Dresden,,1069,Deutschland', // German codes are five digits
        'Barcelona,Carrer de Pau Claris 1,Barcelona,,8010,ES',
        'Wien,Graben 1,Wien,,1010,AT', // Austrian codes are four
        'Newbury,100 Newbury St,Boston,,2116,USA', // no state: 02116 is Boston's
        'Elsewhere,1 Main St,Springfield,,2116,USA', // 02116 is not Springfield's: as written
        'Nowhere,1 Main St,Boston,,2116,', // no state and no country: as written
      ].join('\n'),
    )
    expect(read.rows.map((r) => [r.body.address, r.postcode])).toEqual([
      ['1 Main St, Boston, MA 02134', '02134'],
      ['1 Main St, Holtsville, NY 00501, USA', '00501'], // the file's spelling of the country,
      ['1 Hay St, Perth, WA 6000', '6000'],
      ['1 Main St, Boston 2134, MA, Vereinigtes Königreich', '2134'], // "GB" in the language of "Deutschland",
      ['Prager Str. 1, 01069 Dresden, Deutschland', '01069'],
      ['Carrer de Pau Claris 1, 08010 Barcelona, Spanien', '08010'],
      ['Graben 1, 1010 Wien, Österreich', '1010'],
      ['100 Newbury St, Boston, 02116, USA', '02116'],
      ['1 Main St, Springfield, 2116, USA', '2116'],
      ['1 Main St, 2116 Boston', '2116'],
    ])
  })

  test("the house number goes first where the row's country writes it so, else after the street", () => {
    const csv = [
      'name,street,street number,city,zip,country',
      'US,Main Street,200,Springfield,62701,US',
      'FR,rue de Rivoli,12,Paris,75001,France',
      'DE,Friedrichstraße,120,Berlin,10117,Deutschland',
      'None,Main Street,200,Springfield,,',
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      '200 Main Street, Springfield, 62701, United States', // "US" as the rows naming countries write them
      '12 rue de Rivoli, 75001 Paris, France',
      'Friedrichstraße 120, 10117 Berlin, Deutschland',
      'Main Street 200, Springfield',
    ])
  })

  test('an address cell naming neither its city nor its postcode is the street line, joined with the parts', () => {
    // A store locator plugin's export: the street in Address, the rest in their own columns.
    const csv = [
      'Name,Address,Address 2,City,State,Zip,Country',
      'Downtown,200 Main Street,Suite 4,Springfield,IL,62701,US',
      'Loop,233 S Wacker Dr,,Chicago,IL,60606,US',
      'Named,"1 Main St, springfield",,Springfield,IL,,US',
      'Coded,1 Main St 62701,,,,62701,US',
      'Alone,1 Main St,,,,,US',
      'Empty,,,Chicago,IL,60606,US',
    ].join('\n')
    expect(bodies(csv).map((b) => b.address)).toEqual([
      '200 Main Street, Suite 4, Springfield, IL 62701, US',
      '233 S Wacker Dr, Chicago, IL 60606, US',
      '1 Main St, springfield, IL', // names its city (in any case): kept, with the state it lacks
      '1 Main St 62701',
      '1 Main St', // no town to join it with
      undefined, // an empty address cell leaves the address as it is
    ])
  })

  test('an address cell is never cut: its characters stay, in order, whatever parts the row has', () => {
    const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`
    const text = fc.string({
      unit: fc.constantFrom('a', 'B', '1', '2', ' ', ',', '\n', 'é', 'Flat', 'Berlin'),
      maxLength: 12,
    })
    const part = (values: string[]) => fc.constantFrom('', ...values)
    fc.assert(
      fc.property(
        text,
        part(['5', '10a', '12-A']),
        part(['Suite 4', 'Flat 2', 'Rear']),
        part(['Berlin', 'a', 'B1']),
        part(['10115', '1 2', 'a1']),
        part(['US', 'DE', 'GB', 'Narnia']),
        (cell, number, line, city, postcode, country) => {
          const csv = `address,house number,address 2,city,postcode,country\n${[cell, number, line, city, postcode, country].map(quoted).join(',')}\n`
          const address = readLocationsCsv(csv).rows[0]?.body.address as string | undefined
          const written = cell.trim()
          if (written === '') return // an empty cell leaves the address as it is
          let at = 0
          for (const ch of address ?? '') if (ch === written[at]) at++
          expect({ cell: written, address, kept: at === written.length }).toEqual({
            cell: written,
            address,
            kept: true,
          })
          if (number === '' && line === '' && city === '' && postcode === '') expect(address).toBe(written)
        },
      ),
      { numRuns: 500 },
    )
  })
})
