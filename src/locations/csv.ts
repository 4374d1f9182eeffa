// A spreadsheet's rows read into location bodies for the bulk upsert. Cells are trimmed; reading
// what csv-write.ts wrote gives back the same values. Validation is not done here: a body goes
// through normalizeLocationBody. Text cells a spreadsheet would run as a formula were written with
// a leading "'" (OWASP's CSV injection advice) and are read back without it.
import { atOnce, inSlices } from '../core/slices'
import { countryCode, countryLabel, countryMisspelt } from '../geocode/countries'
import type { BulkItem } from './bulk'
import {
  ADDRESS_PARTS,
  asCode,
  COUNTRY_CODE,
  countryNames,
  joinAddress,
  lowerCodes,
  mendParts,
  rowCountry,
} from './csv-address'
import { fallbackField } from './csv-columns'
import { formulaText, keptText, unguardCell } from './csv-cells'
import {
  type Column,
  cutRow,
  DAYS_FIELD,
  type Header,
  headerBelow,
  type NamedField,
  readHeader,
  skippedNote,
  titledHeader,
  widthProblem,
} from './csv-header'
import {
  coordinatePair,
  coordinateProblem,
  coordinateValue,
  inRange,
  lostSeparator,
  pairColumn,
} from './csv-coordinates'
import {
  fileMaybeGarbled,
  garbledAddress,
  garbledNotes,
  hoursAsDate,
  lostDigits,
  maybeGarbled,
  type NamedCell,
} from './csv-garbled'
import { CsvError, csvText, otherDelimiters, type RawRecord, type ReadOptions, readRecords } from './csv-records'
import { decimalComma, deleteCell, OTHER_STATUSES, splitTags, statusProblem, webAddress } from './csv-values'
import { hoursColumnsOf, timeField, timesInto } from './csv-times'
import {
  closedX,
  dashesClosed,
  dayCell,
  noDayNote,
  readSpecialHours,
  spansSaid,
  spansWeek,
  weekendAlone,
  weekInto,
} from './csv-week'
import {
  daysBelow,
  daysBelowNote,
  headerAloneNote,
  headerSecondLine,
  mergedLeftovers,
  otherHeader,
  repeatedNote,
  repeatsDays,
  repeatsHeader,
  totalsFrom,
  totalsNote,
  totalsRow,
} from './csv-sheet'
import { DAYS } from '../store/locations'
import { statusInput } from './model'

export { DAYS_FIELD, MAX_COLUMNS, type NamedField } from './csv-header'

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
  /**
   * What in the row could not be read into the body, by field (null: the row as a whole, whose
   * cells are not in their columns): the row is not to be written.
   */
  problems: { field: string | null; message: string }[]
  /** What in the row was read otherwise than written, said in its result's warnings. */
  notes: string[]
  /** The header each day's hours came from (csv-times.ts hoursColumnsOf); left out when the file has no hours columns. */
  hoursColumns?: (string | undefined)[]
  /** The special hours column's header, when the file has one. */
  specialColumn?: string
  /** Said after the refusal of an address that cannot be placed: its garbled cells, and how to read them. */
  unplaced?: string
}

export type CsvRead = {
  rows: CsvRow[]
  /**
   * Each header cell and the field it was read as (null: unknown column). Fields are body paths
   * (`name`, `coordinates.lat`, `hours.monday`, `custom_fields.<id>`) or address parts (`street`,
   * `house_number`, `street2`, `city`, `postcode`, `region`, `country`).
   */
  columns: Column[]
  /** Header cells no field matched, as written: the caller reports them (never silently dropped). */
  unknown: string[]
  /**
   * What is said of the file: its columns no field reads that another tool's export is known to
   * have (StoreRocket's hours_id); and what lines were read as no store (title lines, the header
   * again, totals rows) when no row is a store to say it in its warnings, else the first row's
   * warnings say that.
   */
  notes: string[]
}

