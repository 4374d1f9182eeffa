// Months a week of hours names, for week-hours.ts: a range of months ("Apr-Sep", "Jan-Mär",
// "ene-mar", "okt t/m mrt") or a day of a month ("15 Mar") is a season or a date, never days,
// though "mar" is Tuesday in French, Spanish and Italian.
import { folded } from './week-days'

/** Months, folded, in English, German, French, Spanish, Italian, Dutch, Swedish, Danish and Norwegian, whole and short. */
const MONTHS = [
  'january|february|march|april|may|june|july|august|september|october|november|december',
  'januar|janner|februar|marz|mai|juni|juli|oktober|dezember|mrz|okt|dez',
  'janvier|fevrier|mars|avril|juin|juillet|aout|septembre|octobre|novembre|decembre|janv|fevr|fev|avr|juil',
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|ene|abr|ago|dic',
  'gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|gen|mag|giu|lug|set|ott',
  'januari|februari|maart|augustus|mrt|mei',
  'augusti|maj|desember|des',
  'jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec',
]
  .join('|')
  .split('|')
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

/** Why a week naming a season by its months or a date is not read; null when it names none. */
export function monthDoubt(text: string): string | null {
  const { t, at } = folded(text)
  const m = MONTH_CLAUSE.exec(t)
  if (m === null) {
    const march = MARCH_ALONE.exec(text)
    const isMarch = march !== null && (!/^mar$/i.test(march[1]!) || ENGLISH_DAY.test(text))
    return isMarch ? seasonDoubt(march[1]!) : null
  }
  const shown = text.slice(at[m.index], at[m.index + m[0].length])
  if (/^\d/.test(m[0]))
    return `its "${shown}" is a date, not a day of the week. Write the week's hours, such as "Mon-Fri 09:00-18:00", and dates as special dates (special_hours).`
  return seasonDoubt(shown)
}

const seasonDoubt = (shown: string) =>
  `its "${shown}" is a season, not read: its months are no days. Write the hours it opens, such as "Mon-Fri 09:00-18:00", and the dates they differ on as special dates (special_hours), or give it the status draft while it is closed.`
