// A spreadsheet's rows read into location bodies for the bulk upsert. Cells are trimmed; reading
// what csv-write.ts wrote gives back the same values. Validation is not done here: a body goes
// through normalizeLocationBody. Text cells a spreadsheet would run as a formula were written with
// a leading "'" (OWASP's CSV injection advice) and are read back without it.
import { atOnce, inSlices } from '../core/slices'
import { DAYS } from '../store/locations'
import { socialUrl } from '../core/social'
import { nameKey } from '../core/text'
import { halfClosed, parseDayHours } from '../core/hours'
import { splitWeekHours } from '../core/week-hours'
import { countryCode, countryLabel, countryMisspelt } from '../geocode/countries'
import type { BulkItem } from './bulk'
import { joinAddress, mendParts, rowCountry } from './csv-address'
import { DATE_AT, SPECIAL_LEADING, SPECIAL_TRAILING, TAG_SLASH, unguardCell } from './csv-cells'
import { columnField, daysColumn, fallbackField } from './csv-columns'
import { headerBelow, skippedNote } from './csv-header'
import {
  coordinatePair,
  coordinateProblem,
  coordinateValue,
  inRange,
  lostSeparator,
  pairColumn,
} from './csv-coordinates'
import { fileMaybeGarbled, garbledNotes, lostDigits, maybeGarbled, type NamedCell, ungarbled } from './csv-garbled'
import {
  at,
  CsvError,
  columnLetter,
  csvText,
  delimiterName,
  type RawRecord,
  type ReadOptions,
  readRecords,
} from './csv-records'
import { STATUS_WORDS, statusInput } from './model'

/** One data row of a locations CSV as a location body for the bulk upsert. */
export type CsvRow = {
  /** The file line where this record starts: the first line of the file is 1; quoted line breaks count. */
  line: number
  /** The fields of the columns the header has; empty cells clear all but id, external_id, name, address, status. */
  body: Record<string, unknown>
  /**
   * The country cell, trimmed; else the country its postcode tells with its region (a US state
   * and one of its ZIP codes: "US"); null when neither says.
   */
  country: string | null
  /** Likewise for the postcode cell. */
  postcode: string | null
  /** The city cell, trimmed; null when none. */
  city: string | null
  /** What in the row could not be read into the body, by field: the row is not to be written. */
  problems: { field: string; message: string }[]
  /** What in the row was read otherwise than written, said in its result's warnings. */
  notes: string[]
}

export type CsvRead = {
  rows: CsvRow[]
  /**
   * Each header cell and the field it was read as (null: unknown column). Fields are body paths
   * (`name`, `coordinates.lat`, `hours.monday`, `custom_fields.<id>`) or address parts (`street`,
   * `house_number`, `street2`, `city`, `postcode`, `region`, `country`).
   */
  columns: { header: string; field: string | null }[]
  /** Header cells no field matched, as written: the caller reports them (never silently dropped). */
  unknown: string[]
}

