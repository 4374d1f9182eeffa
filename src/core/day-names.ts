// The names of days and of sets of days in the languages week-hours.ts reads, whole, cut short,
// in two letters or one, and the signs in a text of which language names them.
import { foldHours } from './hours'

/** Each name of a day (accents removed, lower case), Monday = 0. */
const DAY_NAMES: [string, number][] = [
  ...names(0, 'monday mondays mon mo montag montags lundi lundis lun lu lunes lunedi maandag ma'),
  ...names(1, 'tuesday tuesdays tues tue tu dienstag dienstags di mardi mardis mar martes martedi dinsdag'),
  ...names(
    2,
    'wednesday wednesdays wed we mittwoch mittwochs mi mercredi mercredis mer me miercoles mier mie mercoledi woensdag wo',
  ),
  ...names(
    3,
    'thursday thursdays thurs thur thu th donnerstag donnerstags do jeudi jeudis jeu je jueves juev jue ju giovedi gio gi donderdag',
  ),
  ...names(
    4,
    'friday fridays fri fr freitag freitags vendredi vendredis ven ve viernes vier vie vi venerdi vrijdag vr',
  ),
  ...names(
    5,
    'saturday saturdays sat sa samstag samstags sonnabend samedi samedis sam sabado sabados sab sabato zaterdag zaterdags zat za',
  ),
  ...names(
    6,
    'sunday sundays sun su sonntag sonntags so dimanche dimanches dim domingo domingos dom dgo domenica zondag zondags zon zo',
  ),
  // A word cut short before another that ends alike: "Sonn- und Feiertage", "So- und Feiertage",
  // "So.- u. Feiertage", Dutch "zon- en feestdagen" ("zo- en"), Danish and Norwegian "søn- og helligdage",
  // Swedish "sön- och helgdagar". Read so only before a word for and (CUT_SHORT): "So- Do" is a span.
  ...names(6, 'sonn- so- so.- zon- zo- son-'),
  // Portuguese ("Seg-Sex", "segunda a sexta-feira"; sábado and domingo are Spanish's too).
  ...names(0, 'segunda-feira segunda seg'),
  ...names(1, 'terca-feira terca ter'),
  ...names(2, 'quarta-feira quarta qua'),
  ...names(3, 'quinta-feira quinta qui'),
  ...names(4, 'sexta-feira sexta sex'),
  // Polish, with and without its letters (ł is no accent: it stays when folded), and plurals ("w soboty"); So is POLISH_OF's.
  ...names(0, 'poniedziałek poniedzialek pon pn poniedziałki poniedzialki'),
  ...names(1, 'wtorek wt wtorki'),
  ...names(2, 'sroda sr srody'),
  ...names(3, 'czwartek czw cz czwartki'),
  ...names(4, 'piatek pt piatki'),
  ...names(5, 'sobota sob sb soboty'),
  ...names(6, 'niedziela niedz ndz nd niedziele'),
  // Swedish, folded: "Mån-Fre", "lördag"; Danish and Norwegian "lørdag" folds so too.
  ...names(0, 'mandag man'),
  ...names(1, 'tisdag tis'),
  ...names(2, 'onsdag ons'),
  ...names(3, 'torsdag tor tors'),
  ...names(4, 'fredag fre'),
  ...names(5, 'lordag lordagar lor'),
  ...names(6, 'sondag sondagar son'),
  // Swedish plurals of the weekdays ("torsdagar", as "lördagar").
  ...names(0, 'mandagar'),
  ...names(1, 'tisdagar'),
  ...names(2, 'onsdagar'),
  ...names(3, 'torsdagar'),
  ...names(4, 'fredagar'),
  // Danish and Norwegian beyond those: their Tuesday, and plurals ("lørdage", "søndager", "torsdage").
  ...names(1, 'tirsdag tir tirsdage tirsdager'),
  ...names(0, 'mandage mandager'),
  ...names(2, 'onsdage onsdager'),
  ...names(3, 'torsdage torsdager'),
  ...names(4, 'fredage fredager'),
  ...names(5, 'lordage lordager'),
  // Norwegian and Danish two-letter days: "lø" folds to lo ("sø" to so, German's Sunday too).
  ...names(5, 'lo'),
  ...names(6, 'sondage sondager'),
]
/**
 * One-letter days, read only in a text the names above do not split: Spanish ("L-V 9-18, S
 * 10-14", X for miércoles), or English ("M-F 9-5") when it has F, W or R, which Spanish lacks.
 */
