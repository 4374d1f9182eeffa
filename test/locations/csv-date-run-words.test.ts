// A run of days as Dutch, Swedish, Danish and Norwegian sheets write it, the word for "to" between
// its first day and a date whose day comes first ("24 t/m 26 december", "24 till 26 december"):
// each of its days is read.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

const read = (csv: string) =>
  readLocationsCsv(csv).rows.map((r) => [r.body.special_hours, r.problems.map((p) => `${p.field}: ${p.message}`)])

test('"t/m", "tot", "till" and "til" between the days of a run', () => {
  const csv =
    'name;Special hours\n' +
    'A;24 t/m 26 december 2026 gesloten\n' +
    'B;24 tot 26 december 2026 gesloten\n' +
    'C;24 till 26 december 2026 stängt\n' +
    'D;24. til 26. december 2026 lukket\n' +
    'E;24. til 26. desember 2026 stengt\n'
  const days = (text: string) => ({ '2026-12-24': text, '2026-12-25': text, '2026-12-26': text })
  expect(read(csv)).toEqual([
    [days('gesloten'), []],
    [days('gesloten'), []],
    [days('stängt'), []],
    [days('lukket'), []],
    [days('stengt'), []],
  ])
})

test('a word for "from" before a run\'s first day: "du 24 au 26 décembre", "vom 24. bis 26. Dezember"', () => {
  const csv =
    'name;Special hours\n' +
    'A;du 24 au 26 décembre 2026 fermé\n' +
    'B;del 24 al 26 de diciembre de 2026 cerrado\n' +
    'C;dal 24 al 26 dicembre 2026 chiuso\n' +
    'D;vom 24. bis 26. Dezember 2026 geschlossen\n' +
    'E;van 24 t/m 26 december 2026 gesloten\n'
  const days = (text: string) => ({ '2026-12-24': text, '2026-12-25': text, '2026-12-26': text })
  expect(read(csv)).toEqual([
    [days('fermé'), []],
    [days('cerrado'), []],
    [days('chiuso'), []],
    [days('geschlossen'), []],
    [days('gesloten'), []],
  ])
})
