// Text a spreadsheet garbled before the file was imported: UTF-8 read as Windows-1252 ("CafÃ©")
// and letters Excel wrote as "?" ("Gda?sk") are imported as written, with a warning per row.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readLocationsCsv } from '../../src/locations/csv'

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))
const notesOf = (input: string | Uint8Array) => readLocationsCsv(input).rows.map((r) => r.notes)

describe('garbled text in a CSV', () => {
  test('UTF-8 read as Windows-1252 and saved again is warned of, naming each column, its text and the likely one', () => {
    const read = readLocationsCsv(fixture('mojibake.csv'))
    expect(read.rows[0]!.body.name).toBe('CafÃ© MÃ¼ller') // imported as written
    const [first] = read.rows[0]!.notes
    expect(first).toStartWith(
      '"CafÃ© MÃ¼ller" in the "Name" column (most likely "Café Müller") and "HauptstraÃŸe 5" in the "Address" column (most likely "Hauptstraße 5") are garbled: UTF-8 text read as Windows-1252,',
    )
    expect(first).toEndWith(
      'In Excel, open the original file with Data > From Text/CSV, File origin "65001: Unicode (UTF-8)", then save it as "CSV UTF-8 (Comma delimited)"; or correct the text.',
    )
    expect(read.rows[1]!.notes[0]).toStartWith(
      '"SeÃ±or Bici" in the "Name" column (most likely "Señor Bici") is garbled',
    )
    // "Ł" lost to U+FFFD on the way: still garbled, no likely text to offer.
    expect(read.rows[3]!.notes[0]).toStartWith(
      '"Å\uFFFDÃ³dÅº Rowery" in the "Name" column and "Å\uFFFDÃ³dÅº" in the "City" column are garbled',
    )
  })

  test('Polish, Czech, Turkish, Cyrillic and curly quotes garbled so are warned of, with the text they were', () => {
    // What Excel does: the file's UTF-8 bytes read as Windows-1252.
    const garble = (text: string) => new TextDecoder('windows-1252').decode(new TextEncoder().encode(text))
    const meant = ['Kraków łódka', 'Příklad', 'İstanbul Çarşı', 'Москва', 'Joe’s “Bikes”', 'À la carte']
    const notes = notesOf(`name\n${meant.map(garble).join('\n')}\n`)
    meant.forEach((text, i) => {
      expect(notes[i]).toHaveLength(1)
      expect(notes[i]![0]).toContain(`in the "name" column (most likely ${JSON.stringify(text)}) is garbled`)
    })
  })

  test('text in any language written right is not warned of', () => {
    const csv = [
      'name,address,description,website',
      'SÃO PAULO CENTRO,"Avenida Paulista 1, São Paulo",Pão e maçã,https://example.com/?a=b',
      'Ålesund Sykkel,Ærøgade 1,Åben søndag? Ja!,https://example.com/page?id=1',
      'Öl & Ärger,Straße 1,"Lizenz: © 2024, 50 °C",',
      'Crème brûlée,Łódź,"Что? Где? Когда?",',
      'Who? Bar,"Main St 1 (corner?), Town",Is it open? Yes.,',
    ].join('\n')
    expect(notesOf(csv)).toEqual([[], [], [], [], []])
  })

  test('a "?" inside a word of a name or address is a letter Excel could not save: warned of, URLs are not', () => {
    const notes = notesOf(fixture('qmarks.csv'))
    expect(notes).toEqual([
      [
        'A "?" stands for a letter in "Gda?sk Rowery" in the "Name" column and "D?uga 1, 80-831 Gda?sk" in the "Address" column: Excel writes "?" for a letter the file\'s encoding cannot hold (Polish "ń" in Windows-1252), and the letter is lost. Imported as written: type the letters again, and save as "CSV UTF-8 (Comma delimited)", which keeps every letter.',
      ],
    ])
    expect(notesOf('name,city,website\nA,?ód?,https://a.example/x?y=z\n')[0]).toHaveLength(1)
    expect(notesOf('name,website,description\nA,https://a.example/x?y=z,what?yes\n')[0]).toEqual([])
  })

  test('a header garbled as its cells are names its column', () => {
    const read = readLocationsCsv('Name,StraÃŸe,Breitengrad,LÃ¤ngengrad\nA,Hauptstraße 1,52.5,13.4\n')
    expect(read.columns.map((c) => c.field)).toEqual(['name', 'street', 'coordinates.lat', 'coordinates.lng'])
    expect(read.unknown).toEqual([])
  })

  test('a formula saved as its text is warned of; a guarded text ("\'=") and a phone starting "+" are not', () => {
    const read = readLocationsCsv(fixture('contact.csv'))
    const p5 = read.rows[4]!
    expect(p5.body.contact).toMatchObject({ phone: '=+49 30 1' })
    expect(p5.notes).toEqual([
      '"=+49 30 1" in the "Phone" column is a spreadsheet formula, not its value: imported as written. In the spreadsheet, copy the column and paste it as values, then save the file again.',
    ])
    expect(notesOf("name,description,phone\n'=Shop,'=a;b,+49 30 1234567\n")).toEqual([[]])
  })

  test('a phone in scientific notation ("4.93E+11": digits lost) is not read, and warned of with the fix', () => {
    const read = readLocationsCsv(fixture('contact.csv'))
    const p6 = read.rows[5]!
    expect(p6.body.contact).toEqual({ website: 'https://example.de', email: 'a@b.de' })
    expect(p6.notes).toEqual([
      '"4.93E+11" in the "Phone" column is a phone number Excel wrote in scientific notation: its last digits are lost, so it was not read (a phone stored before stays). In Excel, format the column as Text, type the numbers again, and save.',
    ])
    expect(readLocationsCsv('name,phone\nA,"4,93E+11"\n').rows[0]!.body).toEqual({ name: 'A' })
    // Every other phone of the file is read as written, unwarned.
    expect(read.rows.filter((_, i) => i !== 4 && i !== 5).flatMap((r) => r.notes)).toEqual([])
    expect(notesOf('name,phone,description\nA,+1 555 0100 ext 2,4.93E+11\n')).toEqual([[]])
  })

  test('hours Excel made a date of ("9-5" as "5-Sep", "9-18" as "18. Sep") are kept as written, and warned of with the fix', () => {
    const read = readLocationsCsv('name,Monday,Tuesday,Wednesday,Hours Sat\nA,5-Sep,Sep-18,9:00-17:00,18. Sep\n')
    expect(read.rows[0]!.body.hours).toMatchObject({ monday: '5-Sep', tuesday: 'Sep-18', wednesday: '9:00-17:00' })
    expect(read.rows[0]!.notes).toEqual([
      '"5-Sep" in the "Monday" column and "Sep-18" in the "Tuesday" column and "18. Sep" in the "Hours Sat" column are dates a spreadsheet made of hours typed as "9-5": kept as written, their hours unknown. Format those columns as Text, type the hours again with their minutes ("09:00-17:00"), and save.',
    ])
    // A day's hours that only look so in a description are no date of a spreadsheet's.
    expect(notesOf('name,description,Monday\nA,5-Sep,9-17\n')).toEqual([[]])
  })

  test("hours made a date in a German, French, Spanish, Italian or Dutch spreadsheet's months are warned of", () => {
    // Each as that language's Excel writes its months short: "Mrz", "sept.", "juil.", "dic", "mag", "mrt".
    for (const cell of [
      '05. Mrz',
      '5-sept',
      '5-sept.',
      'sept.-18',
      '5-déc.',
      '5-juil.',
      '5-févr.',
      '5-ene',
      '5-dic',
      '5-mag',
      '5-set',
      '5-mrt',
      '5-mei',
    ]) {
      const [notes] = notesOf(`name,Monday\nA,${cell}\n`)
      expect([cell, notes!.length]).toEqual([cell, 1])
    }
    // Hours that are no date stay without the note.
    expect(notesOf('name,Monday,Tuesday\nA,1-2,10-12\n')).toEqual([[]])
  })
})
