// Months and seasons a week of hours names, for week-hours.ts: a range of months ("Apr-Sep",
// "Jan-Mär", "ene-mar", "okt t/m mrt"), a month alone ("March closed", "Sa im August
// geschlossen") or a season ("(Sommer)", "im Winter geschlossen") is part of the year, and a day
// of a month ("15 Mar", "24. Dezember") a date, never days, though "mar" is Tuesday in French,
// Spanish and Italian.
import { daysAsIn, NAMED, NORDIC } from './day-names'
import { MONTH_NAMES } from './month-names'
import { daysNamed, folded, polishWeek } from './week-days'

/** Months, folded (MONTH_NAMES), longest first, so "December" is not "Dec". */
const MONTHS = [...new Set(MONTH_NAMES.flat().map((name) => folded(name).t))]
  .sort((a, b) => b.length - a.length)
  .join('|')
const MONTH = `(?:${MONTHS})\\.?`
/** Words between the first and last month of a range. */
const THROUGH = '\\s*(?:-|–|—|/)\\s*|\\s+(?:to|through|thru|till?|until|bis|a|au|à|al|hasta|fino\\s+a|t/m|tot|till)\\s+'
/**
 * A range of months, or a day of March, the one month a day's name ("15 Mar", "15. März"), not
 * after hours ("9-18 mar 10-13": martes), folded.
 */
const MONTH_CLAUSE = new RegExp(
  `(?<![\\p{L}\\d])(?:${MONTH}(?:${THROUGH})${MONTH}|(?<![\\d:.\\-–—]\\s*)\\d{1,2}(?:\\.|er)?\\s*(?:de\\s+)?mar\\.?)(?![\\p{L}\\d])`,
  'iu',
)

/**
 * March alone as a clause ("Mon-Fri 9-5, Mar closed"), on the text as written: "Mär" and "Mrz"
 * are no day's name; "Mar" is Tuesday in French, Spanish and Italian, so March only beside
 * English days (ENGLISH_DAY).
 */
