// A location's opening fields beyond its weekly text: its time zone (from its coordinates, offline,
// unless set), its dated exceptions (special_hours), and which of its hours could not be read.
import { keyShown, quoted } from '../core/validation'
import { zoneAt } from '../core/zone'
import { byAppointment, eitherHalf, eitherText, parseDayHours } from '../core/hours'
import { DAYS, type LocationRecord } from '../store/locations'

/** The most dated exceptions one request may send. */
export const SPECIAL_HOURS_MAX = 366

/** A real day of the calendar, as YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const t = Date.parse(`${text}T00:00:00Z`)
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === text
}

/** The IANA name of a zone as Intl knows it ("europe/berlin" -> "Europe/Berlin"), or null for no zone. */
export function canonicalZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null // names only: no "+01:00" offsets
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/**
 * The zone to store for a record: the one set for it, unless it is its coordinates' own (then
 * null, following them), so an export imported again, which sends every zone, changes nothing.
 */
export function keptZone(r: Pick<LocationRecord, 'timezone' | 'lat' | 'lng'>): string | null {
  return r.timezone !== null && r.timezone === zoneAt(r.lat, r.lng) ? null : r.timezone
}

/** Whether an hours text is read as opening hours (not unknown). */
export type HoursRead = (text: string) => boolean
const hoursRead: HoursRead = (text) => parseDayHours(text).kind !== 'unknown'

/** At most this many texts remembered: a list's few texts, not every text of a stream of them. */
const TEXTS_KEPT = 10_000

/** hoursRead, each text parsed once: a store list's rows repeat a few texts ("09:00-18:00"). */
export function hoursReadOnce(): HoursRead {
  const known = new Map<string, boolean>()
  return (text) => {
    let read = known.get(text)
    if (read === undefined) {
      read = hoursRead(text)
      if (known.size >= TEXTS_KEPT) known.clear()
      known.set(text, read)
    }
    return read
  }
}

/** The days (monday...) and dates (YYYY-MM-DD) whose hours text is set but could not be read, with that text. */
export function unreadHourTexts(
  r: Pick<LocationRecord, 'hours' | 'specialHours'>,
  read: HoursRead = hoursRead,
): { key: string; text: string }[] {
  const unread: { key: string; text: string }[] = []
  for (const day of DAYS) {
    const text = r.hours[day]
    if (text !== undefined && text !== '' && !read(text)) unread.push({ key: day, text })
  }
  for (const [date, text] of Object.entries(r.specialHours))
    if (text !== '' && !read(text)) unread.push({ key: date, text })
  return unread
}

/** The days and dates of unreadHourTexts: they count as unknown. */
export const unreadHours = (r: Pick<LocationRecord, 'hours' | 'specialHours'>): string[] =>
  unreadHourTexts(r).map((u) => u.key)

/** unreadHourTexts as sentences, for the bulk endpoint's and the CLI import's warnings. */
export function unreadHoursWarnings(
  r: Pick<LocationRecord, 'hours' | 'specialHours'>,
  read: HoursRead = hoursRead,
): string[] {
  return unreadHourTexts(r, read).map(({ key, text }) => {
    const field = key.includes('-') ? `special_hours.${key}` : `hours.${key}`
    const halves = eitherHalf(text)
    if (halves !== null)
      return `${field} ${JSON.stringify(text)} could be ${eitherText(halves)}: it is kept, and counts as unknown until it is written as one of them.`
    const said = byAppointment(text)
      ? 'is read as by appointment, with no hours'
      : `could not be read as opening hours${offTheClock(text)}`
    return `${field} ${JSON.stringify(text)} ${said}: it is kept, and counts as unknown (docs/management-api.md, Opening hours).`
  })
}

/** A time as a range writes it: "9", "18:30", "9.15". */
const TIME = String.raw`\d{1,2}(?:[:.]\d{2})?`
/** Ranges alone ("9-25", "9:00-12:00, 13:00-18:70"): a text whose only fault can be a time. */
const RANGES = new RegExp(String.raw`^\s*${TIME}\s*[-–]\s*${TIME}(?:\s*,\s*${TIME}\s*[-–]\s*${TIME})*\s*$`)

/** Why ranges alone were not read: a time no clock shows (", as 25 is no hour of a day (0 to 24)"); else "". */
function offTheClock(text: string): string {
  if (!RANGES.test(text)) return ''
  for (const [time, hour, minute] of text.matchAll(/(\d{1,2})(?:[:.](\d{2}))?/g)) {
    if (Number(hour) > 24) return `, as ${hour} is no hour of a day (0 to 24)`
    if (minute !== undefined && Number(minute) > 59) return `, as ${time} has no such minute (00 to 59)`
  }
  return ''
}

/** The rules of timezone and special_hours a schema cannot state, each failure told to `add`. */
export function checkOpeningFields(body: Record<string, unknown>, add: (field: string, message: string) => void): void {
  const zone = body.timezone
  if (typeof zone === 'string' && zone !== '' && canonicalZone(zone) === null)
    add(
      'timezone',
      `The timezone field must be an IANA time zone name, such as Europe/Berlin or America/New_York; got ${quoted(zone)}. Leave it empty to take it from the coordinates.`,
    )
  const special = body.special_hours
  if (special && typeof special === 'object' && !Array.isArray(special))
    for (const date of Object.keys(special))
      if (!isCalendarDate(date))
        add(
          `special_hours.${keyShown(date)}`,
          `The special_hours keys must be dates as YYYY-MM-DD, such as 2026-12-24; got ${quoted(date)}.`,
        )
}