/** Fields whose empty cell leaves the key out: they cannot be cleared, and id/external_id pick the row's target. */
const OMIT_WHEN_EMPTY = new Set(['id', 'external_id', 'name', 'address', 'status'])
const MAP_FIELDS = new Set(['contact', 'social', 'hours', 'custom_fields'])
/** A host as sheets write it without a protocol, with its port if any: "www.example.co.uk:8080". */
const HOST = String.raw`[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::[0-9]{1,5})?`
/** A site: a host, and any path after it ("www.example.com", "example.co.uk/shop"). */
const BARE_SITE = new RegExp(String.raw`^${HOST}(?:[/?#]\S*)?$`, 'u')
/** A page: a host with a path ("instagram.com/cyclehub"). A handle or a file name ("cycle.hub", "front.jpg") is none. */
const BARE_PAGE = new RegExp(String.raw`^${HOST}/\S*$`, 'u')
/** Fields holding a web address, which the API takes only with its protocol, and the bare form each is read in. */
const URL_FIELDS = new Map([
  ['contact.website', BARE_SITE],
  ['social.instagram', BARE_PAGE],
  ['social.facebook', BARE_PAGE],
  ['social.twitter', BARE_PAGE],
  ['image_url', BARE_PAGE],
])
/** A cell of a web address field with https:// before it when it is bare; else as it is, for validation to judge. */
const withProtocol = (cell: string, bare: RegExp) => (bare.test(cell) ? `https://${cell}` : cell)
/** A handle as sheets write it in a social column, with its "@" ("@cyclehub"); without one it may be a host. */
const HANDLE = /^@([\p{L}\p{N}._-]+)$/u
/** A social column's "@handle" as that network's profile address; any other cell as it is. */
function withProfile(cell: string, field: string): string {
  const handle = HANDLE.exec(cell)?.[1]
  const network = field.slice('social.'.length)
  return handle !== undefined && (network === 'instagram' || network === 'facebook' || network === 'twitter')
    ? socialUrl(network, handle)
    : cell
}
/**
 * A number cell's decimal comma as a point ("2,5": 2.5, "0,500"); not three digits after it
 * behind another number ("1,500"), which English writes for a thousand and more: left as
 * written, refused as no number.
 */
const decimalComma = (cell: string) =>
  cell.replace(/^(-?0),(\d+)$/, '$1.$2').replace(/^(-?\d+),(\d{1,2}|\d{4,})$/, '$1.$2')
/** Google Business Profile's sheet writes a day closed as "x", in its day columns and special hours. */
const closedX = (text: string) => (/^x$/i.test(text) ? 'closed' : text)
/** Other tools' statuses, as their exports write them (WordPress: publish, pending, private), to ours. */
const OTHER_STATUSES = new Map([
  ['publish', 'published'],
  ['active', 'published'],
  ['visible', 'published'],
  ['live', 'published'],
  ['enabled', 'published'],
  ['true', 'published'],
  ['yes', 'published'],
  ['pending', 'draft'],
  ['private', 'draft'],
  ['disabled', 'draft'],
  ['false', 'draft'],
  ['no', 'draft'],
  // The same in German, French, Spanish, Italian and Dutch.
  ...[
    'aktiv',
    'veröffentlicht',
    'actif',
    'publié',
    'publiée',
    'activo',
    'activa',
    'publicado',
    'publicada',
    'attivo',
    'attiva',
    'pubblicato',
    'pubblicata',
    'actief',
    'gepubliceerd',
    // Yes, as an "Aktiv" or "Actif" column answers.
    'ja',
    'oui',
    'sí',
    'si',
  ].map((w) => [w, 'published'] as const),
  ...[
    'inaktiv',
    'entwurf',
    'inactif',
    'brouillon',
    'inactivo',
    'inactiva',
    'borrador',
    'inattivo',
    'inattiva',
    'bozza',
    'inactief',
    'concept',
    'nein',
    'non',
    'nee',
  ].map((w) => [w, 'draft'] as const),
])
/** What a status cell that names no status says: every word read, by the status it means. */
function statusProblem(cell: string): string {
  const words = [...STATUS_WORDS, ...OTHER_STATUSES]
  const read = (status: string) =>
    words
      .filter(([w, s]) => s === status && w !== status)
      .map(([w]) => w)
      .join(', ')
  return `${JSON.stringify(cell)} is not a status: write published (also read so: ${read('published')}) or draft (also: ${read('draft')}).`
}
/** The field of a column of some days' hours, before its days as the header writes them ("hours Mo-Fr"). */
export const DAYS_FIELD = 'hours '
const ADDRESS_PARTS = new Set(['street', 'house_number', 'street2', 'city', 'postcode', 'region', 'country'])

type Header = {
  columns: CsvRead['columns']
  width: number
  /** The columns between named ones whose header cell is empty. */
  unnamed: number[]
  hasAddress: boolean
  /** The fields of number custom fields ("custom_fields.parking"): a decimal comma is read as a point. */
  numbers: Set<string>
  /** Whether cells are looked at for garbled text: not in a file that holds none of its signs. */
  garbled: boolean
}

