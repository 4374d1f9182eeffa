// Retry-After as RFC 9110 writes it (10.2.3, 5.6.7): delay-seconds or an HTTP-date in one of its
// three forms, nothing else. The one reader of the widget, the HTTP geocoders and the client:
// src/core/retry-after.ts and src/client/retry-after.ts are one text, byte for byte
// (test/retry-after.test.ts), as the client's package imports nothing beyond src/client. It
// imports nothing, and runs in a browser too.

/**
 * RFC 9110's names, read in any case ("sunday", "NOV", "gmt"): its grammar writes them in one,
 * but it asks recipients to be robust in reading dates (5.6.7), and RFC 9111 (4.2) asks caches to
 * match them case-insensitively. A name in another case is no other name: nothing is misread.
 */
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'
const MONTH = `(${MONTHS.replace(/ /g, '|')})`
const TIME = '(\\d\\d):(\\d\\d):(\\d\\d)'
/** IMF-fixdate, the preferred form; RFC 850's and asctime's, obsolete, which a recipient must accept. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d\\d) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i')
const RFC850_DATE = new RegExp(
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d\\d)-${MONTH}-(\\d\\d) ${TIME} GMT$`,
  'i',
)
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} (\\d\\d| \\d) ${TIME} (\\d{4})$`, 'i')

/**
 * An HTTP-date in ms since 1970 (asctime's names no zone: it is GMT); undefined when `text` is
 * none, or names a day not in its month or a time past 23:59:60. RFC 850's two-digit year is the
 * latest whose date is at most 50 years after `now`, as RFC 9110 asks.
 */
function httpDate(text: string, now: number): number | undefined {
  const imf = IMF_FIXDATE.exec(text)
  const rfc850 = imf ? null : RFC850_DATE.exec(text)
  const asc = imf || rfc850 ? null : ASCTIME_DATE.exec(text)
  // Day, month, year, hour, minute, second: asctime writes the month first, the year last.
  const [day, month, year, ...time] =
    (imf ?? rfc850)?.slice(1) ?? (asc ? [asc[2], asc[1], asc[6], asc[3], asc[4], asc[5]] : [])
  if (year === undefined) return undefined
  const [d, m] = [Number(day), MONTHS.indexOf(month!.toLowerCase()) / 4]
  const [h, min, s] = time.map(Number) as [number, number, number]
  if (h > 23 || min > 59 || s > 60) return undefined
  // setUTCFullYear, as Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const midnight = (y: number) => new Date(0).setUTCFullYear(y, m, d)
  const at = (y: number) => midnight(y) + ((h * 60 + min) * 60 + s) * 1000
  let y = Number(year)
  if (rfc850) {
    const thisYear = new Date(now).getUTCFullYear()
    const latest = new Date(now).setUTCFullYear(thisYear + 50)
    y += thisYear - (thisYear % 100) + 100
    while (at(y) > latest) y -= 100
  }
  return new Date(midnight(y)).getUTCDate() === d ? at(y) : undefined
}

/** One value in seconds (0 for a date gone by), from `now` (ms); undefined when unreadable. */
function oneValue(text: string, now: number): number | undefined {
  if (/^\d+$/.test(text)) return Number(text)
  const at = httpDate(text, now)
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/** A date's day name, followed by its own comma, not another value's. */
const DAY_NAME = /^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/i

/** A header's values, joined by commas when it was sent twice: split at each comma but a date's. */
function values(header: string): string[] {
  const out: string[] = []
  for (const piece of header.split(',')) {
    const last = out.length - 1
    if (last >= 0 && DAY_NAME.test(out[last]!)) out[last] += `,${piece}`
    else out.push(piece)
  }
  return out
}

/**
 * Retry-After in seconds (0 for a date gone by), from `now` (ms); undefined when absent or
 * unreadable. Sent twice (the service's and a proxy's copy), it comes joined, "600, 600": the
 * longest of its readable values is kept, the safe side of a proxy's and the service's.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined
  let most: number | undefined
  for (const value of values(header)) {
    const seconds = oneValue(value.trim(), now)
    if (seconds !== undefined && (most === undefined || seconds > most)) most = seconds
  }
  return most
}
