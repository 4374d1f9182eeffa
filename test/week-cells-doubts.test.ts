// Week cells whose days are read from what is said around them: a day's closing alone after a
// span, late words, a day named twice, days left empty, holidays. Each read into its days' hours,
// or refused in doubt with a message that quotes what it cannot choose between.
import { expect, test } from 'bun:test'
import { type DayHours, parseDayHours } from '../src/core/hours'
import { splitWeekHours } from '../src/core/week-hours'
import { weekInto } from '../src/locations/csv-week'
import { testCells, type WeekCells } from './week-cells-table'

const CELLS: WeekCells = [
  // A day's closing alone after a span: the span's opening, that closing; "till late", no hour, is in doubt.
  ['Mon-Fri 9-5, Thu till 8', '1-3,5 09:00-17:00; 4 09:00-20:00'],
  ['Mon-Fri 9-5, Thu late opening till 8', '1-3,5 09:00-17:00; 4 09:00-20:00'],
  ['Mon-Fri 9-12, 14-18, Thu until 8pm', '1-3,5 09:00-12:00, 14:00-18:00; 4 09:00-12:00, 14:00-20:00'],
  ['Mon-Fri 9-9, Thu late opening till 8', null],
  ['Thu till 8', '4 ?'],
  // A morning closing within an hour of the opening leaves no day: the evening's is meant.
  ['Mon-Fri 9-5, Thu till 10', '1-3,5 09:00-17:00; 4 09:00-22:00'],
  ['Mon-Fri 7-3, Thu till 8', '1-3,5 07:00-15:00; 4 07:00-20:00'],
  ['Mon-Fri 7-3, Thu till 9', null], // 09:00 or 21:00?
  ['Mon-Fri 12-8, Thu till 1', null], // 13:00 leaves an hour, 01:00 is past midnight
  ['Mon-Fri 7-3, Fri till 1', '1-4 07:00-15:00; 5 07:00-13:00'],
  ['Mon-Fri 9-12, 1-5, Thu till 2', '1-3,5 09:00-12:00, 13:00-17:00; 4 09:00-12:00, 13:00-14:00'],
  // Said late, in the languages read, it closes after the day's hours before.
  ['Mon-Fri 9-5, Thu late opening till 10', '1-3,5 09:00-17:00; 4 09:00-22:00'],
  ['Mon-Fri 9-5, Thu late opening till 12', '1-3,5 09:00-17:00; 4 09:00-24:00'],
  ['Mon-Fri 9-5, late night Thursday till 9', '1-3,5 09:00-17:00; 4 09:00-21:00'],
  ['Mon-Fri 9-5, opening late on Thursday until 9', '1-3,5 09:00-17:00; 4 09:00-21:00'],
  ['Mo-Fr 9-18, langer Donnerstag bis 20', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  // A German "langer Samstag" was one Saturday a month: after Saturday's hours it is in doubt.
  ['Mo-Fr 9-18, Sa 9-14, langer Samstag bis 18', null],
  ['Mo-Sa 9-18, langer Samstag bis 20', null],
  ['Mo-Fr 9-18, Sa 9-14, Samstag lange bis 18', null],
  ['Mo-Fr 9-18, Sa 9-14, langer Donnerstag bis 20', '1-3,5 09:00-18:00; 4 09:00-20:00; 6 09:00-14:00'],
  ['Mo-Sa 9-18, langer Donnerstag bis 20', '1-3,5-6 09:00-18:00; 4 09:00-20:00'],
  // German "nachts" or "früh" after an hour by 06:00 closes that hour past midnight.
  ['Mo-Sa 9-18, Sa bis 2 nachts', '1-5 09:00-18:00; 6 09:00-02:00'],
  ['Mo-Sa 9-18, Sa bis 2 Uhr nachts', '1-5 09:00-18:00; 6 09:00-02:00'],
  ['Mon-Sat 9-18, Sat bis 2 nachts', '1-5 09:00-18:00; 6 09:00-02:00'], // the German words say it, whatever names the days
  ['Mon-Sat 9-18, Sat till 2 Uhr nachts', '1-5 09:00-18:00; 6 09:00-02:00'],
  ['Mo-Sa 9-12, 14-18, Sa bis 3 Uhr früh', '1-5 09:00-12:00, 14:00-18:00; 6 09:00-12:00, 14:00-03:00'],
  ['Mo-Sa 9-18, Sa bis 8 Uhr früh', null],
  ['ma-vr 9-18, koopavond donderdag tot 21 uur', '1-3,5 09:00-18:00; 4 09:00-21:00'],
  ['ma-vr 9-18, do koopavond tot 21', '1-3,5 09:00-18:00; 4 09:00-21:00'],
  ["Lun-Sam 9h-19h, nocturne le jeudi jusqu'à 21h", '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ['lun-sam 9h-19h, jeudi nocturne jusqu’à 21h', '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ['lun-ven 9h-18h, jeu jusqu’à 20h', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  ['Mon-Fri 9-5, late night Fri-Sat 10pm-4am', null], // days after words of no closing alone
  ['Mon-Fri 9-9, Thu open late till 8', null], // said late, yet earlier
  ['Mon-Fri 9-5, Thu till 12', null], // noon or midnight?
  ['Mon-Fri 9-12, 14-18, Thu till 11', null], // the morning's closing, or 23:00?
  ['Mon-Fri 8-12, 13-17, Thu till 7', '1-3,5 08:00-12:00, 13:00-17:00; 4 08:00-12:00, 13:00-19:00'],
  ['Mon-Fri 13-17, Thu till 12', '1-3,5 13:00-17:00; 4 13:00-24:00'],
  // On a 24-hour clock midnight is 24 or 0: "bis 12" is noon, before an opening at 13 no closing.
  ['Mo-Fr 13-18, Mi bis 12', null],
  ['Mo-Fr 13-18, Mi bis 12 Uhr', null],
  ['ma-vr 13-18, wo tot 12', null],
  ["Lun-Ven 13h-18h, mer jusqu'à 12h", null],
  ['lun-ven 13-18, mer fino alle 12', null],
  ['Lun-Vie 13-18, mié hasta las 12', null],
  ['Mo-Fr 9-18, Mi bis 12', '1-2,4-5 09:00-18:00; 3 09:00-12:00'],
  // Nor does any other closing before the opening move 12 hours, unless the hours use am and pm.
  ['Mo-Fr 13-18, Mi bis 11', null],
  ['ma-vr 13-18, wo tot 11', null],
  ['Mo-Fr 9-18, Do bis 8', null],
  ['Mo-Fr 1pm-6pm, Mi bis 11', '1-2,4-5 13:00-18:00; 3 13:00-23:00'],
  ['Mo-Fr 9a.m.-6p.m., Do bis 8', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  // As written, one within an hour of the opening leaves no day; its evening is not said either.
  ['Mo-Fr 9-18, Do bis 10', null],
  ['ma-vr 9-18, do tot 9:30', null],
  ['Mo-Fr 12-14, Mi bis 13', '1-2,4-5 12:00-14:00; 3 12:00-13:00'],
  ['Mo-Fr 9-12, 14-18, Do bis 15', '1-3,5 09:00-12:00, 14:00-18:00; 4 09:00-12:00, 14:00-15:00'],
  ['Mo-Fr 9 a. m. - 6 p. m., Do bis 8', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  ['Mo-Fr 9a-6p, Do bis 8', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  // Hours written on a 12-hour clock, no hour past 12, read their closing so too.
  ['Mo-Fr 9-6, Do bis 8', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  ['ma-vr 9-12, 1-6, do tot 9', '1-3,5 09:00-12:00, 13:00-18:00; 4 09:00-12:00, 13:00-21:00'],
  ['Mo-Fr 9-12, Do bis 8', null],
  ['Mo-Fr 8:30-12:30, Do bis 8', null],
  // Hours past 12 written without a separator ("1800") are of a 24-hour clock.
  ['Mo-Fr 0900-1800, Do bis 8', null],
  ['Mo-Fr 900-1800, Do bis 10', null],
  ['Mon-Fri 10-6, Thu till 10pm', '1-3,5 10:00-18:00; 4 10:00-22:00'],
  ['Mon-Fri 18-02, Fri till 4', null],
  ['Mon-Fri 9-5, Thu till late', null],
  // A closing alone before its days, which have no hours of their own, is theirs.
  ['Mon-Fri 9-5, till 8 on Thursdays', '1-3,5 09:00-17:00; 4 09:00-20:00'],
  ["lun-sam 9h-19h, jusqu'à 21h le jeudi", '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ['Lun-Vie 9-20, hasta las 21 los jueves', '1-3,5 09:00-20:00; 4 09:00-21:00'],
  ['Mån-fre 10-18, till 20 på torsdagar', '1-3,5 10:00-18:00; 4 10:00-20:00'],
  ['Man-fre 10-18, til 20 på torsdager', '1-3,5 10:00-18:00; 4 10:00-20:00'],
  ['Pn-Pt 9-17, do 19 w czwartki', '1-3,5 09:00-17:00; 4 09:00-19:00'],
  // Before a list of two days with hours, the first's; the list's hours the second's.
  ['Mon-Sat 9-6, till 8 on Thu, Sun 10-4', '1-3,5-6 09:00-18:00; 4 09:00-20:00; 7 10:00-16:00'],
  ['Mon-Fri 9-5, till 8pm Thursday, Sat 9-1', '1-3,5 09:00-17:00; 4 09:00-20:00; 6 09:00-13:00'],
  ['Mo-Fr 9-18, bis 20 Uhr Do, Sa 9-13', '1-3,5 09:00-18:00; 4 09:00-20:00; 6 09:00-13:00'],
  ["Lun-Sam 9h-19h, jusqu'à 21h le vendredi, dim fermé", '1-4,6 09:00-19:00; 5 09:00-21:00; 7 closed'],
  ['pn-pt 9-17, do 20, sob 9-13', null], // a comma ends the closing: no day named
  ['Mon-Fri 9-5, till 8 on Thu, Fri, Sat 10-4', null], // Thursday's, or Friday's too?
  // With no open hours before it, a closing alone is kept unread, as other unread days are.
  ['Mon-Fri 9-5, Sat till 2', '1-5 09:00-17:00; 6 ?'],
  ['Mo-Fr 9-18, Sa bis 14', '1-5 09:00-18:00; 6 ?'],
  // A day's value left empty after "=" or ":" is unknown, not closed: an export's blank is either.
  ['mon=7:30-14:00, sat=, sun=', '1 07:30-14:00; 6-7 ?'],
  ['Mon-Fri: 9-5, Sat:, Sun: closed', '1-5 09:00-17:00; 6 ?; 7 closed'],
  ['Mon:, Tue:', null],
  // A day's heading with nothing after it before the next day's is left empty, as with a comma
  // or a line between ("Sat:\nSun: closed", an export's lines joined); with no day open, refused.
  ['Mon-Fri 9-5, Sat: Sun: closed', '1-5 09:00-17:00; 6 ?; 7 closed'],
  ['Sat: Sun: closed', null],
  ['Sat:, Sun: closed', null],
  ['sat=, sun=closed', null],
  // A day's name cut short before another that ends alike, as German "Sonn- und Feiertage".
  ['Man-fre 10-18, lør 10-14, søn- og helligdage lukket', '1-5 10:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Man-fre 10-18, lør 10-14, søn- og helligdager stengt', '1-5 10:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Mån-fre 10-19, lör 10-16, sön- och helgdagar stängt', '1-5 10:00-19:00; 6 10:00-16:00; 7 closed'],
  ['ma-vr 9-18, za 10-17, zon- en feestdagen gesloten', '1-5 09:00-18:00; 6 10:00-17:00; 7 closed'],
  // A closing alone after a late word before days joined, and in Italian and Spanish.
  ['Mon-Sat 9-6, late opening Thu & Fri till 8', '1-3,6 09:00-18:00; 4-5 09:00-20:00'],
  // "&" after a closing alone joins the next days.
  ['Mon-Sat 9-6, Thu till 8 & Sat 10-2', '1-3,5 09:00-18:00; 4 09:00-20:00; 6 10:00-14:00'],
  ['Mon-Sat 9-6, late opening Thu & Fri till 8pm & Sat till 7', '1-3 09:00-18:00; 4-5 09:00-20:00; 6 09:00-19:00'],
  ['Lun-Sab 9-19, Gio fino alle 21', '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ['lun-sab 9-19, jue hasta las 21', '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ["lun-ven de 9h jusqu'à 18h", '1-5 09:00-18:00'],
  ["lun-ven 9h jusqu'à 12h, 14h jusqu'à 18h", '1-5 09:00-12:00, 14:00-18:00'],
  // Polish "i" after a day's hours joins the next Polish days.
  ['pn.-pt. 9.00-17.00 i sob. 9-13', '1-5 09:00-17:00; 6 09:00-13:00'],
  ['Mo-Fr 9-18, Sa i So geschlossen', '1-5 09:00-18:00; 6 ?; 7 closed'], // "i" joins no German days
  // Days named in full in Polish are Polish days: "So" beside them is sobota, "i" joins them.
  ['poniedziałek-piątek 9-17 i sobota 10-14', '1-5 09:00-17:00; 6 10:00-14:00'],
  ['Poniedziałek-Piątek 9-17, So 9-13', '1-5 09:00-17:00; 6 09:00-13:00'],
  // Polish "i" between hours joins them as "9-12, 13-17" does.
  ['pn-pt 8-12 i 13-17, sb 9-13', '1-5 08:00-12:00, 13:00-17:00; 6 09:00-13:00'],
  ['pn-pt 8-16 i 17-19', '1-5 08:00-16:00, 17:00-19:00'],
  // Polish "do" (until) before an hour is no German or Dutch Thursday: a closing alone, "od 9 do 17" hours.
  ['pn-pt 9-17, czw do 20', '1-3,5 09:00-17:00; 4 09:00-20:00'],
  ['Pon-Pt 9:00-17:00; Czw do 19:00', '1-3,5 09:00-17:00; 4 09:00-19:00'],
  ['pn-pt od 9 do 17, sob od 10 do 14', '1-5 09:00-17:00; 6 10:00-14:00'],
  ['poniedziałek-piątek od 8 do 16', '1-5 08:00-16:00'],
  ['Mo-Mi 9-18, do 9-20', '1-3 09:00-18:00; 4 09:00-20:00'], // beside German days, Thursday
  // Beside German days with "SB" (self-service, or Polish sobota?) "do" stays Thursday.
  ['Mo-Fr 9-18, Do 9-20, Sa 9-14, SB 0-24', '1-3,5 09:00-18:00; 4 09:00-20:00; 6 ?'],
  ['Mo-Fr 9-18, Do 9-20, SB 24h', null],
  // Danish, Norwegian and Swedish "kl." before a closing alone's hour.
  ['man-fre kl. 10-18, tor til kl. 20', '1-3,5 10:00-18:00; 4 10:00-20:00'],
  ['mandag-fredag 10-17.30, torsdag til kl. 19', '1-3,5 10:00-17:30; 4 10:00-19:00'],
  ['mån-fre 10-18, tor till kl. 20', '1-3,5 10:00-18:00; 4 10:00-20:00'],
  // "hasta las" and "fino alle" between hours, as "jusqu'à": from one hour to the other.
  ['lun-vie de 9 hasta las 14, sáb 10 hasta las 14', '1-5 09:00-14:00; 6 10:00-14:00'],
  ['lun-ven dalle 9 fino alle 13 e dalle 15 fino alle 19', '1-5 09:00-13:00, 15:00-19:00'],
  ['lun-sab dalle ore 9 fino alle ore 19', '1-6 09:00-19:00'],
  ['lun-sab 9-19, gio fino alle ore 21', '1-3,5-6 09:00-19:00; 4 09:00-21:00'],
  ['lun-vie 9-20, jue hasta las 21 horas', '1-3,5 09:00-20:00; 4 09:00-21:00'],
  // French "midi" and "minuit" as the hour a day closes.
  ["lun-ven de 9h à midi et de 14h jusqu'à 18h", '1-5 09:00-12:00, 14:00-18:00'],
  ["lun-ven de 9h jusqu'à midi, sam 10h-17h", '1-5 09:00-12:00; 6 10:00-17:00'],
  ["lun-sam 9h-19h, nocturne jeudi jusqu'à minuit", '1-3,5-6 09:00-19:00; 4 09:00-24:00'],
  ['lun-sam 10h-minuit, dim 14h-minuit', '1-6 10:00-24:00; 7 14:00-24:00'],
  // "late nights", Italian "apertura serale" as "late opening"; before or after the day.
  ['Mon-Sat 9-6, late nights Thu till 9', '1-3,5-6 09:00-18:00; 4 09:00-21:00'],
  ['lun-sab 9-19, apertura serale giovedì fino alle 22', '1-3,5-6 09:00-19:00; 4 09:00-22:00'],
  ['lun-sab 9-19, giovedì apertura serale fino alle 22', '1-3,5-6 09:00-19:00; 4 09:00-22:00'],
  ['lun-sab 9-19, apertura serale il giovedì fino alle ore 22', '1-3,5-6 09:00-19:00; 4 09:00-22:00'],
  // A late word beside a day's hours whole says no more than they do.
  ['Mon-Sat 9am-5:30pm, Late night Thursday 9am-8pm', '1-3,5-6 09:00-17:30; 4 09:00-20:00'],
  ['Mon-Wed 9-6, Thu 9-8 late night, Fri-Sat 9-6', '1-3,5-6 09:00-18:00; 4 09:00-20:00'],
  ['Mo-Fr 9-18.30, Do 9-21 (Abendverkauf), Sa 8-16', '1-3,5 09:00-18:30; 4 09:00-21:00; 6 08:00-16:00'],
  ['ma-za 9-18, koopavond donderdag 9-21', '1-3,5-6 09:00-18:00; 4 09:00-21:00'],
  // Swedish "kvällsöppet" and Swiss German "Abendverkauf" alike.
  ['mån-fre 10-18, kvällsöppet tors till 20', '1-3,5 10:00-18:00; 4 10:00-20:00'],
  ['mån-fre 10-18, kvällsöppet torsdagar till 20', '1-3,5 10:00-18:00; 4 10:00-20:00'], // plural days
  ['man-fre 10-17.30, torsdage 10-19', '1-3,5 10:00-17:30; 4 10:00-19:00'],
  ['Mo-Fr 9-18.30, Sa 8-17, Do Abendverkauf bis 21 Uhr', '1-3,5 09:00-18:30; 4 09:00-21:00; 6 08:00-17:00'],
  ['Mo-Fr 9-18.30, Abendverkauf am Donnerstag bis 21 Uhr', '1-3,5 09:00-18:30; 4 09:00-21:00'],
  // Holidays after a word for closed, joined, or joined to the days before it: the days' hours.
  ['Mon-Fri 9-5, Sat-Sun closed & holidays', '1-5 09:00-17:00; 6-7 closed'],
  ['Mon-Fri 9-5, Sat-Sun & holidays closed', '1-5 09:00-17:00; 6-7 closed'],
  ['Mo-Sa 9-18, So geschlossen und Feiertage', '1-6 09:00-18:00; 7 closed'],
  // German "So-" cut short before "und Feiertage", and joined to them by a dash.
  ['Mo-Sa 9-18, So- und Feiertage geschlossen', '1-6 09:00-18:00; 7 closed'],
  ['Mo-Sa 9-18, So-Feiertag geschlossen', '1-6 09:00-18:00; 7 closed'],
  ['So-Fr 9-18', '1-5,7 09:00-18:00'],
  ['So- Do 11-22, Fr-Sa 11-23', '1-4,7 11:00-22:00; 5-6 11:00-23:00'], // "So-" cut short only before "und"
  ['Mo-Fr 9-18, Sa 9-14, So.- u. Feiertage 10-12', '1-5 09:00-18:00; 6 09:00-14:00; 7 10:00-12:00'],
  ['ma-za 9-18, zo- en feestdagen 12-17', '1-6 09:00-18:00; 7 12:00-17:00'],
  // A day given its own hours, then named again closed (or open after closed): which is meant?
  ['zo 12-17, zon- en feestdagen gesloten', null],
  ['ma-za 9-18, zo 12-17, zon- en feestdagen gesloten', null],
  ['Sun closed, Mon-Fri 9-5, Sun 10-4', null],
  // The days before public holidays are dates, as the holidays are: left out.
  ['Sa 9-13, Sa vor Feiertagen geschlossen', '6 09:00-13:00'],
  ['Mo-Sa 9-18, Sa vor Feiertagen 9-14', '1-6 09:00-18:00'],
  ['Mon-Sat 9-5, Sat before bank holidays 9-1', '1-6 09:00-17:00'],
  // Holidays excepted within a day's words are taken out, the text around them kept apart.
  ['Mo-Fr 9-18, Sa außer Feiertage 9-13', '1-5 09:00-18:00; 6 09:00-13:00'],
  // A day's hours on public holidays alone ("Sunday closed on bank holidays") are theirs: left out.
  ['Mon-Sat 9-5, Sunday 10-4, Sunday closed on bank holidays', '1-6 09:00-17:00; 7 10:00-16:00'],
  ['Mo-Sa 9-18, So 11-16, So 10-12 am Feiertag', '1-6 09:00-18:00; 7 11:00-16:00'],
  // Or given its hours, then a text not read: the hours were lost without a word.
  ['Mon-Sat 9-5, Sun 12-5, Sun closed in January', null],
  ['Mon-Sat 9-5, Sun closed, Sun 10-4 in December', null],
  // A day of a span named again closed is that span's exception.
  ['Mo-Sa 9-18, Mi geschlossen', '1-2,4-6 09:00-18:00; 3 closed'],
  // A span after days given their hours, giving them others, is no exception: which is meant?
  ['Mon-Fri 9-5, Mon-Sun 10-20', null],
  ['Mon-Fri 9-5, Mon-Sat 10-20', null],
  ['Mon-Fri 9-5, Mon-Sun closed', null],
  ['Sat 10-2, Mon-Sun 10-20', null],
  ['Mon-Sun 10-20, Mon-Sun 9-5', null],
  ['Mo-Fr 9-17, Mo-So 10-20', null],
  ['Lun-Ven 9h-17h, Lun-Dim 10h-20h', null],
  ['Lun-Vie 9-17, Lun-Dom 10-20', null],
  ['ma-vr 9-17, ma-zo 10-20', null],
  ['pn-pt 9-17, pn-nd 10-20', null],
  ['Sa-So geschlossen, Mo-So 10-20', null],
  // A word for days is a span: given its days' hours, or giving them, it is the same.
  ['Weekdays 9-5, Mon-Sun 10-20', null],
  ['Werktags 9-18, Mo-So 10-20', null],
  ['Weekdays 9-5, Weekdays 10-20', null],
  ['Daily 10-20, Mon-Sun 9-5', null],
  ['Weekends 10-16, Sat-Sun 9-5', null],
  ['Mon-Fri 9-5, Daily 10-20', null],
  // A span naming some of the days of the span before is its exception, as a day alone is.
  ['Mo-Sa 10-19, Do-Fr 10-20', '1-3,6 10:00-19:00; 4-5 10:00-20:00'],
  ['Mon-Sat 9am-6pm, Thu-Sat 9am-9pm', '1-3 09:00-18:00; 4-6 09:00-21:00'],
  ['Lun-Sam 9h-19h, Ven-Sam 9h-20h', '1-4 09:00-19:00; 5-6 09:00-20:00'],
  ['Mo-Fr 9-18, Do-Fr 9-20', '1-3 09:00-18:00; 4-5 09:00-20:00'],
  ['Mon-Fri 8-5, Mon-Tue 8-7', '1-2 08:00-19:00; 3-5 08:00-17:00'],
  ['Weekdays 9-5, Thu-Fri 9-8', '1-3 09:00-17:00; 4-5 09:00-20:00'],
  // The same hours again, hours beside the day's, or every day's before, lose none.
  ['Mon-Fri 9-5, Mon-Sat 9-5', '1-6 09:00-17:00'],
  ['Mo-Fr 8-12, Mo-Sa 14-18', '1-5 08:00-12:00, 14:00-18:00; 6 14:00-18:00'],
  ['Mon-Sun 10-20, Sat-Sun 9-5', '1-5 10:00-20:00; 6-7 09:00-17:00'],
  // A span within the one that named its days is its exception, as a day alone is.
  ['Mo-Sa 9-20, Do-Fr 9-21', '1-3,6 09:00-20:00; 4-5 09:00-21:00'],
  ['Mon-Fri 9-5, Sat-Sun 10-4, Mon-Thu 9-8', '1-4 09:00-20:00; 5 09:00-17:00; 6-7 10:00-16:00'],
  ['Lun-Ven 9h-18h, Lun-Jeu 9h-19h', '1-4 09:00-19:00; 5 09:00-18:00'],
  ['Mon-Fri 8-12 & 13-17, Mon-Thu 8-12 & 13-18', '1-4 08:00-12:00, 13:00-18:00; 5 08:00-12:00, 13:00-17:00'],
  // Hours a spec gave a day joined from two (a lunch break) are the same hours again.
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo-Fr 14-18', '1-5 08:00-12:00, 14:00-18:00'],
  ['Mo-Sa 9-12, Mo-Fr 14-18, Mo-Fr 14-18', '1-5 09:00-12:00, 14:00-18:00; 6 09:00-12:00'],
  ['Mo-Fr 8-12, Mo-Sa 14-18, Mo-Sa 14-18', '1-5 08:00-12:00, 14:00-18:00; 6 14:00-18:00'],
  ['Mo-Fr 8-12, Mo-Sa 14-18, Mo-Fr 14-18', '1-5 08:00-12:00, 14:00-18:00; 6 14:00-18:00'],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo-Fr 8-12', '1-5 08:00-12:00, 14:00-18:00'],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo 14-18', '1-5 08:00-12:00, 14:00-18:00'],
  // Other hours over part of a day joined from two specs: the other part kept, or the day's hours
  // those alone? Saturday's morning alone is often meant, as a span's exception reads it.
  ['Mo-Fr 8-12, Mo-Sa 14-18, Do-Fr 14-20', null],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo 14-20', null],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mi 7-12', null],
  ['Mon-Fri 9am-12pm, Mon-Fri 1pm-5pm, Wed 1pm-8pm', null],
  ['Mo-Sa 9-12, Mo-Sa 14-18, Sa 9-13', null],
  ['Lun-Sam 9h-12h, Lun-Sam 14h-19h, Sam 9h-13h', null],
  ['Mo 9-12, Mo 14-18, Mo 9-13', null],
  ['Mo-Fr 8-12, Mo-Fr 13-17, Mo-Fr 18-20, Mo 10-14', null],
  ['Lun-Sam 9h-12h 14h-19h, Sam 9h-13h', '1-5 09:00-12:00, 14:00-19:00; 6 09:00-13:00'], // the span's exception
  // A span leaving some days of the two specs before, closed or over every part, replaces the day.
  ['Mo-Fr 8-12, Mo-Fr 14-18, Sa-Mo closed', '1 closed; 2-5 08:00-12:00, 14:00-18:00; 6-7 closed'],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mi-Do geschlossen', '1-2,5 08:00-12:00, 14:00-18:00; 3-4 closed'],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mi-Do 9-17', '1-2,5 08:00-12:00, 14:00-18:00; 3-4 09:00-17:00'],
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo-So closed', null], // every day of the specs before: theirs, or closed?
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo 9-17', '1 09:00-17:00; 2-5 08:00-12:00, 14:00-18:00'], // both parts
  ['Mo-Fr 8-12, Mo-Fr 14-18, Mo-So 14-20', null], // not within: Monday's two parts, or 14-20?
  // A span past the days of the span before is its exception for the days they share.
  ['Mon-Sat 9-5, Sat-Sun closed', '1-5 09:00-17:00; 6-7 closed'],
  ['Mo-Sa 9-18, Sa-So geschlossen', '1-5 09:00-18:00; 6-7 closed'],
  ['Mo-Fr 9-18, Fr-Sa 9-20', '1-4 09:00-18:00; 5-6 09:00-20:00'],
  ['Lun-Sam 9h-19h, Sam-Dim 10h-13h', '1-5 09:00-19:00; 6-7 10:00-13:00'],
  ['Weekdays 9-5, Fri-Sat 9-8', '1-4 09:00-17:00; 5-6 09:00-20:00'],
  // One naming as many days as the span before, or more, is not the more specific: which is meant?
  ['Sat-Sun 10-14, Mon-Sat 9-18', null],
  ['Weekends 10-14, Mon-Sat 9-18', null],
  ['Sa-So 10-14, Mo-Sa 9-18', null],
  ['Mon-Fri 9-5, Tue-Sun 10-6', null],
  ['Mon-Fri 9-5, Thu-Tue 10-6', null],
  ['Mon-Fri 9-5, Tue-Sat 10-6', null],
  ['Mo-Mi 9-17, Mi-So 10-18', null],
  // A day named alone again with part of the hours it was given alone: a repeat, or the later?
  ['Mo 9-12, 14-18, Mo 9-12', null],
  ['Mo 9-12 14-18, Mo 14-18', null],
  ['Mo 9-12, 14-18, Mo 9-13', null], // 14-18 kept, or the later hours?
  ['Sa 9-12 14-18, Sa 14-17', null],
  ['Mo 9-17, Mo 10-18', '1 10:00-18:00'], // one part: the later hours
  ['Mon-Fri 9-5, Sat 10-1, 2-5, Sat 10-1', null],
  ['Mo-Fr 9-12, 14-18, Mo 9-12', '1 09:00-12:00; 2-5 09:00-12:00, 14:00-18:00'], // a span's exception
  // A day of a list named alone again names fewer days: the list's exception, as a span's day is.
  ['Mon, Wed, Fri 9am-12pm 2pm-6pm, Mon 9am-1pm', '1 09:00-13:00; 3,5 09:00-12:00, 14:00-18:00'],
  ['Mo/Mi/Fr 9-12 14-18, Mo 9-13', '1 09:00-13:00; 3,5 09:00-12:00, 14:00-18:00'],
  ['Mo-Mi, Fr 9-12 14-18, Fr 9-13', '1-3 09:00-12:00, 14:00-18:00; 5 09:00-13:00'],
  ['Mo, Mi 9-12, 14-18, Mo 9-12', '1 09:00-12:00; 3 09:00-12:00, 14:00-18:00'],
  // Named again in a list of as many days, or more, it is no exception: which is meant?
  ['Mo, Mi 9-12 14-18, Mi, Mo 9-13', null],
  ['Mo 9-12 14-18, Mo, Mi 9-13', null],
  // A word for days giving a span's days the hours they have loses none.
  ['Mo-Fr 9-17, weekdays 9-17', '1-5 09:00-17:00'],
  ['Mo-Fr 9-17, werktags 09:00-17:00', '1-5 09:00-17:00'],
  ['Mo-Fr 9-17, täglich 9-17', '1-7 09:00-17:00'],
  ['Mon-Fri 9-5, Sat-Sun closed, Weekends closed', '1-5 09:00-17:00; 6-7 closed'],
  ['Mo-Fr 9-17, täglich 10-18', null],
  ['Mo-Sa 9-18, Wochenende geschlossen', null],
]

testCells(CELLS)

// Hours after the holidays' words are no day's named: kept unread, as written, not glued to the ones before.
test('hours after holidays excepted stay apart from the hours before them', () => {
  const body: Record<string, unknown> = {}
  weekInto(body, 'Mo-Fr 9-18, außer Feiertage 10-14')
  expect((body.hours as Record<string, string>).monday).toBe('9-18 10-14')
})

// A word that joins no days of the cell's language is kept with the days around it, for a person to fix.
test('a day before a word that joins no days keeps the words unread', () => {
  expect(splitWeekHours('Mo-Fr 9-18, Sa i So geschlossen', true)?.slice(5)).toEqual(['Sa i So', 'geschlossen'])
  expect(splitWeekHours('Mo-Fr 9-18, Sa.- u. Feiertage 10-12', true)?.[5]).toBe('- u.') // "-" alone: closed
})

// A late word moved after its day is quoted where the cell has it.
test('a 24-hour closing before the opening is refused as "bis 12" is, quoting the cell', () => {
  const [eleven] = weekInto({}, 'Mo-Fr 13-18, Mi bis 11')
  const [twelve] = weekInto({}, 'Mo-Fr 13-18, Mi bis 12')
  expect(eleven!.message).toBe(twelve!.message.replaceAll('bis 12', 'bis 11').replace('12:00', '11:00'))
})

test("a 24-hour closing before the last opening says so, its example the day's hours before", () => {
  const message = (cell: string) => weekInto({}, cell)[0]?.message
  expect(message('Mo-Fr 13-18, Mi bis 11')).toBe(
    '"Mo-Fr 13-18, Mi bis 11" could not be read as a week of opening hours: its "Mi bis 11" closes at 11:00, not after the last opening of that day\'s hours before it ("13-18"). Write the day\'s hours whole, such as "Mi 13:00-HH:MM", HH:MM the hour it closes.',
  )
  expect(message('Mo-Fr 9-12, 14-18, Do bis 11')).toContain(
    '"Do bis 11" closes at 11:00, not after the last opening of that day\'s hours before it ("9-12, 14-18"). Write the day\'s hours whole, such as "Do 09:00-12:00, 14:00-HH:MM"',
  )
  expect(message('Mo-Fr 18-2, Fr bis 4')).toContain('such as "Fr 18:00-HH:MM"')
  // By 06:00 it is most likely past midnight, as the cell's other hours may say.
  expect(message('Mo-Fr 20-23, Fr bis 2')).toContain(
    '"Fr bis 2" closes at 02:00, past midnight, which is not read beside that day\'s hours before it ("20-23")',
  )
})

// "bis 2" after a morning opening may close the afternoon (14:00), as spoken German says it, or the night.
test('a bare closing by 06:00 that could close the afternoon too gives both readings', () => {
  const message = (cell: string) => weekInto({}, cell)[0]?.message
  expect(message('Mo-Fr 9-18, Do bis 2')).toBe(
    '"Mo-Fr 9-18, Do bis 2" could not be read as a week of opening hours: its "Do bis 2" could be 14:00 or 02:00, past midnight, beside that day\'s hours before it ("9-18"). Write the day\'s hours whole, such as "Do 09:00-14:00" or "Do 09:00-02:00".',
  )
  expect(message('Mo-Fr 10-18 Uhr, Fr bis 1:30 Uhr')).toContain('such as "Fr 10:00-13:30" or "Fr 10:00-01:30"')
  // Each example, written so, reads; a closing the 24-hour clock writes ("02:00") is past midnight alone.
  expect(weekInto({}, 'Mo-Fr 9-18, Do 09:00-14:00')).toEqual([])
  expect(weekInto({}, 'Mo-Fr 9-18, Do 09:00-02:00')).toEqual([])
  expect(message('Mo-Fr 9-18, Do bis 02:00')).toContain('"Do bis 02:00" closes at 02:00, past midnight')
  // After an evening's opening, or a night's closing, "2" is the night's, as "Fr-Sa 18-2" is read.
  expect(message('Mo-Fr 16-21, Fr bis 2')).toContain('"Fr bis 2" closes at 02:00, past midnight')
  expect(message('Mo-Fr 11-23, Fr bis 2')).toContain('"Fr bis 2" closes at 02:00, past midnight')
  const night: DayHours = { kind: 'open', intervals: [[18 * 60, 26 * 60]] }
  expect(splitWeekHours('Fr-Sa 18-2', true)?.slice(4, 6).map(parseDayHours)).toEqual([night, night])
})

test('a closing alone not read is quoted as written', () => {
  const [problem] = weekInto({}, 'Mon-Fri 9-9, open late Thursday till 8')
  expect(problem!.message).toContain('its "open late Thursday till 8" gives a closing alone')
})

// A late closing without its hour ("till late") is refused: the day closes later, but when is not said.
// The example is the day's own opening, named as the cell names it, and a closing to fill in, or
// the latest of the cell's other days that close later: no hour the cell does not have.
test("a late closing without its hour asks for the day's hours whole", () => {
  for (const [cell, days, such] of [
    ['Mon-Fri 9-5, Thu till late', 'Thu till late', '"Thu 09:00-HH:MM", HH:MM the hour it closes.'],
    ['Mon-Fri 9-5, Thu late', 'Thu late', '"Thu 09:00-HH:MM", HH:MM the hour it closes.'],
    ['Mon-Fri 9-5; Thursday open late', 'Thursday open late', '"Thursday 09:00-HH:MM", HH:MM the hour it closes.'],
    ['Mo-Fr 9-18, Do lange', 'Do lange', '"Do 09:00-HH:MM", HH:MM the hour it closes.'],
    ['Mon-Fri 9-12, 14-18, Thu till late', 'Thu till late', '"Thu 09:00-12:00, 14:00-HH:MM", HH:MM the hour'],
    ['Mon-Fri 9-5, Sat 10-8, Thu till late', 'Thu till late', '"Thu 09:00-20:00" if it closes as "Sat 10-8" does.'],
    ['Mo-Fr 9-18, Sa 9-20, So 10-19, Do lange', 'Do lange', '"Do 09:00-20:00" if it closes as "Sa 9-20" does.'],
    ['Mon-Fri 9-5, Thu till late, Sat 10-12', 'Thu till late', '"Thu 09:00-HH:MM"'], // Saturday closes earlier
  ]) {
    const [problem, more] = weekInto({}, cell!)
    expect(more, cell).toBeUndefined()
    expect(problem!.message, cell).toContain(`its "${days}" gives Thursday a late closing without its hour`)
    expect(problem!.message, cell).toContain(`Write Thursday's hours whole, such as ${such}`)
  }
})

// A closing alone after a day's hours without a day of its own ("do 20": until 20): which day
// closes then is not guessed, nor are the days left unknown: the message asks for the day.
test('a closing alone that names no day is refused, asking for its day', () => {
  for (const [cell, closing, before] of [
    ['pn-pt 9-17, do 20', 'do 20', 'pn-pt 9-17'],
    ['pn-pt 9-17 do 20', 'do 20', 'pn-pt 9-17'],
    ['Pon-Pt 9:00-17:00; do 19:00', 'do 19:00', 'Pon-Pt 9:00-17:00'],
    ['pn-pt 9-17, do 20, sob 9-13', 'do 20', 'pn-pt 9-17'],
    ['Mon-Fri 9-5, till 8', 'till 8', 'Mon-Fri 9-5'],
    ['Mon-Fri 9-5, Sat 10-2, till 8', 'till 8', 'Sat 10-2'],
    ['Mo-Fr 9-18, bis 20 Uhr', 'bis 20 Uhr', 'Mo-Fr 9-18'],
    ["lun-ven 9h-18h, jusqu'à 20h", "jusqu'à 20h", 'lun-ven 9h-18h'],
    ['ma-vr 9-18, tot 21', 'tot 21', 'ma-vr 9-18'],
  ]) {
    const [problem, more] = weekInto({}, cell!)
    expect(more, cell).toBeUndefined()
    expect(problem!.message, cell).toContain(`its "${closing}" after "${before}" names no day that closes then`)
  }
  // The days' hours whole with that closing are offered when it reads one way only.
  expect(weekInto({}, 'pn-pt 9-17, do 20')[0]!.message).toEndWith(
    'Write that day\'s name before it, as "pn-pt" names days, or "pn-pt 09:00-20:00" if that closing is theirs.',
  )
  expect(weekInto({}, 'Mon-Fri 7-3, till 9')[0]!.message).toEndWith('as "Mon-Fri" names days.') // 09:00 or 21:00?
})

// Before a list of more days with hours, which of them close then is not guessed: the message
// names the list as the cell has it, and a way to write it.
test('a closing alone before a list of days with hours asks which close then', () => {
  const [problem, more] = weekInto({}, 'Mon-Fri 9-5, till 8 on Thu, Fri, Sat 10-4')
  expect(more).toBeUndefined()
  expect(problem!.message).toEndWith(
    'its "till 8" before "Thu, Fri, Sat 10-4" names no day apart: which of those days close then is not said. Write them apart, such as "Thu till 8, Fri, Sat 10-4".',
  )
  expect(weekInto({}, 'Mon-Fri 9-5, Thu till 8, Fri, Sat 10-4')).toEqual([])
})

// A span to a word that is no day read ("Pon-Pet", Croatian) names both ends, and the languages read.
test('a span to no day read names its ends and the languages days are read in', () => {
  const [problem, more] = weekInto({}, 'Pon-Pet 8-20, Sub 8-14')
  expect(more).toBeUndefined()
  expect(problem!.message).toContain('its days from "Pon" to "Pet" are not read: "Pet" is no day\'s name read.')
  expect(problem!.message).toContain('Write the days as English, German, French, Spanish, Italian, Dutch, Portuguese,')
})

// Polish "a" is and, no span: Polish days joined so, or by another language's word, are not read, and the message says so.
test('Polish days joined by "a" or another language\'s word name it, and how Polish writes days', () => {
  for (const [cell, word, days] of [
    ['Pn a Pt 8-20', 'a', 'Pn a Pt'],
    ['Pon a Pt 8-20, Sob 9-13', 'a', 'Pon a Pt'],
    ['Pn bis Pt 9-17', 'bis', 'Pn bis Pt'],
  ]) {
    const [problem, more] = weekInto({}, cell!)
    expect(more, cell).toBeUndefined()
    expect(problem!.message, cell).toContain(
      `its "${word}" in "${days}" joins Polish days as Polish does not. Write a span with a dash and days apart with "i", such as "Pn-Pt" or "Sob i Nd".`,
    )
  }
})

test('a span written with "a" to no day read names its ends, as one with a dash does', () => {
  const [problem, more] = weekInto({}, 'Pon a Pet 8-20, Sub 8-14')
  expect(more).toBeUndefined()
  expect(problem!.message).toContain('its days from "Pon" to "Pet" are not read: "Pet" is no day\'s name read.')
})

// Once a month or every week is not guessed: the message names both ways to write it.
test("a langer Samstag after Saturday's hours asks for a special date or the hours whole", () => {
  const [problem] = weekInto({}, 'Mo-Fr 9-18, Sa 9-14, langer Samstag bis 18')
  expect(problem!.message).toContain('its "langer Samstag bis 18" could be one Saturday a month')
  expect(problem!.message).toContain('special date (special_hours)')
  expect(problem!.message).toContain('"Sa 09:00-18:00"') // the day named as the cell's days are
})

// Both of a day's texts are quoted, and the holidays said apart.
test("a day's own hours, then closed with the holidays, are in doubt, both quoted", () => {
  const [problem] = weekInto({}, 'ma-za 9-18, zo 12-17, zon- en feestdagen gesloten')
  expect(problem!.message).toContain('"zo 12-17" and "zon- en feestdagen gesloten" give Sunday')
  expect(problem!.message).toContain('special_hours')
})

test('a span giving days other hours than before names both readings', () => {
  const [problem] = weekInto({}, 'Mo-Fr 9-17, Mo-So 10-20')
  expect(problem!.message).toContain('"Mo-Fr 9-17" and "Mo-So 10-20" after it give Monday other hours')
  expect(problem!.message).toContain('"Mo 09:00-17:00" or "Mo 10:00-20:00"')
})

test('a span past the one before naming more days names both readings', () => {
  const [problem] = weekInto({}, 'Sat-Sun 10-14, Mon-Sat 9-18')
  expect(problem!.message).toContain('"Sat-Sun 10-14" and "Mon-Sat 9-18" after it give Saturday other hours')
  expect(problem!.message).toContain('"Sat 10:00-14:00" or "Sat 09:00-18:00"')
})

test("hours over part of a day's two specs name the other part kept, or the hours alone", () => {
  const [problem] = weekInto({}, 'Mo-Fr 8-12, Mo-Fr 14-18, Mo 14-20')
  expect(problem!.message).toContain('"Mo 08:00-12:00, 14:00-20:00" or "Mo 14:00-20:00"')
})

test("a span over a day's two specs names the day's hours whole, or its own", () => {
  const [problem] = weekInto({}, 'Mo-Fr 8-12, Mo-Fr 14-18, Mo-So 14-20')
  expect(problem!.message).toContain('"Mo-Fr 14-18" and "Mo-So 14-20" after it give Monday other hours')
  expect(problem!.message).toContain('"Mo 08:00-12:00, 14:00-18:00" or "Mo 14:00-20:00"')
})

test('a day named alone again with part of its hours names both readings', () => {
  const [problem] = weekInto({}, 'Mo 9-12, 14-18, Mo 9-12')
  expect(problem!.message).toContain('"Mo 9-12, 14-18" and "Mo 9-12" after it give Monday other hours')
  expect(problem!.message).toContain('"Mo 09:00-12:00, 14:00-18:00" or "Mo 09:00-12:00"')
})

test("a day's own hours, then a text of it not read, are in doubt, both quoted", () => {
  const [problem] = weekInto({}, 'Mon-Sat 9-5, Sun 12-5, Sun closed on match days')
  expect(problem!.message).toContain('"Sun 12-5" and "Sun closed on match days" give Sunday')
  expect(problem!.message).toContain('"Sun 12:00-17:00"')
  expect(problem!.message).toContain('special_hours')
})

// A day left empty after "=" or ":" is unknown in the store's hours, never closed as a day not named.
test.each([
  ['Mon-Fri 9-5, Sat 10-4, Sun:', ['sunday']],
  ['mon=7:30-14:00, sat=, sun=', ['saturday', 'sunday']],
  ['Mon-Fri 9-5, Sat: Sun: closed', ['saturday']],
])('%p leaves its empty days unknown', (cell, empty) => {
  const body: { hours?: Record<string, string> } = {}
  expect(weekInto(body, cell)).toEqual([])
  for (const day of empty) expect(parseDayHours(body.hours![day]).kind).toBe('unknown')
})

// "Sat:" before "Sun:" is empty, as "Sat:, Sun: closed" has it: with no day open the cell is refused.
test('a week of only closed and empty days is refused, naming the empty day', () => {
  expect(weekInto({}, 'Sat: Sun: closed')).toEqual([
    {
      field: 'hours',
      message:
        '"Sat: Sun: closed" gives no day open hours, only days closed or left empty ("Sat:"), so every day would be closed or unknown. Name the days it opens with their hours, such as "Mon-Fri 09:00-18:00, Sat 10:00-14:00, Sun closed".',
    },
  ])
})

test('a day and its half in one word closed at midday is quoted as the cell writes it', () => {
  for (const [cell, days] of [
    ['Mittwochmittag geschlossen', 'Mittwoch'],
    ['Mo-Fr 13-18, Mittwochmittag geschlossen', 'Mittwoch'],
    ['Mo-Fr 8-12, 14-18, Mo-Samstagmittag geschlossen', 'Mo-Samstag'],
  ])
    expect(weekInto({}, cell!).map((p) => p.message)).toEqual([
      `"${cell}" could not be read as a week of opening hours: its "${cell!.split(', ').at(-1)}" does not say when it closes at midday: over lunch, or from noon on? Write its hours, such as "${days} 09:00-12:00, 14:00-18:00", or "${days} nachmittags geschlossen".`,
    ])
})

test('a day and its half written apart beside one in one word is quoted apart, as the cell writes it', () => {
  const cell = 'Mittwoch mittag geschlossen, Mittwochmittag zu'
  expect(weekInto({}, cell).map((p) => p.message)).toEqual([
    `"${cell}" could not be read as a week of opening hours: its "Mittwoch mittag geschlossen" does not say when it closes at midday: over lunch, or from noon on? Write its hours, such as "Mittwoch 09:00-12:00, 14:00-18:00", or "Mittwoch nachmittags geschlossen".`,
  ])
})
