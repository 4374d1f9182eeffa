// A locations CSV in an encoding other than UTF-8, read when its encoding is named; refused,
// saying how to name it, when it is not.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readLocationsCsv } from '../../src/locations/csv'
import { CsvError } from '../../src/locations/csv-records'

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))

function refusal(read: () => unknown): CsvError {
  try {
    read()
  } catch (e) {
    if (e instanceof CsvError) return e
    throw e
  }
  throw new Error('read without error')
}

describe('a CSV in a named encoding', () => {
  test('Windows-1252 (an Excel "CSV (Comma delimited)" in the West) is read when named, by any of its labels', () => {
    for (const encoding of ['windows-1252', 'iso-8859-1', 'latin1', ' CP1252 ']) {
      const read = readLocationsCsv(fixture('cp1252.csv'), [], { encoding })
      expect(read.rows.map((r) => r.body.name)).toEqual(['Café Müller', 'Señor Bici', 'Crème Brûlée Paris'])
      expect(read.rows[0]!.body.address).toBe('Hauptstraße 5, 10117 Berlin, Germany')
      expect(read.rows.flatMap((r) => r.notes)).toEqual([])
    }
  })

  test('Central European, Cyrillic and Mac Roman files are read in theirs', () => {
    const bytes = (...b: number[]) => Uint8Array.from([...new TextEncoder().encode('name,city\nA,'), ...b])
    expect(readLocationsCsv(bytes(0xa3, 0xf3, 0x64, 0x9f), [], { encoding: 'windows-1250' }).rows[0]!.body).toEqual({
      name: 'A',
      address: 'Łódź',
    })
    expect(
      readLocationsCsv(bytes(0xcc, 0xee, 0xf1, 0xea, 0xe2, 0xe0), [], { encoding: 'windows-1251' }).rows[0]!.body
        .address,
    ).toBe('Москва')
    expect(
      readLocationsCsv(bytes(0x5a, 0x9f, 0x72, 0x69, 0x63, 0x68), [], { encoding: 'macintosh' }).rows[0]!.body.address,
    ).toBe('Zürich')
  })

  test('a Windows-1252 file with letters Excel could not save is read, and the "?"s warned of', () => {
    const read = readLocationsCsv(fixture('cp1252_lodz.csv'), [], { encoding: 'windows-1252' })
    expect(read.rows[3]!.notes).toHaveLength(1)
    expect(read.rows[3]!.notes[0]).toStartWith(
      'A "?" stands for a letter in "?ód? Rowery" in the "Name" column and "?ód?" in the "City" column:',
    )
  })

  test('UTF-8 named as UTF-8 is read as without a name; UTF-8 named as Windows-1252 is read so, and warned of', () => {
    const utf8 = new TextEncoder().encode('name\nCafé\n')
    expect(readLocationsCsv(utf8, [], { encoding: 'utf-8' }).rows[0]!.body.name).toBe('Café')
    const misnamed = readLocationsCsv(utf8, [], { encoding: 'windows-1252' }).rows[0]!
    expect(misnamed.body.name).toBe('CafÃ©')
    expect(misnamed.notes[0]).toStartWith('"CafÃ©" in the "name" column (most likely "Café") is garbled')
    // With a byte order mark (as exports start), UTF-8 whatever it is named: its header and text read right.
    const marked = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8])
    const read = readLocationsCsv(marked, [], { encoding: 'windows-1252' })
    expect([read.rows[0]!.body.name, read.rows[0]!.notes]).toEqual(['Café', []])
  })

  test('an encoding TextDecoder does not know is refused, naming the ones to give', () => {
    const e = refusal(() => readLocationsCsv(fixture('cp1252.csv'), [], { encoding: 'ansi' }))
    expect(e.line).toBeNull()
    expect(e.message).toBe(
      'The encoding "ansi" is not one this service knows. Name it as the WHATWG Encoding Standard does, such as windows-1252 (Western Europe, also read for iso-8859-1), windows-1250 (Central Europe), iso-8859-2, windows-1251 or macintosh; or leave it out for UTF-8.',
    )
  })

  test('bytes that are no text in the encoding named are refused naming their line, as bytes not UTF-8 are', () => {
    const ascii = (text: string) => [...new TextEncoder().encode(text)]
    // "あ" in Shift_JIS is 82 A0; 82 FF is no character in Shift_JIS, EUC-JP or Big5.
    const bytes = Uint8Array.from([
      ...ascii('name,address,lat,lng\n'),
      ...[0x82, 0xa0],
      ...ascii(',1 Rue,48.87,2.33\n'),
      ...[0x82, 0xff],
      ...ascii(',2 Rue,48.87,2.33\n'),
    ])
    expect(readLocationsCsv(bytes.subarray(0, 41), [], { encoding: 'shift_jis' }).rows[0]!.body.name).toBe('あ')
    const lines = ['shift_jis', 'euc-jp', 'big5'].map((encoding) => {
      const e = refusal(() => readLocationsCsv(bytes, [], { encoding }))
      return [encoding, e.line, e.message.split('. ')[0]]
    })
    expect(lines).toEqual([
      ['shift_jis', 3, 'line 3: the file is named "shift_jis", but this line holds bytes that are no shift_jis text'],
      ['euc-jp', 2, 'line 2: the file is named "euc-jp", but this line holds bytes that are no euc-jp text'],
      ['big5', 2, 'line 2: the file is named "big5", but this line holds bytes that are no big5 text'],
    ])
  })

  test("x-user-defined, no text's encoding, is refused beyond ASCII saying which to give; ASCII named so is read", () => {
    const e = refusal(() => readLocationsCsv(fixture('cp1252.csv'), [], { encoding: 'x-user-defined' }))
    expect([e.line, e.message]).toEqual([
      null,
      'The file is named "x-user-defined", which is no text\'s encoding: each byte beyond ASCII would be read as a private-use character, not a letter. Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and leave out --encoding. Or, if it is Windows-1252 (most back offices in the West), give its encoding: --encoding windows-1252.',
    ])
    const ascii = new TextEncoder().encode('name\nCafe\n')
    expect(readLocationsCsv(ascii, [], { encoding: 'x-user-defined' }).rows[0]!.body.name).toBe('Cafe')
  })

  test('bytes not UTF-8, their encoding not named, are refused saying how to name it', () => {
    const e = refusal(() => readLocationsCsv(fixture('cp1252.csv')))
    expect(e.line).toBe(2)
    expect(e.message).toContain(
      'Or, if it is Windows-1252 (most back offices in the West), give its encoding: --encoding windows-1252.',
    )
    const http = refusal(() =>
      readLocationsCsv(fixture('cp1252.csv'), [], {
        nameEncoding: (label) => `name it in the Content-Type: text/csv; charset=${label}`,
      }),
    )
    expect(http.message).toContain(
      '(most back offices in the West), name it in the Content-Type: text/csv; charset=windows-1252.',
    )
  })
})
