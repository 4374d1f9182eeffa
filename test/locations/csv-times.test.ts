// A day's hours in two columns, its opening and its closing time ("Monday Open", "Monday Close"),
// as store-locator templates and exports give them, with the times as Excel writes them.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { readError } from './csv-read'

const NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const week = (...days: string[]) => Object.fromEntries(NAMES.map((day, i) => [day, days[i]]))
/** A header of each day's pair of columns, `open` and `close` after its name as `day` writes it. */
const pairs = (day: (name: string) => string, open: string, close: string) =>
  NAMES.flatMap((name) => [`${day(name)}${open}`, `${day(name)}${close}`]).join(',')

describe("a day's opening and closing times in two columns", () => {
  test("templates name them in several ways and languages; each pair is its day's hours", () => {
    const spellings: [string, string][] = [
      [pairs((d) => d.slice(0, 3), '_open', '_close'), '09:00,17:00'],
      [pairs((d) => d[0]!.toUpperCase() + d.slice(1), ' Open', ' Close'), '09:00,17:00'],
      [pairs((d) => d.slice(0, 3), ' Opening Time', ' Closing Time'), '09:00,17:00'],
      ['Montag von,Montag bis,Dienstag von,Dienstag bis', '09:00,17:00'],
      ['lundi ouverture,lundi fermeture,mardi ouverture,mardi fermeture', '09:00,17:00'],
      // The word first, as many German and English exports write it.
      ['Öffnung Mo,Schließung Mo,Öffnung Di,Schließung Di', '09:00,17:00'],
      ['Opening Monday,Closing Monday,Opening Tuesday,Closing Tuesday', '09:00,17:00'],
      ['Open Mon,Close Mon,Open Tue,Close Tue', '09:00,17:00'],
    ]
    for (const [header, times] of spellings) {
      const cells = header.split(',').map((_, i) => times.split(',')[i % 2])
      const read = readLocationsCsv(`name,${header}\nA,${cells.join(',')}\n`)
      expect([read.unknown, read.rows[0]!.problems]).toEqual([[], []])
      expect(read.rows[0]!.body.hours).toMatchObject({ monday: '09:00-17:00', tuesday: '09:00-17:00' })
    }
  })

  test("Excel's time forms: 09:00, 9:00 AM, 9:00:00, a day fraction, an hour alone", () => {
    const header = `name,${pairs((d) => d.slice(0, 3), '_open', '_close')}`
    const row = [
      '09:00,18:30',
      '9:00 AM,6:30 PM',
      '09:00:00,18:30:00',
      '0.375,"0,7708333333"',
      '9,5',
      '1899-12-30 09:00:00,1899-12-30 18:30:00',
      ',',
    ].join(',')
    const read = readLocationsCsv(`${header}\nA,${row}\n`)
    expect(read.rows[0]!.problems).toEqual([])
    expect(read.rows[0]!.body.hours).toEqual(
      week('09:00-18:30', '9:00 AM-6:30 PM', '09:00-18:30', '09:00-18:30', '9-5', '09:00-18:30', 'closed'),
    )
  })

  test("Excel's midnight, 0, and its end of the day, 1 beside a day fraction, are 00:00 and 24:00", () => {
    const header = 'name,Monday Open,Monday Close,Tuesday Open,Tuesday Close,Friday Open,Friday Close'
    const read = readLocationsCsv(`${header}\nA,0.25,0,0.375,1,9,1\n`)
    expect(read.rows[0]!.problems).toEqual([])
    // "9" then "1": hours alone, 9 to 1 in the afternoon, as a day column reads "9-1".
    expect(read.rows[0]!.body.hours).toMatchObject({ monday: '06:00-00:00', tuesday: '09:00-24:00', friday: '9-1' })
  })

  test('a second pair is the hours after a break; a day with both cells empty is closed beside days with hours', () => {
    const header = 'name,Monday Open,Monday Close,Monday Open 2,Monday Close 2,Tuesday Open,Tuesday Close'
    const read = readLocationsCsv(`${header}\nA,09:00,12:30,14:00,18:00,,\nB,,,,,,\nC,Closed,,,,10:00,16:00\n`)
    expect(read.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [{ monday: '09:00-12:30, 14:00-18:00', tuesday: 'closed' }, []],
      [undefined, []], // no time in the row: its hours stay as they are
      [{ monday: 'Closed', tuesday: '10:00-16:00' }, []], // a closed word in one cell is the day's
    ])
  })

  test('an opening time without its closing time is a problem naming the cells', () => {
    const read = readLocationsCsv('name,Monday Open,Monday Close,Tuesday Open,Tuesday Close\nA,09:00,,,17:00\n')
    expect(read.rows[0]!.problems).toEqual([
      {
        field: 'hours.monday',
        message:
          'The "Monday Open" cell (column B) gives "09:00" but the "Monday Close" cell (column C) is empty. Write the time it closes, or "closed" in both for a day it does not open.',
      },
      {
        field: 'hours.tuesday',
        message:
          'The "Tuesday Close" cell (column E) gives "17:00" but the "Tuesday Open" cell (column D) is empty. Write the time it opens, or "closed" in both for a day it does not open.',
      },
    ])
  })

  test('"closed" in one cell and a time in the other is a problem naming the cells', () => {
    const read = readLocationsCsv('name,Monday Open,Monday Close,Tuesday Open,Tuesday Close\nA,closed,17:00,09:00,x\n')
    expect(read.rows[0]!.problems).toEqual([
      {
        field: 'hours.monday',
        message:
          'The "Monday Open" cell (column B) gives "closed" but the "Monday Close" cell (column C) gives "17:00". Write "closed" in both for a day it does not open, or the times it opens and closes.',
      },
      {
        field: 'hours.tuesday',
        message:
          'The "Tuesday Open" cell (column D) gives "09:00" but the "Tuesday Close" cell (column E) gives "x". Write "closed" in both for a day it does not open, or the times it opens and closes.',
      },
    ])
  })

  test("a column of opening times without its closing one is not read; one beside its day's column is refused", () => {
    const lone = readLocationsCsv('name,Sunday Open\nA,yes\n')
    expect([lone.unknown, lone.rows[0]!.body.hours]).toEqual([['Sunday Open'], undefined])
    expect(readError('name,monday,Monday Open,Monday Close\nA,9-5,09:00,17:00\n').message).toBe(
      'line 1: the columns "monday" (column B) and "Monday Open" (column C) both fill Monday\'s hours. Delete or rename one of them.',
    )
  })
})

