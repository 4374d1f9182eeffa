// A week of opening hours in one text, as store lists and OpenStreetMap write them ("Mon-Fri
// 9-18, Sat 10-14, Sun closed", "Mo-Fr 09:00-18:00; Sa 10:00-14:00", "Lun-Ven 9h-19h"), split
// into each day's text, which parseDayHours then reads. Days in English, German, French,
// Spanish, Italian and Dutch, whole, cut short, or in two letters.
import { foldHours, parseDayHours } from './hours'

/** Each name of a day (accents removed, lower case), Monday = 0. */
const DAY_NAMES: [string, number][] = [
  ...names(0, 'monday mon mo montag lundi lun lu lunes lunedi maandag ma'),
  ...names(1, 'tuesday tues tue tu dienstag di mardi mar martes martedi dinsdag'),
  ...names(2, 'wednesday wed we mittwoch mi mercredi mer me miercoles mie mercoledi woensdag wo'),
  ...names(3, 'thursday thurs thur thu th donnerstag do jeudi jeu je jueves jue ju giovedi gio gi donderdag'),
  ...names(4, 'friday fri fr freitag vendredi ven ve viernes vie vi venerdi vrijdag vr'),
  ...names(5, 'saturday sat sa samstag sonnabend samedi sam sabado sab sabato zaterdag za'),
  ...names(6, 'sunday sun su sonntag so dimanche dim domingo dom domenica zondag zo'),
]

function names(day: number, list: string): [string, number][] {
  return list.split(' ').map((name) => [name, day])
}

const DAY_OF = new Map(DAY_NAMES)
/**
 * Two-letter days French, Spanish and Italian read otherwise than German and Dutch: "ma" is
 * Tuesday (mardi, martes, martedì), "di" and "do" Sunday (dimanche, domingo, domenica).
 */
const ROMANCE_OF = new Map([
  ['ma', 1],
  ['di', 6],
  ['do', 6],
])
/** The two-letter days only those languages have: a text with one reads ROMANCE_OF's their way. */
const ROMANCE_ONLY = /(?<![\p{L}\d])(?:lu|me|je|ju|gi|ve|vi)(?![\p{L}\d])/u
/** Words for closed and open in those languages, which say the same ("Ma-Sa 9h-19h, Di fermé"). */
const ROMANCE_WORDS = /(?<![\p{L}\d])(?:fermee?|chius[oa]|cerrad[oa]|ouvert|apert[oa]|abiert[oa])(?![\p{L}\d])/u
/**
 * Days and words French, Spanish and Italian never write (German, Dutch or English ones): with
 * one, a text is not theirs whatever ROMANCE_WORDS it has.
 */
const GERMANIC_ONLY = /(?<![\p{L}\d])(?:mo|fr|wo|vr|za|zo|so|uhr|uur|geoffnet|geopend|open)(?![\p{L}\d])/u
/** Words for every day of the week. */
const EVERY_WORDS =
  'daily|every\\s*day|all\\s+week|7\\s*days(?:\\s+a\\s+week)?|seven\\s+days(?:\\s+a\\s+week)?|taglich|jeden\\s+tag|tous\\s+les\\s+jours|todos\\s+los\\s+dias|tutti\\s+i\\s+giorni|dagelijks'
const EVERY_DAY = new RegExp(`^(?:${EVERY_WORDS})$`)
/** Words for Monday to Friday, and for Saturday and Sunday. */
const WEEKDAY_WORDS = 'week\\s*days|werktags|wochentags|en\\s+semaine|entre\\s+semana|giorni\\s+feriali|werkdagen'
const WEEKEND_WORDS = 'week-?ends?|wochenende|fines?\\s+de\\s+semana|fine\\s+settimana'
const WEEKDAYS = new RegExp(`^(?:${WEEKDAY_WORDS})$`)
const WEEKENDS = new RegExp(`^(?:${WEEKEND_WORDS})$`)
const EVERY = `${EVERY_WORDS}|${WEEKDAY_WORDS}|${WEEKEND_WORDS}`
/** OpenStreetMap's public holidays: a rule for them says nothing of the week. */
const HOLIDAYS = 'ph'