/** A locator's custom field as a header may name it: by its id or its name. */
export type NamedField = { id: string; name: string; type?: string }

/** The most columns a header may name: a row's reading takes time by them, and its answer lists the unknown ones. */
export const MAX_COLUMNS = 1000

function readHeader({ cells, line }: RawRecord, customFields: readonly NamedField[]): Omit<Header, 'garbled'> {
  // Trailing empty header cells are spreadsheet padding, not columns.
  let width = cells.length
  while (cells[width - 1] === '') width--
  if (width > MAX_COLUMNS)
    throw at(
      line,
      `the header has ${width.toLocaleString('en')} columns; a file may have at most ${MAX_COLUMNS.toLocaleString('en')}. Delete the columns that are not locations' fields.`,
    )
  const columns: CsvRead['columns'] = []
  const headerOf = new Map<string, string>()
  const fallbacks: number[] = []
  const unnamed: number[] = []
  for (let i = 0; i < width; i++) {
    const header = cells[i]!
    // An unnamed column is read as nothing; checkWidth refuses a row with text in it.
    if (header === '') unnamed.push(i)
    // A header garbled as its cells are ("LÃ¤ngengrad") names the column it was.
    const mended = maybeGarbled(header) ? ungarbled(header) : null
    const field = columnField(header) ?? (mended === null ? null : columnField(mended))
    if (field === null && fallbackField(header) !== null) fallbacks.push(i)
    if (field !== null) {
      const other = headerOf.get(field)
      // Tags may come from several columns ("Category" and "Tags", as store locator plugins export them).
      if (other !== undefined && field !== 'tags') {
        throw at(line, `the columns "${other}" and "${header}" both fill ${field}. Delete or rename one of them.`)
      }
      headerOf.set(field, header)
    }
    columns.push({ header, field })
  }
  // A fallback spelling fills its field when no column does, the first of them only; a
  // coordinate's only beside the other's ("Breite" alone is a width).
  const fallbackFields = new Set(fallbacks.map((i) => fallbackField(columns[i]!.header)!))
  const asPair = fallbackFields.has('coordinates.lat') && fallbackFields.has('coordinates.lng')
  for (const i of fallbacks) {
    const field = fallbackField(columns[i]!.header)!
    if (headerOf.has(field) || (field.startsWith('coordinates.') && !asPair)) continue
    headerOf.set(field, columns[i]!.header)
    columns[i]!.field = field
  }
  // A column named as one of the locator's custom fields is, by its name or id ("Store Manager",
  // "store_manager"), when custom.<id> is not there too.
  for (const column of columns) {
    if (column.field !== null) continue
    const key = nameKey(column.header)
    if (key === '') continue // "#", "★": no words to match
    const named = customFields.find((f) => nameKey(f.id) === key) ?? customFields.find((f) => nameKey(f.name) === key)
    const field = named && `custom_fields.${named.id}`
    if (!field || headerOf.has(field)) continue
    headerOf.set(field, column.header)
    column.field = field
  }
  // A column of some days' hours ("Mo-Fr", "Sa") is a part of the week, read with the others.
  for (const column of columns) {
    const days = column.field === null ? daysColumn(column.header) : null
    if (days !== null) column.field = `${DAYS_FIELD}${days}`
  }
  const numbers = new Set(customFields.filter((f) => f.type === 'number').map((f) => `custom_fields.${f.id}`))
  return { columns, width, unnamed, hasAddress: headerOf.has('address'), numbers }
}

/**
 * Rows must have the header's cells; cells past it, or in a column the header leaves unnamed, are
 * allowed only empty (spreadsheet padding).
 */
