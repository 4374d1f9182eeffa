// Locations written as CSV rows that readLocationsCsv reads back to the same values: a header,
// then one row a location, whole or a slice at a time (an export spread over event-loop turns).
import { stringify } from 'csv-stringify/sync'
import { DAYS, type Day } from '../store/locations'
import { DATE_AT, guardCell, keptDayCell, markKept, SPECIAL_LEADING, SPECIAL_TRAILING, TAG_SLASH } from './csv-cells'
import { readSpecialHours } from './csv-dates'
import { dayCellSame } from './csv-week'
import { CONTACT_KEYS, SOCIAL_KEYS } from './model'

/** A location whose values a CSV cell cannot hold so that reading gives them back: the export names it. */
export class CsvWriteError extends Error {}

/** The shape written; structurally what GET /admin/v1/locations gives per location. */
export type CsvLocation = {
  id: string
  external_id: string | null
  name: string
  address: string
  coordinates: { lat: number; lng: number }
  description: string
  tags: string[]
  contact: { phone: string; email: string; website: string }
  social: { instagram: string; facebook: string; twitter: string }
  hours: Record<Day, string>
  special_hours: Record<string, string>
  timezone: string
  custom_fields: Record<string, string>
  image_url: string
  status: string
}

/** Whether a date's text, written in the special hours cell, reads back as that date's alone and as it is. */
function readsBack(date: string, text: string): boolean {
  const read = readSpecialHours(`${date} ${markKept(text)}`)
  return typeof read !== 'string' && Object.keys(read).length === 1 && read[date] === text
}

/** A location's special hours as one cell, dates in order; throws for a text that would not read back as written. */
function specialCell(location: CsvLocation): string {
  const dates = Object.keys(location.special_hours).sort()
  for (const date of dates) {
    const text = location.special_hours[date]!
    if (
      text === '' ||
      text !== text.trim() ||
      SPECIAL_LEADING.test(text) ||
      SPECIAL_TRAILING.test(text) ||
      // A date form after an ISO date is a date only as YYYY-MM-DD or after a separator
      // (readSpecialHours), and has a digit: a text of neither reads back as it is.
      (/\d/.test(text) && (/[;,|\n]/.test(text) || text.search(DATE_AT) >= 0) && !readsBack(date, text))
    )
      throw new CsvWriteError(
        `Location ${JSON.stringify(location.id)} cannot be written as CSV: its special hours of ${date}, ${JSON.stringify(text)}, would not read back as written (a date inside or after a separator, a colon first, or separators at its end). Change that text.`,
      )
  }
  return dates.map((date) => `${date} ${markKept(location.special_hours[date]!)}`).join('; ')
}

/** The export's columns before its custom fields': each a location field's own name. */
export const WRITE_HEADER = [
  'id',
  'external_id',
  'name',
  'address',
  'lat',
  'lng',
  'description',
  'tags',
  ...CONTACT_KEYS,
  ...SOCIAL_KEYS,
  ...DAYS,
  'special_hours',
  'timezone',
  'image_url',
  'status',
]

/** At most this many texts remembered per day: a list's few texts, not every text of a stream of them. */
const DAY_TEXTS_KEPT = 10_000

/**
 * A day's text as its day column's cell: as it is (formula signs after a separator guarded) when
 * the import reads it back so under the export's header ("monday"), else keptDayCell's, a "'"
 * first: "x" and a dash alone (closed typed so), a note of other days' hours ("9-18, Samedi
 * 10-13", kept unread under a short header), a text starting with "'" or a formula's sign. Each
 * text is judged once a writer: a list's rows repeat a few texts.
 */
function dayCells(): (text: string, day: number) => string {
  const known = DAYS.map(() => new Map<string, string>())
  return (text, day) => {
    const cells = known[day]!
    let cell = cells.get(text)
    if (cell === undefined) {
      const bare = guardCell(text)
      const same = !bare.startsWith("'") && markKept(text) === text && dayCellSame(DAYS[day]!, text, day)
      cell = same ? bare : keptDayCell(text)
      if (cells.size >= DAY_TEXTS_KEPT) cells.clear()
      cells.set(text, cell)
    }
    return cell
  }
}