/** Fields whose empty cell leaves the key out: they cannot be cleared, and id/external_id pick the row's target. */
const OMIT_WHEN_EMPTY = new Set(['id', 'external_id', 'name', 'address', 'status'])
const MAP_FIELDS = new Set(['contact', 'social', 'hours', 'custom_fields'])
/** The fields of the day columns: "hours.monday" ... "hours.sunday". */
const DAY_FIELDS = new Set(DAYS.map((d) => `hours.${d}`))

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

/** Each column of some days' hours with text: its header, its days, its hours. */
type Spans = [header: string, days: string, hours: string][]
/** Each cell of a day's opening or closing time: its column, its field, its text. */
type Times = [column: number, field: string, cell: string][]

function readRow(
  { columns, width, hasAddress, numbers, garbled, countries, countryCodes, weekendAlone }: Header,
  { cells, line }: RawRecord,
): CsvRow {
  const body: Record<string, unknown> = {}
  let week: string | undefined
  const spans: Spans = []
  let unreadStatus: string | undefined
  let removal: boolean | string = false
  let special: string | undefined
  const coordinateCells: [string, string, string][] = []
  // Entries, not objects: a custom field id such as "__proto__" stays an ordinary key.
  const maps = new Map<string, [string, string][]>()
  const parts = new Map<string, string>()
  const suspects: NamedCell[] = []
  // Pushed to, not copied: a row of many tags columns costs by its tags, not their square.
  const tags: string[] = []
  let hasTags = false
  let codeCell = ''
  const times: Times = []
  for (let i = 0; i < width; i++) {
    const field = columns[i]!.field
    if (field === null) continue
    // A formula of one text is that text: no formula to warn of.
    const text = formulaText(cells[i]!)
    const cell = webAddress(text ?? unguardCell(cells[i]!), field)
    const header = columns[i]!.header
    if (text === null && cells[i]!.startsWith('=')) suspects.push({ header, field, text: cell, formula: true })
    else if (garbled && maybeGarbled(cell)) suspects.push({ header, field, text: cell })
    else if (field.startsWith('hours') && hoursAsDate(cell)) suspects.push({ header, field, text: cell })
    if (timeField(field) !== null) {
      times.push([i, field, cell])
      continue
    }
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
    if (field === 'delete') {
      removal = deleteCell(cell, header)
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
      const value = top === 'hours' ? dayCell(header, cell, cells[i]!) : numbers.has(field) ? decimalComma(cell) : cell
      entries.push([key, value])
      maps.set(top, entries)
    } else if (field === COUNTRY_CODE) codeCell = asCode(cell)
    else if (ADDRESS_PARTS.has(top)) parts.set(top, cell)
    else if (top === 'tags') tags.push(...splitTags(cell))
    else if (top === 'status' && cell !== '') {
      const status = OTHER_STATUSES.get(cell.toLowerCase()) ?? statusInput(cell)
      if (status === undefined) unreadStatus = statusProblem(cell)
      else body.status = status
    } else if (cell !== '' || !OMIT_WHEN_EMPTY.has(top)) body[top] = cell
  }
  if (hasTags) body.tags = tags
  if (removal === true) return removalRow(line, body)
  const notes = suspects.length === 0 ? [] : garbledNotes(suspects)
  const { point, problems } = readPoint(coordinateCells)
  // 0,0 is where back-office systems put a store they have no point for, in the Gulf of Guinea.
  if (point.lat === 0 && point.lng === 0)
    notes.push(
      'The coordinates 0,0 were read as none, as a placeholder: the address was placed instead (or, for a store kept, its point stays).',
    )
  else if (Object.keys(point).length > 0 && problems.length === 0) body.coordinates = point
  for (const [top, entries] of maps) body[top] = Object.fromEntries(entries)
  readHours(body, { week, spans, times, columns, weekendAlone, keptDays: keptDays(columns, cells) }, problems, notes)
  const hoursColumns = hoursColumnsOf(columns, cells, spans)
  if (unreadStatus !== undefined) problems.push({ field: 'status', message: unreadStatus })
  if (typeof removal === 'string') problems.push({ field: 'delete', message: removal })
  if (special !== undefined) {
    const dated = readSpecialHours(special)
    if (typeof dated === 'string') problems.push({ field: 'special_hours', message: dated })
    else body.special_hours = dated
  }
  const unknownCountry = readCountry(parts, codeCell, countryCodes)
  if (unknownCountry !== null) notes.push(unknownCountry)
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
    // A code ("DE") is joined as the name the file's other rows give countries ("Germany").
    const named = countries.get(parts.get('country') ?? '')
    const address = joinAddress(
      named ? new Map(parts).set('country', named) : parts,
      body.address as string | undefined,
    )
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
    unplaced: (suspects.length > 0 && garbledAddress(suspects)) || undefined,
    ...(hoursColumns !== null && { hoursColumns }),
    ...(special !== undefined && { specialColumn: columns.find((c) => c.field === 'special_hours')!.header }),
  }
}