function checkWidth(
  { cells, line }: RawRecord,
  { width, unnamed }: Header,
  headerLine: number,
  delimiter: string,
): void {
  if (cells.length < width) {
    throw at(
      line,
      `this row has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} but the header has ${width} columns. Add the missing cells (an empty cell is just the separator), or look for a line break in a cell that is not in double quotes.`,
    )
  }
  const filled = unnamed.find((i) => cells[i] !== '')
  if (filled !== undefined) {
    throw at(
      line,
      `this row has text in column ${columnLetter(filled)}, which has no name in the header (line ${headerLine}). Name the column (for example "description") or delete it.`,
    )
  }
  let last = cells.length - 1
  while (last >= width && cells[last] === '') last--
  if (last >= width) {
    throw at(
      line,
      `this row has text in column ${columnLetter(last)}, past the header's last column (${columnLetter(width - 1)}). Put any cell that contains ${delimiterName(delimiter)} in double quotes, or name the extra column in the header.`,
    )
  }
}

/**
 * A row's coordinate cells (lat, lng, or both in one: `coordinates`) as the body's coordinates,
 * and a problem for each cell that holds no coordinate.
 */
function readPoint(cells: [header: string, field: string, cell: string][]): {
  point: Record<string, number>
  problems: CsvRow['problems']
} {
  const point: Record<string, number> = {}
  const problems: CsvRow['problems'] = []
  for (const [header, field, cell] of cells) {
    const axis = field === 'coordinates.lat' ? 'lat' : 'lng'
    const value = field === 'coordinates' ? coordinatePair(cell) : coordinateValue(cell, axis)
    // Out of range for a lost separator, it is told so; other numbers out of range, by validation.
    const lost = typeof value === 'number' && !inRange(value, axis) && lostSeparator(cell)
    if (value === null || lost) problems.push({ field, message: coordinateProblem(header, field, cell) })
    else if (typeof value === 'number') point[field.slice('coordinates.'.length)] = value
    else Object.assign(point, value)
  }
  return { point, problems }
}

/**
 * A tags cell: '|'-separated when it holds a '|', else ';'-separated when it holds a ';' (a
 * spreadsheet's "Repairs; Rentals"), else ','-separated when it holds a ',', else separated by a
 * slash with spaces around it ("Repairs / Rentals"; "24/7" is one tag).
 */
const splitTags = (cell: string) =>
  cell
    .split(cell.includes('|') ? '|' : cell.includes(';') ? ';' : cell.includes(',') ? ',' : TAG_SLASH)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')