const SPANISH_LETTERS: [string, number][] = [...'lmxjvsd'].map((letter, day) => [letter, day])
const ENGLISH_LETTERS: [string, number][] = [...'mtwrfsu'].map((letter, day) => [letter, day])
export const ENGLISH_ONLY_LETTER = /(?<![\p{L}\d])[fwr](?![\p{L}\d])/u

function names(day: number, list: string): [string, number][] {
  return list.split(' ').map((name) => [name, day])
}

/**
 * Two-letter days French, Spanish and Italian read otherwise than German and Dutch: "ma" is
 * Tuesday (mardi, martes, martedì), "di" and "do" Sunday (dimanche, domingo, domenica).
 */
export const ROMANCE_OF = new Map([
  ['ma', 1],
  ['di', 6],
  ['do', 6],
])
/** The two-letter days only those languages have: a text with one reads ROMANCE_OF's their way. */
export const ROMANCE_ONLY = /(?<![\p{L}\d])(?:lu|me|je|ju|gi|ve|vi)(?![\p{L}\d])/u
/** Words joining days only French, Spanish, Italian and Portuguese write ("Sa a Do", "Sáb y Do", "sam et di"). */
const ROMANCE_JOIN = /(?<![\p{L}\d])(?:a|al|alla|au|y|et|e)(?![\p{L}\d])/u
/** "So", Sunday in German, is sobota, Saturday, in Polish: read so beside a day only Polish names so. */
export const POLISH_OF = new Map([['so', 5]])
export const POLISH_ONLY = /(?<![\p{L}\d])(?:pn|pon|wt|sr|czw?|pt|sb|nd|ndz|niedz)(?![\p{L}\d])/u
const POLISH_WHOLE =
  /(?<![\p{L}\d])(?:poniedzia[lł](?:ek|ki)|wtor(?:ek|ki)|srod[ay]|czwart(?:ek|ki)|piat(?:ek|ki)|sobot[ay]|niedziel[ae])(?![\p{L}\d])/u
/**
 * Whether days found read as Polish ("so" sobota, "i" joining days): one only Polish names short
 * ("Pn-Pt"), or whole ("poniedziałek-piątek") beside no other language's days.
 */
export const readsPolish = (specs: string[]): boolean =>
  specs.some((spec) => POLISH_ONLY.test(spec)) ||
  (specs.some((spec) => POLISH_WHOLE.test(spec)) && !specs.some(notPolish))
/** Polish days (so, beside them sobota): Polish "i" joins only these, and holidays after them ("Sob i Nd", "Nd i święta"). */
const POLISH_NAMES =
  'poniedziałek|poniedzialek|poniedziałki|poniedzialki|pon|pn|wtorek|wtorki|wt|sroda|srody|sr|czwartek|czwartki|czw|cz|piatek|piatki|pt|sobota|soboty|sob|sb|so|niedziela|niedziele|niedz|ndz|nd'
/** Every Polish day: one beside another language's ("Mo-Fr 9-18, SB 24h", German self-service) is no day. */
export const POLISH_DAYS = new RegExp(`(?<![\\p{L}\\d])(?:${POLISH_NAMES})(?![\\p{L}\\d])`, 'gu')
/**
 * Whether days found name a day of another language than Polish: "i" (and), "święta" (holidays)
 * and "weekend", which Polish writes too, beside them are no sign.
 */
export const notPolish = (days: string): boolean =>
  /\p{L}/u.test(days.replace(POLISH_DAYS, '').replace(/(?<![\p{L}\d])(?:i|swieta|weekend)(?![\p{L}\d])/gu, ''))
/** Those two-letter days in a text, and hours as French writes them ("9h", "14h30"). */
export const ROMANCE_OF_AT = /(?<![\p{L}\d])(?:ma|di|do)(?![\p{L}\d])/u
export const FRENCH_HOURS = /\dh(?:\d\d)?(?!\p{L})/u
export const TWO_WAYS: Record<string, string> = {
  ma: 'Monday (maandag) or Tuesday (mardi, martes, martedì)',
  di: 'Tuesday (Dienstag, dinsdag) or Sunday (dimanche)',
  do: 'Thursday (Donnerstag, donderdag) or Sunday (domingo, domenica)',
}
export const IN_FULL: Record<string, string> = {
  ma: '"maandag", "mardi" or "martes"',
  di: '"Dienstag" or "dimanche"',
  do: '"Donnerstag" or "domingo"',
}

