// Week cells whose days' names are read by the language of the cell's other days: Spanish
// abbreviations as back-office exports write them, and words of other languages they could be.
import { expect, test } from 'bun:test'
import { weekInto } from '../src/locations/csv-week'
import { testCells, type WeekCells } from './week-cells-table'

const SPANISH: WeekCells = [
  // Lun, Mar, Mié/Mie/Mier, Jue/Juev, Vie/Vier, Sáb/Sab, Dom/Dgo.
  ['Lun-Vier 9-18', '1-5 09:00-18:00'],
  ['Lun a Vier: 9-18, Sáb: 9-13', '1-5 09:00-18:00; 6 09:00-13:00'],
  ['Lun. a Vier. 9-18', '1-5 09:00-18:00'],
  ['Lun, Mier, Vier 9-18', '1,3,5 09:00-18:00'],
  ['Lun-Mier 9-18, Juev-Vier 9-20', '1-3 09:00-18:00; 4-5 09:00-20:00'],
  ['Lun a Juev 9-18, Vier 9-15, Sáb y Dgo cerrado', '1-4 09:00-18:00; 5 09:00-15:00; 6-7 closed'],
  ['Lun-Vie 9-18, Sáb 10-14, Dgo cerrado', '1-5 09:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Lun-Vie 9-18, Sab 10-14, Dgo. cerrado', '1-5 09:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Lun a Sáb 9-21, Dgo 10-14', '1-6 09:00-21:00; 7 10:00-14:00'],
  ['Mier 9-14', '3 09:00-14:00'],
  ['Juev 9-18', '4 09:00-18:00'],
  // "vier" is four in German and Dutch: a day only beside days Spanish names so, else a word kept unread.
  ['Mo-Fr 9-18, Sa 9-13, vier Wochen geschlossen', '1-5 09:00-18:00; 6 ?'],
  ['Mo-Fr 9-18 Uhr, im August vier Wochen Betriebsferien', '1-5 ?'],
  ['Vier 9-18', null],
]