const DAY = [...DAY_NAMES.map(([name]) => name), HOLIDAYS].sort((a, b) => b.length - a.length).join('|')
/** Words between the first and last day of a span. */
const THROUGH = '-|to|through|thru|bis|a|au|al|tot|t/m'
/** A day, or two and the days between ("Mon-Fri", "lun a ven", "Mo bis Fr"). */
const SPAN = `(?:${DAY})\\.?(?:\\s*(?:${THROUGH})\\s*(?:${DAY})\\.?)?`
/** Spans joined ("Sat, Sun", "Sa & So", "Mo-Mi, Fr"), or every day, then an optional colon. */
const DAYS_AT = new RegExp(
  `(?<![\\p{L}\\d])(?:${EVERY}|${SPAN}(?:\\s*(?:,|&|/|\\+|and|und|et|y|e|en)\\s*${SPAN})*)(?![\\p{L}\\d])\\s*:?`,
  'gu',
)
/** A span's first and last day, as daysOf reads them. */
const SPAN_PARTS = new RegExp(`(${DAY})\\.?(?:\\s*(?:${THROUGH})\\s*(${DAY}))?`, 'g')
/** Separators left between one day's hours and the next days. */
const TRAILING = /[\s,;|/]+$/

/** Words a week may start with before its first day ("Open: Mon-Fri 9-5"). */
const LEAD = /^\s*(?:(?:open(?:ing)?(?:\s+(?:hours|times))?|hours|geoffnet|ouvert|abierto|aperto)\s*:?)?\s*$/

/**
 * The text in lower case, accents removed, dashes made one, as the day names above are written;
 * `at`: for each of its characters (and its end) where it comes from in the text.
 */
function folded(text: string): { t: string; at: number[] } {
  let t = ''
  const at: number[] = []
  let i = 0
  for (const ch of text) {
    const f = foldHours(ch)
    for (let k = 0; k < f.length; k++) at.push(i)
    t += f
    i += ch.length
  }
  at.push(text.length)
  return { t, at }
}

/** The days a match of DAYS_AT names, Monday = 0; `romance`: two-letter days read as ROMANCE_OF. */
function daysOf(spec: string, romance: boolean): number[] {
  const text = spec.replace(/\s*:$/, '').trim()
  if (EVERY_DAY.test(text)) return [0, 1, 2, 3, 4, 5, 6]
  if (WEEKDAYS.test(text)) return [0, 1, 2, 3, 4]
  if (WEEKENDS.test(text)) return [5, 6]
  const dayOf = (name: string) => (romance ? ROMANCE_OF.get(name) : undefined) ?? DAY_OF.get(name)!
  const days: number[] = []
  for (const [, first, last] of text.matchAll(SPAN_PARTS)) {
    if (first === HOLIDAYS || last === HOLIDAYS) continue
    const from = dayOf(first!)
    const to = last === undefined ? from : dayOf(last)
    // A span may wrap past Sunday: "Fr-Mo" is Friday to Monday.
    for (let d = from; ; d = (d + 1) % 7) {
      days.push(d)
      if (d === to) break
    }
  }
  return days
}

/**
 * Each day's hours text, Monday first ('' for a day the text does not name), or null when the
 * text is not a week of hours this reads: text before the first day, a day without hours, or
 * hours that parseDayHours cannot read. A day named twice takes its last hours. Hours alone
 * ("24/7", "9-18") are every day's.
 */
export function splitWeekHours(text: string): string[] | null {
  const { t, at } = folded(text)
  if (t.trim() === '') return null
  const week: string[] = ['', '', '', '', '', '', '']
  const specs = [...t.matchAll(DAYS_AT)]
  if (specs.length === 0) {
    if (parseDayHours(text).kind === 'unknown') return null
    return week.fill(text.trim())
  }
  if (!LEAD.test(t.slice(0, specs[0]!.index))) return null
  const romance = specs.some((spec) => ROMANCE_ONLY.test(spec[0])) || (ROMANCE_WORDS.test(t) && !GERMANIC_ONLY.test(t))
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!
    const end = i + 1 < specs.length ? specs[i + 1]!.index : t.length
    // The hours as written, from the text itself (its case and accents kept).
    const hours = text
      .slice(at[spec.index + spec[0].length], at[end])
      .replace(TRAILING, '')
      .trim()
    const days = daysOf(spec[0], romance)
    if (days.length === 0) continue // public holidays
    const day = /^off$/i.test(hours) ? 'closed' : hours
    if (parseDayHours(day).kind === 'unknown') return null
    for (const d of days) week[d] = day
  }
  return week
}
