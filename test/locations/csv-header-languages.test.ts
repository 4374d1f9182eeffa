// Locations CSV headers that are a word in one language the import reads and a misspelling in
// another: read by the file's other headers, asked about only where they are a misspelling.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

describe('a header that is a word of one language and a misspelling in another', () => {
  test('Swedish "Adress" is the address beside other Nordic headers, asked about beside English', () => {
    const read = readLocationsCsv('Butiksnummer;Namn;Adress;Postort\nS1;Sthlm City;Drottninggatan 5;Stockholm\n')
    expect(read.unknown).toEqual([])
    expect(read.rows[0]!.body).toMatchObject({ external_id: 'S1', name: 'Sthlm City' })
    expect(String(read.rows[0]!.body.address)).toContain('Drottninggatan 5')
    // Swedish weekdays, Danish or Norwegian headers say the same.
    for (const header of ['Adress;Måndag', 'Navn;Adress', 'Adress;Poststed']) {
      const columns = readLocationsCsv(`${header}\nKungsgatan 1;9-18\n`).columns
      expect([header, columns[header.split(';').indexOf('Adress')]!.field]).toEqual([header, 'address'])
    }
    // Among English headers it is "Address" misspelt: asked about, not read.
    const english = readLocationsCsv('Name,Adress,Lat,Lng\nA,Main St 1,52.5,13.4\n')
    expect([english.unknown, english.rows[0]!.body.address]).toEqual([['Adress'], undefined])
  })

  test('visiting addresses and Swedish website words are read', () => {
    const read = readLocationsCsv('Namn,Besöksadress,Webbsida\nA,"Drottninggatan 5, Stockholm",www.a.se\n')
    expect(read.columns.map((c) => c.field)).toEqual(['name', 'address', 'contact.website'])
    const no = readLocationsCsv('Navn,Besøksadresse,Webbadress\nB,"Karl Johans gate 1, Oslo",b.no\n')
    expect(no.columns.map((c) => c.field)).toEqual(['name', 'address', 'contact.website'])
  })

  test('a postal address is no misspelt email address, a state no street', async () => {
    const { meantColumn } = await import('../../src/locations/csv-columns')
    expect(['Postadress', 'Postadresse', 'E-postadres'].map(meantColumn)).toEqual([null, null, 'e-postadress'])
    // German "Staat" is no Dutch "Straat" misspelt, Italian "Stato" no "State".
    expect(['Staat', 'Stato', 'Straaat'].map(meantColumn)).toEqual([null, null, 'straat'])
  })

  test('a word of the same field in another form is read: "Horaire", "Horarios", "Orario", Dutch "Huisnr"', () => {
    const fields = ['Horaire', 'Horarios', 'Orario', 'Huisnr'].map(
      (h) => readLocationsCsv(`name,${h}\n`).columns[1]!.field,
    )
    expect(fields).toEqual(['hours', 'hours', 'hours', 'house_number'])
  })
})

test("special hours are read under each language's name for them", () => {
  const headers = [
    'Horaires exceptionnels',
    'Horaires spéciaux',
    'Horario especial',
    'Orari speciali',
    'Afwijkende openingstijden',
    'Avvikande öppettider',
    'Særlige åbningstider',
    'Avvikende åpningstider',
  ]
  const fields = headers.map((h) => readLocationsCsv(`name,${h}\n`).columns[1]!.field)
  expect(fields).toEqual(headers.map(() => 'special_hours'))
})