/**
 * Days and words for them English writes (Mo, Fr and Sa, German's too, are not): a week naming
 * none of them writes the 24-hour clock, as German, French, Dutch, Spanish and Italian do.
 */
export const ENGLISH_DAYS =
  /(?<![\p{L}\d])(?:mon(?:days?)?|tu(?:e|es|esdays?)?|we(?:d|dnesdays?)?|th(?:u|ur|urs|ursdays?)?|fri(?:days?)?|sat(?:urdays?)?|su(?:n|ndays?)?|daily|every|all|days|week-?ends?|weekdays|holidays)(?![\p{L}\d])/u
/** One-letter days English writes too ("M-S": Monday or martes?): no sign of a language. */
export const SHARED_LETTERS = /(?<![\p{L}\d])[ms](?![\p{L}\d])/gu
/** Nor, beside one, days English writes in two letters too ("M-Sa": Monday to Saturday). */
export const SHARED_BESIDE_LETTERS = /(?<![\p{L}\d])(?:mo|fr|sa)(?![\p{L}\d])/gu

/** Words for closed and open in those languages, which say the same ("Ma-Sa 9h-19h, Di fermé"). */
export const ROMANCE_WORDS = /(?<![\p{L}\d])(?:fermee?|chius[oa]|cerrad[oa]|ouvert|apert[oa]|abiert[oa])(?![\p{L}\d])/u
/**
 * Days and words French, Spanish and Italian never write (German, Dutch or English ones): with
 * one, a text is not theirs whatever ROMANCE_WORDS it has.
 */
export const GERMANIC_ONLY = /(?<![\p{L}\d])(?:mo|fr|wo|vr|za|zo|so|uhr|uur|geoffnet|geopend|open)(?![\p{L}\d])/u
/** Words for every day of the week. */
const EVERY_WORDS =
  'daily|every\\s*day|all\\s+week|7\\s*days(?:\\s+a\\s+week)?|seven\\s+days(?:\\s+a\\s+week)?|taglich|tagl\\.|jeden\\s+tag|tous\\s+les\\s+jours|7\\s*j(?:ours)?\\s*(?:/|sur)\\s*7j?|todos\\s+los\\s+dias|tutti\\s+i\\s+giorni|dagelijks|elke\\s+dag|alle\\s+dagen?|alle\\s+dager|alla\\s+dagar|dagligen|daglig|todos\\s+os\\s+dias|codziennie'
export const EVERY_DAY = new RegExp(`^(?:${EVERY_WORDS})$`)
/** Words for Monday to Friday, and for Saturday and Sunday. */
const WEEKDAY_WORDS =
  'week\\s*days?|werktags|wochentage|wochentags|en\\s+semaine|entre\\s+semana|giorni\\s+feriali|werkdagen|vardagar|hverdage|hverdager'
const WEEKEND_WORDS = 'week-?ends?|wochenende|helg(?:er|en)?|fines?\\s+de\\s+semana|fine\\s+settimana'
export const WEEKDAYS = new RegExp(`^(?:${WEEKDAY_WORDS})$`)
export const WEEKENDS = new RegExp(`^(?:${WEEKEND_WORDS})$`)
const EVERY = `${EVERY_WORDS}|${WEEKDAY_WORDS}|${WEEKEND_WORDS}`
/**
 * Public holidays, as OpenStreetMap and store lists write them beside days ("So+Feiertag
 * geschlossen", "Sun & PH closed"): a rule for them says nothing of the week.
 */
const HOLIDAYS = new Set([
  'ph',
  'public holidays',
  'bank holidays',
  'holidays',
  'feiertage',
  'feiertags',
  'feiertag',
  'feiertagen',
  'jours feries',
  'feries',
  'festivos',
  'festivo',
  'festivi',
  'feestdagen',
  'feriados',
  'feriado',
  'helligdage',
  'helligdager',
  'helgdagar',
  'helgdag',
  'storhelger',
  'roda dagar',
  'swieta',
  'swiat', // after a word for except: "oprócz świąt"
  // Swedish "helg" is a weekend and a holiday: joined to a day ("sön och helger") it is the holidays.
  'helger',
  'helgen',
  'helg',
])
/** Swedish and Norwegian "helg" alone: the weekend, or in Swedish the holidays (helgdagar) too. */
export const HELG = /^helg(?:er|en)?$/

