// A spreadsheet read into location bodies for the bulk upsert: its header found (below title
// lines, with a line of days), the lines that are no store set aside (the header again, totals
// rows), each row read by csv-row.ts. Reading what csv-write.ts wrote gives back the same values.
// Validation is not done here: a body goes through normalizeLocationBody.
import { atOnce, inSlices } from '../core/slices'
import type { BulkItem } from './bulk'
import { asCode, COUNTRY_CODE, countryNames, countryNamesNote, lowerCodes } from './csv-address'
import { danishFile, fallbackField } from './csv-columns'
import {
  type Column,
  cutRow,
  DAYS_FIELD,
  type Header,
  type NamedField,
  halfPoint,
  readHeader,
  widthProblem,
} from './csv-header'
import { pairColumn } from './csv-coordinates'
import { rulerLine } from './csv-dump'
import { fileMaybeGarbled } from './csv-garbled'
import { CsvError, csvText, otherDelimiters, type RawRecord, type ReadOptions, readRecords } from './csv-records'
import { type CsvRow, readRow } from './csv-row'
import {
  daysBelow,
  daysBelowNote,
  headerAloneNote,
  headerSecondLine,
  mergedLeftovers,
  noStoreLine,
  otherHeader,
  repeatedNote,
  repeatsDays,
  repeatsHeader,
  totalsFrom,
  totalsNote,
} from './csv-sheet'
import { headerBelow, skippedNote, titledHeader } from './csv-title'
import { weekendAlone } from './csv-week'
import { type DateOrder, dateOrder } from './csv-dates'

export { DAYS_FIELD, MAX_COLUMNS, type NamedField } from './csv-header'
export type { CsvRow } from './csv-row'

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
  /**
   * The lines below the header read as no store, rulers aside (a totals row, a dump's count of its
   * rows): a line cut short may be a store's, which delete_missing must not delete (bulkUpsert's noStore).
   */
  noStore: RawRecord[]
}

/** Which number of the file's slash dates is the month, by its special hours and its countries (dateOrder). */
function fileDateOrder(columns: readonly Column[], below: readonly RawRecord[]): DateOrder {
  const cells = (field: string) => {
    const at = columns.findIndex((c) => c.field === field)
    return at < 0 ? [] : below.map((r) => r.cells[at] ?? '')
  }
  const special = cells('special_hours')
  // A row's country: its country cell, else its country code column's (as markCountries reads it).
  const [country, code] = [cells('country'), cells(COUNTRY_CODE)]
  const countries = below.map((_, i) => country[i] || code[i] || '')
  return special.length === 0 ? null : dateOrder(special, countries)
}

/** What a file's columns and rows say of how each row reads its cells. */
const fileFacts = (columns: Column[], below: readonly RawRecord[]) => ({
  halfPoint: halfPoint(columns),
  danish: danishFile(columns, below),
  dateOrder: fileDateOrder(columns, below),
})

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

/**
 * The file's country cells that are codes not in capitals, and the names its codes take (Header's
 * countryCodes, countries); the note to give when those names are a few rows' choice, with its place among the file's notes.
 */
function markCountries(header: Header, records: readonly RawRecord[]): { note: string | null; at: number } {
  const { columns } = header
  const country = columns.findIndex((c) => c.field === 'country')
  if (country < 0) {
    Object.assign(header, { countries: new Map(), countryCodes: new Map() })
    return { note: null, at: 0 }
  }
  const beside = columns.findIndex((c) => c.field === COUNTRY_CODE)
  const cells = records.map((r) => r.cells[country] ?? '')
  const codes = lowerCodes(cells, fallbackField(columns[country]!.header) === 'country')
  // Each row's country as readCountry reads it: its cell's code, else its code column's.
  const rows = records.map((r, i) => codes.get(cells[i]!) ?? (cells[i] || asCode(r.cells[beside] ?? '')))
  const { names, lang } = countryNames(rows)
  Object.assign(header, { countries: names, countryCodes: codes })
  const note = countryNamesNote(
    rows,
    records.map((r) => r.line),
    names,
    lang,
  )
  return { note, at: header.columnNotes.length }
}

/** markCountries' note, at its place among the file's notes, when an address takes a code as its name. */
function noteCountries(header: Header, rows: readonly CsvRow[], { note, at }: { note: string | null; at: number }) {
  // Addresses given whole keep theirs: no code of them becomes a name.
  if (note !== null && rows.some((row) => row.countryNamed)) header.columnNotes.splice(at, 0, note)
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
    parts: row.parts,
    unread: row.problems,
    notes: row.notes,
    postcodeNote: row.postcodeNote,
    formerAddress: row.formerAddress,
    unplaced: row.unplaced,
    addressLost: row.addressLost,
    hoursColumns: row.hoursColumns,
    specialColumn: row.specialColumn,
    // A special hours cell holds all of the location's: the file is the truth for its columns.
    wholeSpecialHours: row.body.special_hours !== undefined,
  }))
}

/** The separator a file's name means: a tab for a .tsv file, as text/tab-separated-values names it; else none. */
export const separatorOfName = (file: string): '\t' | undefined => (/\.tsv$/i.test(file) ? '\t' : undefined)

/**
 * Reads a locations CSV: UTF-8 (with or without BOM) unless `options.encoding` names another,
 * separated by ',', ';', tab or '|' (the one `options.typedSeparator` names when the header splits
 * by it, else the one the header uses most), CRLF or LF. The first line with
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
  let read = yield* readRecords(text, taken + 1, undefined, options.typedSeparator)
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
    return { ...header, ...fileFacts(header.columns, below) }
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
  const sub = days === null ? null : records[0]!
  // A line of dashes under the header (sqlcmd's) rules it off: the rows start below it.
  const ruled = days === null && records[0] !== undefined && rulerLine(records[0])
  if (days !== null || ruled) {
    above++
    records = (yield* readRecords(text, taken + above, read.delimiter)).records.slice(above)
    if (days !== null) header = headerOf(days, records)
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
  const noStore = noStoreLine(header.columns)
  let more = 0
  while (records.length >= taken + more && more < taken) {
    const spare = records.filter((r, i) => repeat(r, records[i - 1]) || noStore(r, i)).length
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
  const countries = markCountries(header, records)
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
    ...totalsNote(records.slice(bottom)),
  ]
  // Said with the first row's warnings: where a person looks, through the CLI and the bulk route alike.
  if (rows.length > 0) rows[0]!.notes = [...before, ...rows[0]!.notes, ...after]
  noteCountries(header, rows, countries)
  const unknown = header.columns.filter((c) => c.field === null && c.header !== '').map((c) => c.header)
  const notes = [...(rows.length === 0 ? [...before, ...after] : []), ...header.columnNotes]
  return { rows, columns: header.columns, unknown, notes, noStore: records.slice(bottom).filter((r) => !rulerLine(r)) }
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