/**
 * The row's country into its parts: a code not in capitals as the code ("us": US), an empty
 * country cell its code column's. What is said of a country no name the service knows, else null.
 */
function readCountry(parts: Map<string, string>, codeCell: string, codes: ReadonlyMap<string, string>): string | null {
  const cell = parts.get('country')
  if (cell) parts.set('country', codes.get(cell) ?? cell)
  else if (codeCell) parts.set('country', codeCell)
  const country = parts.get('country')
  if (!country || countryCode(country) !== null) return null
  const meant = countryMisspelt(country)
    .map((code) => countryLabel(code))
    .sort()
  return `The country "${country}" is no country name the service knows: ${meant.length === 0 ? 'check its spelling.' : `did you mean ${meant.join(' or ')}?`} It is kept in the address as written.`
}

/** The days whose cells the export marked to keep their text as written ("'-": a text "-", not a day closed). */
function keptDays(columns: readonly Column[], cells: readonly string[]): Set<string> {
  const days = new Set<string>()
  for (const [i, { field }] of columns.entries())
    if (field !== null && DAY_FIELDS.has(field) && keptText(cells[i] ?? '') !== null)
      days.add(field.slice('hours.'.length))
  return days
}

/** Monday to Friday, as DAYS counts them. */
const WEEKDAYS = [0, 1, 2, 3, 4]

/** A file whose columns of hours name the weekend alone (weekendAlone): its rows leave weekdays unset, said of the file. */
function markWeekendAlone(header: Header): void {
  const hours = header.columns.flatMap(({ header, field }) =>
    field?.startsWith('hours')
      ? [[header, field.startsWith(DAYS_FIELD) ? field.slice(DAYS_FIELD.length) : null] as const]
      : [],
  )
  const note = weekendAlone(hours)
  header.weekendAlone = note !== null
  if (note !== null) header.columnNotes.push(note)
}

/** The file's country cells that are codes not in capitals, and the names its codes take (Header's countryCodes, countries). */
function readCountries(
  columns: readonly Column[],
  records: readonly RawRecord[],
): Pick<Header, 'countries' | 'countryCodes'> {
  const country = columns.findIndex((c) => c.field === 'country')
  if (country < 0) return { countries: new Map(), countryCodes: new Map() }
  const beside = columns.findIndex((c) => c.field === COUNTRY_CODE)
  const cells = records.map((r) => r.cells[country] ?? '')
  const codes = lowerCodes(cells, fallbackField(columns[country]!.header) === 'country')
  // Each row's country as readCountry reads it: its cell's code, else its code column's.
  const rows = records.map((r, i) => codes.get(cells[i]!) ?? (cells[i] || asCode(r.cells[beside] ?? '')))
  return { countries: countryNames(rows), countryCodes: codes }
}

/**
 * A row's hours cells other than its day columns' into body.hours, after them: its days' opening
 * and closing times, then its week, in one cell and in columns of some days, for the days left.
 */