const MARCH_ALONE = /(?:^|[,;|(])\s*(m(?:är|rz|ar))\.?(?![\p{L}\d])(?!\.?\s*[-–—/])/iu
/** A day's name only English writes. */
const ENGLISH_DAY = /(?<!\p{L})(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?:day)?(?!\p{L})/iu

/**
 * A month named alone, folded, in those languages, Portuguese and Polish, whole or short where
 * no other word is written so: not "may" (hours may vary), "mar" (MARCH_ALONE), nor short names
 * that are words ("des", "ago", "set", "gen", "mag"). A day's number before or after it makes it
 * a date.
 */
const MONTH_ALONE = new RegExp(
  `(?<![\\p{L}\\d])(?:(?<![\\d:.\\-–—]\\s*)(\\d{1,2})(?:\\.|er|st|nd|rd|th)?\\s*(?:de\\s+|of\\s+)?)?(${[
    'january|february|march|april|june|july|august|september|october|november|december',
    'januar|janner|februar|marz|mai|juni|juli|oktober|dezember',
    'janvier|fevrier|mars|avril|juin|juillet|aout|septembre|octobre|novembre|decembre',
    'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre',
    'gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre',
    'januari|februari|maart|augustus|mei|augusti|maj|marts|desember',
    'janeiro|fevereiro|marco|maio|junho|julho|setembro|outubro|novembro|dezembro',
    'styczen|stycznia|luty|lutego|marzec|marca|kwiecien|kwietnia|maja|czerwiec|czerwca|lipiec|lipca|sierpien|sierpnia',
    'wrzesien|wrzesnia|pazdziernik|pazdziernika|listopad|listopada|grudzien|grudnia',
    'jan|feb|apr|jun|jul|aug|sept?|oct|okt|nov|dec|dez',
  ].join('|')})\\.?(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:.\\-–—]))?(?![\\p{L}\\d])`,
  'gu',
)

/**
 * Words for a season, folded, in the languages read ("Sommer", "hiver", "zomer", "zimą"): like a
 * month, part of the year, of which a week of hours says nothing.
 */
const SEASON =
  /(?<!\p{L})(?:winter|summer|sommer|sommar|vinter|hiver|ete|invierno|verano|inverno|estate|verao|zomer|lato|latem|zima|season|saison|temporada|stagione|seizoen|winterpause|sommerpause|betriebsferien|sommartid|vintertid|sommertid)(?!\p{L})/gu

/**
 * Words a part of the year is said with, folded, in the languages read ("closed in August", "Sa
 * im August geschlossen", "fermé en août", "chiuso per ferie ad agosto", "w lato nieczynne"):
 * a month or season counts only in a part of the cell of these words, days and hours. Beside
 * another word it is a name ("Summer Street", "ask for August", "Jan Müller", "via XX
 * Settembre", "ul. 3 Maja"), and the cell is read as it would be without it.
 */
const SAID_WITH = new Set(
  [
    'in during for the of on at from to till til until through thru and or only all whole month months each every',
    'hours hour hrs hr time times opening open opens closed closes close shut except am pm noon midnight late early',
    'holiday holidays weekends weekend daily also',
    'im am an den der die dem des vom von bis ab und oder nur auch ganzen ganz monat uhr zeit zeiten geoffnet',
    'geschlossen offnungszeiten ruhetag wahrend ausser sonst zu',
    'en a au aux de du le la les l d pendant tout toute tous mois et ou seulement uniquement ferme fermee fermes',
    'ouvert ouverte fermeture horaire horaires heures heure h sauf jusqu jusqua',
    'del el los las durante todo toda mes y o solo solamente cerrado cerrada abierto abierta horario horarios',
    'hasta desde excepto alta baja',
    'ad di della dello nel nella nei nelle il lo i gli tutto tutta mese e chiuso chiusa chiusi aperto aperta',
    'orario orari ore dalle alle dal fino tranne per ferie',
    'het van tot tm alleen gesloten geopend maand hele tijdens uur openingstijden op',
    'under hela och eller bara endast stangt stangd oppet oppettider manad kl fran pa',
    'om og kun lukket stengt abent apent maned fra',
    'em no na nos nas da todo fechado aberto ate ferias apenas so',
    'w we od oraz lub tylko nieczynne nieczynny czynne zamkniete otwarte godziny przez okres',
  ]
    .join(' ')
    .split(' '),
)

/** Italian days and words: "mai" beside them is never ("mai chiuso"), not May. */
const ITALIAN =
  /(?<![\p{L}\d])(?:lunedi|martedi|mercoledi|gio(?:vedi)?|venerdi|sabato|domenica|chius[oaie]|apert[oaie]|sempre|non)(?![\p{L}\d])/u
/** Italian days: "estate" beside others is English (estate agents). */
const ITALIAN_DAYS =
  /(?<![\p{L}\d])(?:lun(?:edi)?|mar(?:tedi)?|mer(?:coledi)?|gio(?:vedi)?|ven(?:erdi)?|sab(?:ato)?|dom(?:enica)?)(?![\p{L}\d])/u
/** Polish words for summer and March, May (genitive) elsewhere words of their own: Italian side, Spanish brand. */
const POLISH_ONLY_WORDS = new Set(['lato', 'marca', 'maja'])

/** What ends a part of the cell a month or season is read within. */
const PART_ENDS = ',;|()[]{}·•\n'

/** Whether a month or season found, `word`, means one in the folded text `t`: read in its language, among words saying a part of the year. */
function meant(t: string, word: string, index: number): boolean {
  const w = word.replace(/\.$/, '')
  if (POLISH_ONLY_WORDS.has(w) && !polishWeek(t)) return false
  if (w === 'estate' && !ITALIAN_DAYS.test(t)) return false
  if (w === 'mai' && ITALIAN.test(t)) return false
  // Its part of the cell: between brackets, commas, semicolons or bars.
  const start = Math.max(...[...PART_ENDS].map((c) => t.lastIndexOf(c, index))) + 1
  const ends = [...PART_ENDS].map((c) => t.indexOf(c, index)).filter((at) => at >= 0)
  const part = t.slice(start, ends.length > 0 ? Math.min(...ends) : t.length)
  const words =
    part
      .replace(NAMED.daysAt, ' ')
      .replace(NORDIC.daysAt, ' ')
      .match(/[\p{L}\d]+/gu) ?? []
  return words.every(
    (other) =>
      /\d/.test(other) ||
      other.length === 1 ||
      SAID_WITH.has(other) ||
      whole(MONTH_ALONE, other) ||
      whole(SEASON, other),
  )
}

/** Whether a global pattern finds the word whole. */
const whole = (pattern: RegExp, word: string) => [...word.matchAll(pattern)].some((m) => m[0] === word)

/** The first month or season a pattern finds in the folded text that is meant as one. */
function said(t: string, pattern: RegExp): RegExpExecArray | null {
  for (const m of t.matchAll(pattern)) {
    const word = m[2] ?? m[0]
    if (meant(t, word, m.index + m[0].indexOf(word))) return m as RegExpExecArray
  }
  return null
}

/** A month, season or date a week names: as written, where in the text, and which it is. */
type Found = { shown: string; from: number; to: number; kind: 'date' | 'range' | 'season' }

/** The first month, season or date the text names (read as monthDoubt says), or null. */
function seasonIn(text: string): Found | null {
  const { t, at } = folded(text)
  const of = (index: number, length: number, kind: Found['kind']): Found => {
    const [from, to] = [at[index]!, at[index + length]!]
    const shown = text.slice(from, to)
    const lead = shown.length - shown.trimStart().length
    return { shown: shown.trim(), from: from + lead, to: from + lead + shown.trim().length, kind }
  }
  const m = MONTH_CLAUSE.exec(t)
  if (m !== null) return of(m.index, m[0].length, /^\d/.test(m[0]) ? 'date' : 'range')
  const march = MARCH_ALONE.exec(text)
  if (march !== null && (!/^mar$/i.test(march[1]!) || ENGLISH_DAY.test(text))) {
    const from = march.index + march[0].indexOf(march[1]!)
    return { shown: march[1]!, from, to: from + march[1]!.length, kind: 'season' }
  }
  const month = said(t, MONTH_ALONE)
  if (month !== null) return of(month.index, month[0].length, month[1] || month[3] ? 'date' : 'season')
  const season = said(t, SEASON)
  return season === null ? null : of(season.index, season[0].length, 'season')
}

/** Why a week naming a season, by its months or its name, or a date is not read; null when it names none. */
export function monthDoubt(text: string, reads: (week: string) => boolean = () => false): string | null {
  const found = seasonIn(text)
  if (found === null) return null
  if (found.kind === 'date') return dateDoubt(found.shown, text)
  return seasonDoubt(found.shown, found.kind === 'range', outOfSeason(text).filter(reads), text)
}

/**
 * The cell's hours less the seasons it names, as the hours it opens in one of them would be
 * written ("Mon-Fri 9-5 (Winter)": "Mon-Fri 9-5"; "Summer: Mon-Sun 9-9; Winter: Mon-Sun 9-6":
 * each clause's, with the clauses of no season; "Summer: Mon-Fri 9-18, Winter: Mon-Fri 10-17": each
 * season's parts, commaSeasons). A part of the cell of the season and words alone goes whole
 * ("Jan-Mar closed"); a season leading its part's days and hours, its word alone ("Winter: Mon-Sun
 * 9-6"). [] when a season is elsewhere: then which hours are its is not guessed.
 */
function outOfSeason(text: string): string[] {
  const clauses = text.split(/[;|\n]/).map((clause) => clause.trim())
  const seasonal = clauses.flatMap((clause, i) => (seasonIn(clause) === null ? [] : [i]))
  if (seasonal.length >= 2) return eachSeason(clauses, seasonal, '; ')
  const week = lessSeasons(text)
  if (week !== null) return [week]
  if (seasonal.length === 0) return []
  // "Summer: Mon-Fri 9-18, Winter: Mon-Fri 10-17; Sun closed": the seasons' clause, its other clauses kept.
  const at = seasonal[0]!
  return commaSeasons(clauses[at]!).map((weekOf) =>
    clauses
      .map((clause, i) => (i === at ? weekOf : clause))
      .filter((clause) => clause !== '')
      .join('; '),
  )
}

/**
 * Each season's hours of clauses, `seasonal` those naming one, joined by `joiner`: the clauses
 * of no season are each season's ("Summer: Mon-Sat 9-9; Winter: Mon-Sat 9-6; Sun closed").
 * [] when a season's clause is not read apart from it (lessSeasons).
 */
function eachSeason(clauses: string[], seasonal: number[], joiner: string): string[] {
  const out = seasonal.map((at) => {
    const less = lessSeasons(clauses[at]!)
    if (less === null) return null
    return clauses
      .flatMap((clause, i) => (i === at ? [less] : seasonal.includes(i) || clause === '' ? [] : [clause]))
      .join(joiner)
  })
  return out.every((week) => week !== null) ? (out as string[]) : []
}

/**
 * Each season's hours of a clause of seasons apart by commas, each leading its part ("Summer:
 * Mon-Fri 9-18, Sat 10-14, Winter: Mon-Fri 10-17"): a season's are the parts from it to the next
 * season, with the parts before the first, every season's. [] when a season follows its hours
 * ("Mon-Sat 9-6 (Summer), Mon-Sat 9-5 (Winter)") or a part after the last names days the other
 * seasons do not: which parts are whose is not guessed.
 */
function commaSeasons(clause: string): string[] {
  const parts = bracketsKept(clause).map((part) => part.trim())
  const seasonal = parts.flatMap((part, i) => {
    const found = seasonIn(part)
    return found === null ? [] : [{ i, leads: found.from === 0 }]
  })
  if (seasonal.length < 2 || !seasonal.every(({ leads }) => leads)) return []
  const starts = seasonal.map(({ i }) => i)
  // A part after the last season naming days no other season's part does may be every season's
  // ("Summer: Sat 10-14, Winter: Sat closed, Mon-Fri 9-18"): which seasons' it is is not guessed.
  const last = starts[starts.length - 1]!
  const earlier = new Set(parts.slice(starts[0], last).flatMap(daysNamed))
  if (parts.slice(last + 1).some((part) => daysNamed(part).some((day) => !earlier.has(day)))) return []
  const groups = starts.map((from, k) => parts.slice(from, starts[k + 1] ?? parts.length).join(', '))
  const shared = starts[0]! > 0 ? [parts.slice(0, starts[0]).join(', ')] : []
  return eachSeason(
    [...shared, ...groups],
    groups.map((_, k) => shared.length + k),
    ', ',
  )
}

/** A text's parts between commas outside brackets ("Summer (Jun, Jul): ..." keeps its months together). */
function bracketsKept(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < text.length; i++) {
    if ('([{'.includes(text[i]!)) depth++
    else if (')]}'.includes(text[i]!)) depth = Math.max(depth - 1, 0)
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(from, i))
      from = i + 1
    }
  }
  parts.push(text.slice(from))
  return parts
}