function readRow({ columns, width, hasAddress, numbers, garbled }: Header, { cells, line }: RawRecord): CsvRow {
  const body: Record<string, unknown> = {}
  let week: string | undefined
  /** Each column of some days' hours with text: its header, its days, its hours. */
  const spans: [string, string, string][] = []
  let unreadStatus: string | undefined
  let special: string | undefined
  const coordinateCells: [string, string, string][] = []
  // Entries, not objects: a custom field id such as "__proto__" stays an ordinary key.
  const maps = new Map<string, [string, string][]>()
  const parts = new Map<string, string>()
  const suspects: NamedCell[] = []
  // Pushed to, not copied: a row of many tags columns costs by its tags, not their square.
  const tags: string[] = []
  let hasTags = false
  for (let i = 0; i < width; i++) {
    const field = columns[i]!.field
    if (field === null) continue
    const bare = URL_FIELDS.get(field)
    const cell = bare ? withProtocol(withProfile(unguardCell(cells[i]!), field), bare) : unguardCell(cells[i]!)
    const header = columns[i]!.header
    if (cells[i]!.startsWith('=')) suspects.push({ header, field, text: cell, formula: true })
    else if (garbled && maybeGarbled(cell)) suspects.push({ header, field, text: cell })
    if (field === 'hours') {
      week = cell
      continue
    }
    if (field.startsWith(DAYS_FIELD)) {
      if (cell !== '') spans.push([header, field.slice(DAYS_FIELD.length), closedX(cell)])
      continue
    }
    if (field === 'special_hours') {
      special = cell
      continue
    }
    const dot = field.indexOf('.')
    const top = dot < 0 ? field : field.slice(0, dot)
    if (top === 'tags') hasTags = true
    const key = field.slice(dot + 1)
    if (top === 'coordinates') {
      if (cell !== '') coordinateCells.push([header, field, cell])
    } else if (field === 'contact.phone' && lostDigits(cell)) {
      suspects.push({ header, field, text: cell }) // not read: garbledNotes says why
    } else if (MAP_FIELDS.has(top)) {
      const entries = maps.get(top) ?? []
      const value = top === 'hours' ? closedX(cell) : numbers.has(field) ? decimalComma(cell) : cell
      entries.push([key, value])
      maps.set(top, entries)
    } else if (ADDRESS_PARTS.has(top)) parts.set(top, cell)
    else if (top === 'tags') tags.push(...splitTags(cell))
    else if (top === 'status' && cell !== '') {
      const status = OTHER_STATUSES.get(cell.toLowerCase()) ?? statusInput(cell)
      if (status === undefined) unreadStatus = statusProblem(cell)
      else body.status = status
    } else if (cell !== '' || !OMIT_WHEN_EMPTY.has(top)) body[top] = cell
  }
  if (hasTags) body.tags = tags
  const notes = suspects.length === 0 ? [] : garbledNotes(suspects)
  const { point, problems } = readPoint(coordinateCells)
  // 0,0 is where back-office systems put a store they have no point for, in the Gulf of Guinea.
  if (point.lat === 0 && point.lng === 0)
    notes.push(
      'The coordinates 0,0 were read as none, as a placeholder: the address was placed instead (or, for a store kept, its point stays).',
    )
  else if (Object.keys(point).length > 0 && problems.length === 0) body.coordinates = point
  for (const [top, entries] of maps) body[top] = Object.fromEntries(entries)
  // The parts of a week in columns of some days each ("Mo-Fr", "Sa", "So"), as one week. A cell
  // not read ("nach Vereinbarung") is kept as written for its column's days, as a week cell's
  // day is; the week is read with "closed" in its place, so no word of it is taken for a day.
  const kept: (string | undefined)[] = []
  const spanWeek = spans.map(([, days, hours]) => {
    if (parseDayHours(hours).kind !== 'unknown') return `${days} ${hours}`
    splitWeekHours(`${days} closed`)?.forEach((named, i) => {
      if (named !== '') kept[i] = hours
    })
    return `${days} closed`
  })
  if (spans.length > 0) week = [...(week ? [week] : []), ...spanWeek].join('; ')
  if (week !== undefined) problems.push(...weekInto(body, week, kept))
  const weekSaid = week === undefined || spans.length > 0 ? null : noDayNote(body, week.trim())
  if (weekSaid !== null) notes.push(weekSaid)
  if (unreadStatus !== undefined) problems.push({ field: 'status', message: unreadStatus })
  if (special !== undefined) {
    const dated = readSpecialHours(special)
    if (typeof dated === 'string') problems.push({ field: 'special_hours', message: dated })
    else body.special_hours = dated
  }
  const country = parts.get('country')
  if (country && countryCode(country) === null) {
    const meant = countryMisspelt(country)
    notes.push(
      `The country "${country}" is no country name the service knows: ${meant === null ? 'check its spelling.' : `did you mean ${countryLabel(meant)}?`} It is kept in the address as written.`,
    )
  }
  const written = parts.get('postcode')
  mendParts(parts)
  if (written !== undefined && parts.get('postcode') !== written) {
    const column = columns.find((c) => c.field === 'postcode')!.header
    notes.push(
      `The postcode ${written.trim()} was read as ${parts.get('postcode')}: Excel drops leading zeros; format the "${column}" column as text.`,
    )
  }
  // An empty address cell leaves the address as it is, as for any OMIT_WHEN_EMPTY field.
  if (!hasAddress || body.address !== undefined) {
    const address = joinAddress(parts, body.address as string | undefined)
    if (address !== undefined) body.address = address
  }
  return {
    line,
    body,
    country: parts.get('country') || rowCountry(parts),
    postcode: parts.get('postcode') || null,
    city: parts.get('city') || null,
    problems,
    notes,
  }
}

/**
 * A special hours cell ("2026-12-24 09:00-14:00; 2026-12-25 closed") as its dates' texts; '' for
 * none. A message saying how to write it when it is not so: text before the first date, or a date
 * without hours. Whether each is a real date is the location's validation's to say.
 */