describe("a range of days' opening and closing times", () => {
  test('"Mo-Fr von"/"Mo-Fr bis" and "Mon-Fri Open"/"Mon-Fri Close" are the times of each day of the range', () => {
    const german = readLocationsCsv(
      'Name;Mo-Fr von;Mo-Fr bis;Sa von;Sa bis;So von;So bis\nA;09:00;18:00;10:00;14:00;;\n',
    )
    expect([german.unknown, german.rows[0]!.problems, german.rows[0]!.body.hours]).toEqual([
      [],
      [],
      week('09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '10:00-14:00', 'closed'),
    ])
    const english = readLocationsCsv(
      'name,Mon-Fri Open,Mon-Fri Close,Mon - Fri Open 2,Mon - Fri Close 2,Sat-Sun Open,Sat-Sun Close\nA,9:00 AM,12:30 PM,1:30 PM,6:00 PM,closed,closed\n',
    )
    const weekday = '9:00 AM-12:30 PM, 1:30 PM-6:00 PM'
    expect([english.unknown, english.rows[0]!.problems, english.rows[0]!.body.hours]).toEqual([
      [],
      [],
      week(weekday, weekday, weekday, weekday, weekday, 'closed', 'closed'),
    ])
    // A slash joins two days as "&" does ("Sat/Sun"), and still parts a day from its word ("Mon/Open").
    const slash = readLocationsCsv('name,Sat/Sun Open,Sat/Sun Close,Mon/Open,Mon/Close\nA,10:00,14:00,09:00,17:00\n')
    expect([slash.unknown, slash.rows[0]!.body.hours]).toEqual([
      [],
      { monday: '09:00-17:00', saturday: '10:00-14:00', sunday: '10:00-14:00' },
    ])
  })

  test("a range's time alone is one problem, of its first day; a range and its day's pair are refused", () => {
    const read = readLocationsCsv('name,Mo-Fr von,Mo-Fr bis\nA,09:00,\n')
    expect(read.rows[0]!.problems).toEqual([
      {
        field: 'hours.monday',
        message:
          'The "Mo-Fr von" cell (column B) gives "09:00" but the "Mo-Fr bis" cell (column C) is empty. Write the time it closes, or "closed" in both for a day it does not open.',
      },
    ])
    expect(readError('name,Mo-Fr von,Mo-Fr bis,Mittwoch von,Mittwoch bis\nA,09:00,18:00,10:00,12:00\n').message).toBe(
      'line 1: the columns "Mo-Fr von" (column B) and "Mittwoch von" (column D) both fill Wednesday\'s opening time. Delete or rename one of them.',
    )
    expect(readError('name,saturday,Sat-Sun Open,Sat-Sun Close\nA,10-14,10:00,14:00\n').message).toBe(
      'line 1: the columns "saturday" (column B) and "Sat-Sun Open" (column C) both fill Saturday\'s hours. Delete or rename one of them.',
    )
    // A range's ends name the same days: "Mo-Fr von" beside "Mo-Sa bis" is no pair.
    expect(readLocationsCsv('name,Mo-Fr von,Mo-Sa bis\nA,09:00,18:00\n').unknown).toEqual(['Mo-Fr von', 'Mo-Sa bis'])
    // A lone "Opening Sat" is the day's hours, as "Öffnungszeiten Sa" is: no closing column beside it.
    expect(readLocationsCsv('name,Opening Sat\nA,10-14\n').rows[0]!.body.hours).toMatchObject({ saturday: '10-14' })
  })
})

describe('times beside a week column', () => {
  test("a day whose pair is empty takes the week's hours, as beside an empty day column; days closed beside none", () => {
    const header = 'name,hours,Monday Open,Monday Close,Tuesday Open,Tuesday Close'
    const read = readLocationsCsv(`${header}\nA,Mon-Sun 10-18,09:00,17:00,,\nB,,09:00,17:00,,\n`)
    expect(read.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [{ ...week('09:00-17:00', '10-18', '10-18', '10-18', '10-18', '10-18', '10-18') }, []],
      [{ ...week('09:00-17:00', 'closed', '', '', '', '', '') }, []],
    ])
  })
})