export const isHoliday = (name: string) => HOLIDAYS.has(name.replace(/\s+/g, ' '))
/** Those words as a pattern, folded, the longest first. */
export const HOLIDAY_WORDS = [...HOLIDAYS]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/ /g, '\\s+'))
  .join('|')

/**
 * Words between the first and last day of a span, and between spans ("and" in the languages
 * read: Danish and Norwegian "og", Swedish "och"). A word stands apart from the days: "De L a V" is no "D(omingo) e L(unes)-V".
 */
const THROUGH = '-|t/m|(?<!\\p{L})(?:to|through|thru|bis|a|au|al|alla|tot en met|tot|til|till)(?!\\p{L})'
const POLISH_AND = `(?<=(?<![\\p{L}\\d])(?:${POLISH_NAMES})\\.?\\s+)i(?=\\s+(?:${POLISH_NAMES}|swieta)(?![\\p{L}\\d]))`
const JOIN = `,|&|/|\\+|(?<!\\p{L})(?:and|und|u\\.?|et|y|e|en|og|och)(?!\\p{L})|${POLISH_AND}`

/** After a day's name cut short, the word for and that joins the next ("Sonn- und", "So-/Feiertage"). */
const CUT_SHORT = `(?=\\s*(?:${JOIN}))`

/** An article before a day of a list ("fermé le dimanche et le lundi", "el lunes y el martes"). */
const ARTICLE = '(?:le|la|el|il|lo)\\s+'

/** How days are written: the patterns that find them, and each name's day. */
export type Grammar = { daysAt: RegExp; spanParts: RegExp; dayOf: Map<string, number> }

/** A day's names as a group that matches a whole word. */
const alone = (day: string) => `(?<![\\p{L}\\d])(${day})(?![\\p{L}\\d])`

function grammar(days: [string, number][]): Grammar {
  const day = [...days.map(([name]) => name), ...HOLIDAYS]
    .sort((a, b) => b.length - a.length)
    .map((name) => (name.endsWith('-') ? `${name.replace('.', '\\.')}${CUT_SHORT}` : name.replace(/ /g, '\\s+')))
    .join('|')
  // A day, or two and the days between ("Mon-Fri", "lun a ven", "Mo bis Fr").
  const span = `(?:${day})\\.?(?:\\s*(?:${THROUGH})\\s*(?:${day})\\.?)?`
  return {
    // Spans joined ("Sat, Sun", "Sa & So", "Mo-Mi, Fr"), or every day, then an optional colon, or
    // an "=" as key=value lists write it ("mon=7:30-14:00", Zenlocator's).
    daysAt: new RegExp(
      `(?<![\\p{L}\\d])(?:${EVERY}|${span}(?:\\s*(?:${JOIN})\\s*(?:${ARTICLE})?${span})*)(?![\\p{L}\\d])\\s*[:=]?`,
      'gu',
    ),
    // A span's first and last day, as daysOf reads them: whole words, not "nd" (niedziela) in "und".
    spanParts: new RegExp(`${alone(day)}\\.?(?:\\s*(?:${THROUGH})\\s*${alone(day)})?`, 'gu'),
    dayOf: new Map(days),
  }
}

export const NAMED = grammar(DAY_NAMES)
export const SPANISH = grammar([...DAY_NAMES, ...SPANISH_LETTERS])
export const ENGLISH = grammar([...DAY_NAMES, ...ENGLISH_LETTERS])
/**
 * Norwegian and Danish two-letter days other languages write as words ("ti", "on", "to": tirsdag,
 * onsdag, torsdag), read only as the cell's other days say (nordic).
 */
const NORDIC_TWO: [string, number][] = [
  ['ti', 1],
  ['on', 2],
  ['to', 3],
]
export const NORDIC = grammar([...DAY_NAMES, ...NORDIC_TWO])
const NORDIC_TWO_AT = /(?<![\p{L}\d])(?:ti|on|to)(?![\p{L}\d])/u