// Two-letter days the languages read write alike for different days (docs/cli.md has the table):
// ma: Monday (Dutch maandag, Danish and Norwegian mandag), Tuesday (mardi, martes, martedì);
// di: Tuesday (Dienstag, dinsdag), Sunday (dimanche); do: Thursday (Donnerstag, donderdag),
// Sunday (domingo, domenica); so: Sunday (Sonntag, søndag), Saturday (Polish sobota). Mi (Mittwoch,
// miércoles) and Sa are one day in each. Each is read as the cell's other days and joining words
// say, refused when they say both, and read as German, Dutch and English do when they say neither.
const TWO_LETTERS: WeekCells = [
  // do
  ['Mo-Fr 9-18, Do 9-20', '1-3 09:00-18:00; 4 09:00-20:00; 5 09:00-18:00'],
  ['ma-wo 9-18, do 9-21, vr 9-18', '1-3 09:00-18:00; 4 09:00-21:00; 5 09:00-18:00'],
  ['Lun a Vie 9-18, Sa a Do 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['Lun a Vie 9-18, Sáb y Do 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['Lun a Vie 9-18, Sa 10-14, Do 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['Mar a Sáb 10-20, Do 11-14', '2-6 10:00-20:00; 7 11:00-14:00'],
  ['L-V 9-18, Sa-Do 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['Sa y Do 10-14', '6-7 10:00-14:00'],
  ['Lun-Ven 9-19, Sab 9-13, Do 10-13', '1-5 09:00-19:00; 6 09:00-13:00; 7 10:00-13:00'],
  ['Lun al Ven 9-19, Sab e Do 10-13', '1-5 09:00-19:00; 6-7 10:00-13:00'],
  ['Seg-Sex 9-18, Sáb 9-13, Do 10-13', '1-5 09:00-18:00; 6 09:00-13:00; 7 10:00-13:00'],
  ['Do 9-18', '4 09:00-18:00'],
  ['Mo-Fr 9-18, Sa a Do 10-14', null],
  ['Mo-Fr 9-18, Do 9-20, Sab 9-13', null],
  // A stray day only Romance languages name ("Sab") beside German days: "Di", "Do" are German's,
  // unless a day is then named twice (above: "Do" may be the week's Sunday).
  ['Mo, Di, Do, Fr 9-18, Sab 9-13', '1-2 09:00-18:00; 4-5 09:00-18:00; 6 09:00-13:00'],
  ['Mo-Do 9-18; Fr 9-15; Sab 10-14', '1-4 09:00-18:00; 5 09:00-15:00; 6 10:00-14:00'],
  ['Ma, Di, Do, Vr 9-18, Sab 9-13', '1-2 09:00-18:00; 4-5 09:00-18:00; 6 09:00-13:00'],
  // ma
  ['ma-vr 9-18, za 10-17', '1-5 09:00-18:00; 6 10:00-17:00'],
  ['Ma-Vr 9-18, Zat 9-17, Zon gesloten', '1-5 09:00-18:00; 6 09:00-17:00; 7 closed'],
  ['ma t/m zat. 9-17', '1-6 09:00-17:00'],
  ['ma-fr 10-17, lø 10-15', '1-5 10:00-17:00; 6 10:00-15:00'],
  ['Lun-Sáb 9-14, Ma 10-13', '1 09:00-14:00; 2 10:00-13:00; 3-6 09:00-14:00'],
  ['Ma a Do 9-18', '2-7 09:00-18:00'],
  ['Ma-Sa 9h-19h', null],
  ['Ma-Fr 9-18, Sam 9-12', null],
  // di
  ['Di-Sa 10-18, So 11-16', '2-6 10:00-18:00; 7 11:00-16:00'],
  ['Lun-Ven 9-19, Sam 9-12, Di 10-13', '1-5 09:00-19:00; 6 09:00-12:00; 7 10:00-13:00'],
  ['Sam et Di 10-18', '6-7 10:00-18:00'],
  ['Di 9h-12h', null],
  // so
  ['Mo-Fr 9-18, Sa 10-14, So geschlossen', '1-5 09:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Pn-Pt 9-17, So 9-13', '1-5 09:00-17:00; 6 09:00-13:00'],
  ['Lun-Vie 9-18, So 10-14', '1-5 09:00-18:00; 7 10:00-14:00'],
  // A span read past Sunday one way and within the week the other: from a French "Di" (Sunday,
  // seldom a week's first day) or to a German "Do" beside a day Spanish writes so too. Refused.
  ['Di a Ve 9-18', null],
  ['Di-Sa 10-18, Lun fermé', null],
  ['Sa-Do 10-14', null],
  ['Mo-Fr 9-18, Sa-Do 10-14', null],
  // A word only German and Dutch write says which: Saturday to Thursday.
  ['Sa-Do 10-14 Uhr', '1-4 10:00-14:00; 6-7 10:00-14:00'],
  ['Sa-Do 10-14, Fr geschlossen', '1-4 10:00-14:00; 5 closed; 6-7 10:00-14:00'],
  ['Mo-Fr 9-18 Uhr, Sa-Do 10-14', null],
  // Past Sunday either way, or one day the other way, or beside no day Spanish writes so: read.
  ['So-Do 11-22, Fr-Sa 11-24', '1-4 11:00-22:00; 5-6 11:00-24:00; 7 11:00-22:00'],
  ['Do-Di 11-22', '1-2,4-7 11:00-22:00'],
  ['Do a Ju 13-23', '1-4,7 13:00-23:00'],
  ['Fr-Di 10-18', '1-2,5-7 10:00-18:00'],
  ['Sáb-Do 10-14', '6-7 10:00-14:00'],
  // mi and sa: one day whichever language
  ['Lun-Vie 9-18, Mi 10-14', '1-2 09:00-18:00; 3 10:00-14:00; 4-5 09:00-18:00'],
  ['Mo-Fr 9-18, Mi 9-13', '1-2 09:00-18:00; 3 09:00-13:00; 4-5 09:00-18:00'],
  ['Lun-Vie 9-18, Sa 10-14', '1-5 09:00-18:00; 6 10:00-14:00'],
  // A day named in full in another language is that day, beside days it names again too.
  ['Mo-Fr 9-18, Samstag 9-13', '1-5 09:00-18:00; 6 09:00-13:00'],
  ['Mon-Fri 9-5, Mittwoch 9-12', '1-2 09:00-17:00; 3 09:00-12:00; 4-5 09:00-17:00'],
  ['Mon-Fri 9-12, 2-5, Mittwochnachmittag geschlossen', '1-2,4-5 09:00-12:00, 14:00-17:00; 3 09:00-12:00'],
  ['Mo-Fr 9-18, Sa 9-13, Sexta 9-12', '1-4 09:00-18:00; 5 09:00-12:00; 6 09:00-13:00'],
  ['Mo-Fr 9-18, Sa 9-13, Sex 9-12', null], // cut short, as Portuguese alone writes it
  // A name in full puts no day in doubt, but "Di" and "Do" read as Sunday beside it are each one
  // language's ("Di, Do": Tuesday and Thursday in German, or Sunday twice?).
  ['Di, Do 9-18, Sabato 9-12', null],
  ['Di, Do 9-18, Sábado 9-12', null],
  ['Di, Do 9-18, Samstag 9-12', '2,4 09:00-18:00; 6 09:00-12:00'],
  // So as a span ("Di-Do": dimanche to domingo?), and two days no one language names ("Ma, Mi").
  ['Di-Do 9-18, Samedi 9-12', null],
  ['Di-Do 9-18, Sam 9-12', null],
  ['Di-Do 9-18, Samstag 9-12', '2-4 09:00-18:00; 6 09:00-12:00'],
  ['Ma, Mi 9-18', null],
  ['Mon-Fri 9-18, Sat 9-12, Segunda closed', '1 closed; 2-5 09:00-18:00; 6 09:00-12:00'],
]

testCells(SPANISH)
testCells(TWO_LETTERS)

test('a two-letter day in doubt is quoted as the cell writes it, with its Tuesday in each language', () => {
  const message = (cell: string) => weekInto({}, cell).map((p) => p.message)
  expect(message('Ma-Fr 9-18, Sam 9-12')).toEqual([
    '"Ma-Fr 9-18, Sam 9-12" could not be read as a week of opening hours: its "Ma" could be Monday (maandag) or Tuesday (mardi, martes, martedì). Write the day\'s name in full: "maandag", "mardi" or "martes".',
  ])
  expect(message('Mo-Fr 9-18, SA A DO 10-14')[0]).toContain('its "DO" could be Thursday')
})

test('a span of two days read in no one language names the language of each', () => {
  expect(weekInto({}, 'Di-Do 9-18, Samedi 9-12').map((p) => p.message)).toEqual([
    '"Di-Do 9-18, Samedi 9-12" could not be read as a week of opening hours: its "Di" is Sunday only in French, and its other days are Spanish or Italian. Write every day in one language.',
  ])
})

test('every two-letter day in doubt is said, each once', () => {
  expect(weekInto({}, 'Ma, Di, Do 9h-18h, Do 9h-20h').map((p) => p.message)).toEqual([
    '"Ma, Di, Do 9h-18h, Do 9h-20h" could not be read as a week of opening hours: its "Ma" could be Monday (maandag) or Tuesday (mardi, martes, martedì). Write the day\'s name in full: "maandag", "mardi" or "martes". Its "Di" could be Tuesday (Dienstag, dinsdag) or Sunday (dimanche). Write the day\'s name in full: "Dienstag" or "dimanche". Its "Do" could be Thursday (Donnerstag, donderdag) or Sunday (domingo, domenica). Write the day\'s name in full: "Donnerstag" or "domingo".',
  ])
})

test('a span read past Sunday one way is refused with both spans and both readings of its day', () => {
  const message = (cell: string) => weekInto({}, cell).map((p) => p.message)
  expect(message('Di a Ve 9-18')).toEqual([
    '"Di a Ve 9-18" could not be read as a week of opening hours: its "Di a Ve" could be Sunday to Friday or Tuesday to Friday, as "Di" could be Tuesday (Dienstag, dinsdag) or Sunday (dimanche). Write the day\'s name in full: "Dienstag" or "dimanche".',
  ])
  expect(message('Sa - DO 10-14')).toEqual([
    '"Sa - DO 10-14" could not be read as a week of opening hours: its "Sa - DO" could be Saturday to Thursday or Saturday to Sunday, as "DO" could be Thursday (Donnerstag, donderdag) or Sunday (domingo, domenica). Write the day\'s name in full: "Donnerstag" or "domingo".',
  ])
})

// A refusal's example names days as the cell does: written so, it reads, where English names beside
// the cell's would be refused again.
test("each refusal's example names the days in the cell's language, and reads as written", () => {
  for (const [cell, example] of [
    ['Lun-Vie 9-18, Mié 10-14, Mié cerrado', 'Mié 10:00-14:00'],
    ['zo 12-17, zon- en feestdagen gesloten', 'Zo 12:00-17:00'],
    ['So 12-17, So Oxford', 'So 12:00-17:00'],
    ['Sáb 10-14, Dom 12-16, fines de semana cerrado', 'Lun-Vie 09:00-17:00, Sáb 10:00-14:00, Dom closed'],
    ['Mo-Sa 9-18, Wochenende geschlossen', 'Sa 09:00-18:00'],
    ['Lun-Vie 9-18, cada Sáb 10-14', 'Sáb 10:00-14:00'],
    ['Mo Oxford, sonst 9-18', 'Mo 09:00-18:00'],
    ['Lun-Vie 9-18, 24 diciembre cerrado', 'Lun-Vie 09:00-18:00'],
    ['mån-fre 10-18, jun-aug 10-16', 'Mån-Fre 09:00-18:00'],
    ['Mo-Sa 9-18, langer Samstag bis 20', 'Sa 09:00-20:00'],
    ['Lunes cerrado', 'Lun-Vie 09:00-18:00, Sáb 10:00-16:00, Dom closed'],
    ['Mer après-midi fermé', 'Lun-Ven 09:00-12:30, 14:00-18:00, Mer afternoon closed'],
    ['Sa: So: geschlossen', 'Mo-Fr 09:00-18:00, Sa 10:00-14:00, So closed'],
    ['pn-pt 9-17, 1 maja zamknięte', 'Pn-Pt 09:00-18:00'],
  ]) {
    const [problem, more] = weekInto({}, cell!)
    expect({ cell, message: problem?.message }).toEqual({ cell, message: expect.stringContaining(`"${example}"`) })
    expect(more).toBeUndefined()
    expect({ example, problems: weekInto({}, example!) }).toEqual({ example, problems: [] })
  }
  // English cells, and cells naming no day, keep English names.
  expect(weekInto({}, 'Sun 12-5, Sun closed in January')[0]!.message).toContain('"Sun 12-5"')
  expect(weekInto({}, 'Sun 12-5, Sun TBA')[0]!.message).toContain('"Sun 12:00-17:00"')
  expect(weekInto({}, '(im Winter geschlossen)')[0]!.message).toContain('"Mon-Fri 09:00-18:00"')
})

// Languages naming days alike ("Lør" Danish, Norwegian or Swedish; "lun-sab" Spanish or Italian;
// "weekend" Dutch or English) are told apart by the cell's words and letters.
test("a refusal's example names days in the language the cell's words tell", () => {
  for (const [cell, example, mended] of [
    ['Man-Fre 9-17, Lør 10-14, Lør stengt', 'Lør 10:00-14:00', 'Man-Fre 9-17, Lør 10:00-14:00'],
    ['Lukket mandag', 'Man closed, Tir-Søn 09:00-18:00', 'Lukket mandag, Tir-Søn 09:00-18:00'],
    ['lun-sab 9-19, sab chiuso, sab 9-13', 'Sab 09:00-13:00', 'lun-sab 9-19, Sab 09:00-13:00'],
    ['lun-sab 9-19, weekend chiuso', 'Sab 09:00-19:00', 'lun-sab 9-19, Sab closed'],
    ['ma-za 9-18, weekend gesloten', 'Za 09:00-18:00', 'ma-za 9-18, Za closed'],
  ]) {
    const [problem, more] = weekInto({}, cell!)
    expect({ cell, message: problem?.message }).toEqual({ cell, message: expect.stringContaining(`"${example}"`) })
    expect(more).toBeUndefined()
    for (const text of [example!, mended!].filter(Boolean))
      expect({ text, problems: weekInto({}, text) }).toEqual({ text, problems: [] })
  }
  // A Swedish cell keeps Swedish days.
  expect(weekInto({}, 'Stängt måndag')[0]!.message).toContain('"Mån closed, Tis-Sön 09:00-18:00"')
  expect(weekInto({}, 'Mån-Fre 9-17, Lör 10-14, Lör stängt')[0]!.message).toContain('"Lör 10:00-14:00"')
})