function readHours(
  body: Record<string, unknown>,
  {
    week,
    spans,
    times,
    columns,
    weekendAlone,
    keptDays,
  }: {
    week?: string
    spans: Spans
    times: Times
    columns: readonly Column[]
    weekendAlone: boolean
    keptDays: ReadonlySet<string>
  },
  problems: CsvRow['problems'],
  notes: string[],
): void {
  const kept: (string | undefined)[] = []
  const whole = spans.length > 0 ? [...(week ? [week] : []), ...spansWeek(spans, kept)].join('; ') : week
  if (times.length > 0) problems.push(...timesInto(body, times, columns, whole))
  // Columns of days alone are named as the file names them; a week cell beside them is quoted with them.
  const said = week === undefined && spans.length > 0 ? spansSaid(spans) : undefined
  if (whole !== undefined) problems.push(...weekInto(body, whole, kept, said, weekendAlone ? WEEKDAYS : []))
  dashesClosed(body, keptDays)
  const weekSaid = week === undefined || spans.length > 0 ? null : noDayNote(body, week.trim())
  if (weekSaid !== null) notes.push(weekSaid)
}

/** A row whose delete cell says yes as the delete item of the store its id or external_id names, its other cells unread. */
function removalRow(line: number, body: Record<string, unknown>): CsvRow {
  const named = Object.fromEntries(
    ['id', 'external_id'].flatMap((field) => (body[field] ? [[field, body[field]]] : [])),
  )
  return { line, body: { ...named, delete: true }, country: null, postcode: null, city: null, problems: [], notes: [] }
}

/** Fields that name a row whose cells are out of their columns: the first cells, most often before a break. */
const WHO_FIELDS = ['id', 'external_id', 'name']

/**
 * A row whose cells are not in the header's columns, as its problem: read no further than the
 * fields that name it, from the cells it has.
 */
