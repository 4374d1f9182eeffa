// A week of opening hours in one text, split into its days: the ways store lists and
// OpenStreetMap write it, what is refused, and a round trip from generated weeks.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { parseDayHours } from '../src/core/hours'
import { splitWeekHours } from '../src/core/week-hours'

const week = (mon: string, tue: string, wed: string, thu: string, fri: string, sat: string, sun: string) => [
  mon,
  tue,
  wed,
  thu,
  fri,
  sat,
  sun,
]
const weekdays = (hours: string, sat = '', sun = '') => week(hours, hours, hours, hours, hours, sat, sun)

describe('splitWeekHours', () => {
  const cases: [string, string[]][] = [
    ['Mon-Fri 9-18, Sat 10-14, Sun closed', weekdays('9-18', '10-14', 'closed')],
    ['Mon–Fri 9AM–6PM · Sat 10AM–4PM • Sun 12-5', weekdays('9AM–6PM', '10AM–4PM', '12-5')],
    // Hours before their days, and a US time zone after them.
    ['9-5 M-F', weekdays('9-5')],
    ['9am-5pm, Monday-Friday', weekdays('9am-5pm')],
    ['9-18 Uhr Mo-Fr', weekdays('9-18 Uhr')],
    // A day named after every day has its own hours, not more of them.
    ['Daily 7am-11am, Sun 12pm-4pm', weekdays('7am-11am', '7am-11am', '12pm-4pm')],
    ['Mo-So 8-12, Sa 14-18', weekdays('8-12', '14-18', '8-12')],
    // A day's afternoon closed: its morning hours of the days before, when they have a break at noon.
    [
      'Mo-Fr 9-12.30 u. 14-18, Mi nachmittag geschlossen',
      week('9-12.30 u. 14-18', '9-12.30 u. 14-18', '09:00-12:30', '9-12.30 u. 14-18', '9-12.30 u. 14-18', '', ''),
    ],
    [
      'mardi-samedi 9h-12h, 14h-19h, samedi après-midi fermé',
      ['', '9h-12h, 14h-19h', '9h-12h, 14h-19h', '9h-12h, 14h-19h', '9h-12h, 14h-19h', '09:00-12:00', ''],
    ],
    // A day's afternoon hours named beside the morning's of the days before: both.
    ['Mo-Sa 9-12, Mi nachmittags 15-18', week('9-12', '9-12', '09:00-12:00, 15:00-18:00', '9-12', '9-12', '9-12', '')],
    // German "u." (und) between hours is no Sunday, with one-letter English days too.
    ['M-F 9-12 u. 1-5', weekdays('9-12 u. 1-5')],
    ['M-F 9-12 u. 1-5, Sa 9-1', weekdays('9-12 u. 1-5', '9-1')],
    ['Mon-Fri 9:00am-6:00pm EST', weekdays('9:00am-6:00pm EST')],
    ['Mon-Thu 10-9, Fri-Sat 10-10, Sun 12-6', week('10-9', '10-9', '10-9', '10-9', '10-10', '10-10', '12-6')],
    ['Mo-Fr 09:00-18:00; Sa 10:00-14:00; Su off; PH off', weekdays('09:00-18:00', '10:00-14:00', 'closed')],
    ['Mo-Fr 9-18 Uhr, Sa 9-13 Uhr, So geschlossen', weekdays('9-18 Uhr', '9-13 Uhr', 'geschlossen')],
    ['Lun-Ven 9h-19h, Sam 9h-12h', weekdays('9h-19h', '9h-12h')],
    ['lunes a viernes de 9 a 18, sábado de 10 a 14', weekdays('de 9 a 18', 'de 10 a 14')],
    ['lun-ven 9-12 e 15-19', weekdays('9-12 e 15-19')],
    // A word before the days ("du", "von", "from"), at the start or before later days.
    ['Du lundi au samedi de 9h à 19h', weekdays('de 9h à 19h', 'de 9h à 19h')],
    ['Du lundi au vendredi de 9h à 19h, le samedi de 10h à 18h', weekdays('de 9h à 19h', 'de 10h à 18h')],
    ['de lunes a viernes de 9 a 18', weekdays('de 9 a 18')], // not "d(omingo) e lunes"
    ['Von Montag bis Freitag 9-18 Uhr', weekdays('9-18 Uhr')],
    ['dal lunedì al venerdì 9-18', weekdays('9-18')],
    ['van maandag tot vrijdag 9-18', weekdays('9-18')],
    ['From Monday to Friday 9am to 5pm, on Saturday 10am to 2pm', weekdays('9am to 5pm', '10am to 2pm')],
    ['Mon-Fri 9-17, Sat 10-14 on', weekdays('9-17', '10-14')], // a stray word at the end, read as before
    ['ma-vr 9-18, za 10-17, zo gesloten', weekdays('9-18', '10-17', 'gesloten')],
    ['ma-vr 9u-18u, za 9u-12u', weekdays('9u-18u', '9u-12u')], // Belgian Dutch: "u" for uur
    // Portuguese, Polish and Swedish; Polish "So" is sobota, Saturday, beside its own days.
    ['Seg-Sex 9-18, Sáb 9-13', weekdays('9-18', '9-13')],
    ['Segunda a sexta-feira 9h-18h, sábado 9h-13h, domingo fechado', weekdays('9h-18h', '9h-13h', 'fechado')],
    ['Pn-Pt 9-17, So 9-13, Nd nieczynne', weekdays('9-17', '9-13', 'nieczynne')],
    ['Poniedziałek-piątek 9-17, sobota 10-14, niedziela zamknięte', weekdays('9-17', '10-14', 'zamknięte')],
    ['Mån-Fre 10-18, Lör 10-15, Sön stängd', weekdays('10-18', '10-15', 'stängd')],
    ['måndag–fredag 10–18', weekdays('10–18')],
    // Danish and Norwegian: "Lør", "Søn" as Swedish "Lör", "Sön", and their Tuesday.
    ['Man-Fre 9-17, Lør 10-14, Søn lukket', weekdays('9-17', '10-14', 'lukket')],
    ['Mandag-fredag 10-17.30, lørdag 10-14', weekdays('10-17.30', '10-14')],
    ['tirsdag-lørdag 10-18', week('', '10-18', '10-18', '10-18', '10-18', '10-18', '')],
    ['Hverdage 9-17, lørdage 10-13', weekdays('9-17', '10-13')],
    // Two letters: with a day only French, Spanish or Italian writes so, "ma" is Tuesday and "di"/"do" Sunday.
    ['lu-ve 9-18, sa 9-12, di fermé', weekdays('9-18', '9-12', 'fermé')],
    ['ma-ve 9-18, di 10-12', week('', '9-18', '9-18', '9-18', '9-18', '', '10-12')],
    ['lu-vi 9-18, do cerrado', weekdays('9-18', '', 'cerrado')],
    ['lu, me, gi 9-13; do chiuso', week('9-13', '', '9-13', '9-13', '', '', 'chiuso')],
    ['di, do 9-18', week('', '9-18', '', '9-18', '', '', '')], // none of those: German and Dutch
    // English letters run together, Portuguese ordinals, Norwegian and Danish two-letter days.
    ['MWF 9-5', week('9-5', '', '9-5', '', '9-5', '', '')],
    ['MTWRF 8-4', weekdays('8-4')],
    ['2ª a 6ª 9-18, Sáb 9-13', weekdays('9-18', '9-13')],
    ['2ª-feira a 6ª-feira 9h-18h', weekdays('9h-18h')],
    ['ma-fr 10-17, lø 10-15, sø stengt', weekdays('10-17', '10-15', 'stengt')],
    ['Mon-Fri 12 noon-6', weekdays('12 noon-6')],
    // A word for the other days: they take its hours, the days named keep theirs.
    ['Mi Ruhetag, sonst 11-22', week('11-22', '11-22', 'Ruhetag', '11-22', '11-22', '11-22', '11-22')],
    ['Sun closed, otherwise 9-5', weekdays('9-5', '9-5', 'closed')],
    ['Closed on Sundays, otherwise 9-5', weekdays('9-5', '9-5', 'Closed')],
    ['lundi fermé, sinon 9h-19h', ['fermé', ...Array(6).fill('9h-19h')]],
    ['Ma gesloten; anders 10-18', ['gesloten', ...Array(6).fill('10-18')]],
    // Bare hours read as the afternoon's beside days open late stay so when none is late.
    ['Mon-Fri 9-8, Sat 10-2', weekdays('9-8', '10-2')],
    ['Ma-Sa 9h-19h, Di fermé', week('', '9h-19h', '9h-19h', '9h-19h', '9h-19h', '9h-19h', 'fermé')], // or their word for closed
    ['Mo, Di, Do 9-18h; Sa geschlossen', week('9-18h', '9-18h', '', '9-18h', '', 'geschlossen', '')],
    // A German or Dutch day or word keeps a text theirs, whatever French it has too.
    ['Mo, Di, Do 9-18h; Sa fermé', week('9-18h', '9-18h', '', '9-18h', '', 'fermé', '')],
    [
      'Di-Fr 9-18 Uhr ouvert',
      week('', '9-18 Uhr ouvert', '9-18 Uhr ouvert', '9-18 Uhr ouvert', '9-18 Uhr ouvert', '', ''),
    ],
    ['ma-vr 9-18 uur, za ouvert 10-17', weekdays('9-18 uur', 'ouvert 10-17')],
    ['Monday to Friday: 9am-5pm | Saturday: 10am-2pm', weekdays('9am-5pm', '10am-2pm')],
    ['Open: Mon-Fri 9-5', weekdays('9-5')],
    ['Mo,Di,Do 9-18; Mi 9-13', week('9-18', '9-18', '9-13', '9-18', '', '', '')],
    ['Sat & Sun 10-16', week('', '', '', '', '', '10-16', '10-16')],
    ['Fr-Mo 10-16', week('10-16', '', '', '', '10-16', '10-16', '10-16')], // past Sunday
    ['Mon-Sun 8-20; Sun 10-16', week('8-20', '8-20', '8-20', '8-20', '8-20', '8-20', '10-16')], // the last wins
    ['Mo-Fr: 8.00 – 20.00 Uhr', weekdays('8.00 – 20.00 Uhr')],
    ['Daily 8-22', weekdays('8-22', '8-22', '8-22')],
    ['täglich 10-20 Uhr', weekdays('10-20 Uhr', '10-20 Uhr', '10-20 Uhr')],
    ['24/7', weekdays('24/7', '24/7', '24/7')],
    ['Open 7 days 8am-8pm', weekdays('8am-8pm', '8am-8pm', '8am-8pm')],
    ['Weekdays 8-6, Weekends 9-5', weekdays('8-6', '9-5', '9-5')],
    ['Werktags 9-18, Wochenende geschlossen', weekdays('9-18', 'geschlossen', 'geschlossen')],
    ['Week-end 10-18', week('', '', '', '', '', '10-18', '10-18')],
    ['9-12, 14-18', weekdays('9-12, 14-18', '9-12, 14-18', '9-12, 14-18')], // no day named: every day
    // A word for closed before days without hours is theirs.
    ['Tue-Sat 10-18, closed Sun & Mon', week('closed', '10-18', '10-18', '10-18', '10-18', '10-18', 'closed')],
    ['Mon-Fri 9-18, Sat 10-14, closed Sundays', weekdays('9-18', '10-14', 'closed')],
    // An article before each day of a list, as French, Spanish and Italian write it.
    [
      'Du mardi au samedi de 10h à 19h, fermé le dimanche et le lundi',
      week('fermé', 'de 10h à 19h', 'de 10h à 19h', 'de 10h à 19h', 'de 10h à 19h', 'de 10h à 19h', 'fermé'),
    ],
    ['el lunes y el martes 9-14', week('9-14', '9-14', '', '', '', '', '')],
    ['Mo-Sa 9-20 Uhr, sonntags geschlossen', weekdays('9-20 Uhr', '9-20 Uhr', 'geschlossen')],
    ['Closed Mondays; Tue-Sun 10-18', week('Closed', '10-18', '10-18', '10-18', '10-18', '10-18', '10-18')],
    // Days in brackets after another's hours are days as any others, with their hours or a closed word.
    [
      'Tue-Sat 11am-7pm (closed Sun/Mon)',
      week('closed', '11am-7pm', '11am-7pm', '11am-7pm', '11am-7pm', '11am-7pm', 'closed'),
    ],
    ['Mon-Fri 9-5 (Sat 10-2)', weekdays('9-5', '10-2')],
    ['Mo-Fr 9-18 Uhr (Sa 9-13 Uhr)', weekdays('9-18 Uhr', '9-13 Uhr')],
    // One-letter days: Spanish (X is miércoles), or English with F, W or R.
    ['L-V 9:00-18:00, S 10:00-14:00', weekdays('9:00-18:00', '10:00-14:00')],
    ['L-V 9-18h, S-D cerrado', weekdays('9-18h', 'cerrado', 'cerrado')],
    ['L, X, V 10-14', week('10-14', '', '10-14', '', '10-14', '', '')],
    ['M-F 9-5, Sa 10-2', weekdays('9-5', '10-2')],
    ['24 Stunden geöffnet', weekdays('24 Stunden geöffnet', '24 Stunden geöffnet', '24 Stunden geöffnet')],
    // Public holidays beside a day, in the languages read: the day's hours, nothing for the week.
    ['Mo-Sa 9-18, So+Feiertag geschlossen', weekdays('9-18', '9-18', 'geschlossen')],
    ['Mo–Fr 9–18; Sa 10–14; So & Feiertage geschlossen', weekdays('9–18', '10–14', 'geschlossen')],
    ['Mon-Sat 9-17, Sun & bank holidays closed', weekdays('9-17', '9-17', 'closed')],
    ['lun-sam 9h-19h, dim et jours fériés fermé', weekdays('9h-19h', '9h-19h', 'fermé')],
    ['Mo-Fr 9-18, Sa 10-14, So geschl.', weekdays('9-18', '10-14', 'geschl.')],
    // German words cut short with a dot: "tägl." (täglich), "v." (von).
    ['Tägl. 7-20 Uhr', weekdays('7-20 Uhr', '7-20 Uhr', '7-20 Uhr')],
    ['Mo.-Fr. v. 8.00-18.00 Uhr, Sa. v. 8.00-12.00 Uhr', weekdays('v. 8.00-18.00 Uhr', 'v. 8.00-12.00 Uhr')],
    // Words between days are no days: "und" holds Polish "nd", niedziela, and "and" too.
    ['Mo und Di 9-12, Mi-Fr 9-18', week('9-12', '9-12', '9-18', '9-18', '9-18', '', '')],
    ['Mon and Tue 9-12, Wed-Fri 9-5', week('9-12', '9-12', '9-5', '9-5', '9-5', '', '')],
    ['Mo-Fr 9-18, Sa und So 10-14', weekdays('9-18', '10-14', '10-14')],
    // Public holidays after a word for except say nothing of the week either: left out.
    ['Mon-Fri 9-5 except bank holidays', weekdays('9-5')],
    ['Mon-Fri 9-5 (except public holidays), Sat 10-2', weekdays('9-5', '10-2')],
    ['Mo-Fr 9-18 außer an Feiertagen, Sa 9-13', weekdays('9-18', '9-13')],
    ['Lun-Ven 9h-18h sauf jours fériés', weekdays('9h-18h')],
    // German "Sonn- und Feiertage": Sunday, its word cut short before another's.
    ['Mo-Fr 9-18 Uhr, Sa 9-13 Uhr, Sonn- und Feiertage geschlossen', weekdays('9-18 Uhr', '9-13 Uhr', 'geschlossen')],
    // A word for and before the next days joins them: it is no day's text.
    ['Mo.-Fr. 9.00-18.00 Uhr und Sa. 9.00-13.00 Uhr', weekdays('9.00-18.00 Uhr', '9.00-13.00 Uhr')],
    ['Mon-Fri 9-5 & Sat 10-2 & Sun closed', weekdays('9-5', '10-2', 'closed')],
    ['lun-ven 9-13 e 15-19 e sab 9-13', weekdays('9-13 e 15-19', '9-13')],
    ['man-fre 9-17 og lør 10-14', weekdays('9-17', '10-14')],
    // A break after the hours stays with them.
    [
      'Mo-Fr 9-18, Mittagspause 13-14',
      week(
        '9-18, Mittagspause 13-14',
        '9-18, Mittagspause 13-14',
        '9-18, Mittagspause 13-14',
        '9-18, Mittagspause 13-14',
        '9-18, Mittagspause 13-14',
        '',
        '',
      ),
    ],
  ]
  for (const [text, days] of cases) test(JSON.stringify(text), () => expect(splitWeekHours(text)).toEqual(days))

  test('refused: not hours, a day without hours, text before the first day, hours not read', () => {
    for (const text of [
      '',
      '   ',
      'by appointment',
      'Mon-Fri',
      'Hours vary Mon-Fri 9-5',
      'Mon-Fri 9-5, Sat by appointment',
      'Mon-Fri 9-17, Sat closed, Sun', // whose is "closed"?
      'Closed Mon 9-17',
      'Closed Mondays', // the days not named would be closed too
      'Mo-Fr 13-18, Mi nachmittag geschlossen', // closed all Wednesday, or from some hour on?
      '9-5 Mon-Fri, 10-2 Sat', // hours first for more than one set of days: whose are which?
      '9-5 Sales', // no days, though Spanish day letters spell it
      'Ma-Sa 9h-19h', // maandag or mardi? hours with "h" are French's as much
      'Di 9h-12h', // Dienstag or dimanche?
      'Mo-Fr 9-18, Sa 9-12, SB 24h', // SB: German banks' self-service, or Polish sobota?
      'Mo-Fr 9-18, So geschlossen, SB 0-24',
    ])
      expect({ text, days: splitWeekHours(text) }).toEqual({ text, days: null })
  })

  test('a day named only in another language than the other days refuses the week, saying which', () => {
    const cases: [string, string][] = [
      // Portuguese sexta-feira beside German days: Friday 9-18 or 9-12?
      [
        'Mo-Fr 9-18, Sa 9-13, Sex 9-12',
        'its "Sex" is Friday only in Portuguese, and its other days are English or German.',
      ],
      // Swedish (or Danish) Monday beside English days: Monday open round the clock, or a slip?
      [
        'Mon-Fri 9-5, Sat 10-2, man 24/7',
        'its "man" is Monday only in Swedish or Danish or Norwegian, and its other days are English.',
      ],
      // A name two languages read as two days is said in the language read (di: dimanche in French).
      [
        'Mon-Fri 9-5, Sat 10-2, Di 11-3',
        'its "Di" is Tuesday only in German or Dutch, and its other days are English.',
      ],
      [
        'Mon-Sun 9-18, So 10-14',
        'its "So" is Sunday only in German or Danish or Norwegian, and its other days are English.',
      ],
      ['SB 24h, Mo-Fr 9-18', 'its "SB" is Saturday only in Polish, and its other days are English or German.'],
      // Saturday 9-13 or closed? "Sab" names a day "Sa" names.
      [
        'Mo-Fr 9-18, Sa 9-13, Sab geschlossen',
        'its "Sab" is Saturday only in Spanish or Italian or Portuguese, and its other days are English or German.',
      ],
    ]
    for (const [text, why] of cases) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toEqual([`${why} Write every day in one language.`])
    }
    // Days a language shares with another are no sign of a second one.
    expect(splitWeekHours('Mo-Fr 9-18, Sun 10-14')).toEqual(weekdays('9-18', '', '10-14'))
    expect(splitWeekHours('Seg-Sex 9-18, Sáb 9-13, Dom fechado')).toEqual(weekdays('9-18', '9-13', 'fechado'))
  })

  test('a week spelled out day by day with two intervals each, over 300 characters, is read', () => {
    const days = ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag']
    const both = '09:00 - 12:30 Uhr und 14:00 - 18:30 Uhr'
    const german = `${days.map((day) => `${day}: ${both}`).join(', ')}, Sonntag: geschlossen`
    const english = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
      .map((day) => `${day}: 9:00 AM - 12:30 PM and 1:30 PM - 6:00 PM`)
      .join(', ')
    expect([german.length > 300, english.length > 300]).toEqual([true, true])
    expect(splitWeekHours(german)).toEqual([...Array(6).fill(both), 'geschlossen'])
    expect(splitWeekHours(english)).toEqual(Array(7).fill('9:00 AM - 12:30 PM and 1:30 PM - 6:00 PM'))
  })

  test("bare hours read as the afternoon's beside a day open to 22:00 or later are refused, both readings said", () => {
    const cases: [string, string][] = [
      ['Mon-Thu 11-11, Fri-Sat 11-1', 'its "11-1" beside "11-11" could be 11:00-13:00 or 11:00-01:00.'],
      ['Mon-Fri 10-10, Sat 10-2', 'its "10-2" beside "10-10" could be 10:00-14:00 or 10:00-02:00.'],
    ]
    for (const [text, why] of cases) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toEqual([`${why} Write it with the 24-hour clock or am and pm.`])
    }
    // Days of the 24-hour clock's languages put "11-2" in doubt alone, before any other day is looked at.
    const doubts: string[] = []
    expect(splitWeekHours('Mo-Do 11-23, Fr-Sa 11-2', true, doubts)).toBeNull()
    expect(doubts[0]).toStartWith('its "Fr-Sa 11-2" could be 11:00-14:00 or 11:00-02:00')
    // Written past midnight, or with am and pm, they are read.
    const late = (open: string, night: string) => week(open, open, open, open, night, night, '')
    expect(splitWeekHours('Mon-Thu 11-11, Fri-Sat 11-01:00')).toEqual(late('11-11', '11-01:00'))
    expect(splitWeekHours('Mon-Thu 11am-11pm, Fri-Sat 11am-1am')).toEqual(late('11am-11pm', '11am-1am'))
    // Closing by 3: a night's end; later ("10-9", "12-6" beside "10-10"), the afternoon's alone.
    expect(splitWeekHours('Mon-Thu 10-9, Fri-Sat 10-10, Sun 12-6')).not.toBeNull()
  })

  test("a closing alone in doubt beside its day's hours is refused, both closings and the day whole said", () => {
    const cases: [string, string, string][] = [
      ['Mon-Fri 7-3, Thu till 9', '09:00 or 21:00 beside that day\'s hours before it ("7-3")', '07:00-21:00'],
      ['Mon-Fri 9-5, Thu till 12', 'noon or midnight beside that day\'s hours before it ("9-5")', '09:00-24:00'],
      [
        'Mon-Fri 9-12, 14-18, Thu till 11',
        'the morning\'s closing or 23:00 beside that day\'s hours before it ("9-12, 14-18")',
        '09:00-12:00, 14:00-23:00',
      ],
    ]
    for (const [text, readings, whole] of cases) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      const till = text.slice(text.lastIndexOf('Thu'))
      expect(doubts).toEqual([
        `its "${till}" could be ${readings}. Write the day's hours whole, such as "Thu ${whole}".`,
      ])
      // The day written whole so is read.
      const hours = text.slice(8, text.lastIndexOf(','))
      expect(splitWeekHours(`Mon-Fri ${hours}, Thu ${whole}`)?.[3]).toBe(whole)
    }
  })

  test('a word for the other days with hours not read after it refuses the week, closing no day', () => {
    const doubts: string[] = []
    expect(splitWeekHours('Mi Ruhetag, sonst nach Absprache', true, doubts)).toBeNull()
    expect(doubts).toEqual([
      'its hours after "sonst" (the other days), "nach Absprache", are not read. Write them as hours, such as "sonst 09:00-18:00", or name each day.',
    ])
    expect(splitWeekHours('Sun closed, otherwise 5-9')).toBeNull() // morning or evening?
    expect(splitWeekHours('MF 9-5')).toBeNull() // Monday and Friday, or Monday to Friday?
  })

  test('closed days alone are refused, their note said once', () => {
    for (const text of ['Closed Mondays', 'Closed on Sundays and Mondays']) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toEqual([
        'it names closed days alone, and no hours for the others. Name the days it opens with their hours too, such as "Closed Mondays, Tue-Sun 09:00-18:00".',
      ])
    }
  })

  test('words of no hours beside a day before the word for the other days refuse the week, saying which', () => {
    const cases: [string, string][] = [
      ['Mo Oxford sonst 9-18', 'its "Oxford" (Monday) before "sonst" is not read as hours.'],
      ['Mon closed; Oxford otherwise 10-6', 'its "closed; Oxford" (Monday) before "otherwise" is not read as hours.'],
    ]
    for (const [text, why] of cases) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toHaveLength(1)
      expect(doubts[0]).toStartWith(why)
    }
    // By appointment, a day's text read no other way, is kept as ever.
    expect(splitWeekHours('Sa nach Vereinbarung, sonst 9-18', true)).toEqual(
      week('9-18', '9-18', '9-18', '9-18', '9-18', 'nach Vereinbarung', '9-18'),
    )
  })

  test('Norwegian "ti", "on", "to" are days beside Norwegian days, words beside others', () => {
    expect(splitWeekHours('ma-on 9-17, to 9-19, fr 9-17')).toEqual(week('9-17', '9-17', '9-17', '9-19', '9-17', '', ''))
    expect(splitWeekHours('Ma-fr 9-16, to 9-18')).toEqual(week('9-16', '9-16', '9-16', '9-18', '9-16', '', ''))
    expect(splitWeekHours('Mon to Fri 9-5')).toEqual(weekdays('9-5'))
    expect(splitWeekHours('Sat 10-14 on')).toEqual(week('', '', '', '', '', '10-14', ''))
  })

  test('a day named alone keeps its hours against a word for days after it; after a span that word is refused', () => {
    // "Weekends closed" says the days it names are closed but for those given their own hours.
    expect(splitWeekHours('Mon-Fri 9-5, Sat 10-2, Weekends closed')).toEqual(weekdays('9-5', '10-2', 'closed'))
    expect(splitWeekHours('Sat 10-2, Weekends closed, Mon-Fri 9-5')).toEqual(weekdays('9-5', '10-2', 'closed'))
    expect(splitWeekHours('Sun 10-4, daily 9-5')).toEqual(weekdays('9-5', '9-5', '10-4'))
    // After a span naming one of its days ("Mon-Sat": Saturday open or closed?) it is not guessed.
    const cases: [string, string][] = [
      [
        'Sat 10-2, Sun 12-4, Wochenende geschlossen',
        'its "Wochenende geschlossen" names only days given their own hours before it.',
      ],
      [
        'Mon-Sat 9-5, Weekends closed',
        'its "Mon-Sat 9-5" and "Weekends closed" after it give Saturday other hours, and the later would replace the earlier. Write Saturday\'s hours once, such as "Sat 09:00-17:00" or "Sat closed".',
      ],
      [
        'Mo-Fr 9-17, täglich 10-18',
        'its "Mo-Fr 9-17" and "täglich 10-18" after it give Monday other hours, and the later would replace the earlier. Write Monday\'s hours once, such as "Mo 09:00-17:00" or "Mo 10:00-18:00".',
      ],
      ['Mon-Sun 9-5, Weekends closed', 'its "Mon-Sun 9-5" and "Weekends closed" after it give Saturday other hours'],
    ]
    for (const [text, why] of cases) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toHaveLength(1)
      expect(doubts[0]).toStartWith(why)
    }
  })

  test("words after a day's hours before the next days refuse the week, saying which", () => {
    const doubts: string[] = []
    expect(splitWeekHours('Mon-Fri 9-5, every other Saturday 10-2', true, doubts)).toBeNull()
    expect(doubts).toHaveLength(1)
    expect(doubts[0]).toStartWith('its "every other" before "Saturday" is not read.')
  })

  test('a day named in another language is read when no other day of the cell names it', () => {
    // Its hours change no other day's, as a day named twice in two languages would.
    const cases: [string, string[]][] = [
      ['Mon-Fri 9-18, Sa 10-14, So closed', weekdays('9-18', '10-14', 'closed')],
      ['Di-Fr 10-18, Sat 10-14', week('', '10-18', '10-18', '10-18', '10-18', '10-14', '')],
      ['Mo-Fr 9-18, Sa 9-13, Dom fechado', weekdays('9-18', '9-13', 'fechado')],
      ['Lun-Ven 9-18, Sat 9-13', weekdays('9-18', '9-13')],
      ['Mon-Sat 9-18, zo gesloten', weekdays('9-18', '9-18', 'gesloten')],
      ['L-V 9-18, Sat 10-14', weekdays('9-18', '10-14')],
      // Other days named twice ("Mi" in "Mo-Fr") leave it as it is: Saturday is "Sab"'s alone.
      ['Mo-Fr 9-18, Sab 9-13, Mi geschlossen', week('9-18', '9-18', 'geschlossen', '9-18', '9-18', '9-13', '')],
      ['Lun-Vie 9-18, Mi 10-14, So geschlossen', week('9-18', '9-18', '10-14', '9-18', '9-18', '', 'geschlossen')],
    ]
    for (const [text, days] of cases) expect({ text, days: splitWeekHours(text) }).toEqual({ text, days })
  })

  test("one-letter days M and S, which English and Spanish both write, are read as the cell's other days say", () => {
    // Beside days English writes too, M is Monday ("M-Sa", "M Tu W Th F Sa Su" as US lists write).
    expect(splitWeekHours('M-Sa 9-17')).toEqual(weekdays('9-17', '9-17'))
    expect(splitWeekHours('M-Sat 9-5, Su 12-5')).toEqual(weekdays('9-5', '9-5', '12-5'))
    // Beside Spanish days, martes: Tuesday.
    expect(splitWeekHours('M-Sáb 10-20')).toEqual(week('', '10-20', '10-20', '10-20', '10-20', '10-20', ''))
    // "Sá", as Spanish writes two letters (Lu Ma Mi Ju Vi Sá Do): no English "Sa" with its accent.
    expect(splitWeekHours('M-Sá 10-20')).toEqual(week('', '10-20', '10-20', '10-20', '10-20', '10-20', ''))
    expect(splitWeekHours('L-S 9-14')).toEqual(weekdays('9-14', '9-14'))
    // Alone, Monday or martes? Not guessed.
    // Beside days neither all English's nor all Spanish's too ("So" is German's), neither.
    for (const text of ['M-S 9-5', '9-5 M-S', 'M-Sa 9-5, So geschlossen']) {
      const doubts: string[] = []
      expect({ text, days: splitWeekHours(text, true, doubts) }).toEqual({ text, days: null })
      expect(doubts).toEqual([
        'its "M" could be Monday, as English writes one letter, or Tuesday (martes), as Spanish does. Write the days\' names, such as "Mon-Sat" or "Mar-Sáb".',
      ])
    }
  })

  test('days named as a language of the 24-hour clock names them: bare hours read as written', () => {
    // German, French, Dutch, Spanish: "5-11:30" is no evening. Written HH:MM, a day reads so alone.
    const cases: [string, string[]][] = [
      ['Mo-Sa 5-11:30', weekdays('05:00-11:30', '05:00-11:30')],
      ['lun-ven 5-9', weekdays('05:00-09:00')],
      ['ma-za 5:30-9:30, zo 7-10', weekdays('05:30-09:30', '05:30-09:30', '7-10')],
      ['Täglich 4-10', weekdays('04:00-10:00', '04:00-10:00', '04:00-10:00')],
      ['L-V 5-9, S 6-13', weekdays('05:00-09:00', '6-13')],
      ['Seg-Sex 5-9', weekdays('05:00-09:00')],
      ['Pn-Pt 5-9', weekdays('05:00-09:00')],
      ['Mån-Fre 5-9', weekdays('05:00-09:00')],
      ['Täglich 8-12, So 5-9', weekdays('8-12', '8-12', '05:00-09:00')],
      ['5-11:30 Mo-Sa', weekdays('05:00-11:30', '05:00-11:30')], // hours before their days
      ['Mo-So 6-2', weekdays('06:00-02:00', '06:00-02:00', '06:00-02:00')], // a kiosk open till 2 at night
    ]
    for (const [text, days] of cases) expect({ text, days: splitWeekHours(text) }).toEqual({ text, days })
    const bakery = splitWeekHours('Mo-Sa 5-11:30')!
    expect(parseDayHours(bakery[0])).toEqual({ kind: 'open', intervals: [[300, 690]] })
    // English days, or none, or letters English writes too: morning or evening? Not guessed; nor
    // beside a day's first hours, where 14:00-17:00 is as likely.
    const refused = [
      'Mon-Sat 5-11:30',
      'Mo-Fr 9-18, Sun 5-9',
      'Daily 5-9',
      'M-S 5-9',
      'M-Sa 5-11:30', // Monday to Saturday in English, Sa as English writes it too
      '5-9',
      '5-9 Mon-Fri',
      'Mo-Fr 8-12, Mo/Di 2-5',
      'Mon-Fri 6-2', // 06:00-14:00 or 18:00-02:00?
    ]
    for (const text of refused) expect({ text, days: splitWeekHours(text) }).toEqual({ text, days: null })
    expect(parseDayHours('5-11:30').kind).toBe('unknown')
  })

  test('a week written from its days splits back into them, in any of the spellings read', () => {
    const NAMES = [
      ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
      ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'],
      ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'],
      ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
      ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'],
      ['Lu', 'Ma', 'Me', 'Je', 'Ve', 'Sa', 'Di'],
      ['Lu', 'Ma', 'Mi', 'Ju', 'Vi', 'Sa', 'Do'],
      ['Lu', 'Ma', 'Me', 'Gi', 'Ve', 'Sa', 'Do'],
      ['Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb', 'Dom'],
      ['Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado', 'Domingo'],
      ['Pn', 'Wt', 'Śr', 'Czw', 'Pt', 'So', 'Nd'],
      ['Poniedziałek', 'Wtorek', 'Środa', 'Czwartek', 'Piątek', 'Sobota', 'Niedziela'],
      ['Mån', 'Tis', 'Ons', 'Tor', 'Fre', 'Lör', 'Sön'],
    ]
    /** Two-letter days only French, Spanish and Italian write: without one, Ma, Di and Do read as German. */
    const romanceOnly = /\b(?:Lu|Me|Je|Ju|Gi|Ve|Vi)\b/
    const germanicOnly = /\b(?:Mo|Fr|So)\b/
    const HOURS = ['09:00-18:00', '9am-5pm', '10-14, 15-19', 'closed', '24 hours', '18:00-02:00', '9h-12h']
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('', ...HOURS), { minLength: 7, maxLength: 7 }),
        fc.nat(NAMES.length - 1),
        fc.constantFrom('; ', ', ', ' | ', '\n'),
        fc.boolean(),
        (days, spelling, separator, colon) => {
          fc.pre(days.some((d) => d !== ''))
          const names = NAMES[spelling]!
          // Runs of days alike written as a span: "Mon-Fri 9-18".
          const parts: string[] = []
          for (let d = 0; d < 7; ) {
            let e = d
            while (e + 1 < 7 && days[e + 1] === days[d]) e++
            const span = e === d ? names[d]! : `${names[d]}-${names[e]}`
            if (days[d] !== '') parts.push(`${span}${colon ? ':' : ''} ${days[d]}`)
            d = e + 1
          }
          const text = parts.join(separator)
          fc.pre(names[0] !== 'Lu' || romanceOnly.test(text))
          // Ma, Di or Do with hours as French writes them, and no day only one side writes: refused.
          fc.pre(
            !(
              /\b(?:Ma|Di|Do)\b/.test(text) &&
              text.includes('9h') &&
              !germanicOnly.test(text) &&
              !romanceOnly.test(text)
            ),
          )
          expect(splitWeekHours(text)).toEqual(days)
          for (const text of days) if (text !== '') expect(parseDayHours(text).kind).not.toBe('unknown')
        },
      ),
      { numRuns: 300 },
    )
  })
})

