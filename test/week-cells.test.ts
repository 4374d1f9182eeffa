// Week cells as chains and shops write them in spreadsheets and on their sites, in the languages
// read: each read into its days' hours, or refused with a message, never read otherwise. Closings
// alone, late words, days named twice and holidays are in week-cells-doubts.test.ts.
import { expect, test } from 'bun:test'
import { weekInto } from '../src/locations/csv-week'
import { testCells, type WeekCells } from './week-cells-table'

const CELLS: WeekCells = [
  // English (UK, US, AU)
  ['Mon-Fri 9am-5:30pm, Sat 9am-1pm, Sun Closed', '1-5 09:00-17:30; 6 09:00-13:00; 7 closed'],
  ['Monday - Friday: 8:00 AM - 6:00 PM', '1-5 08:00-18:00'],
  ['Mon–Sat 9:00–17:30, Sun 10:00–16:00', '1-6 09:00-17:30; 7 10:00-16:00'],
  ['Mon-Sun 24 hours', '1-7 00:00-24:00'],
  ['Open 24/7', '1-7 00:00-24:00'],
  ['Open 24 hours', '1-7 00:00-24:00'],
  ['24 hours, 7 days a week', '1-7 00:00-24:00'],
  ['Mon-Fri 7am-7pm; Sat-Sun 8am-5pm', '1-5 07:00-19:00; 6-7 08:00-17:00'],
  ['M-F 8-5, Sat 9-12', '1-5 08:00-17:00; 6 09:00-12:00'],
  ['Mon-Thu 10am-9pm, Fri-Sat 10am-10pm, Sun 11am-6pm', '1-4 10:00-21:00; 5-6 10:00-22:00; 7 11:00-18:00'],
  ['Monday to Saturday 9am till 5.30pm, Sunday 10am till 4pm', '1-6 09:00-17:30; 7 10:00-16:00'],
  ['Mon-Sat 9-5.30, Sun 10-4', '1-6 09:00-17:30; 7 10:00-16:00'],
  ['Mon-Fri 12 noon - 11pm', '1-5 12:00-23:00'],
  ['Mon-Sun 11am - midnight', '1-7 11:00-24:00'],
  ['Fri-Sat 6pm-2am', '5-6 18:00-02:00'],
  ['Daily 6am-midnight', '1-7 06:00-24:00'],
  ['Tues-Sat 10-4, closed Sun & Mon', '1 closed; 2-6 10:00-16:00; 7 closed'],
  ['Closed Mondays', null],
  ['Monday: Closed, Tuesday-Sunday: 11am-10pm', '1 closed; 2-7 11:00-22:00'],
  ['Mon-Fri 9-5 by appointment only', '1-5 ?'],
  ['By appointment only', null],
  ['Mon-Fri 9-1, 2-5.30', '1-5 09:00-13:00, 14:00-17:30'],
  ['Weekdays 7:30am - 6pm, Weekends 8am - 4pm', '1-5 07:30-18:00; 6-7 08:00-16:00'],
  ['Mon-Sat: 8am-8pm | Sun: 10am-4pm', '1-6 08:00-20:00; 7 10:00-16:00'],
  ['Mon - Sat 9.00am - 5.30pm Sun 10.00am - 4.00pm', '1-6 09:00-17:30; 7 10:00-16:00'],
  ['Monday to Friday 8.30am to 5.30pm', '1-5 08:30-17:30'],
  ['Thurs 9am-8pm', '4 09:00-20:00'],
  ['Mon-Wed 9-5:30, Thu 9-8, Fri-Sat 9-6, Sun 11-5', '1-3 09:00-17:30; 4 09:00-20:00; 5-6 09:00-18:00; 7 11:00-17:00'],
  [
    'Mon-Fri: 7:00-19:00, Sat: 8:00-17:00, Sun & Public Holidays: 9:00-16:00',
    '1-5 07:00-19:00; 6 08:00-17:00; 7 09:00-16:00',
  ],
  ['Mon to Fri 8.30am–5pm, Sat 8.30am–12pm', '1-5 08:30-17:00; 6 08:30-12:00'],
  ['7 days 7am-10pm', '1-7 07:00-22:00'],
  ['Open 7 days, 8am - 8pm', '1-7 08:00-20:00'],
  ['Open Mon-Sat 10am-6pm, Sunday 11am-5pm', '1-6 10:00-18:00; 7 11:00-17:00'],
  ['Mon-Fri 9:00-17:00 except bank holidays', '1-5 09:00-17:00'],
  ['Christmas Eve 9-2', null],
  ['Sun-Thu 11am-10pm, Fri & Sat 11am-11pm', '1-4 11:00-22:00; 5-6 11:00-23:00; 7 11:00-22:00'],
  ['24 hours', '1-7 00:00-24:00'],
  ['Mon-Fri 8-4:30', '1-5 08:00-16:30'],
  [
    'Monday-Friday 10:00-18:00, Saturday 10:00-17:00, Sunday 11:00-17:00',
    '1-5 10:00-18:00; 6 10:00-17:00; 7 11:00-17:00',
  ],
  ['M-Th 9-6, F 9-5', '1-4 09:00-18:00; 5 09:00-17:00'],
  ['Tu-Sa 10-5', '2-6 10:00-17:00'],
  ['Mon, Wed, Fri 9-5', '1,3,5 09:00-17:00'],
  ['Mon-Fri 9-5; Sat 9-12; Sun & holidays closed', '1-5 09:00-17:00; 6 09:00-12:00; 7 closed'],
  ['Summer: Mon-Sun 9-9; Winter: Mon-Sun 9-6', null],
  ['9am–5pm Monday to Friday', '1-5 09:00-17:00'],
  ['Mon-Sat 10-6 Sun 12-5', '1-6 10:00-18:00; 7 12:00-17:00'],
  ['Open daily 10am-10pm', '1-7 10:00-22:00'],
  ['Mon-Fri 6:30am-9pm, Sat-Sun 7am-9pm', '1-5 06:30-21:00; 6-7 07:00-21:00'],
  ['Mon–Fri 9–5:30 · Sat 9–1', '1-5 09:00-17:30; 6 09:00-13:00'],
  ['Lunch Mon-Fri 11:30-2:30, Dinner Mon-Sat 5-10', null],
  [
    'Mon-Fri 11:30am-2:30pm, 5pm-10pm; Sat 5pm-10:30pm; Sun closed',
    '1-5 11:30-14:30, 17:00-22:00; 6 17:00-22:30; 7 closed',
  ],
  ['Tue-Sun 5pm-late', '2-7 ?'],
  [
    'Mon-Thu 4pm-12am, Fri 4pm-2am, Sat 12pm-2am, Sun 12pm-12am',
    '1-4 16:00-24:00; 5 16:00-02:00; 6 12:00-02:00; 7 12:00-24:00',
  ],
  ['Mon - Fri: 9:00am - 5:00pm\nSat: 10:00am - 2:00pm', '1-5 09:00-17:00; 6 10:00-14:00'],
  ['Mon-Fri 9-5, Sat 10-2, Sun closed', '1-5 09:00-17:00; 6 10:00-14:00; 7 closed'],
  // A day named alone keeps its hours against a word for days after it, as people mean.
  ['Mon-Fri 9-5, Sat 10-2, Weekends closed', '1-5 09:00-17:00; 6 10:00-14:00; 7 closed'],
  ['Mon-Sun 9-5, Weekends closed', null],
  ['Mo-Sa 9-18, Wochenende geschlossen', null], // Saturday open or closed? Not guessed.
  // Words before days that say which weeks they open are not read: the days are not read as every week's.
  ['Mon-Fri 9-5, every other Saturday 10-2', null],
  ['Mo-Fr 9-18, alle 14 Tage Sa 9-12', null],
  ['Mo-Fr 9-18, jeden 1. Samstag 9-13', null],
  ['Mon-Fri 9-5 by appointment, Sat 10-2', '1-5 ?; 6 10:00-14:00'],
  ['Sat 10-2, Daily 9-5', '1-5 09:00-17:00; 6 10:00-14:00; 7 09:00-17:00'],
  ['Mon-Fri: 9AM-9PM; Sat: 9AM-6PM; Sun: 11AM-5PM', '1-5 09:00-21:00; 6 09:00-18:00; 7 11:00-17:00'],
  ['Mon-Fri 9:30 a.m. - 6 p.m.', '1-5 09:30-18:00'],
  ['Monday thru Friday 8-5', '1-5 08:00-17:00'],
  ['Mon.-Fri. 8:00 a.m.-4:30 p.m.', '1-5 08:00-16:30'],
  ['Open Tues–Sat 11–7', '2-6 11:00-19:00'],
  ['Mon-Thu 11-11, Fri-Sat 11-1', null],
  ['11am-3pm & 5pm-10pm daily', '1-7 11:00-15:00, 17:00-22:00'],
  [
    'Mon-Fri 8am-8pm, Sat 9am-6pm, Sun 10am-4pm, Bank Holidays 10am-4pm',
    '1-5 08:00-20:00; 6 09:00-18:00; 7 10:00-16:00',
  ],
  ['Closed Christmas Day', null],
  ['Mon-Sat 7am-10pm, Sun 8am-8pm', '1-6 07:00-22:00; 7 08:00-20:00'],
  ['Mon-Fri 9am-6pm, Sat 9am-5pm, Sun 10am-4pm', '1-5 09:00-18:00; 6 09:00-17:00; 7 10:00-16:00'],
  ['Mon–Fri 8:30–17:00, Sat 9:00–12:00, Sun & PH closed', '1-5 08:30-17:00; 6 09:00-12:00; 7 closed'],
  ['Mon-Wed & Sat 9-5.30, Thu-Fri 9-7, Sun 10-4', '1-3 09:00-17:30; 4-5 09:00-19:00; 6 09:00-17:30; 7 10:00-16:00'],
  ['Mon-Fri 07:00 - 22:00, Sat 08:00 - 22:00, Sun 10:00 - 16:00', '1-5 07:00-22:00; 6 08:00-22:00; 7 10:00-16:00'],
  ['Mon-Fri 9:00am - 5:00pm (closed 1-2pm for lunch)', '1-5 ?'],
  ['Mon-Sat 9am-5:30pm, Sun 11am-5pm (browsing from 10:30am)', '1-6 09:00-17:30; 7 ?'],
  // German
  ['Mo-Fr 9:00-18:00 Uhr, Sa 9:00-14:00 Uhr', '1-5 09:00-18:00; 6 09:00-14:00'],
  ['Mo.-Fr. 8-18 Uhr, Sa. 8-13 Uhr', '1-5 08:00-18:00; 6 08:00-13:00'],
  ['Mo - Fr: 09:00 - 19:00 Uhr | Sa: 09:00 - 16:00 Uhr', '1-5 09:00-19:00; 6 09:00-16:00'],
  ['Montag bis Freitag 9 bis 18 Uhr, Samstag 9 bis 13 Uhr', '1-5 09:00-18:00; 6 09:00-13:00'],
  ['Mo-Fr 8.30-12.30 u. 14.00-18.00 Uhr, Sa 9-12 Uhr', '1-5 08:30-12:30, 14:00-18:00; 6 09:00-12:00'],
  [
    'Mo, Di, Do, Fr 9-12 und 15-18 Uhr, Mi 9-12 Uhr, Sa geschlossen',
    '1-2 09:00-12:00, 15:00-18:00; 3 09:00-12:00; 4-5 09:00-12:00, 15:00-18:00; 6 closed',
  ],
  ['Mo–Sa 7–20 Uhr, So 8–11 Uhr', '1-6 07:00-20:00; 7 08:00-11:00'],
  ['Di-So 11:30-14:30 und 17:30-22:00, Mo Ruhetag', '1 closed; 2-7 11:30-14:30, 17:30-22:00'],
  ['Mo Ruhetag, Di-So 11-23 Uhr', '1 closed; 2-7 11:00-23:00'],
  ['täglich 6-22 Uhr', '1-7 06:00-22:00'],
  ['Mo-Sa 10-20 Uhr, So und Feiertage geschlossen', '1-6 10:00-20:00; 7 closed'],
  ['Mo-Fr 9-18 Uhr, Sa nach Vereinbarung', '1-5 09:00-18:00; 6 ?'],
  ['Termine nach Vereinbarung', null],
  ['Mo-Fr 7:00-18:30, Sa 7:00-13:00, So 8:00-11:00', '1-5 07:00-18:30; 6 07:00-13:00; 7 08:00-11:00'],
  ['Mo.–Fr. 10–19 Uhr · Sa. 10–18 Uhr', '1-5 10:00-19:00; 6 10:00-18:00'],
  ['Mo-Do 8-17 Uhr, Fr 8-14 Uhr', '1-4 08:00-17:00; 5 08:00-14:00'],
  [
    'Mo-Fr 9-13 u. 14-18, Mi nachm. geschlossen',
    '1-2 09:00-13:00, 14:00-18:00; 3 09:00-13:00; 4-5 09:00-13:00, 14:00-18:00',
  ],
  ['Öffnungszeiten: Mo-Fr 9-18 Uhr', '1-5 09:00-18:00'],
  ['Mo-So 0-24 Uhr', '1-7 00:00-24:00'],
  ['rund um die Uhr geöffnet', '1-7 00:00-24:00'],
  ['Mo-Fr 9-18 Uhr, Sa 9-14 Uhr, sonn- und feiertags geschlossen', '1-5 09:00-18:00; 6 09:00-14:00; 7 closed'],
  ['Mo-Fr 8-12 Uhr, Mo-Do 13-16 Uhr', '1-4 08:00-12:00, 13:00-16:00; 5 08:00-12:00'],
  [
    'Mo, Mi, Fr 8-12 Uhr; Di, Do 14-18 Uhr',
    '1 08:00-12:00; 2 14:00-18:00; 3 08:00-12:00; 4 14:00-18:00; 5 08:00-12:00',
  ],
  ['Sommer: täglich 10-22 Uhr', null],
  ['Mo-Fr 11:30-14:00 & 17:30-23:00, Sa-So 17:30-23:00', '1-5 11:30-14:00, 17:30-23:00; 6-7 17:30-23:00'],
  ['Mo - Fr 06:00 - 22:00, Sa 07:00 - 22:00, So 09:00 - 20:00', '1-5 06:00-22:00; 6 07:00-22:00; 7 09:00-20:00'],
  ['Mi-So ab 17 Uhr', '3-7 ?'],
  ['Montag–Freitag: 10:00–18:00', '1-5 10:00-18:00'],
  ['Mo-Fr 10-19, Sa 10-18 Uhr', '1-5 10:00-19:00; 6 10:00-18:00'],
  ['Mo-Sa 8-20 Uhr, So geschlossen', '1-6 08:00-20:00; 7 closed'],
  ['Di-Fr 10-18 Uhr, Sa 10-14 Uhr, So-Mo Ruhetag', '1 closed; 2-5 10:00-18:00; 6 10:00-14:00; 7 closed'],
  ['Mo-Fr 7-22, Sa 8-22', '1-5 07:00-22:00; 6 08:00-22:00'],
  // French
  ['Lun-Sam 9h-19h', '1-6 09:00-19:00'],
  ['Du lundi au vendredi de 9h à 12h et de 14h à 18h', '1-5 09:00-12:00, 14:00-18:00'],
  ['Lundi-Vendredi : 9h00-12h30 / 14h00-19h00, Samedi : 9h00-18h00', '1-5 09:00-12:30, 14:00-19:00; 6 09:00-18:00'],
  ['Ouvert du mardi au samedi de 10h à 19h', '2-6 10:00-19:00'],
  ['mar-sam 10h-13h, 14h30-19h ; dim-lun fermé', '1 closed; 2-6 10:00-13:00, 14:30-19:00; 7 closed'],
  ['Lun au Sam : 8h30 - 19h30, Dim : 9h - 12h30', '1-6 08:30-19:30; 7 09:00-12:30'],
  ['Tous les jours de 7h à 21h', '1-7 07:00-21:00'],
  ['Lundi : fermé, Mardi-Samedi : 9h-19h', '1 closed; 2-6 09:00-19:00'],
  ['Lun-Ven 8h30-18h, Sam 9h-12h, fermé le dimanche', '1-5 08:30-18:00; 6 09:00-12:00; 7 closed'],
  ['Ouvert 7j/7 de 8h à 22h', '1-7 08:00-22:00'],
  ['Sur rendez-vous', null],
  ['Du lundi au samedi 9h-20h, le dimanche 9h-13h', '1-6 09:00-20:00; 7 09:00-13:00'],
  ['Lun-Ven : 9h à 18h', '1-5 09:00-18:00'],
  ['lundi au vendredi 10h-19h', '1-5 10:00-19:00'],
  ['Du mardi au samedi : 9h30 – 12h30 et 14h – 19h', '2-6 09:30-12:30, 14:00-19:00'],
  ['Lun : 14h-19h, Mar-Sam : 10h-19h', '1 14:00-19:00; 2-6 10:00-19:00'],
  ['24h/24 7j/7', '1-7 00:00-24:00'],
  ['Lun-Sab 9-18, Dom aperto 24 ore su 24', '1-6 09:00-18:00; 7 00:00-24:00'], // "su" is no Sunday
  ['Aperto 24 ore su 24', '1-7 00:00-24:00'],
  ['Lun-Dom h24', '1-7 00:00-24:00'],
  ['Lunes a Domingo abierto las 24 horas', '1-7 00:00-24:00'],
  ['Lundi au samedi de 8h30 à 19h30 sans interruption', '1-6 08:30-19:30'],
  ['Mardi-Samedi 10h-12h / 14h-19h, Dimanche et Lundi fermés', '1 closed; 2-6 10:00-12:00, 14:00-19:00; 7 closed'],
  // Spanish
  ['Lunes a viernes de 9:00 a 14:00 y de 17:00 a 20:00', '1-5 09:00-14:00, 17:00-20:00'],
  ['L-V 10:00-14:00 y 17:00-20:30, S 10:00-14:00', '1-5 10:00-14:00, 17:00-20:30; 6 10:00-14:00'],
  ['Lunes a Sábado 10:00 - 22:00', '1-6 10:00-22:00'],
  ['De lunes a viernes: 8:00 - 15:00', '1-5 08:00-15:00'],
  ['L a V de 9 a 21h, S y D cerrado', '1-5 09:00-21:00; 6-7 closed'],
  ['Lun-Vie 9:30-13:30 / 17:00-20:00, Sáb 10:00-14:00', '1-5 09:30-13:30, 17:00-20:00; 6 10:00-14:00'],
  ['Todos los días de 13:00 a 16:00 y de 20:00 a 23:30', '1-7 13:00-16:00, 20:00-23:30'],
  ['Lunes cerrado, martes a domingo 13:00-16:00', '1 closed; 2-7 13:00-16:00'],
  ['Abierto 24 horas', '1-7 00:00-24:00'],
  ['Lunes a Viernes: 9 a 18 hs', '1-5 09:00-18:00'],
  ['Lun a Dom 24hs', '1-7 00:00-24:00'],
  ['24 hs', '1-7 00:00-24:00'],
  ['Lun a Vie 9 a 18hs, Sáb 24hs', '1-5 09:00-18:00; 6 00:00-24:00'],
  ['Seg a Sex 24hs', '1-5 00:00-24:00'],
  ['L-J 9-14h, V 9-13h', '1-4 09:00-14:00; 5 09:00-13:00'],
  ['De lunes a domingo de 12:00 a 00:00', '1-7 12:00-24:00'],
  ['Lun a Vie 9:00 a 19:00 hrs', '1-5 09:00-19:00'],
  ['Lunes a viernes 9 a.m. a 6 p.m.', '1-5 09:00-18:00'],
  // Colombia's noon, "12 m." (meridiem), is no martes.
  ['Lunes a viernes 8 a.m. - 12 m. y 2 p.m. - 6 p.m.', '1-5 08:00-12:00, 14:00-18:00'],
  ['Lunes a sábado de 8 a.m. a 12 m.', '1-6 08:00-12:00'],
  ['Lunes a domingo 12 m. - 10 p.m.', '1-7 12:00-22:00'],
  ['Horario: L-V 9:00-18:00', '1-5 09:00-18:00'],
  ['Con cita previa', null],
  // Italian
  ['Lun-Ven 9:00-13:00 / 15:30-19:30, Sab 9:00-13:00', '1-5 09:00-13:00, 15:30-19:30; 6 09:00-13:00'],
  ['dal lunedì al sabato 8:30-12:30 e 15:30-19:30', '1-6 08:30-12:30, 15:30-19:30'],
  ['Lunedì chiuso, martedì-domenica 12-15 e 19-23', '1 closed; 2-7 12:00-15:00, 19:00-23:00'],
  ['Aperto tutti i giorni dalle 10 alle 20', '1-7 10:00-20:00'],
  ['lun-sab 9-13 / 16-20, dom chiuso', '1-6 09:00-13:00, 16:00-20:00; 7 closed'],
  ['Mar-Dom 19:00-24:00, Lun chiuso', '1 closed; 2-7 19:00-24:00'],
  ['Lun-Sab: 09:00-20:00 orario continuato', '1-6 09:00-20:00'],
  ['Su appuntamento', null],
  ['Lun-Sab 8:30-20, Dom 9-13', '1-6 08:30-20:00; 7 09:00-13:00'],
  ['Orari: lun-ven 9-18', '1-5 09:00-18:00'],
  // Dutch
  ['ma-vr 9:00-18:00, za 9:00-17:00, zo gesloten', '1-5 09:00-18:00; 6 09:00-17:00; 7 closed'],
  ['Maandag t/m vrijdag 9.00 - 17.30 uur', '1-5 09:00-17:30'],
  ['ma t/m za 10:00-18:00, zo 12:00-17:00', '1-6 10:00-18:00; 7 12:00-17:00'],
  // "t/m" is no one-letter M beside a day's text kept unread.
  ['Ma t/m vr 9-18, za op afspraak', '1-5 09:00-18:00; 6 ?'],
  ['ma t/m za 9-18, woensdagmiddag gesloten', '1-2 09:00-18:00; 3 09:00-12:00; 4-6 09:00-18:00'],
  ['Ma: gesloten, Di-Vr: 10-18 uur, Za: 10-17 uur', '1 closed; 2-5 10:00-18:00; 6 10:00-17:00'],
  ['Dinsdag tot en met zaterdag 10.00-17.00', '2-6 10:00-17:00'],
  ['Dagelijks 8.00-20.00 uur', '1-7 08:00-20:00'],
  ['ma-za 8-20u, zo 10-18u', '1-6 08:00-20:00; 7 10:00-18:00'],
  ['Op afspraak', null],
  ['ma 13-18, di-vr 9:30-18, za 9:30-17', '1 13:00-18:00; 2-5 09:30-18:00; 6 09:30-17:00'],
  ['Openingstijden: ma-vr 9-17', '1-5 09:00-17:00'],
  // Danish
  ['Man-fre 10-17.30, lør 10-14, søn lukket', '1-5 10:00-17:30; 6 10:00-14:00; 7 closed'],
  ['Mandag-fredag kl. 9-17', '1-5 09:00-17:00'],
  ['Hverdage 10-18, lørdag 10-15, søndag lukket', '1-5 10:00-18:00; 6 10:00-15:00; 7 closed'],
  ['Man-tors 10-17, fre 10-18, lør 10-14', '1-4 10:00-17:00; 5 10:00-18:00; 6 10:00-14:00'],
  ['Alle dage 8-22', '1-7 08:00-22:00'],
  ['ma-to 10-17.30, fr 10-19, lø 9-15', '1-4 10:00-17:30; 5 10:00-19:00; 6 09:00-15:00'],
  ['Døgnåbent', '1-7 00:00-24:00'],
  // Norwegian
  ['Man-fre 9-20, lør 9-18', '1-5 09:00-20:00; 6 09:00-18:00'],
  ['ma-fr 10-20, lø 10-18, sø stengt', '1-5 10:00-20:00; 6 10:00-18:00; 7 closed'],
  ['Mandag-fredag 08.00-16.00', '1-5 08:00-16:00'],
  ['ti-fr 11-17, lø-sø 12-16', '2-5 11:00-17:00; 6-7 12:00-16:00'],
  ['ma-on 10-17, to 10-19, fr 10-17, lø 10-15', '1-3 10:00-17:00; 4 10:00-19:00; 5 10:00-17:00; 6 10:00-15:00'],
  ['Hverdager 7-23, lørdag 9-21', '1-5 07:00-23:00; 6 09:00-21:00'],
  ['Mandag til fredag kl 10-17', '1-5 10:00-17:00'],
  ['Døgnåpent', '1-7 00:00-24:00'],
  ['ma, ti, on 10-17; to 10-19; fr 10-17', '1-3 10:00-17:00; 4 10:00-19:00; 5 10:00-17:00'],
  ['Åpningstider: man-fre 10-18', '1-5 10:00-18:00'],
  // Swedish
  ['Mån-Fre 10-19, Lör 10-16, Sön 11-16', '1-5 10:00-19:00; 6 10:00-16:00; 7 11:00-16:00'],
  ['Vardagar 10-18, lördag 10-15, söndag stängt', '1-5 10:00-18:00; 6 10:00-15:00; 7 closed'],
  ['mån–fre 07–22, lör–sön 08–22', '1-5 07:00-22:00; 6-7 08:00-22:00'],
  ['Alla dagar 8-22', '1-7 08:00-22:00'],
  ['Måndag-torsdag 10-18, fredag 10-17', '1-4 10:00-18:00; 5 10:00-17:00'],
  ['Öppet alla dagar 7-23', '1-7 07:00-23:00'],
  ['måndag till fredag 10-18', '1-5 10:00-18:00'],
  // Polish
  ['Pn-Pt 9-17, Sob 10-14', '1-5 09:00-17:00; 6 10:00-14:00'],
  ['pon.-pt. 8:00-16:00', '1-5 08:00-16:00'],
  [
    'Poniedziałek - Piątek: 10:00 - 18:00, Sobota: 10:00 - 14:00, Niedziela: nieczynne',
    '1-5 10:00-18:00; 6 10:00-14:00; 7 closed',
  ],
  ['pn.-pt. 9-17, sob. 9-13', '1-5 09:00-17:00; 6 09:00-13:00'],
  ['Codziennie 6-22', '1-7 06:00-22:00'],
  ['Pon-Sob 9-21, Nd 10-20', '1-6 09:00-21:00; 7 10:00-20:00'],
  // Portuguese
  ['Seg a Sex: 9h às 18h', '1-5 09:00-18:00'],
  ['Segunda a Sexta 08:00 às 18:00, Sábado 08:00 às 12:00', '1-5 08:00-18:00; 6 08:00-12:00'],
  ['Seg-Sáb 10h-22h, Dom 14h-20h', '1-6 10:00-22:00; 7 14:00-20:00'],
  ['Todos os dias das 10h às 22h', '1-7 10:00-22:00'],
  ['2ª a 6ª das 9h às 19h; Sáb das 9h às 13h', '1-5 09:00-19:00; 6 09:00-13:00'],
  ['Aberto 24 horas', '1-7 00:00-24:00'],
  ['Seg-Sex 9h-18h, Sáb 9h-13h, Dom e feriados encerrado', '1-5 09:00-18:00; 6 09:00-13:00; 7 closed'],
  // Words around the word for the other days
  ['Mo Oxford sonst 9-18', null],
  ['Sun 10-4 Oxford, otherwise 9-6', null],
  // Words for the rest of the week, in the languages read, as "otherwise": never the others closed.
  ['Mon closed, rest of the week 9-5', '1 closed; 2-7 09:00-17:00'],
  ['Lunes cerrado, resto 10-20', '1 closed; 2-7 10:00-20:00'],
  // French "resto" is a restaurant: its hours are no other days' (kept unread, as before).
  ['Lun-Sam 9h-19h, Resto 12h-14h', '1-6 ?'],
  ['Mon-Sat 9-6, Resto 12-3', '1-6 ?'],
  ['Lun chiuso, resto 9-19', '1 closed; 2-7 09:00-19:00'],
  ['Lun chiuso, altri giorni 9-19', '1 closed; 2-7 09:00-19:00'],
  ['Domingo fechado, restantes dias 9h-19h', '1-6 09:00-19:00; 7 closed'],
  ['lundi fermé, les autres jours 9h-19h', '1 closed; 2-7 09:00-19:00'],
  ['Mo Ruhetag, übrige Tage 10-18', '1 closed; 2-7 10:00-18:00'],
  ['Mo-Fr 9-18, an allen anderen Tagen geschlossen', '1-5 09:00-18:00; 6-7 closed'],
  ['Mo-Fr 9-18, restliche Tage geschlossen', '1-5 09:00-18:00; 6-7 closed'],
  ['Mo Ruhetag, alle anderen Tage 10-18', '1 closed; 2-7 10:00-18:00'],
  ['ma gesloten, overige dagen 9-18', '1 closed; 2-7 09:00-18:00'],
  ['mån stängt, övriga dagar 10-18', '1 closed; 2-7 10:00-18:00'],
  ['pn nieczynne, pozostałe dni 9-17', '1 closed; 2-7 09:00-17:00'],
  ['Mon-Fri 9-5, other days by appointment', null],
  ['Mon-Fri 9-5, closed all other days', '1-5 09:00-17:00; 6-7 closed'], // closed before the word: theirs
  ['Mon-Sat 9-6, closed on other days', '1-6 09:00-18:00; 7 closed'],
  ['Mon-Sat 9-5, closed other days', '1-6 09:00-17:00; 7 closed'],
  // More English
  ['Mon-Fri 9-5, Sat 9-12 noon', '1-5 09:00-17:00; 6 09:00-12:00'],
  ['Mon-Sat 10am–6pm; Sun noon–5pm', '1-6 10:00-18:00; 7 12:00-17:00'],
  ['Mon–Fri 7:30–4', '1-5 07:30-16:00'],
  ['Fri 5pm - 1am', '5 17:00-01:00'],
  ['Thu-Sat 10pm-4am', '4-6 22:00-04:00'],
  ['Mon-Fri 9 to 5', '1-5 09:00-17:00'],
  ['Mon to Fri 9-5 & Sat 9-1', '1-5 09:00-17:00; 6 09:00-13:00'],
  ['Mon-Fri 0800-1800', '1-5 08:00-18:00'],
  ['Closed Sundays and Mondays', null],
  ['Closed on Sunday, Mon-Sat 9am-6pm', '1-6 09:00-18:00; 7 closed'],
  ['Mon-Sat 9-6, Sun by appointment', '1-6 09:00-18:00; 7 ?'],
  ['Mon-Sat 9-5, Sun by appt, otherwise closed', '1-6 09:00-17:00; 7 ?'], // "appt.": appointment
  ['Mon-Fri 8am-6pm, Sat 8am-12 noon', '1-5 08:00-18:00; 6 08:00-12:00'],
  ['Mon-Fri: 10:00-19:00, Sat: 10:00-18:00, Sun: closed, Holidays: closed', '1-5 10:00-19:00; 6 10:00-18:00; 7 closed'],
  ['Mon–Fri 8.30–17.00 (Wed 9.30–17.00)', '1-2 08:30-17:00; 3 09:30-17:00; 4-5 08:30-17:00'],
  ['Mon-Fri 9:00 AM–5:00 PM, Sat 10:00 AM–2:00 PM, Sun Closed', '1-5 09:00-17:00; 6 10:00-14:00; 7 closed'],
  ['Monday–Friday, 8 a.m.–6 p.m.', '1-5 08:00-18:00'],
  ['Mon-Sat 10-9, Sun 11-6', '1-6 10:00-21:00; 7 11:00-18:00'],
  ['M-F 7:30a-4p', '1-5 07:30-16:00'],
  ['Open Monday-Saturday 9am to 9pm, Sunday 10am to 6pm', '1-6 09:00-21:00; 7 10:00-18:00'],
  ['Mon-Fri 8-6 Sat 8-12 Sun Closed', '1-5 08:00-18:00; 6 08:00-12:00; 7 closed'],
  ['Weekdays 9-5', '1-5 09:00-17:00'],
  ['Sat 10pm-3am', '6 22:00-03:00'],
  ['Mon-Sun 12pm-12am', '1-7 12:00-24:00'],
  ['Mon-Fri 9-5 (closed public holidays)', '1-5 09:00-17:00'],
  ['Tue-Sun 12-12', '2-7 ?'],
  ['Mon-Fri 9-6, Thu til 8', '1-3,5 09:00-18:00; 4 09:00-20:00'],
  // More German
  ['Mo-Fr 10:00 bis 18:00 Uhr', '1-5 10:00-18:00'],
  ['Mo., Di., Do. 8–12 Uhr', '1-2 08:00-12:00; 4 08:00-12:00'],
  ['Mo-Fr 9-18:30 durchgehend', '1-5 09:00-18:30'],
  [
    'Mo-Fr 8-12.30 und 14.30-18 Uhr, Mi und Sa 8-12.30 Uhr',
    '1-2 08:00-12:30, 14:30-18:00; 3 08:00-12:30; 4-5 08:00-12:30, 14:30-18:00; 6 08:00-12:30',
  ],
  ['Mo-Do 7.30-16.00, Fr 7.30-13.00', '1-4 07:30-16:00; 5 07:30-13:00'],
  ['Montags geschlossen', null],
  ['Di–Sa 10–18 Uhr, So, Mo geschlossen', '1 closed; 2-6 10:00-18:00; 7 closed'],
  ['Mo-Fr: 9-20 Uhr; Sa: 9-18 Uhr; So: Ruhetag', '1-5 09:00-20:00; 6 09:00-18:00; 7 closed'],
  ['Mo-So 11-24 Uhr', '1-7 11:00-24:00'],
  ['Mo-Sa 22-5 Uhr', '1-6 22:00-05:00'],
  ['Fr, Sa 23:00 - 06:00', '5-6 23:00-06:00'],
  // More French
  ['Lundi au Vendredi : 9h - 12h / 13h30 - 17h30', '1-5 09:00-12:00, 13:30-17:30'],
  ['Du mardi au dimanche de 12h à 14h30 et de 19h à 22h30', '2-7 12:00-14:30, 19:00-22:30'],
  ['Ouvert tous les jours 10h-19h', '1-7 10:00-19:00'],
  ['Lun-Sam 10h00-19h00 Dim 10h00-13h00', '1-6 10:00-19:00; 7 10:00-13:00'],
  ['fermé le lundi', null],
  ['Lundi au samedi 9h à 19h, dimanche 9h à 12h30', '1-6 09:00-19:00; 7 09:00-12:30'],
  ['Du lundi au jeudi de 8h à 18h, le vendredi de 8h à 17h', '1-4 08:00-18:00; 5 08:00-17:00'],
  // More Spanish
  ['Lunes a Sábado: 10:00 a 21:00 hrs. Domingo: 11:00 a 19:00 hrs.', '1-6 10:00-21:00; 7 11:00-19:00'],
  ['Lun a Sáb 10 a 14 y 17 a 21', '1-6 10:00-14:00, 17:00-21:00'],
  ['Martes a Domingo 13:00 a 16:00 y 20:00 a 24:00', '2-7 13:00-16:00, 20:00-24:00'],
  ['L-S 9:00-21:00', '1-6 09:00-21:00'],
  ['Lunes a viernes de 10 a 14 h y de 17 a 20 h', '1-5 10:00-14:00, 17:00-20:00'],
  // More Italian
  ['LUN-SAB 9.30-20.30', '1-6 09:30-20:30'],
  ['Lunedì - Venerdì: 9.00 - 19.00; Sabato: 9.00 - 13.00', '1-5 09:00-19:00; 6 09:00-13:00'],
  ['Tutti i giorni 7-24', '1-7 07:00-24:00'],
  ['Lun 15:30-19:30, Mar-Sab 9-13 / 15:30-19:30', '1 15:30-19:30; 2-6 09:00-13:00, 15:30-19:30'],
  ['dal martedì alla domenica 12-14.30 e 19-23', '2-7 12:00-14:30, 19:00-23:00'],
  // More Dutch
  [
    'Maandag: 13:00 - 18:00, Dinsdag t/m Vrijdag: 09:00 - 18:00, Zaterdag: 09:00 - 17:00, Zondag: gesloten',
    '1 13:00-18:00; 2-5 09:00-18:00; 6 09:00-17:00; 7 closed',
  ],
  ['Ma t/m vr 8.30 - 17.00 uur', '1-5 08:30-17:00'],
  ['Ma-Za: 08:00 - 21:00 | Zo: 10:00 - 18:00', '1-6 08:00-21:00; 7 10:00-18:00'],
  ['Elke dag 9-18', '1-7 09:00-18:00'],
  ['ma-vr 8:30-12:00 en 13:00-17:00', '1-5 08:30-12:00, 13:00-17:00'],
  // More Nordic
  ['Mån–fre 10–18, lör 10–15', '1-5 10:00-18:00; 6 10:00-15:00'],
  ['Vardagar 7-19, helger 9-17', '1-5 07:00-19:00; 6-7 09:00-17:00'],
  // Swedish "helger" is the weekend alone, the holidays (helgdagar) joined to a day; beside
  // Saturday or Sunday named apart it could be either, unless the two readings give one week.
  ['Mån-Fre 10-18, Lör 10-15, sön och helger 11-15', '1-5 10:00-18:00; 6 10:00-15:00; 7 11:00-15:00'],
  ['Mån-Fre 10-18, lör, sön och helger 10-16', '1-5 10:00-18:00; 6-7 10:00-16:00'],
  ['Mån-Fre 10-18, Lör 10-15, helger stängt', '1-5 10:00-18:00; 6 10:00-15:00; 7 closed'],
  ['mån-fre 10-19, lör 10-16, helgen stängt', '1-5 10:00-19:00; 6 10:00-16:00; 7 closed'],
  ['mån-fre 10-19, lör 10-16, sön 11-16, helger stängt', '1-5 10:00-19:00; 6 10:00-16:00; 7 11:00-16:00'],
  ['mån-fre 10-19, lör-sön 11-16, helger stängt', '1-5 10:00-19:00; 6-7 11:00-16:00'],
  ['Mån-fre 10-19, lör 10-16, sön 12-16, helger 11-15', '1-5 10:00-19:00; 6 10:00-16:00; 7 12:00-16:00'],
  ['helger 10-16, lör 10-14', null],
  ['Vardagar 7-19, helger 9-17, sön stängt', null], // Saturday 9-17, or closed and holidays 9-17?
  ['Mån-Fre 9-18, helgen 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['Mån-Fre 10-18, Sön och helgdag stängt', '1-5 10:00-18:00; 7 closed'],
  ['Mån-Tors 11-21, Fre-Lör 11-23, Sön 12-21', '1-4 11:00-21:00; 5-6 11:00-23:00; 7 12:00-21:00'],
  ['Man.-fre. 10-18, lør. 10-16', '1-5 10:00-18:00; 6 10:00-16:00'],
  ['Mandag - fredag: 07.00 - 23.00, lørdag: 08.00 - 22.00', '1-5 07:00-23:00; 6 08:00-22:00'],
  ['Ma-fr 9-16, to 9-18', '1-3 09:00-16:00; 4 09:00-18:00; 5 09:00-16:00'],
  // "to", "on", "ti" beside no other Norwegian day are words, not Thursday, Wednesday, Tuesday.
  ['Open to 8pm', null],
  ['Open on 9-5', null],
  ['ti 10-18', null],
  // More Polish
  ['Pon.-Pt. 8.00-16.00', '1-5 08:00-16:00'],
  ['pon - pt: 9:00 - 17:00, sob: 9:00 - 13:00', '1-5 09:00-17:00; 6 09:00-13:00'],
  ['Pn.-Pt.: 10.00-18.00, Sb.: 10.00-14.00', '1-5 10:00-18:00; 6 10:00-14:00'],
  ['Od poniedziałku do piątku 9-17', null],
  ['Czynne całą dobę', '1-7 00:00-24:00'],
  // More Portuguese
  ['Seg. a Sex. das 9h às 18h', '1-5 09:00-18:00'],
  ['Segunda a sábado, das 8h às 20h', '1-6 08:00-20:00'],
  ['Seg-Sex: 08:00-18:00 | Sáb: 08:00-13:00', '1-5 08:00-18:00; 6 08:00-13:00'],
  ['Terça a Domingo 12h-15h e 19h-23h', '2-7 12:00-15:00, 19:00-23:00'],
  ['Segunda-feira a sexta-feira: 9:00 - 19:00', '1-5 09:00-19:00'],
  // A bare 0 closing is midnight, as the 24-hour clock writes it (spreadsheets' "06:00-0").
  ['Mon-Fri 9-0, Sat 10-0', '1-5 09:00-24:00; 6 10:00-24:00'],
  ['Mo-So 06:00-0', '1-7 06:00-24:00'],
  // Days joined by each language's "and".
  ['Man-Fre 9-17, lør og søn 10-15', '1-5 09:00-17:00; 6-7 10:00-15:00'],
  ['Mån-Fre 10-18, lör och sön 10-15', '1-5 10:00-18:00; 6-7 10:00-15:00'],
  ['Mon-Fri 9-5, Sat and Sun 10-4', '1-5 09:00-17:00; 6-7 10:00-16:00'],
  ['Mo-Fr 9-18, Sa und So 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  ['lun.-ven. 9h-19h, sam. et dim. 10h-13h', '1-5 09:00-19:00; 6-7 10:00-13:00'],
  ['lun-vie 9-18, sáb y dom 10-14', '1-5 09:00-18:00; 6-7 10:00-14:00'],
  // Polish "i" joins Polish days only: beside others it is a word ("Tutti i giorni").
  ['Pn-Pt 9-17, Sob i Nd 10-14', '1-5 09:00-17:00; 6-7 10:00-14:00'],
  ['Pn.-Pt. 9-17, Sob. i Niedz. nieczynne', '1-5 09:00-17:00; 6-7 closed'],
  ['Pn-Pt 9-17, weekend nieczynne', '1-5 09:00-17:00; 6-7 closed'],
  ['Pon-Pt 9-17, So i Nd 10-14', '1-5 09:00-17:00; 6-7 10:00-14:00'], // So beside Polish days: sobota
  ['Sob i Nd zamknięte', null],
  ['Pn-Pt 9-17, Sob 9-13, Nd i święta nieczynne', '1-5 09:00-17:00; 6 09:00-13:00; 7 closed'],
  // Polish days in the plural, "w" (on) before them: "w soboty", on Saturdays.
  ['Pon-Pt 9-17, w soboty 10-14, w niedziele nieczynne', '1-5 09:00-17:00; 6 10:00-14:00; 7 closed'],
  ['Pn-Pt 9-17, w czwartki do 19', '1-3,5 09:00-17:00; 4 09:00-19:00'],
  ['poniedziałki nieczynne, pozostałe dni 9-17', '1 closed; 2-7 09:00-17:00'],
  // French days in the plural after "les": "les samedis", on Saturdays.
  ['Lun-Ven 9h-18h, les samedis 10h-17h', '1-5 09:00-18:00; 6 10:00-17:00'],
  ['Ouvert du mardi au samedi 10h-19h, les lundis fermé', '1 closed; 2-6 10:00-19:00'],
  ['Lun-Sam 10h-19h, les dimanches 10h-13h', '1-6 10:00-19:00; 7 10:00-13:00'],
  // Beside other days "w" is a one-letter Wednesday, not Polish "on": kept unread, not dropped.
  ['Mon-Fri 9-5 W', '1-5 ?'],
  ['Mon-Fri 9-18, Sat 10-14 w', '1-5 09:00-18:00; 6 ?'],
  // A dash between a day and its word for closed, as between a day and its hours ("Sa - 10-2").
  ['Mo-Fr 9-18, Sa-So - geschlossen', '1-5 09:00-18:00; 6-7 closed'],
  ['Mo – 9-18, Di – geschlossen', '1 09:00-18:00; 2 closed'],
  ['Lun-Ven 9-19, Sab - chiuso, Dom - chiuso', '1-5 09:00-19:00; 6-7 closed'],
  ['Lun-Ven 9h-19h, Dim - fermé', '1-5 09:00-19:00; 7 closed'],
  ['Mon-Fri 9-5, Sat - 10-2, Sun - closed', '1-5 09:00-17:00; 6 10:00-14:00; 7 closed'],
  ['Pon-Pt 8-16, Sob - nieczynne, Nd - zamknięte', '1-5 08:00-16:00; 6-7 closed'],
  ['Lun-Vie 9-18, Sáb — cerrado', '1-5 09:00-18:00; 6 closed'],
  // A dash before a word for closed and more is that day's text kept unread, as without the dash: no span to "closed".
  ['Mon-Fri 9-5, Sat - closed for lunch 12-13', '1-5 09:00-17:00; 6 ?'],
  ['Lun-Ven 9-19, Sab - chiuso per ferie', '1-5 09:00-19:00; 6 ?'],
  ['Lun-Sam 9h-19h, Dim – fermé le matin', '1-6 09:00-19:00; 7 ?'],
  // A dash before a half of the day closed, as before a word for closed: the day's other half when
  // its hours break at noon, closing or opening at noon when they run through it ("9-18"); beside
  // hours all after noon ("13-18": closed all day?) the day's text kept unread, as without the dash.
  ['Mo-Fr 9-12.30 u. 14-18, Mi - nachmittags geschlossen', '1-2,4-5 09:00-12:30, 14:00-18:00; 3 09:00-12:30'],
  ['Mo-Fr 9-12, 14-18, Mi – vormittags geschlossen', '1-2,4-5 09:00-12:00, 14:00-18:00; 3 14:00-18:00'],
  ['Lun-Sam 9h-12h, 14h-19h, Sam - après-midi fermé', '1-5 09:00-12:00, 14:00-19:00; 6 09:00-12:00'],
  ['Mo-Fr 9-18, Mi - nachmittags geschlossen', '1-2,4-5 09:00-18:00; 3 09:00-12:00'],
  ['Mo-Fr 8-18, Mittwochvormittag geschlossen', '1-2,4-5 08:00-18:00; 3 12:00-18:00'],
  ['Mon-Fri 9-5, Wednesday afternoon closed', '1-2,4-5 09:00-17:00; 3 09:00-12:00'],
  ['Mo-Fr 13-18, Mi - nachmittags geschlossen', '1-2,4-5 13:00-18:00; 3 ?'],
  ['Mi - nachmittags geschlossen', null],
  // A day and its half in one word, Dutch or German, read as the two words.
  ['ma-vr 9-12, 13-18, woensdagmiddag gesloten', '1-2,4-5 09:00-12:00, 13:00-18:00; 3 09:00-12:00'],
  ['ma-vr 9-18, woensdagmiddag gesloten', '1-2,4-5 09:00-18:00; 3 09:00-12:00'],
  ['Mo-Fr 8-12, 14-18, Mittwochnachmittag geschlossen', '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00'],
  ['Mo-Fr 8-18, Mittwochnachmittag geschlossen', '1-2,4-5 08:00-18:00; 3 08:00-12:00'],
  // German midday closed after hours that break at noon: over lunch says nothing, so from noon on;
  // after the same days' own hours, their lunch break. After hours through noon ("8-18") a day
  // singled out closes at noon; all of their days (over lunch, or from noon on?) are refused.
  ['Mo-Fr 8-12, 14-18, Mi - mittags geschlossen', '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00'],
  ['Mo-Fr 8-12 14-18, Mittwochmittag geschlossen', '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00'],
  ['Mo-Fr 8-12 14-18, Sa 9-13, Mi mittags zu', '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00; 6 09:00-13:00'],
  ['Mo-Fr 8-12 14-18, mittags geschlossen', '1-5 08:00-12:00, 14:00-18:00'],
  ['Mo-Fr 8-18, mittags geschlossen', '1-5 ?'],
  ['Mo-Fr 9-18, Mi mittags zu', '1-2,4-5 09:00-18:00; 3 09:00-12:00'],
  ['Mo-Fr 8-18, Mittwochmittag geschlossen', '1-2,4-5 08:00-18:00; 3 08:00-12:00'],
  ['Mo-Fr 7-10, 11-19, Mi mittags geschlossen', '1-2,4-5 07:00-10:00, 11:00-19:00; 3 07:00-10:00, 11:00-12:00'],
  ['Mo-Sa 8-18, Sa 8-14, Mi-Sa mittags geschlossen', '1-2 08:00-18:00; 3-6 08:00-12:00'],
  ['Mo-Mi 8-18, Do-Fr 9-19, Mi-Do mittags geschlossen', null], // two days' hours before: asked as one
  ['Mo-Fr 13-18, Mi mittags geschlossen', null], // open from 13:00: no noon to close at
  ['Mi 8-18, Mi mittags geschlossen', null],
  ['Mon-Fri 9-5, Mittwochmittag geschlossen', '1-2,4-5 09:00-17:00; 3 09:00-12:00'],
  [
    'Mo-Sa 8-12, 14-18, Sa 8-13, Mi mittags geschlossen',
    '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00; 6 08:00-13:00',
  ],
  ['Mo-Fr 8-12, 14-18, Mo-Sa mittags geschlossen', null], // Saturday has no hours before
  // Naming every day of the hours before it, it is their lunch break, not their afternoons.
  ['Mo-Fr 8-12 14-18, Mo-Fr mittags geschlossen', '1-5 08:00-12:00, 14:00-18:00'],
  ['Mo-Fr 8-18, Mi 8-12 14-18, Mi mittags geschlossen', '1-2,4-5 08:00-18:00; 3 08:00-12:00, 14:00-18:00'],
  ['Mo-Mi 8-12 14-18, Do-Fr 8-13 15-19, Mo-Fr mittags geschlossen', null],
  // German "ab mittags", from noon on, is the afternoon.
  ['Mo-Fr 8-12 14-18, Mi ab mittags geschlossen', '1-2,4-5 08:00-12:00, 14:00-18:00; 3 08:00-12:00'],
  ['Mo-Fr 8-18, Mi ab mittags geschlossen', '1-2,4-5 08:00-18:00; 3 08:00-12:00'],
  // Days apart by spaces alone, in the week's order, read as a list; "Mon to Fri" is a span.
  ['Mo Di Do Fr 8-12', '1-2,4-5 08:00-12:00'],
  ['Mo Di Do Fr 8-12, Sa 9-13', '1-2,4-5 08:00-12:00; 6 09:00-13:00'],
  ['ma di do vr 9-18, za 10-17', '1-2,4-5 09:00-18:00; 6 10:00-17:00'],
  ['Mon to Fri 9-5', '1-5 09:00-17:00'],
  ['Mo Mi Do 8-12', '1,3-4 08:00-12:00'],
  ['Pn-Pt 9-17, czw do 20', '1-3,5 09:00-17:00; 4 09:00-20:00'],
  ['Fr Mo 8-12', null],
  // Read otherwise by two languages (Dutch maandag and donderdag, Spanish martes and domingo): as
  // commas read them. By none as commas read them ("Ma Mi": martes), or two days apart (a list,
  // or a span?): refused.
  ['Mi Do 9-18', '3-4 09:00-18:00'],
  ['Ma Di 9-18', '1-2 09:00-18:00'],
  ['Ma Do 9-18', null],
  ['Ma Mi 9-18', null],
  ['Mo Fr 8-12', null],
  ['Mon Fri 9-5', null],
  ['Ma Me Gi 9-18', '2-4 09:00-18:00'],
  ['Mon Wed Fri 9-5', '1,3,5 09:00-17:00'],
  ['Sa So 10-16', '6-7 10:00-16:00'],
  // Two apart by a gap could be a span whose dash is lost.
  ['Mo Sa 9-18', null],
  ['Mo Fr 9-18, Sa 9-13', null],
  // Two halves saying one week in two languages, as Belgium writes Dutch and French; differing, refused.
  ['ma-vr 9-18 / lu-ve 9-18', '1-5 09:00-18:00'],
  ['ma-vr 9-18, za 10-17 / lu-ve 9-18, sa 10-17', '1-5 09:00-18:00; 6 10:00-17:00'],
  ['ma-vr 9u-18u | lu-ve 9h-18h', '1-5 09:00-18:00'],
  ['ma-vr 9-18 / lu-ve 9-17', null],
  ['ma-za 9-18 / lu-ve 9-18', null],
  // So are days named in full, though the cell reads as one week.
  ['maandag-vrijdag 9-18 / lundi-vendredi 9-18', '1-5 09:00-18:00'],
  ['maandag-vrijdag 9-18 / lundi-samedi 9-18', null],
  ['maandag-vrijdag 9-18 / lundi-vendredi 9-17', null],
  // Halves naming different days are parts of one week, as a comma would join them.
  ['Mo-Fr 9-18 / Sa 9-13', '1-5 09:00-18:00; 6 09:00-13:00'],
  ['Mo-Fr 9-18 | Sa 10-14', '1-5 09:00-18:00; 6 10:00-14:00'],
  // A span to a day of a language not read (Croatian, Finnish, Czech) is refused: its first day
  // alone, a name elsewhere, would keep the text and the span's other days be closed.
  ['Pon-Pet 8-20, Sub 8-14, Ned zatvoreno', null],
  ['Pon - Pet 8-20', null],
  // So is one written with "a", as Spanish writes a span ("Lun a Vie").
  ['Pon a Pet 8-20, Sub 8-14, Ned zatvoreno', null],
  ['Pon a pet. 8-20', null],
  // A colon or a bracket between the span and its hours, as with a dash ("Pon - Pet: 8-20").
  ['Pon a Pet: 8-20', null],
  ['Lun a Pet: 9-18, Sáb: 9-13', null],
  ['Pon a Pet (8-20)', null],
  ['Ma-Pe 9-17, La 10-14, Su suljettu', null],
  ['ma–pe 9–17', null],
  ['So-Ne 10-16', null],
  ['Mon-Fri 9-5, So-Ne 10-16', null],
]

testCells(CELLS)

test('a half of a day closed alone, after a dash or not, asks for the days it opens', () => {
  for (const cell of ['Mi nachmittag geschlossen', 'Mi - nachmittags geschlossen'])
    expect(weekInto({}, cell).map((p) => p.message)).toEqual([
      `"${cell}" gives no day open hours, so every day would be closed or unknown. Name the days it opens with their hours first, such as "Mo-Fr 09:00-12:30, 14:00-18:00, Mi afternoon closed".`,
    ])
})

test('a day closed at midday asks for its hours, as written, with no span to "mittags"', () => {
  for (const [cell, day] of [
    ['Mi - mittags geschlossen', 'Mi - mittags geschlossen'],
    ['Mi 8-18, Mi mittags geschlossen', 'Mi mittags geschlossen'],
  ])
    expect(weekInto({}, cell!).map((p) => p.message)).toEqual([
      `"${cell}" could not be read as a week of opening hours: its "${day}" does not say when it closes at midday: over lunch, or from noon on? Write its hours, such as "Mi 09:00-12:00, 14:00-18:00", or "Mi nachmittags geschlossen".`,
    ])
})

test('a Dutch day and its half closed in one word alone asks for the days it opens, as two words do', () => {
  expect(weekInto({}, 'woensdagmiddag gesloten').map((p) => p.message)).toEqual([
    '"woensdagmiddag gesloten" gives no day open hours, so every day would be closed or unknown. Name the days it opens with their hours first, such as "Ma-Vr 09:00-12:30, 14:00-18:00, Wo afternoon closed".',
  ])
})

test('a half of a day closed kept unread is kept without the dash before it', () => {
  const kept = (cell: string) => {
    const body: { hours?: Record<string, string> } = {}
    weekInto(body, cell)
    return body.hours
  }
  expect(kept('Mo-Fr 13-18, Mi - nachmittags geschlossen')?.wednesday).toBe('nachmittags geschlossen')
  expect(kept('Lun-Vie 9-14, 17-20, Sab – cerrado por la tarde')?.saturday).toBe('cerrado por la tarde')
  expect(kept('Mo-Fr 13-18, Mi nachmittags geschlossen')?.wednesday).toBe('nachmittags geschlossen')
})

test('two days apart by a space and a gap ask whether they are the two or a span', () => {
  expect(weekInto({}, 'Mon Fri 9-5').map((p) => p.message)).toEqual([
    '"Mon Fri 9-5" could not be read as a week of opening hours: its "Mon Fri" could be Monday and Friday, or Monday to Friday. Write "Mon, Fri" for the two days or "Mon-Fri" for the days from one to the other.',
  ])
})

test('halves in two languages naming different days are quoted both, with the days they disagree on', () => {
  const message = (cell: string) => weekInto({}, cell).map((p) => p.message)
  expect(message('ma-za 9-18 / lu-ve 9-18')).toEqual([
    '"ma-za 9-18 / lu-ve 9-18" could not be read as a week of opening hours: its two halves, "ma-za 9-18" and "lu-ve 9-18", are the week in two languages but disagree on its days: only the first names Saturday. Write the week once, with the days it opens, such as "ma-za 9-18".',
  ])
  expect(message('maandag-vrijdag 9-18 / lundi-samedi 9-18')).toEqual([
    '"maandag-vrijdag 9-18 / lundi-samedi 9-18" could not be read as a week of opening hours: its two halves, "maandag-vrijdag 9-18" and "lundi-samedi 9-18", are the week in two languages but disagree on its days: only the second names Saturday. Write the week once, with the days it opens, such as "maandag-vrijdag 9-18".',
  ])
  expect(message('ma-vr 9-18, zo 10-12 / lu-sa 9-18')).toEqual([
    '"ma-vr 9-18, zo 10-12 / lu-sa 9-18" could not be read as a week of opening hours: its two halves, "ma-vr 9-18, zo 10-12" and "lu-sa 9-18", are the week in two languages but disagree on its days: only the first names Sunday, only the second names Saturday. Write the week once, with the days it opens, such as "ma-vr 9-18, zo 10-12".',
  ])
})

test('halves naming different days keep the doubt of their hours, said once, not two languages', () => {
  expect(weekInto({}, 'Mo-Fr 9-18 / Mo 7-8').map((p) => p.message)).toEqual([
    '"Mo-Fr 9-18 / Mo 7-8" could not be read as a week of opening hours: "Mo 7-8" beside "9-18" could be 07:00-08:00 or 19:00-20:00. Write it with the 24-hour clock or am and pm.',
  ])
})
