// GET /places for a state's or province's two letters after the town, as the geocoder reads them
// in an address: a Brazilian state's after a comma, a dash or a slash ("Belo Horizonte, MG"), an
// Italian province's after a space, a dash or in brackets ("Fiesole (FI)", "20121 Milano MI").
import { describe, expect, test } from 'bun:test'
import { places, usePlacesEnv } from './places-fixture'

usePlacesEnv()

const first = async (q: string) => {
  const p = (await places(q))[0]
  return p === undefined ? null : { label: p.label as string, lat: (p.lat as number).toFixed(1) }
}

describe("GET /places with a state's or province's letters after the town", () => {
  test("an Italian province's letters narrow the town to the province's region", async () => {
    for (const [q, label, lat] of [
      ['Fiesole (FI)', 'Fiesole, Italy', 43.8],
      ['Fiesole FI', 'Fiesole, Italy', 43.8],
      ['Fiesole/FI', 'Fiesole, Italy', 43.8],
      ['Lodi (LO)', 'Lodi, Italy', 45.3], // not Lodi, California
      ['Rovereto MO', 'Rovereto, Italy', 44.8], // the village by Modena, not Trentino's town
      ['Riccione - RN', 'Riccione, Italy', 44.0],
      ['Lodi [LO]', 'Lodi, Italy', 45.3], // square brackets as round ones
      ['Lodi (LO', 'Lodi, Italy', 45.3], // left open, as a field cut short
      ['Lodi ( LO )', 'Lodi, Italy', 45.3],
      ['20121 Milano MI', '20121 Milano, Italy', 45.5],
      ['Via Roma 1, 20121 Milano MI', '20121 Milano, Italy', 45.5],
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: { label, lat: lat.toFixed(1) } })
    // Alone, no town by another name of its: Rennes is also named "RN", Bex "BH" (what "Bh" begins stays).
    expect(await places('RN')).toEqual([])
    expect((await places('BH')).map((p) => p.label)).not.toContain('Bex, Switzerland')
    // A US state's letters are the state's first.
    expect((await first('Milan MI'))?.label).toBe('Milan, MI, United States')
    expect((await first('Lansing MI'))?.label).toBe('Lansing, MI, United States')
  })

  test("a Brazilian state's letters narrow the town to the state, and name none elsewhere in Brazil", async () => {
    for (const q of ['Belo Horizonte, MG', 'Belo Horizonte - MG', 'Belo Horizonte/MG'])
      expect({ q, first: (await first(q))?.label }).toEqual({ q, first: 'Belo Horizonte, Brazil' })
    // The data has no Bom Jesus of Rio Grande do Sul, and no Mérida of Bahia nor of Bosnia (BA).
    for (const q of ['Bom Jesus - RS', 'Bom Jesus/RS', 'Mérida/BA'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    // Letters of no town of the state name a country's, as after a comma.
    expect((await first('Lima, PE'))?.label).toBe('Lima, Peru')
    expect((await first('Sarajevo - BA'))?.label).toBe('Sarajevo, Bosnia & Herzegovina')
  })

  test("a Brazilian state's letters naming no town of it find no typo of the words, nor a namesake of a Brazilian town", async () => {
    // Neighbourhoods the data lacks: not Mier, Mexico, Moama, Australia, or Cilandak, Indonesia.
    // Campo Grande, a Brazilian town of another state, is what the geocoder reads first: none.
    for (const q of ['Méier - RJ', 'Moema/SP', 'Ceilândia - DF', 'Vila Mariana - SP', 'Campo Grande - RJ'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    expect((await first('Frankfurt - SP'))?.label).toBe('Frankfurt am Main, Germany')
    // Read as a country's code, they take a town named as written: no Belo, Madagascar (MG), nor
    // Oleiros, Spain (ES), which "Santa Maria" names among other Spanish towns.
    // Nor where the words begin a name of a town of the state: "Belo" of Belo Horizonte.
    for (const q of ['Belo Horizonet - MG', 'Belo Horizonet/MG', 'Santa Maria - ES', 'Belo, MG', 'Belo/MG'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    expect((await first('Lima - PE'))?.label).toBe('Lima, Peru')
    // Naming none there, the town of the one country with towns of 100,000 so named, if any: no
    // Sevilla in Sweden (SE), no Hamburg in Puerto Rico (PR); Mérida is Mexico's and Venezuela's.
    for (const [q, label] of [
      ['Sevilla - SE', 'Sevilla, Spain'],
      ['Sevilla, SE', 'Sevilla, Spain'],
      ['Hamburg - PR', 'Hamburg, Germany'],
      ['Hamburg/PR', 'Hamburg, Germany'],
    ] as const)
      expect({ q, first: (await first(q))?.label }).toEqual({ q, first: label })
    // Nor by a name other towns there bear too ("Nova Londres": New London, CT, and New London,
    // OH), nor by some of the words only ("Praia do Forte" is no Praia, Cape Verde).
    for (const q of ['Nova Londres - MG', 'Nova Londres, MG', 'Praia do Forte - BA', 'Paris de Cima - MG'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    // Not a town of Portugal, whose towns' names Brazil's bear, nor one a Brazilian place is named too.
    for (const q of ['Coimbra - MG', 'Silves - AM', 'Palma - MG', 'Aveiro - PA'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    expect((await first('Tunis - TN'))?.label).toBe('Tunis, Tunisia')
  })

  test("a Brazilian state's letters naming no country find a town abroad only as the geocoder does", async () => {
    // Some of the words only, a name a Brazilian town bears, or a Portuguese town: none, after
    // letters of no country (SP, RJ) or of a US state or a Canadian province (PE, AL) too.
    for (const q of [
      'Praia do Forte - SP',
      'Praia do Forte, SP',
      'Praia do Forte/SP',
      'Praia do Forte - PE',
      'Praia do Forte, AL',
      'Toledo - RJ',
      'Palma - SP',
      'Coimbra - SP',
    ])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    expect((await first('Frankfurt - SP'))?.label).toBe('Frankfurt am Main, Germany')
    // Nor one whose name a Portuguese town bears (Lagos, Portugal), as the geocoder reads them.
    for (const q of ['Lagos - SP', 'Lagos - PE']) expect({ q, found: await places(q) }).toEqual({ q, found: [] })
  })
  test("a Mexican state's letters narrow the town to the state, as the geocoder reads them", async () => {
    for (const [q, label, lat] of [
      ['Guadalajara, JAL', 'Guadalajara, Mexico', 20.7], // not Jal, New Mexico
      ['Victoria, TAMPS', 'Ciudad Victoria, Mexico', 23.7],
      ['La Paz, BCS', 'La Paz, Mexico', 24.1],
      ['Valladolid, YUC', 'Valladolid, Mexico', 20.7],
      ['Guadalupe, ZAC', 'Guadalupe, Mexico', 22.7],
      ['Monterrey, NL', 'Monterrey, Mexico', 25.7],
      ['Tepic, NAY', 'Tepic, Mexico', 21.5], // not Nay, France
    ] as const)
      expect({ q, first: await first(q) }).toEqual({ q, first: { label, lat: lat.toFixed(1) } })
    expect((await first('Vancouver, BC'))?.label).toBe('Vancouver, BC, Canada')
  })
  test('a district before its town beside a space, then letters or a country, is the town, as the geocoder reads it', async () => {
    for (const [q, label] of [
      ['Centro Madrid, ES', 'Madrid, Spain'], // ES: Espírito Santo, or Spain
      ['Miraflores Lima, PE', 'Lima, Peru'], // PE: Pernambuco, or Peru
      ['Soho London, UK', 'London, United Kingdom'], // not Uk, Russia
      ['Mitte Berlin, Germany', 'Berlin, Germany'],
    ] as const)
      expect({ q, first: (await first(q))?.label }).toEqual({ q, first: label })
    // Not where the words with one more before them are a place's name: no Forte of São Paulo.
    expect(await places('Praia do Forte - SP')).toEqual([])
  })
  test("a Brazilian state's letters before a CEP narrow the town to the state, as the geocoder reads them", async () => {
    for (const [q, label] of [
      ['Recife PE 50000-000', 'Recife, Brazil'],
      ['Belo Horizonte MG 30130-000', 'Belo Horizonte, Brazil'],
      ['Recife - PE, 50000-000', 'Recife, Brazil'], // no 50000 Saint-Lô, France
      ['Belo Horizonte/MG, 30130-000', 'Belo Horizonte, Brazil'], // no 30130 Venezia, Italy
      ['Rua Augusta, 100 - Consolação, São Paulo/SP, 01305-000', 'São Paulo, Brazil'],
      ['Recife, PE 50000-000', 'Recife, Brazil'],
      ['Av. Paulista 1000, São Paulo, SP 01310-100', 'São Paulo, Brazil'],
      ['Toledo, PR 85900-000', 'Toledo, Brazil'], // Paraná's, not Puerto Rico's nor Spain's
      ['Salvador BA 40020000', 'Salvador, Brazil'], // a CEP without its dash
      ['recife pe 50000000', 'Recife, Brazil'],
    ] as const)
      expect({ q, first: (await first(q))?.label }).toEqual({ q, first: label })
  })
  test("a Brazilian state's letters written small after a town of Brazil or of no place read as in capitals", async () => {
    for (const q of ['praia do forte - pe', 'bom jesus - rs'])
      expect({ q, found: await places(q) }).toEqual({ q, found: [] })
    for (const q of ['recife, pe', 'salvador/ba', 'Centro, Curitiba - pr'])
      expect({ q, brazil: (await first(q))?.label.endsWith(', Brazil') }).toEqual({ q, brazil: true })
    expect((await first('Frankfurt - am'))?.label).toBe('Frankfurt am Main, Germany')
    // Before a CEP too: no 50000 Saint-Lô, France, nor 30130 Venezia, Italy.
    for (const [q, label] of [
      ['recife - pe, 50000-000', 'Recife, Brazil'],
      ['recife pe 50000-000', 'Recife, Brazil'],
      ['belo horizonte/mg, 30130-000', 'Belo Horizonte, Brazil'],
    ] as const)
      expect({ q, first: (await first(q))?.label }).toEqual({ q, first: label })
  })
})