function readSpecialHours(cell: string): Record<string, string> | string {
  const dates = [...cell.matchAll(DATE_AT)]
  const how =
    'Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".'
  if (dates.length === 0) return cell.trim() === '' ? {} : `${JSON.stringify(cell)} names no date. ${how}`
  if (cell.slice(0, dates[0]!.index).trim() !== '')
    return `${JSON.stringify(cell)} has text before its first date. ${how}`
  const out: Record<string, string> = {}
  for (let i = 0; i < dates.length; i++) {
    const { index, 0: date } = dates[i]!
    const end = i + 1 < dates.length ? dates[i + 1]!.index : cell.length
    const text = cell
      .slice(index + date.length, end)
      .replace(SPECIAL_LEADING, '')
      .replace(SPECIAL_TRAILING, '')
      .trim()
    if (text === '') return `${JSON.stringify(cell)} gives ${date} no hours. ${how}`
    out[date] = closedX(text)
  }
  return out
}

/**
 * A week of hours in one cell, split into body.hours: each day a day column leaves empty takes
 * the week's text for it ("closed" for a day a week of named days leaves out; '' for every day of
 * an empty cell, as an empty day cell clears it). A day's text not read ("Sa nach Vereinbarung")
 * is kept, as a day column's is: it counts as unknown, and the import warns of it.
 */
function weekInto(body: Record<string, unknown>, week: string, kept: (string | undefined)[] = []): CsvRow['problems'] {
  const doubts: string[] = []
  const read = week === '' ? DAYS.map(() => '') : splitWeekHours(week, true, doubts)
  const days = read?.map((hours, i) => kept[i] ?? hours) ?? null
  const hours = (body.hours ?? {}) as Record<string, string>
  // A week that names some days is closed on the others ("Mon-Fri 9-18": closed at the weekend),
  // unless it names closed days alone ("Domingo: cerrado"): that would close the store all week.
  const named = days?.some((d) => d !== '') ?? false
  const shut = (i: number) => parseDayHours(hours[DAYS[i]!] || days![i] || 'closed').kind === 'closed'
  const how =
    'Write it as "Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed", or use one column per day (monday ... sunday).'
  if (days === null) {
    const why = doubts.length > 0 ? `: ${doubts[0]}` : `. ${how}`
    return [{ field: 'hours', message: `${JSON.stringify(week)} could not be read as a week of opening hours${why}` }]
  }
  const closedOnly = `${JSON.stringify(week)} names closed days alone, so it closes the store every day. ${how}`
  if (named && days.includes('') && DAYS.every((_, i) => shut(i))) return [{ field: 'hours', message: closedOnly }]
  // "Mi nachmittag geschlossen" alone: no day open, the days it leaves out closed, its own unknown.
  const open = (i: number) => parseDayHours(hours[DAYS[i]!] || days[i] || 'closed').kind === 'open'
  const unread = days.some((d) => halfClosed(d) !== null && parseDayHours(d).kind === 'unknown')
  const noneOpen = `${JSON.stringify(week)} gives no day open hours, so every day would be closed or unknown. Name the days it opens with their hours first, such as "Mon-Fri 09:00-12:30, 14:00-18:00, Wed afternoon closed".`
  if (named && days.includes('') && unread && !DAYS.some((_, i) => open(i)))
    return [{ field: 'hours', message: noneOpen }]
  DAYS.forEach((day, i) => {
    if (!hours[day]) hours[day] = days[i] || (named ? 'closed' : '')
  })
  body.hours = hours
  return []
}

/** What a week cell naming no day made of every day: open hours ("9h-12h / 14h-19h") or closed; null for "Daily 8-22", "24/7". */
function noDayNote(body: Record<string, unknown>, week: string): string | null {
  const hours = (body.hours ?? {}) as Record<string, string>
  const day = DAYS.every((d) => hours[d] === week) ? parseDayHours(week) : null
  if (day?.kind === 'closed')
    return `The hours ${JSON.stringify(week)} close the store every day: it is still listed, as closed. To leave it out of the finder, give it the status draft (a "status" column).`
  if (day?.kind !== 'open' || (day.intervals[0]![0] === 0 && day.intervals[0]![1] >= 1440)) return null
  return `The hours ${JSON.stringify(week)} name no day, so they are read as every day's, Sunday too. If the store closes on some days, name the days it opens, such as "Mon-Sat ${week}".`
}

