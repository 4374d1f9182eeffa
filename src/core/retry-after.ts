// Retry-After read as RFC 9110 writes it: delta-seconds or an HTTP-date, nothing else. Written
// for both sides (the widget reads it in the browser). src/client reads one value the same way
// with its own copy, as it imports nothing of src/; a header sent twice ("600, 600"), which it
// also reads, is no value here.

/**
 * RFC 9110's three HTTP-date forms, each begun by a day's name: Date.parse alone would also read
 * "-5" or "1.5" as a date gone by. asctime's form names no zone; it is GMT all the same.
 */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /
const ASCTIME = /^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/

/** Retry-After in seconds (0 for a date gone by), from `now` (ms); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim()
  if (value === undefined) return undefined
  if (/^\d+$/.test(value)) return Number(value)
  if (!HTTP_DATE.test(value)) return undefined
  const at = Date.parse(ASCTIME.test(value) ? `${value} GMT` : value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}