/** String(n) reads back to the same double; -0 is the one number it does not keep. */
const numberCell = (n: number) => (Object.is(n, -0) ? '-0' : String(n))

/** How an export's CSV is written for the program that opens it. */
export type CsvStyle = {
  /**
   * Between cells: ',' (the default), ';' (Excel where numbers have a decimal comma: most of
   * Europe; coordinates are then written with one too), or a tab.
   */
  separator: ',' | ';' | '\t'
  /** A UTF-8 byte order mark first: Excel then reads accents as written. */
  bom: boolean
}

export const PLAIN_CSV: CsvStyle = { separator: ',', bom: false }

/** The separator `asked` names (",", ";" or "tab"), or null for any other. */
export function csvSeparator(asked: string): CsvStyle['separator'] | null {
  const s = asked.trim().toLowerCase()
  return s === ',' || s === ';' ? s : s === 'tab' || asked === '\t' ? '\t' : null
}

function tagsCell(location: CsvLocation): string {
  const piped = location.tags.find((tag) => tag.includes('|'))
  if (piped !== undefined) {
    // The reader splits a cell holding '|' on '|', so no separator keeps such a tag whole.
    throw new CsvWriteError(
      `Location ${JSON.stringify(location.id)} cannot be written as CSV: its tag ${JSON.stringify(piped)} contains "|", the tags separator. Rename the tag.`,
    )
  }
  const cell = location.tags.join('|')
  // A lone tag with a ';', a ',' or a spaced '/' gets a trailing '|', so the reader splits on '|' and keeps it whole.
  return location.tags.length === 1 && (/[;,]/.test(cell) || TAG_SLASH.test(cell)) ? `${cell}|` : cell
}

/** Writes a header and rows as an export's CSV: each call's text follows the previous one's. */
export type CsvWriter = {
  /** The header line, after a BOM when the style asks for one. */
  header: () => string
  /** One line a location. Throws a CsvWriteError for a location whose values would not read back. */
  rows: (locations: readonly CsvLocation[]) => string
}

/**
 * A writer of locations as CSV: CRLF line endings (RFC 4180), cells apart and a BOM as `style`
 * says (a comma and none by default), with a custom.<id> column per id of `customFieldIds` in
 * that order (repeats written once). Coordinates are written as numbers; text cells that would
 * start a formula gain a "'". A location whose tags cannot be written (a tag containing "|") or
 * whose special hours would not read back throws a CsvWriteError.
 */
export function csvWriter(customFieldIds: readonly string[], style: CsvStyle = PLAIN_CSV): CsvWriter {
  const number = style.separator === ';' ? (n: number) => numberCell(n).replace('.', ',') : numberCell
  const ids = [...new Set(customFieldIds)]
  const dayCell = dayCells()
  const options = { record_delimiter: 'windows', quote_record_delimiter: true, delimiter: style.separator } as const
  const row = (l: CsvLocation) => [
    ...[l.id, l.external_id ?? '', l.name, l.address].map(guardCell),
    number(l.coordinates.lat),
    number(l.coordinates.lng),
    ...[
      l.description,
      tagsCell(l),
      ...CONTACT_KEYS.map((k) => l.contact[k]),
      ...SOCIAL_KEYS.map((k) => l.social[k]),
    ].map(guardCell),
    ...DAYS.map((d, i) => dayCell(l.hours[d], i)),
    ...[
      specialCell(l),
      l.timezone,
      l.image_url,
      l.status,
      // hasOwn: an id such as "constructor" must not read Object.prototype.
      ...ids.map((id) => (Object.hasOwn(l.custom_fields, id) ? l.custom_fields[id]! : '')),
    ].map(guardCell),
  ]
  return {
    header: () => stringify([[...WRITE_HEADER, ...ids.map((id) => `custom.${id}`)]], { ...options, bom: style.bom }),
    rows: (locations) => (locations.length === 0 ? '' : stringify(locations.map(row), options)),
  }
}

/** CSV text of `locations`, a header first, as csvWriter writes them. */
export function writeLocationsCsv(
  locations: readonly CsvLocation[],
  customFieldIds: readonly string[],
  style: CsvStyle = PLAIN_CSV,
): string {
  const writer = csvWriter(customFieldIds, style)
  return writer.header() + writer.rows(locations)
}
