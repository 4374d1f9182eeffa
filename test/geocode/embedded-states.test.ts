// The embedded geocoder on a Brazilian state's letters ending an address ("Bairro, Cidade - UF"),
// which name a country too: MG is Madagascar, PR Puerto Rico, ES Spain.
import { describe, expect, test } from 'bun:test'
import { geo, useEmbeddedGeocoder } from './embedded-fixture'

useEmbeddedGeocoder()

describe("a Brazilian state's letters after a dash or a comma", () => {
  test('name the state where a town of it is named, before the country of those letters', () => {
    for (const [address, city] of [
      ['Centro, Belo Horizonte - MG', 'Belo Horizonte'], // Belo sur Tsiribihina, Madagascar
      ['Savassi, Belo Horizonte - MG', 'Belo Horizonte'],
      ['Belo Horizonte, MG', 'Belo Horizonte'],
      ['Centro, Curitiba - PR', 'Curitiba'], // none in Puerto Rico: refused
      ['Centro, Salvador - BA', 'Salvador'],
      ['Centro, Vitória - ES', 'Vitória'], // Vitoria-Gasteiz, Spain
      ['Centro, Porto Alegre - RS', 'Porto Alegre'],
      ['Centro, Valença - RJ', 'Valença'],
      ['Boa Viagem, Recife - PE', 'Recife'],
      ['Centro, Rio de Janeiro - RJ', 'Rio de Janeiro'],
      ['Av. Paulista, 1578 - Bela Vista, São Paulo - SP', 'São Paulo'],
      ['Centro, Belém - PA, Brasil', 'Belém'],
      ['Belo Horizonte/MG', 'Belo Horizonte'], // a slash as a spaced dash
      ['Av. Paulista, 1578, São Paulo/SP', 'São Paulo'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country: 'BR' })
    }
    // Valença of Rio de Janeiro's state, not the bigger one of Bahia's.
    expect(geo.lookup('Centro, Valença - RJ')!.lat).toBeLessThan(-20)
  })

  test('after a slash, read as after a spaced dash whatever follows them', () => {
    for (const address of [
      'Belo Horizonte/MG, 30130-000',
      'Rua Augusta, 100 - Consolação, São Paulo/SP, 01305-000',
      'Rua Augusta, 100 - Consolação, São Paulo/SP - CEP 01305-000',
      '30130-000 Belo Horizonte/MG',
      'Belo Horizonte/MG Brasil',
      'Belo Horizonte/MG - Brasil',
    ]) {
      const dashed = geo.lookup(address.replace('/', ' - '))
      expect(dashed?.parts.country).toBe('BR')
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, lat: r?.lat }).toEqual({
        address,
        city: dashed!.parts.city,
        lat: dashed!.lat,
      })
    }
  })

  test("after a slash, an Italian province's where the text reads as no Brazilian address", () => {
    // Each code is a Brazilian state's too; no town of the name lies in that state.
    for (const address of [
      'Riccione/RN', // Rennes, France
      'Cattolica/RN',
      'Viale Ceccarini 1, Riccione/RN',
      'Susa/TO', // Şuşa, Azerbaijan
      'Rovigo/RO', // Ro
      'Casale Monferrato/AL', // refused
      'Acqui Terme/AL',
      'Termini Imerese/PA',
    ]) {
      const bracketed = geo.lookup(`${address.replace('/', ' (')})`)
      expect(bracketed?.parts.country).toBe('IT')
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, lat: r?.lat }).toEqual({
        address,
        city: bracketed!.parts.city,
        lat: bracketed!.lat,
      })
    }
    // A town of the state, a CEP or Brazil's name makes the letters the state's.
    expect(geo.lookup('Natal/RN')?.parts.country).toBe('BR')
    expect(geo.lookup('Pittsburgh/PA')?.parts).toMatchObject({ city: 'Pittsburgh', country: 'US' })
    expect(geo.lookup('Bari/BA')?.parts).toMatchObject({ city: 'Bari', country: 'IT' })
  })

  test("after a spaced dash or a slash, name an Italian province's region where the state has no town named", () => {
    // Rennes, France, is also named "RN"; Rio Grande do Norte has no Riccione.
    for (const [address, city, lat] of [
      ['Riccione - RN', 'Riccione', 44.0],
      ['Cattolica - RN', 'Cattolica', 43.96],
      ['Viale Ceccarini 10, Riccione - RN', 'Riccione', 44.0],
      ['Rovigo - RO', 'Rovigo', 45.07], // no Rovigo-Ro: Ro, a village 14 km off
      ['Bari - BA', 'Bari', 41.12], // no Barry, Wales, also "Bari"
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country, lat: r?.lat.toFixed(1) }).toEqual({
        address,
        city,
        country: 'IT',
        lat: lat.toFixed(1),
      })
    }
  })

  test('after a spaced dash or a slash, name no town elsewhere where they named none of the state', () => {
    // The data has no Bom Jesus of Rio Grande do Sul nor of the Federal District, and no
    // Mérida of Bahia nor of Bosnia (BA): not Bom Jesus, Piauí, 2,000 km off, nor Mexico's Mérida.
    for (const address of [
      'Bom Jesus - RS',
      'Bom Jesus/RS',
      'Bom Jesus - DF',
      'Bom Jesus, DF',
      'Mérida/BA',
      'Mérida - BA',
    ])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    // Read as after a comma: a country's code, or a US state's.
    expect(geo.lookup('Sarajevo - BA')?.parts.country).toBe('BA')
    expect(geo.lookup('Lima - PE')?.parts.country).toBe('PE')
    expect(geo.lookup('Bethlehem - PA')?.parts.region).toBe('PA')
    // As a country's code, they take a town named as written, by its own name or one no other
    // town there bears: no typo nor prefix ("Belo": Belo sur Tsiribihina, Madagascar), and not
    // Oleiros, one of the Spanish towns "Santa Maria" names.
    // Nor where the words begin a name of a town of the state: "Belo" of Belo Horizonte.
    for (const address of ['Belo Horizonet - MG', 'Belo Horizonet/MG', 'Santa Maria - ES', 'Belo, MG', 'Belo - MG'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    // Naming none there either, the words name the town of the one country that has such towns
    // (of 100,000 people, where any): Sweden (SE) has no Sevilla, Puerto Rico (PR) no Hamburg.
    for (const [address, city, country] of [
      ['Sevilla - SE', 'Sevilla', 'ES'], // Sevilla, Colombia, has 44,000 people
      ['Sevilla, SE', 'Sevilla', 'ES'],
      ['Calle Sierpes 5, Sevilla/SE', 'Sevilla', 'ES'],
      ['Hamburg - PR', 'Hamburg', 'DE'],
      ['Hamburg, PR', 'Hamburg', 'DE'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
    // Nor by a name other towns there bear too ("Nova Londres": New London, CT, and New London,
    // OH), nor by some of the words only ("Praia do Forte" is no Praia, Cape Verde).
    for (const address of ['Nova Londres - MG', 'Nova Londres, MG', 'Praia do Forte - BA', 'Paris de Cima - MG'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    // Not a town of Portugal, whose towns' names Brazil's bear (Coimbra and Palma, Minas Gerais;
    // Silves, Amazonas), nor one a Brazilian place is named too (Coreaú, Ceará, is also Palma).
    for (const address of ['Coimbra - MG', 'Coimbra, MG', 'Silves - AM', 'Palma - MG', 'Palma/MG'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    for (const [address, city] of [
      ['Beograd - RS', 'Belgrade'],
      ['Madrid - ES', 'Madrid'],
      ['Rua X 10, Lima - PE', 'Lima'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
    // A CEP before the town, the state's letters after it.
    for (const address of ['30130-000 Belo Horizonte, MG', '30130-000 Belo Horizonte - MG'])
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city: 'Belo Horizonte' })
  })

  test('naming no country, name a town abroad only where the words name it whole and no Brazilian town', () => {
    // SP (also La Spezia's) and RJ name no country; PE and AL are a Canadian province's and a US
    // state's too. "Praia do Forte" is no Praia, Cape Verde; Brazil has a Toledo and a Palma
    // (Coreaú); Coimbra is Portugal's, whose towns' names Brazil's bear.
    for (const address of [
      'Praia do Forte - SP',
      'Praia do Forte, SP',
      'Praia do Forte/SP',
      'Praia do Forte - PE',
      'Praia do Forte, AL',
      'Toledo - RJ',
      'Palma - SP',
      'Palma, PE',
      'Coimbra - SP',
    ])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Frankfurt - SP')?.parts.city).toBe('Frankfurt am Main')
    // Nor one whose name a Portuguese town bears: Lagos, Portugal; Nisa (Nice's other name) too.
    for (const address of ['Lagos - SP', 'Lagos - PE', 'Lagos, MG', 'Nisa - MG'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
  })

  test("as a country's code, name no town by the end of a longer name", () => {
    // "do Campo" ends São Bernardo do Campo (of São Paulo): no Campo, Spain (ES).
    for (const address of ['São Bernardo do Campo - ES', 'Figueira da Foz - ES', 'Ponte da Barca - RO'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('30130-000 Belo Horizonte - MG')?.parts.city).toBe('Belo Horizonte')
  })

  test("that a US state's are too, with a CEP after them, name the Brazilian town, not a ZIP's", () => {
    // 57020 is a ZIP of South Dakota, 65010 of Missouri: a CEP's five digits are no ZIP.
    for (const [address, city] of [
      ['Maceió - AL, 57020-000', 'Maceió'],
      ['Rua do Comércio 10, Centro, Maceió - AL, 57020-000', 'Maceió'],
      ['São Luís - MA, 65010-000', 'São Luís'],
      ['Belém - PA, 66010-000', 'Belém'],
      ['Cuiabá - MT, 78005-000', 'Cuiabá'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country: 'BR' })
    }
    expect(geo.lookup('Boston, MA 02108-1234')?.parts.postcode).toBe('02108')
  })

  test("as a country's code, name the town after a district written before it", () => {
    // The district's words and the town's name no longer place: the town is named whole.
    for (const [address, city, country] of [
      ['Centro Madrid, ES', 'Madrid', 'ES'],
      ['Triana Sevilla, ES', 'Sevilla', 'ES'],
      ['Gamla Stan Stockholm, SE', 'Stockholm', 'SE'],
      ['Miraflores Lima, PE', 'Lima', 'PE'],
      ['Condado San Juan, PR', 'San Juan', 'PR'],
      ['Sachsenhausen Frankfurt - SP', 'Frankfurt am Main', 'DE'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })

  test('after a comma, name no town where they named none of the state', () => {
    // Rennes, France, is also named "RN"; Riccione is no town of Rio Grande do Norte.
    for (const address of ['Riccione, RN', 'Viale Ceccarini 1, Riccione, RN'])
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city: 'Riccione' })
    expect(geo.lookup('Lima, PE')?.parts.country).toBe('PE')
    expect(geo.lookup('Bethlehem, PA')?.parts.region).toBe('PA')
  })

  test("name no Brazilian town of another state where a US state's or a Canadian province's letters are theirs too", () => {
    // PE: Prince Edward Island and Pernambuco; the data has no Boa Viagem (Recife's) of Pernambuco,
    // only one of Ceará. SC: South Carolina and Santa Catarina; Santa Maria is Rio Grande do Sul's.
    for (const address of ['Boa Viagem - PE', 'Boa Viagem/PE', 'Boa Viagem, PE', 'Santa Maria, SC', 'Natal - MA'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Bonito - PE')?.lat).toBeCloseTo(-8.47, 1) // Pernambuco's, not Mato Grosso do Sul's
    // Nor a town abroad the words name only in part: the data has no Porto de Galinhas, and its
    // "Porto" is no Porto, Portugal. Named whole, it is: Lima, Peru (PE).
    for (const address of ['Porto de Galinhas - PE', 'Porto de Galinhas, PE', 'Porto de Galinhas/PE'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Rua X 10, Lima - PE')?.parts).toMatchObject({ city: 'Lima', country: 'PE' })
    expect(geo.lookup('Centro, Caxias, MA')?.parts.city).toBe('Caxias')
  })

  test('leave a town named whole outside the state for none named by some words only', () => {
    // Not Vitória, Espírito Santo, named by "Vitoria" alone.
    expect(geo.lookup('Vitoria-Gasteiz, ES')?.parts.country).toBe('ES')
  })

  test('name a US state or a Canadian province of those letters first, and the country where no town of the state is named', () => {
    for (const [address, city, country] of [
      ['Bethlehem, PA', 'Bethlehem', 'US'],
      ['Springfield, MA', 'Springfield', 'US'],
      ['Charlottetown, PE', 'Charlottetown', 'CA'],
      ['Centro, Caxias, MA', 'Caxias', 'BR'], // no Caxias in Massachusetts: Maranhão's, not Duque de Caxias
      ['Centro, Toledo, PR', 'Toledo', 'BR'], // none in Puerto Rico: refused
      ['Lima, PE', 'Lima', 'PE'],
      ['Antananarivo, MG', 'Antananarivo', 'MG'],
      ['Madrid, ES', 'Madrid', 'ES'],
      ['Torino TO', 'Turin', 'IT'], // no comma nor dash: a province's letters
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })
})

describe("an Italian province's letters after the town", () => {
  test("name the province's region where a town of it is named, after a US state's letters", () => {
    for (const [address, city, lat] of [
      ['Lodi (LO)', 'Lodi', 45.31], // Lodi, California, is near as big: refused without them
      ['Lodi LO', 'Lodi', 45.31],
      ['Via Roma 1, Lodi (LO), Italia', 'Lodi', 45.31],
      ['Ceres (TO)', 'Ceres', 45.31], // Ceres, California, 48,000 people
      ['Rovereto (MO)', 'Rovereto', 44.83], // the village by Modena, not Trentino's town
      ['Rovereto MO', 'Rovereto', 44.83], // no Rovereto in Missouri
      ['Arpino (NA)', 'Arpino', 40.89],
      ['Pavia PV', 'Pavia', 45.19],
      ['Fiesole (FI)', 'Fiesole', 43.8],
      ['Via Roma 1, 20121 Milano MI', 'Milano', 45.46],
      ['Milano MI', 'Milan', 45.46], // no Milano in Michigan
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country, lat: r?.lat.toFixed(1) }).toEqual({
        address,
        city,
        country: 'IT',
        lat: lat.toFixed(1),
      })
    }
    // A US state's letters are the state's first; letters of no town of the province name none.
    for (const [address, city, country] of [
      ['Lansing MI', 'Lansing', 'US'],
      ['Milan MI', 'Milan', 'US'],
      ['Bethlehem PA', 'Bethlehem', 'US'],
      ['Helsinki (FI)', 'Helsinki', 'FI'],
      ['Paris FR', 'Paris', 'FR'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })

  test('in square brackets, read as in round ones', () => {
    // Rennes, France, is also named "RN"; Lodi, California, is near as big as Lodi (LO).
    for (const address of ['Riccione [RN]', 'Lodi [LO]', 'Via Roma 1, Lodi [LO], Italia', 'Fiesole, [FI]']) {
      const round = geo.lookup(address.replace('[', '(').replace(']', ')'))
      expect(round?.parts.country).toBe('IT')
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, lat: r?.lat }).toEqual({
        address,
        city: round!.parts.city,
        lat: round!.lat,
      })
    }
  })

  test('in brackets left open or spaced from them, read as in closed ones', () => {
    // Rennes is also named "RN": a field cut short or spaced brackets still name Rimini's province.
    for (const address of ['Riccione [RN', 'Riccione (RN', 'Riccione ( RN )', 'Riccione [ RN ]', 'Fiesole, ( FI )']) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({
        address,
        city: address.startsWith('Fiesole') ? 'Fiesole' : 'Riccione',
        country: 'IT',
      })
    }
  })

  test('alone, name no town by another name of its', () => {
    // Rennes is also named "RN", Bex "BH"; Bo, Sierra Leone, is so named itself.
    for (const address of ['RN', 'BH', ' RN '])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('BO')?.parts).toMatchObject({ city: 'Bo', country: 'SL' })
  })

  test('after a spaced dash, read as if not there where neither the region nor their country has the town', () => {
    // Spanish and Mexican letters that are a province's and a country's: Slovenia has no Culiacán.
    for (const [address, city, country] of [
      ['Culiacán - SI', 'Culiacán', 'MX'],
      ['Chihuahua - CH', 'Chihuahua', 'MX'],
      ['Colima - CL', 'Colima', 'MX'],
      ['Granada - GR', 'Granada', 'ES'],
      ['Bilbao - BI', 'Bilbao', 'ES'],
      ['Pamplona - NA', 'Pamplona', 'ES'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })

  test("after a dash or a slash, name their region where a US state's and a Brazilian state's have no town named", () => {
    // AL: Alabama, Alagoas and Alessandria; Alexandria, Egypt, is also named "Alessandria".
    for (const [address, city] of [
      ['Alessandria - AL', 'Alessandria'],
      ['Alessandria/AL', 'Alessandria'],
      ['Valenza - AL', 'Valenza'], // not Valencia, Spain
      ['Casale Monferrato - AL', 'Casale Monferrato'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country: 'IT' })
    }
    expect(geo.lookup('Montgomery - AL')?.parts.region).toBe('AL')
  })
})

describe("a region's name that is a town's too, last", () => {
  test('is that town where a town named whole before it lies near it and none named whole fits the region', () => {
    // Norfolk, Virginia, 30 km from Newport News; Norfolk the English county holds no Newport News.
    expect(geo.lookup('Newport News, Norfolk')?.parts).toEqual({ city: 'Newport News', region: 'VA', country: 'US' })
    expect(geo.lookup('Virginia Beach, Norfolk')?.parts.city).toBe('Virginia Beach')
    // Salem, Massachusetts, by Essex, MA, not Salem, India, the most populous Salem.
    expect(geo.lookup('Salem, Essex')?.parts).toEqual({ city: 'Salem', region: 'MA', country: 'US' })
    // A town of the region named whole keeps the region: Norwich is Norfolk's.
    expect(geo.lookup('Norwich, Norfolk')?.parts.country).toBe('GB')
    expect(geo.lookup('Richmond, Surrey')?.parts.country).toBe('GB') // not Richmond by Surrey, BC
    expect(geo.lookup('Downtown, Norfolk')).toBeNull()
    expect(geo.lookup('Washington, Washington')).toBeNull() // the state's own name is no town before it
  })
})

describe('a town named before a town', () => {
  test('tells the namesake it lies near, the most populous of its name', () => {
    // Sunderland, England, 18 km from Durham, England; none lies near Durham, North Carolina.
    expect(geo.lookup('Sunderland, Durham')?.parts).toEqual({ city: 'Sunderland', country: 'GB' })
    expect(geo.lookup('Hartlepool, Durham')?.parts).toEqual({ city: 'Hartlepool', country: 'GB' })
    expect(geo.lookup('Durham')?.parts.region).toBe('NC')
  })

  test('leaves the town where a smaller namesake of the town before lies near it', () => {
    // Cambridge, England, the most populous, lies near Boston, England; Cambridge, MA near Boston, MA.
    for (const [address, city, region] of [
      ['Cambridge, Boston', 'Cambridge', 'MA'],
      ['10 Main St, Cambridge, Boston', 'Cambridge', 'MA'],
      ['Decatur, Atlanta', 'Decatur', 'GA'], // Decatur, Illinois lies near Atlanta, Illinois
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, region: r?.parts.region }).toEqual({ address, city, region })
    }
  })

  test('counts a namesake of the town before by its own name, or by another it bears as a suburb of it', () => {
    // Lambeth, in London, is also named "Waterloo"; so is Waterlooville, 100 km off, no suburb.
    for (const address of ['Waterloo, London', 'Waterloo, London, UK'])
      expect({ address, parts: geo.lookup(address)?.parts }).toEqual({
        address,
        parts: { city: 'Lambeth', country: 'GB' },
      })
    expect(geo.lookup('Waterloo, London, ON')?.parts).toMatchObject({ city: 'Waterloo', region: 'ON', country: 'CA' })
  })
})

describe('a town between two dashes between spaces', () => {
  test('is parted from the words before it as by a comma, the country after it', () => {
    // Not Frankfurt am Main, named by "Frankfurt" alone.
    for (const address of ['Hotel Post - Frankfurt Oder - Germany', 'Hotel Post - Frankfurt Oder - DE'])
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city: 'Frankfurt (Oder)' })
  })
})

describe("a dashed town's name written with dashes between spaces", () => {
  test('is the town, as written with its dashes between words', () => {
    for (const [address, city] of [
      ['Stoke - on - Trent', 'Stoke-on-Trent'], // On, Belgium
      ['Stratford - upon - Avon', 'Stratford-upon-Avon'],
      ['High St, Newcastle - upon - Tyne', 'Newcastle upon Tyne'],
    ] as const)
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city })
    // As "Saint Denis" is: Saint-Denis by Paris and in Réunion are near alike.
    expect(geo.lookup('Saint - Denis')).toBeNull()
  })
})

describe("a Brazilian state's letters", () => {
  test('written small after a town of Brazil or of no place, read as in capitals', () => {
    // Praia do Forte, which the data lacks, is no Praia, Cape Verde; Bom Jesus is not Piauí's.
    for (const address of ['praia do forte - pe', 'bom jesus - rs', 'Bom Jesus - RS'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    for (const address of ['recife, pe', 'salvador/ba', 'Centro, Curitiba - pr'])
      expect({ address, country: geo.lookup(address)?.parts.country }).toEqual({ address, country: 'BR' })
    // Small letters after another town's name are words: "am" of Frankfurt am Main.
    expect(geo.lookup('Frankfurt - am')?.parts.city).toBe('Frankfurt am Main')
  })

  test('before a CEP, read as after a spaced dash: no town of another state', () => {
    // The data has no Bom Jesus of Rio Grande do Sul: not Bom Jesus, Piauí.
    for (const address of ['Bom Jesus RS 95290-000', 'Bom Jesus/RS, 95290-000', 'Praia do Forte BA 48280-000'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Recife PE 50000-000')?.parts.city).toBe('Recife')
    // A CEP without its dash reads the same.
    for (const address of ['Bom Jesus RS 95290000', 'bom jesus rs 95290000', 'Rua 1 Bom Jesus RS 95290000'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Salvador BA 40020000')?.parts.city).toBe('Salvador')
  })

  test('before a CEP, after a comma, read as after a spaced dash', () => {
    for (const address of ['Recife, PE 50000-000', 'Rua da Aurora 100, Recife, PE 50050-000'])
      expect({ address, city: geo.lookup(address)?.parts.city }).toEqual({ address, city: 'Recife' })
    // No Bom Jesus of Piauí for Rio Grande do Sul's letters.
    expect(geo.lookup('Bom Jesus, RS 95290-000')).toBeNull()
  })

  test('written small before a CEP, read as in capitals', () => {
    for (const address of ['recife/pe 50000-000', 'recife pe 50000-000', 'belo horizonte/mg, 30130-000'])
      expect({ address, country: geo.lookup(address)?.parts.country }).toEqual({ address, country: 'BR' })
    for (const address of ['bom jesus - rs 95290-000', 'bom jesus/rs, 95290-000'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
  })

  test('after a street and its number without a comma, the town in the state', () => {
    for (const [address, street, town] of [
      ['Av Paulista 1000 São Paulo SP 01310-100', 'Av Paulista 1000', 'São Paulo - SP'],
      ['Rua Chile 10 Salvador BA 40020-000', 'Rua Chile 10', 'Salvador - BA'],
      ['Rua da Aurora 100 Recife PE 50050-000', 'Rua da Aurora 100', 'Recife - PE'],
      ['Av. Afonso Pena 1000 Belo Horizonte MG 30130-000', 'Av. Afonso Pena 1000', 'Belo Horizonte - MG'],
      ['Rua XV de Novembro 100 Curitiba PR 80020-310', 'Rua XV de Novembro 100', 'Curitiba - PR'],
      ['Rua Chile 10 Salvador/BA 40020-000', 'Rua Chile 10', 'Salvador - BA'],
      ['Rua Chile 10 Salvador - BA 40020-000', 'Rua Chile 10', 'Salvador - BA'],
      ['Rua Chile 10 Salvador - BA', 'Rua Chile 10', 'Salvador - BA'],
    ] as const) {
      const r = geo.lookup(address)
      const t = geo.lookup(town)!
      expect({ address, street: r?.parts.street, at: r && [r.lat, r.lng] }).toEqual({
        address,
        street,
        at: [t.lat, t.lng],
      })
    }
  })
})

describe("a Brazilian state's letters before a CEP after a street", () => {
  test('place the town as the town and its letters alone do: of that state, or nothing', () => {
    // Not Valença of Bahia, Campo Grande of Mato Grosso do Sul, Bom Jesus of Piauí.
    for (const [address, town] of [
      ['Rua Dom Pedro 45 Valença RJ 27600-000', 'Valença - RJ'],
      ['Rua 1 Valença - RJ 27600-000', 'Valença - RJ'],
      ['Av. Brasil 10 Campo Grande RJ 23000-000', 'Campo Grande - RJ'],
      ['Rua 1 Bom Jesus RS 95290-000', 'Bom Jesus - RS'],
      ['Rua Sete 7 Bom Jesus - RS 95290-000', 'Bom Jesus - RS'],
    ] as const) {
      const r = geo.lookup(address)
      const t = geo.lookup(town)
      expect({ address, at: r && [r.lat, r.lng] }).toEqual({ address, at: t && [t.lat, t.lng] })
    }
    expect(geo.lookup('Valença - RJ')!.lat).toBeLessThan(-20)
  })
})