function misread(header: Header, record: RawRecord, message: string): CsvRow {
  const cells = Array.from({ length: header.width }, (_, i) => record.cells[i] ?? '')
  const { body } = readRow(header, { ...record, cells })
  const named = Object.fromEntries(WHO_FIELDS.flatMap((field) => (body[field] ? [[field, body[field]]] : [])))
  return {
    line: record.line,
    body: named,
    country: null,
    postcode: null,
    city: null,
    problems: [{ field: null, message }],
    notes: [],
  }
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
    unplaced: row.unplaced,
    hoursColumns: row.hoursColumns,
    specialColumn: row.specialColumn,
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
  let read = yield* readRecords(text, taken + 1)
  let [first, ...records] = read.records
  if (first === undefined) {
    throw new CsvError(
      'The file is empty. Its first line must name the columns (for example name,address,city), one row per location below it.',
      null,
    )
  }
  const headerOf = (line: RawRecord, below: RawRecord[]) => {
    const header = {
      ...readHeader(line, customFields, below),
      garbled: fileMaybeGarbled(text),
      countries: new Map(),
      countryCodes: new Map(),
      weekendAlone: false,
    }
    const pair = pairColumn(header.columns, below)
    if (pair >= 0) header.columns[pair]!.field = 'coordinates'
    return header
  }
  let header = headerOf(first, records)
  let skipped: string | null = null
  // The records above the rows: the header, and a sheet's title lines above it.
  let above = 1
  if (header.columns.every((c) => c.field === null)) {
    // A title with a comma ("Store list, 2026") splits by "," into two cells, and a ";" header
    // below it into one: the file is read by the separator a header below its titles splits by,
    // unless a "sep=" line names the file's separator.
    const retry = !read.named && titledHeader(first, records) < 0
    for (const other of retry ? otherDelimiters(read.delimiter) : []) {
      const again = yield* readRecords(text, taken + 1, other)
      if (again.records.length < 2 || titledHeader(again.records[0]!, again.records.slice(1)) < 0) continue
      read = again
      first = again.records[0]!
      records = again.records.slice(1)
      break
    }
    const at = headerBelow(first, records)
    skipped = skippedNote([first, ...records.slice(0, at)], records[at]!)
    above = at + 2
    // Read again as many rows below the header as below a first line that is one: no line past them is read.
    records = (yield* readRecords(text, taken + above, read.delimiter)).records.slice(above)
    first = read.records[at + 1]!
    header = headerOf(first, records)
  }
  // A line of day names below the header names its hours columns: the header's second line.
  const days = records[0] === undefined ? null : daysBelow(records[0], first, header.columns)
  if (days instanceof CsvError) throw days
  let sub: RawRecord | null = null
  if (days !== null) {
    sub = records[0]!
    above++
    records = (yield* readRecords(text, taken + above, read.delimiter)).records.slice(above)
    header = headerOf(days, records)
  }
  /**
   * A line that repeats the header, its line of days too, right below it: a sheet pasted below with
   * its own. A line of days alone among the rows is refused as otherHeader refuses it.
   */
  const repeat = (r: RawRecord, above: RawRecord | undefined) =>
    repeatsHeader(r, first) ||
    (sub !== null && above !== undefined && repeatsHeader(above, first) && repeatsDays(r, sub))
  // Lines that are no store (the header again, totals rows) count for no row of maxRows: a read
  // cut among them reads on, as many lines more as it holds of them or twice the last more, up
  // to maxRows lines more: a body of lines that are no stores is not read whole.
  const noStore = totalsRow(header.columns)
  let more = 0
  while (records.length >= taken + more && more < taken) {
    const spare = records.filter((r, i) => repeat(r, records[i - 1]) || noStore(r)).length
    if (spare <= more) break
    more = Math.min(Math.max(spare, more * 2), taken)
    records = (yield* readRecords(text, taken + more + above, read.delimiter)).records.slice(above)
  }
  const rows: CsvRow[] = []
  const repeated: RawRecord[] = []
  // A read cut short skips no totals row (the bottom is not read), and at most `more` lines in
  // all: its rows, more than maxRows, tell the caller the file has too many.
  const cut = records.length >= taken + more
  const bottom = cut ? records.length : totalsFrom(records, header.columns)
  const merged = mergedLeftovers(header.columns)
  Object.assign(header, readCountries(header.columns, records))
  markWeekendAlone(header)
  /** The row above when it was short of the header's cells: the next may be its rest. */
  let short: { row: CsvRow; record: RawRecord } | null = null
  for (const [i, record] of records.slice(0, bottom).entries()) {
    if (cut && rows.length >= taken) break
    if (repeat(record, records[i - 1]) && (!cut || repeated.length < more)) {
      repeated.push(record)
      continue
    }
    const other = record === records[0] ? headerSecondLine(record, first) : otherHeader(record, first)
    if (other !== null) throw other
    const wrong = widthProblem(record, header, first.line, read.delimiter)
    const halves = wrong === null || short === null ? null : cutRow(short.record, record, header)
    if (halves !== null) {
      short!.row.problems[0]!.message = halves[0]
      // Its first cells are the end of the row above: they name no store.
      rows.push({ ...misread(header, record, halves[1]), body: {} })
      short = null
      continue
    }
    if (wrong !== null) {
      const row = misread(header, record, wrong)
      rows.push(row)
      short = { row, record }
      continue
    }
    short = null
    const row = readRow(header, record)
    const left = merged(record)
    if (left !== null) row.unplaced = row.unplaced === undefined ? left : `${row.unplaced} ${left}`
    rows.push(row)
    yield
  }
  const before = [...(skipped === null ? [] : [skipped]), ...(sub === null ? [] : [daysBelowNote(sub, first)])]
  /** The header's lines: the first, and a line of days below it. */
  const headerLines = sub === null ? [first] : [first, sub]
  const after = [
    ...(records.length === 0 ? [headerAloneNote(headerLines)] : []),
    ...(repeated.length > 0 ? [repeatedNote(repeated, headerLines, rows.length === 0)] : []),
    ...(bottom < records.length ? [totalsNote(records.slice(bottom))] : []),
  ]
  // Said with the first row's warnings: where a person looks, through the CLI and the bulk route alike.
  if (rows.length > 0) rows[0]!.notes = [...before, ...rows[0]!.notes, ...after]
  const unknown = header.columns.filter((c) => c.field === null && c.header !== '').map((c) => c.header)
  const notes = [...(rows.length === 0 ? [...before, ...after] : []), ...header.columnNotes]
  return { rows, columns: header.columns, unknown, notes }
}
