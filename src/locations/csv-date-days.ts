// The days a special hours cell's dates name, as YYYY-MM-DD: a date's own, or each of a run of
// days ("Dec 24-26"); a year a date does not write is the one the run's clock reads for it.

/** A day as a cell names it: its year null when it writes none. */
export type Day = { month: number; day: number; year: number | null }

/** The most days a run of days is read for: a month's. */
export const MOST_DAYS = 31

const DAY_MS = 86_400_000
const DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** How a special hours cell is written, which its problems end with. */
export const HOW_WRITTEN =
  'Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".'

export const pad = (n: number) => String(n).padStart(2, '0')

const leapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

/** How many days past a date without a year may be and still be this season's. */
export const DAYS_KEPT = 7

/**
 * The year of a date written without one: the first such day from DAYS_KEPT days before today
 * (UTC) on. A holiday sheet lists the days ahead, and the same sheet read again in the week after
 * a day still means that day, so an unchanged file imports to no change; February 29 is one of a
 * leap year.
 */
export function undatedYear(month: number, day: number): number {
  return undatedRun({ month, day }, { month, day })[0]
}

/** The first and last years of a run of days written without a year: the first such run that ends from DAYS_KEPT days before today (UTC) on, its days all there (February 29). */
function undatedRun(first: { month: number; day: number }, last: { month: number; day: number }): [number, number] {
  // Date.now: the clock a run reads, which a test sets later (test/cli/clock-ahead.ts).
  const now = new Date(Date.now())
  const since = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - DAYS_KEPT)
  const turns = last.month * 100 + last.day < first.month * 100 + first.day ? 1 : 0
  const has = (year: number, { month, day }: { month: number; day: number }) =>
    !(month === 2 && day === 29 && !leapYear(year))
  let year = now.getUTCFullYear() - 1
  while (Date.UTC(year + turns, last.month - 1, last.day) < since || !has(year, first) || !has(year + turns, last))
    year++
  return [year, year + turns]
}

/** A day as YYYY-MM-DD, or why it is none; `text`, its date as written. */
export function isoDay({ month, day, year }: Day, text: string): string | { problem: string } {
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN[month - 1]!)
    return { problem: `"${text}" is no date. Write each date as YYYY-MM-DD, such as 2026-12-25.` }
  const y = year ?? undatedYear(month, day)
  if (month === 2 && day === 29 && !leapYear(y))
    return {
      problem: `"${text}" is no date: ${y} has no February 29. Write each date as YYYY-MM-DD, such as 2028-02-29.`,
    }
  return `${y}-${pad(month)}-${pad(day)}`
}

/**
 * Each day from `first` to `last` as YYYY-MM-DD, or why they are none. A year one of them lacks
 * is the other's ("Dec 30 - Jan 2, 2027": 2026 to 2027); lacking both, they are the first such
 * run's that ends from DAYS_KEPT days before today on (undatedRun). `text`: the run as written.
 */
export function runDays(first: Day, last: Day, text: string): string[] | { problem: string } {
  const md = (d: Day) => d.month * 100 + d.day
  let from = first.year
  let to = last.year
  if (from === null && to === null) [from, to] = undatedRun(first, last)
  if (from === null) from = md(first) > md(last) ? to! - 1 : to!
  if (to === null) to = md(last) < md(first) ? from + 1 : from
  const start = isoDay({ ...first, year: from }, text)
  if (typeof start !== 'string') return start
  const end = isoDay({ ...last, year: to }, text)
  if (typeof end !== 'string') return end
  const count = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1
  const how = `or each date with its hours. ${HOW_WRITTEN}`
  if (count < 2) return { problem: `"${text}" does not end after it starts. Write its first day first, ${how}` }
  if (count > MOST_DAYS)
    return {
      problem: `"${text}" is ${count} days, more than the ${MOST_DAYS} a run of days is read for. Write it as shorter runs ("Dec 24-26 closed") ${how}`,
    }
  return Array.from({ length: count }, (_, i) => new Date(Date.parse(start) + i * DAY_MS).toISOString().slice(0, 10))
}