/**
 * A week's text less the one season it names (outOfSeason), as written, spaces made one; null
 * when it names none, a date, two seasons, or one read no way apart from its hours.
 */
function lessSeasons(text: string): string | null {
  const found = seasonIn(text)
  if (found === null || found.kind === 'date') return null
  const start = Math.max(...[...PART_ENDS].map((c) => text.lastIndexOf(c, found.from - 1))) + 1
  const ends = [...PART_ENDS].map((c) => text.indexOf(c, found.to)).filter((at) => at >= 0)
  const end = ends.length > 0 ? Math.min(...ends) : text.length
  const after = text.slice(found.to, end)
  let rest: string
  if (!/\d/.test(text.slice(start, found.from) + after)) {
    // The part whole, and its brackets or the separator before it.
    const bracketed = text[start - 1] === '(' && text[end] === ')'
    const [from, to] = bracketed ? [start - 1, end + 1] : [Math.max(start - 1, 0), end]
    rest = text.slice(0, from) + text.slice(to)
  } else if (text.slice(start, found.from).trim() === '' && /^\s*:?\s*\p{L}/u.test(after)) {
    rest = text.slice(0, found.from) + text.slice(found.to).replace(/^\s*:/, '')
  } else return null
  // One season a week's text: hours of two ("9-6 (Summer), 9-5 (Winter)") are not joined.
  if (seasonIn(rest) !== null) return null
  const week = rest
    .replace(/\s+/g, ' ')
    .replace(/ (?=[,;])/g, '')
    .replace(/^[\s,;:]+|[\s,;:]+$/g, '')
  return week === '' ? null : week
}

/** `text`: the cell, whose days the example names as it does. */
const dateDoubt = (shown: string, text: string) =>
  `its "${shown}" is a date, not a day of the week. Write the week's hours, such as "${daysAsIn(text, 'Mon-Fri 09:00-18:00')}", and dates as special dates (special_hours).`

/**
 * `range`: months from one to another, which are no days; else a month or season alone, which a
 * week's hours do not name. `weeks`: the cell's hours less its seasons, for a person to write
 * the hours it opens now, as the season goes.
 */
function seasonDoubt(shown: string, range: boolean, weeks: string[], text: string): string {
  const such =
    weeks.length === 0
      ? `"${daysAsIn(text, 'Mon-Fri 09:00-18:00')}"`
      : weeks.map((week) => JSON.stringify(week)).join(' or ')
  return `its "${shown}" is a season, not read: ${range ? 'its months are no days' : "a week's hours are every week's"}. Write the hours it opens now, such as ${such}, and change them when the season changes, or write the dates they differ on as special dates (special_hours); give it the status draft while it is closed.`
}