/** The languages that write each name of a day above, folded: a week's days are named in one. */
const LANGUAGES: [string, string][] = [
  [
    'English',
    'monday mondays mon mo tuesday tuesdays tues tue tu wednesday wednesdays wed we thursday thursdays thurs thur thu th friday fridays fri fr saturday saturdays sat sa sunday sundays sun su',
  ],
  [
    'German',
    'montag montags mo dienstag dienstags di mittwoch mittwochs mi donnerstag donnerstags do freitag freitags fr samstag samstags sonnabend sa sonntag sonntags sonn- so- so.- so',
  ],
  [
    'French',
    'lundi lundis lun lu mardi mardis mar ma mercredi mercredis mer me jeudi jeudis jeu je vendredi vendredis ven ve samedi samedis sam sa dimanche dimanches dim di',
  ],
  [
    'Spanish',
    'lunes lun lu martes mar ma miercoles mier mie mi jueves juev jue ju viernes vier vie vi sabado sabados sab sa domingo domingos dom dgo do',
  ],
  [
    'Italian',
    'lunedi lun lu martedi mar ma mercoledi mer me giovedi gio gi venerdi ven ve sabato sab sa domenica dom do',
  ],
  [
    'Dutch',
    'maandag ma dinsdag di woensdag wo donderdag do vrijdag vr zaterdag zaterdags zat za zondag zondags zon zo zon- zo-',
  ],
  [
    'Portuguese',
    'segunda-feira segunda seg terca-feira terca ter quarta-feira quarta qua quinta-feira quinta qui sexta-feira sexta sex sabado sabados sab domingo domingos dom',
  ],
  [
    'Polish',
    'poniedziałek poniedzialek poniedziałki poniedzialki pon pn wtorek wtorki wt sroda srody sr czwartek czwartki czw cz piatek piatki pt sobota soboty sob sb so niedziela niedziele niedz ndz nd',
  ],
  [
    'Swedish',
    'mandag mandagar man tisdag tisdagar tis onsdag onsdagar ons torsdag torsdagar tor tors fredag fredagar fre lordag lordagar lor sondag sondagar son son-',
  ],
  [
    'Danish',
    'mandag mandage man ma tirsdag tirsdage tir ti onsdag onsdage ons on torsdag torsdage tor tors to fredag fredage fre fr lordag lordage lor lo sondag sondage son son- so',
  ],
  [
    'Norwegian',
    'mandag mandager man ma tirsdag tirsdager tir ti onsdag onsdager ons on torsdag torsdager tor tors to fredag fredager fre fr lordag lordager lor lo sondag sondager son son- so',
  ],
]
const LANGUAGE_OF = new Map<string, number>()
LANGUAGES.forEach(([, list], i) => {
  for (const name of list.split(' ')) LANGUAGE_OF.set(name, (LANGUAGE_OF.get(name) ?? 0) | (1 << i))
})
/** One-letter days are their grammar's language's. */
export const ENGLISH_BIT = 1
export const SPANISH_BIT = 1 << 3
const GERMAN_BIT = 1 << 1
export const GERMAN_DUTCH_BITS = GERMAN_BIT | (1 << 5)
/** Whether a day's name is Spanish and neither German nor Dutch ("Lun", "Vie"; not "Sa", "Do"). */
export const spanishNotGerman = (name: string): boolean => {
  const bits = LANGUAGE_OF.get(name) ?? 0
  return (bits & SPANISH_BIT) !== 0 && (bits & GERMAN_DUTCH_BITS) === 0
}
/** The languages that read ROMANCE_OF's names their way (French, Spanish, Italian), and POLISH_OF's (Polish). */
const ROMANCE_BITS = (1 << 2) | (1 << 3) | (1 << 4)
const POLISH_BIT = 1 << 7

/**
 * The languages that write a day's name in a grammar, as bits of LANGUAGES; 0 for a word for every
 * day or holidays. `day`: only those that read it as that day (Monday = 0): "di" is Tuesday in
 * German and Dutch, Sunday in French.
 */