test('days apart by spaces read as the same days apart by commas, in each language', () => {
  const lists = [
    ['Mo Di Do Fr', 'Mi Do', 'Di Mi'], // German; Spanish would read "Do" as domingo
    ['ma di do vr', 'Ma Di', 'ma di wo'], // Dutch; French would read "ma" and "di" as mardi and dimanche
    ['lu ma je', 'Ma Me Ve'], // French
    ['lu ma ju', 'Ma Mi Vi'], // Spanish
    ['lu ma gi'], // Italian
    ['Seg Ter Qua'], // Portuguese
    ['Pn Wt Sr'], // Polish
    ['Mån Tis Ons', 'man tir ons'], // Swedish, Danish
    ['Mon Tue Thu', 'Sat Sun'], // English
  ].flat()
  for (const list of lists) {
    const spaced = splitWeekHours(`${list} 9-18`)
    expect(spaced).not.toBeNull()
    expect(spaced).toEqual(splitWeekHours(`${list.split(' ').join(', ')} 9-18`))
  }
})

test('two days apart by a space and a gap ask alike whatever their language', () => {
  for (const [list, from, to] of [
    ['Mo Do', 'Monday', 'Thursday'],
    ['Ma Do', 'Monday', 'Thursday'],
    ['Ma Je', 'Tuesday', 'Thursday'],
  ]) {
    const doubts: string[] = []
    expect(splitWeekHours(`${list} 9-18`, false, doubts)).toBeNull()
    expect(doubts[0]).toStartWith(`its "${list}" could be ${from} and ${to}, or ${from} to ${to}.`)
  }
})