/**
 * The rows as items of the bulk upsert, each named by its line, with what reading it found wrong;
 * their problems name a field by the header of its column.
 */
export function csvBulkItems({ rows, columns }: CsvRead): BulkItem[] {
  const headers = new Map(columns.flatMap((c) => (c.field === null ? [] : [[c.field, c.header] as const])))
  return rows.map((row) => ({
    columns: headers,
    raw: row.body,
    key: `line ${row.line}`,
    line: row.line,
    country: row.country,
    postcode: row.postcode,
    city: row.city,
    unread: row.problems,
    notes: row.notes,
    // A special hours cell holds all of the location's: the file is the truth for its columns.
    wholeSpecialHours: row.body.special_hours !== undefined,
  }))
}

/**
 * Reads a locations CSV: UTF-8 (with or without BOM) unless `options.encoding` names another,
 * separated by ',', ';' or tab (the one the header uses most), CRLF or LF. The first line with
 * text is the header; empty rows are skipped. `customFields`: the locator's, whose names or ids a
 * header may use for custom.<id>. With `options.maxRows`, at most one row more is read: more
 * rows than maxRows means the file has more.
 */
export function readLocationsCsv(
  input: string | Uint8Array,
  customFields: readonly NamedField[] = [],
  options: ReadOptions = {},
): CsvRead {
  return atOnce(readSteps(input, customFields, options))
}

/** readLocationsCsv in slices of a few milliseconds, other work run between them: a server's. */
export function readLocationsCsvInSlices(
  input: string | Uint8Array,
  customFields: readonly NamedField[] = [],
  options: ReadOptions = {},
): Promise<CsvRead> {
  return inSlices(readSteps(input, customFields, options))
}

function* readSteps(
  input: string | Uint8Array,
  customFields: readonly NamedField[],
  options: ReadOptions,
): Generator<void, CsvRead> {
  const text = csvText(input, options)
  // The header and the rows taken, one more than maxRows: enough to tell that the file has too many.
  const taken = (options.maxRows ?? Number.POSITIVE_INFINITY) + 1
  const read = yield* readRecords(text, taken + 1)
  const { delimiter } = read
  let [first, ...records] = read.records
  if (first === undefined) {
    throw new CsvError(
      'The file is empty. Its first line must name the columns (for example name,address,city), one row per location below it.',
      null,
    )
  }
  const headerOf = (line: RawRecord, below: RawRecord[]) => {
    const header = { ...readHeader(line, customFields), garbled: fileMaybeGarbled(text) }
    const pair = pairColumn(header.columns, below)
    if (pair >= 0) header.columns[pair]!.field = 'coordinates'
    return header
  }
  let header = headerOf(first, records)
  let skipped: string | null = null
  if (header.columns.every((c) => c.field === null)) {
    const at = headerBelow(first, records)
    skipped = skippedNote([first, ...records.slice(0, at)], records[at]!)
    // Read again as many rows below the header as below a first line that is one: no line past them is read.
    records = (yield* readRecords(text, taken + 2 + at)).records.slice(at + 2)
    first = read.records[at + 1]!
    header = headerOf(first, records)
  }
  const rows: CsvRow[] = []
  for (const record of records) {
    checkWidth(record, header, first.line, delimiter)
    rows.push(readRow(header, record))
    yield
  }
  // Said with the first row's warnings: where a person looks, through the CLI and the bulk route alike.
  if (skipped !== null) rows[0]?.notes.unshift(skipped)
  const unknown = header.columns.filter((c) => c.field === null && c.header !== '').map((c) => c.header)
  return { rows, columns: header.columns, unknown }
}