export function languagesOf(name: string, g: Grammar, day?: number): number {
  if (name.length === 1 && g !== NAMED) return g === ENGLISH ? ENGLISH_BIT : SPANISH_BIT
  const bits = LANGUAGE_OF.get(name) ?? 0
  if (day === undefined) return bits
  const their = ROMANCE_OF.has(name) ? ROMANCE_BITS : POLISH_OF.has(name) ? POLISH_BIT : 0
  const read = (ROMANCE_OF.get(name) ?? POLISH_OF.get(name)) === day
  return their === 0 ? bits : bits & (read ? their : ~their)
}

const PORTUGUESE_BIT = 1 << 6
const ROMANCE_NAMES = ROMANCE_BITS | PORTUGUESE_BIT

/** The names of days found (daysAt's matches), each span's first and last, in order ("Mo-Fr, Sa": mo, fr, sa). */
export const namesOfDays = (specs: readonly string[], g: Grammar): string[] =>
  specs.flatMap((spec) =>
    [...spec.matchAll(g.spanParts)].flatMap((m) => (m[2] === undefined ? [m[1]!] : [m[1]!, m[2]])),
  )

/** The languages of each day's name in days found, as bits of LANGUAGES (0 for none's: holidays). */
const bitsOfNames = (specs: string[], g: Grammar): number[] => namesOfDays(specs, g).map((name) => languagesOf(name, g))

/**
 * Whether days found read ROMANCE_OF's names as French, Spanish, Italian and Portuguese do: one
 * of them is a day only those languages name so ("Lun", "Vie", "Sáb", "lu", or a Spanish letter,
 * "L-V"), or their word joins one of those names ("Sa a Do", "Sáb y Do"; not "Sa e So"). Polish
 * days joined so are none's.
 */
export function readsRomance(specs: string[], g: Grammar): boolean {
  const joined = specs.some((spec) => ROMANCE_JOIN.test(spec) && ROMANCE_OF_AT.test(spec) && !POLISH_ONLY.test(spec))
  const only = bitsOfNames(specs, g).some((bits) => bits !== 0 && (bits & ~ROMANCE_NAMES) === 0)
  return joined || only || specs.some((spec) => ROMANCE_ONLY.test(spec))
}

/** Whether days found name a day none of those languages names so ("Mo", "Fr", "zo", "Mon"). */
export const readsGermanic = (specs: string[], g: Grammar): boolean =>
  bitsOfNames(specs, g).some((bits) => bits !== 0 && (bits & ROMANCE_NAMES) === 0)

/**
 * Whether headers of days read ROMANCE_OF's names as French, Spanish, Italian and Portuguese do:
 * as a week's text does (readsRomance), unless another header names a day none of them names so:
 * "Ma;Di;Wo;Do;Vr;Za;Zo;Seg" is Dutch beside a segment, "Mo-Do;Fr;Sab" German. A two-letter day
 * only they write ("Lu-Ve;Sa;Di") reads them still.
 */
export const headersRomance = (specs: string[], g: Grammar): boolean =>
  specs.some((spec) => ROMANCE_ONLY.test(spec)) || (readsRomance(specs, g) && !readsGermanic(specs, g))

/** Languages as bits of LANGUAGES in words: "English or German". */
export const languageNames = (bits: number): string =>
  LANGUAGES.filter((_, i) => bits & (1 << i))
    .map(([language]) => language)
    .join(' or ')

export const DAYS_IN_ENGLISH = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

const NORDIC_BITS = (1 << 9) | (1 << 10)

/**
 * Whether a folded text's days are read as Norwegian and Danish write two letters ("ma-on 9-17,
 * to 9-19, fr 9-17, lø 10-15"): one of "ti", "on", "to" is a day there, another day is named, and
 * every day it names is a name those languages write. Beside another language's day ("Mon to
 * Fri"), or alone ("Open to 8pm"), they are words.
 */
export function nordic(t: string): boolean {
  if (!NORDIC_TWO_AT.test(t)) return false
  const names = namesOfDays(
    [...t.matchAll(NORDIC.daysAt)].map((spec) => spec[0]),
    NORDIC,
  )
  const named = names.filter((name) => !isHoliday(name))
  const two = (name: string) => NORDIC_TWO.some(([day]) => day === name)
  return named.some(two) && !named.every(two) && named.every((name) => (LANGUAGE_OF.get(name) ?? 0) & NORDIC_BITS)
}

