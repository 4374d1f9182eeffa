// Locations CSV hours columns: a column of weekdays' hours, and a day's column that holds notes
// or dates a spreadsheet made of its hours.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { bodies, readError } from './csv-read'

describe('hours columns', () => {
  test('"Wochentage" heads Monday to Friday\'s hours, as "Werktags" does', () => {
    const week = (weekdays: string) =>
      bodies(`Name;Adresse;${weekdays};Samstag;Sonntag\nA;Hauptstr. 1, Berlin;9-18;10-14;geschlossen\n`)[0]!.hours
    const hours = { monday: '9-18', tuesday: '9-18', wednesday: '9-18', thursday: '9-18', friday: '9-18' }
    expect(week('Wochentage')).toEqual({ ...hours, saturday: '10-14', sunday: 'geschlossen' })
    expect(week('Werktags')).toEqual(week('Wochentage'))
  })

  test("a day's column holding no hours beside a column of days naming it is notes, said of the file; one with hours is refused", () => {
    const header = 'Name;Adresse;Mo-Fr;Sa-So;Sonntag\n'
    const notes = `${header}A;Hauptstr. 1, Berlin;9-18;10-14;nur nach Vereinbarung\nB;Hauptstr. 2, Berlin;9-18;zu;\n`
    const read = readLocationsCsv(notes)
    expect(read.rows.map((r) => r.body.hours)).toEqual([
      {
        monday: '9-18',
        tuesday: '9-18',
        wednesday: '9-18',
        thursday: '9-18',
        friday: '9-18',
        saturday: '10-14',
        sunday: '10-14',
      },
      {
        monday: '9-18',
        tuesday: '9-18',
        wednesday: '9-18',
        thursday: '9-18',
        friday: '9-18',
        saturday: 'zu',
        sunday: 'zu',
      },
    ])
    expect(read.unknown).toEqual(['Sonntag'])
    // The column is at fault, not line 2's store: a note of the file, as StoreRocket's hours_id is.
    expect(read.rows.map((r) => r.notes)).toEqual([[], []])
    expect(read.notes).toEqual([
      'The column "Sonntag" (column E) holds no hours, only text such as notes, so it is not read as Sunday\'s hours: "Sa-So" gives them. Rename it (for example "description") to import it.',
    ])
    // One row's hours in it ("zu", closed, as a dash or an "x" would be) leave which column is Sunday's in doubt.
    for (const cell of ['zu', '-', 'x', '10-12'])
      expect(
        readError(
          `${header}A;Hauptstr. 1, Berlin;9-18;10-14;nach Vereinbarung\nB;Hauptstr. 2, Berlin;9-18;10-14;${cell}\n`,
        ).message,
      ).toBe(
        `line 1: the columns "Sa-So" (column D) and "Sonntag" (column E) both fill Sunday's hours ("Sonntag" gives "${cell}" on line 3). Delete or rename one of them.`,
      )
  })

  test("a day's column of hours a spreadsheet made dates of is no notes; an empty one is said to hold none", () => {
    const header = 'Name;Adresse;Mo-Fr;Sa-So;Sonntag\n'
    // "10-14" that Excel saved as "14. Okt" is hours, in doubt as any other.
    expect(readError(`${header}A;Hauptstr. 1, Berlin;9-18;10-14;14. Okt\n`).message).toBe(
      'line 1: the columns "Sa-So" (column D) and "Sonntag" (column E) both fill Sunday\'s hours ("Sonntag" gives "14. Okt" on line 2). Delete or rename one of them.',
    )
    // Left empty, it holds no notes either: nothing is lost, and its first row says nothing of it.
    const empty = readLocationsCsv(`${header}A;Hauptstr. 1, Berlin;9-18;10-14;\n`)
    expect(empty.rows[0]!.body.hours).toMatchObject({ sunday: '10-14' })
    expect([empty.unknown, empty.rows[0]!.notes]).toEqual([['Sonntag'], []])
  })
})