/** Each language's days cut short (LANGUAGES' order), Monday first: an example's days in a cell's language. */
const SHORT_NAMES = [
  'Mon Tue Wed Thu Fri Sat Sun',
  'Mo Di Mi Do Fr Sa So',
  'Lun Mar Mer Jeu Ven Sam Dim',
  'Lun Mar Mié Jue Vie Sáb Dom',
  'Lun Mar Mer Gio Ven Sab Dom',
  'Ma Di Wo Do Vr Za Zo',
  'Seg Ter Qua Qui Sex Sáb Dom',
  'Pn Wt Śr Czw Pt Sb Nd',
  'Mån Tis Ons Tor Fre Lör Sön',
  'Man Tir Ons Tor Fre Lør Søn',
  'Man Tir Ons Tor Fre Lør Søn',
].map((names) => names.split(' '))

const ENGLISH_SHORT = SHORT_NAMES[0]!

/**
 * An example written with English days cut short ("Mon-Fri 09:00-18:00, Sun closed"), its days
 * named as `text` names its days (namesDaysAs), beside `words` (the cell's, for TOLD): an example
 * a cell's writer follows in its language.
 */
export function daysAsIn(text: string, example: string, words = text): string {
  const name = namesDaysAs(foldHours(text), words.toLowerCase())
  return example.replace(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/g, (day) => name(ENGLISH_SHORT.indexOf(day)))
}

/**
 * Words for closed or open, and letters, one language (or Danish and Norwegian, which cut days
 * short alike) writes: of languages naming a text's days alike ("lun-sab", "Man-Fre"), its own.
 */
const TOLD: [RegExp, number][] = [
  [/(?<!\p{L})(?:geschlossen|ge[öo]ffnet|ruhetag)(?!\p{L})/u, 1 << 1],
  [/(?<!\p{L})(?:ferm[ée]e?s?|ouverte?s?)(?!\p{L})/u, 1 << 2],
  [/(?<!\p{L})(?:cerrad[oa]s?|abiert[oa]s?)(?!\p{L})/u, SPANISH_BIT],
  [/(?<!\p{L})(?:chius[oaie]|apert[oaie])(?!\p{L})/u, 1 << 4],
  [/(?<!\p{L})(?:gesloten|geopend)(?!\p{L})/u, 1 << 5],
  [/(?<!\p{L})(?:fechad[oa]s?|abert[oa]s?)(?!\p{L})/u, PORTUGUESE_BIT],
  [/(?<!\p{L})(?:nieczynn[ey]|zamkni[ęe]te|czynne)(?!\p{L})/u, POLISH_BIT],
  [/[äö]|(?<!\p{L})(?:st[äa]ng[td]|[öo]ppet|mån(?:dag)?)(?!\p{L})/u, 1 << 8],
  [/[øæ]|(?<!\p{L})(?:lukket|stengt|[åa]ben|[åa]pent?|man(?:dag)?)(?!\p{L})/u, NORDIC_BITS],
]

/**
 * A function naming a day (Monday = 0) cut short in the language a folded text names its days in,
 * for an example the text's writer can follow: English when it names a day only English writes so
 * ("Mon", "Thu") or none, else the language of LANGUAGES that writes all its days' names, the one
 * its words tell (TOLD, in `lower`, the text lowercased) or else the first.
 */
export function namesDaysAs(folded: string, lower = folded): (day: number) => string {
  // "weekend" is Dutch, Italian, Polish and French ("week-end") too.
  const languages = ENGLISH_DAYS.test(folded.replace(/\bweek-?ends?\b/g, ''))
    ? []
    : bitsOfNames(
        [...folded.matchAll(NAMED.daysAt)].map((spec) => spec[0]),
        NAMED,
      )
  // A name of no language the others share ("Mo-Fr 9-18, SB 24h") leaves them their language.
  let bits = languages.map((b) => b & ~ENGLISH_BIT).reduce((all, b) => (all & b ? all & b : all), ~ENGLISH_BIT)
  const told = TOLD.find(([word, b]) => bits !== ~ENGLISH_BIT && bits & b && word.test(lower))
  if (told) bits &= told[1]
  const language = bits === ~ENGLISH_BIT ? 0 : 31 - Math.clz32(bits & -bits)
  return (day) => SHORT_NAMES[language]![day]!
}
