// The header of a locations CSV: the field each column is read as, and the rows' width checked
// against it. Its id column is read by csv-id-column.ts, its title lines by csv-title.ts.
import { parseDayHours } from '../core/hours'
import { clipped, nameKey } from '../core/text'
import { DAYS_IN_ENGLISH } from '../core/day-names'
import { daysNamedTogether } from '../core/week-days'
import { COUNTRY_CODE } from './csv-address'
import {
  closedDays,
  columnField,
  daysColumn,
  fallbackField,
  fieldSaid,
  furtherLine,
  hasHoursWord,
  maximumOf,
  meantColumn,
  minutesOf,
  MORE_PHONES,
  nordicField,
  nordicFile,
  regionsTogether,
  severalColumns,
  unreadNotes,
} from './csv-columns'
import type { DateOrder } from './csv-dates'
import { hoursAsDate, maybeGarbled, ungarbled } from './csv-garbled'
import { readTimeColumns, timesBeside } from './csv-times'
import { codesBeside, idColumnOfCodes, readIdColumn } from './csv-id-column'
import { WRITE_HEADER } from './csv-write'
import { at, columnLetter, delimiterName, type RawRecord } from './csv-records'

/** Two day names joined by a dash: a range of days ("Sa-So", "Mon - Fri", "Lu–Ve"). */
const DAY_RANGE = /\p{L}\.?\s*[-\u2010-\u2015]\s*\p{L}/u

/** A header cell and the field its column is read as (null: unknown column). */
export type Column = { header: string; field: string | null }

/** The field of a column of some days' hours, before its days as the header writes them ("hours Mo-Fr"). */
export const DAYS_FIELD = 'hours '

export type Header = {
  columns: Column[]
  width: number
  /** The columns between named ones whose header cell is empty. */
  unnamed: number[]
  hasAddress: boolean
  /** The fields of number custom fields ("custom_fields.parking"): a decimal comma is read as a point. */
  numbers: Set<string>
  /** Whether cells are looked at for garbled text: not in a file that holds none of its signs. */
  garbled: boolean
  /** The country column's cells written as codes not in capitals ("us"), each with its code (csv-address.ts lowerCodes). */
  countryCodes: Map<string, string>
  /** The names country cells written as codes take in the file's addresses (csv-address.ts countryNames). */
  countries: Map<string, string>
  /** What columns no field reads hold, and what to write instead: said of the file, no row being at fault. */
  columnNotes: string[]
  /** Whether the file's columns of hours name the weekend alone (csv-week.ts weekendAlone): rows leave weekdays unset. */
  weekendAlone: boolean
  /**
   * The problem of a row whose store code is an id of this service, in an id column read as store
   * codes by most of its cells (readIdColumn); null when the file has no such column.
   */
  idsAmongCodes: string | null
  /**
   * The problem of a row with a point of one coordinate, in a file with a column of one and none of
   * the other (halfPoint); null when the file has both, or neither.
   */
  halfPoint: string | null
  /** Whether the file reads SAND as Danish Excel's TRUE (csv-columns.ts danishFile); else it may be a word. */
  danish: boolean
  /** Which number of the special hours' slash dates is the month (csv-dates.ts dateOrder). */
  dateOrder: DateOrder
}

/** A locator's custom field as a header may name it: by its id or its name. */
export type NamedField = { id: string; name: string; type?: string }

/** The most columns a header may name: a row's reading takes time by them, and its answer lists the unknown ones. */
export const MAX_COLUMNS = 1000

export function readHeader(
  { cells, line }: RawRecord,
  customFields: readonly NamedField[],
  below: readonly RawRecord[] = [],
): Omit<Header, 'garbled' | 'countries' | 'countryCodes' | 'weekendAlone' | 'halfPoint' | 'danish' | 'dateOrder'> {
  // Trailing empty header cells are spreadsheet padding, not columns.
  let width = cells.length
  while (cells[width - 1] === '') width--
  if (width > MAX_COLUMNS)
    throw at(
      line,
      `the header has ${width.toLocaleString('en')} columns; a file may have at most ${MAX_COLUMNS.toLocaleString('en')}. Delete the columns that are not locations' fields.`,
    )
  const columns: Column[] = []
  const headerOf = new Map<string, string>()
  const fallbacks: number[] = []
  const unnamed: number[] = []
  const contested: Contested[] = []
  const nordic = nordicFile(cells.slice(0, width))
  for (let i = 0; i < width; i++) {
    const header = cells[i]!
    // An unnamed column is read as nothing; widthProblem refuses a row with text in it.
    if (header === '') unnamed.push(i)
    // A header garbled as its cells are ("LÃ¤ngengrad") names the column it was.
    const mended = maybeGarbled(header) ? ungarbled(header) : null
    const field =
      columnField(header) ?? (mended === null ? null : columnField(mended)) ?? (nordic ? nordicField(header) : null)
    const custom = field === null ? undefined : customOver(header, field, customFields)
    if (field !== null && custom !== undefined) contested.push({ at: i, field, custom })
    if (custom !== undefined) {
      columns.push({ header, field: null })
      continue
    }
    if (field === null && fallbackField(header) !== null) fallbacks.push(i)
    if (field !== null) {
      // A further address line's column, before the second line's or after it, is none of two filling it.
      const other = headerOf.get(field)
      const aside = other === undefined || furtherLine(other) > 0
      if (!aside && !severalColumns(field, header)) {
        throw at(
          line,
          `the columns "${other}" and "${header}" both fill ${fieldSaid(field)}. Delete or rename one of them.`,
        )
      }
      if (aside) headerOf.set(field, header)
    }
    columns.push({ header, field })
  }
  const together = regionsTogether(columns, below)
  if (together !== null) throw at(line, together)
  const customNotes = readContested(contested, columns, headerOf)
  customNotes.push(...fallbacksOfCustom(fallbacks, columns, headerOf, customFields))
  const degrees = unreadDegrees(columns, headerOf)
  readFallbacks(fallbacks, columns, headerOf, below)
  const { foreign, idsAmongCodes } = readIdColumn(columns, headerOf, below)
  readCustomColumns(columns, headerOf, customFields)
  // A day's opening and closing times in two columns ("Monday Open", "Monday Close"): no days' column.
  const twice = readTimeColumns(columns)
  if (twice !== null) throw at(line, twice)
  // A column of some days' hours ("Mo-Fr", "Sa") is a part of the week, read with the others: with
  // an hours word, or beside columns naming five days or more, or the weekend ("Sa;So" by a week
  // column); "Seg", "PN" alone are a segment, a part number. One naming a day a column of more
  // days names ("Tor", a gate, beside "Mo-Fr") is no days either.
  const candidates = columns.flatMap((column) => {
    const days = column.field === null ? daysColumn(column.header) : null
    return days === null ? [] : [{ column, days }]
  })
  // Read together, as the row's week is: "Di" beside "Lu-Ve" is Sunday, "PN" beside "Mo-Fr" none.
  const named = daysNamedTogether(candidates.map(({ days }) => days))
  markDaysColumns(candidates, named, columns, below)
  // A day a column of days names and a column of that day too ("So" and "Sonntag") is filled twice:
  // which holds its hours is the person's to say, unless the day's column holds no hours in any
  // row ("nur nach Vereinbarung"): then it is a column of notes, read as no field, said of the file.
  const columnNotes: string[] = []
  const codes = codesBeside(columns)
  if (codes !== null) columnNotes.push(codes)
  if (foreign !== null) columnNotes.push(foreign)
  if (degrees !== null) columnNotes.push(degrees)
  columnNotes.push(...customNotes)
  for (const [i, { column }] of candidates.entries()) {
    if (!column.field?.startsWith(DAYS_FIELD)) continue
    for (const day of named[i]!) {
      const field = `hours.${DAYS_IN_ENGLISH[day]!.toLowerCase()}`
      const other = columns.findIndex((c) => c.field === field)
      if (other < 0) continue
      if (!below.some((r) => holdsHours(r.cells[other] ?? ''))) {
        columns[other]!.field = null
        // An empty one loses nothing: it is listed with the unknown columns only.
        if (below.some((r) => (r.cells[other] ?? '').trim() !== ''))
          columnNotes.push(
            `The column "${columns[other]!.header}" (column ${columnLetter(other)}) holds no hours, only text such as notes, so it is not read as ${DAYS_IN_ENGLISH[day]}'s hours: "${column.header}" gives them. Rename it (for example "description") to import it.`,
          )
        continue
      }
      const [a, b] = [columns.indexOf(column), other].sort((x, y) => x - y) as [number, number]
      const where = (k: number) => `"${columns[k]!.header}" (column ${columnLetter(k)})`
      const given = below.find((r) => holdsHours(r.cells[other] ?? ''))!
      const shown = `"${columns[other]!.header}" gives ${JSON.stringify(clipped(given.cells[other]!.trim()))} on line ${given.line}`
      throw at(
        line,
        `the columns ${where(a)} and ${where(b)} both fill ${DAYS_IN_ENGLISH[day]}'s hours (${shown}). Delete or rename one of them.`,
      )
    }
  }
  // A day's times beside another column of its hours: which holds them is the person's to say.
  const filled = new Map<number, readonly number[]>()
  for (const [i, { field }] of columns.entries()) {
    const day = DAYS_IN_ENGLISH.findIndex((d) => field === `hours.${d.toLowerCase()}`)
    if (day >= 0) filled.set(i, [day])
  }
  for (const [i, { column }] of candidates.entries())
    if (column.field?.startsWith(DAYS_FIELD)) filled.set(columns.indexOf(column), named[i]!)
  const beside = timesBeside(columns, filled)
  if (beside !== null) throw at(line, beside)
  columnNotes.push(...unreadNotes(columns, below))
  const numbers = new Set(customFields.filter((f) => f.type === 'number').map((f) => `custom_fields.${f.id}`))
  return { columns, width, unnamed, hasAddress: headerOf.has('address'), numbers, columnNotes, idsAmongCodes }
}

/**
 * What to say of a row's coordinate when the file has a column of one coordinate and none of the
 * other ("Lattitude" read, "Longitue" not): that column missing, and the unread columns whose
 * header is one edit or two from its name. Null when both are read, or neither.
 */
export function halfPoint(columns: readonly Column[]): string | null {
  const headerOf = new Map(columns.flatMap((c) => (c.field === null ? [] : [[c.field, c.header] as const])))
  const lat = headerOf.get('coordinates.lat')
  const lng = headerOf.get('coordinates.lng')
  if ((lat === undefined) === (lng === undefined) || headerOf.has('coordinates')) return null
  const [given, lacking] =
    lat !== undefined
      ? (['coordinates.lat', 'coordinates.lng'] as const)
      : (['coordinates.lng', 'coordinates.lat'] as const)
  const name = lacking === 'coordinates.lat' ? 'lat' : 'lng'
  const near = columns.flatMap((c) => {
    const meant = c.field === null && c.header !== '' ? meantColumn(c.header) : null
    return meant !== null && columnField(meant) === lacking ? [c.header] : []
  })
  const read = `The "${headerOf.get(given)}" column gives ${fieldSaid(given)}, but no column gives ${fieldSaid(lacking)}`
  const fix = "or clear the row's coordinate to have its address placed."
  const full = lacking === 'coordinates.lat' ? 'latitude' : 'longitude'
  // A spelling of the coordinate that names a custom field fills that (readContested): said, as its note is not.
  const custom = columns.find((c) => c.field?.startsWith('custom_fields.') && columnField(c.header) === lacking)
  if (custom !== undefined)
    return `${read}: the column "${custom.header}" is read as the custom field "${custom.field!.slice('custom_fields.'.length)}", which it names. Name it ${name} (or ${full}), ${fix}`
  if (near.length === 0) return `${read}. Add a ${name} column, ${fix}`
  const named = near.map((h) => `"${h}"`).join(', ')
  const them =
    near.length === 1
      ? `the column ${named} is not read, its name misspelt`
      : `the columns ${named} are not read, their names misspelt`
  return `${read}: ${them}. Name it ${name} (or ${full}), ${fix}`
}

/** The locator's custom field a header names by its id, else by its name ("store_manager", "Store Manager"). */
function customNamed(header: string, customFields: readonly NamedField[]): NamedField | undefined {
  const key = nameKey(header)
  if (key === '') return undefined // "#", "★": no words to match
  return customFields.find((f) => nameKey(f.id) === key) ?? customFields.find((f) => nameKey(f.name) === key)
}

/**
 * The custom field a header fills though it is a spelling of location field `field` too: one it
 * names, when the header is not the field's own name as the export writes it ("lat", "phone").
 */
function customOver(header: string, field: string, customFields: readonly NamedField[]): NamedField | undefined {
  if (field.startsWith('custom_fields.') || WRITTEN_KEYS.has(nameKey(header))) return undefined
  return customNamed(header, customFields)
}

/**
 * Each fallback spelling's column (FALLBACK_NAMES) read as its field when no column fills it, the
 * first of them only; a coordinate's only beside the other's ("Breite" alone is a width).
 */
function readFallbacks(
  fallbacks: readonly number[],
  columns: Column[],
  headerOf: Map<string, string>,
  below: readonly RawRecord[],
): void {
  const fallbackFields = new Set(fallbacks.map((i) => fallbackField(columns[i]!.header)!))
  const asPair = fallbackFields.has('coordinates.lat') && fallbackFields.has('coordinates.lng')
  for (const i of fallbacks) {
    const field = fallbackField(columns[i]!.header)!
    // Google's further numbers give the phone of a row whose phone cell is empty, beside one or not.
    if (field === 'contact.phone') {
      columns[i]!.field = MORE_PHONES
      continue
    }
    // A code column beside the country column gives the country of rows whose country cell is empty.
    if (field === 'country' && headerOf.has('country')) {
      if (headerOf.has(COUNTRY_CODE)) continue
      headerOf.set(COUNTRY_CODE, columns[i]!.header)
      columns[i]!.field = COUNTRY_CODE
      continue
    }
    if (headerOf.has(field) || (field === 'address' && headerOf.has('street'))) continue
    // A "Closed" column of closed days ("Sundays") is no status: a later fallback ("Active") is.
    const cells = below.map((r) => r.cells[i] ?? '')
    if (closedDays(columns[i]!.header, cells)) continue
    if (field.startsWith('coordinates.') && !asPair) continue
    if (field === 'name' && numbersBeforeName(i, cells, fallbacks, columns)) {
      // Branch numbers are the stores' codes where no column gives them, an ID column of codes neither.
      if (headerOf.has('external_id') || idColumnOfCodes(columns, below)) continue
      headerOf.set('external_id', columns[i]!.header)
      columns[i]!.field = 'external_id'
      continue
    }
    headerOf.set(field, columns[i]!.header)
    columns[i]!.field = field
  }
}

/**
 * Whether fallback column `i` of the name holds no letter (an ERP's "FILIALE" of branch numbers)
 * and a later fallback of the name ("BEZEICHNUNG") is there to give it instead.
 */
function numbersBeforeName(i: number, cells: readonly string[], fallbacks: readonly number[], columns: Column[]) {
  if (cells.some((cell) => /\p{L}/u.test(cell))) return false
  return fallbacks.some((j) => j > i && fallbackField(columns[j]!.header) === 'name')
}

/**
 * Takes out of `fallbacks` the columns that name one of the locator's custom fields ("Closed"),
 * which readCustomColumns reads as those: the locator's own field is the likelier meaning. A
 * store code's stays a fallback, as readContested keeps one, and so does one beside custom.<id>.
 * What is said of each.
 */
function fallbacksOfCustom(
  fallbacks: number[],
  columns: readonly Column[],
  headerOf: ReadonlyMap<string, string>,
  customFields: readonly NamedField[],
): string[] {
  const notes: string[] = []
  for (const i of [...fallbacks]) {
    const { header } = columns[i]!
    const field = fallbackField(header)!
    const custom = customNamed(header, customFields)
    if (field === 'external_id' || custom === undefined || headerOf.has(`custom_fields.${custom.id}`)) continue
    fallbacks.splice(fallbacks.indexOf(i), 1)
    notes.push(
      `The column "${header}" is read as the custom field "${custom.id}", which it names, not as ${fieldSaid(field)}.`,
    )
  }
  return notes
}

/**
 * A column named as one of the locator's custom fields is, by its name or id ("Store Manager",
 * "store_manager"), when custom.<id> is not there too.
 */
function readCustomColumns(columns: Column[], headerOf: Map<string, string>, customFields: readonly NamedField[]) {
  for (const column of columns) {
    if (column.field !== null) continue
    const named = customNamed(column.header, customFields)
    const field = named && `custom_fields.${named.id}`
    if (!field || headerOf.has(field)) continue
    headerOf.set(field, column.header)
    column.field = field
  }
}

/** The export's own column names, as nameKey folds them: each is its location field's, whatever custom field shares it. */
const WRITTEN_KEYS = new Set(WRITE_HEADER.map(nameKey))

/** A column whose header names a custom field and is a spelling of a location field too ("Store Latitude"). */
type Contested = { at: number; field: string; custom: NamedField }

/**
 * A header that names a custom field and is another spelling of a location field fills the
 * custom field: the locator's own definition is the likelier meaning. When a custom.<id> column
 * fills that custom field already, or the field is the id or the store code, the header is read
 * as the location field. What is said of each.
 */
function readContested(contested: readonly Contested[], columns: Column[], headerOf: Map<string, string>): string[] {
  const notes: string[] = []
  for (const { at, field, custom } of contested) {
    const column = columns[at]!
    const own = `custom_fields.${custom.id}`
    const written = WRITE_HEADER.find((w) => columnField(w) === field) ?? field
    // A store code or id column stays one: rows are matched by it, and read as a custom field
    // every row would make its store again.
    const key = (field === 'id' || field === 'external_id') && !headerOf.has(field)
    if (headerOf.has(own) || key) {
      if (headerOf.has(field)) continue
      headerOf.set(field, column.header)
      column.field = field
      const why = headerOf.has(own)
        ? `the column "${headerOf.get(own)}" fills that.`
        : `rows are matched by it. To fill the custom field, name the column custom.${custom.id}.`
      notes.push(
        `The column "${column.header}" is read as ${fieldSaid(field)}, though it names the custom field "${custom.id}": ${why}`,
      )
      continue
    }
    headerOf.set(own, column.header)
    column.field = own
    notes.push(
      `The column "${column.header}" is read as the custom field "${custom.id}", which it names, not as ${fieldSaid(field)}. To import it as ${fieldSaid(field)}, name the column ${written}; to say the custom field plainly, custom.${custom.id}.`,
    )
  }
  return notes
}

/**
 * Leaves unread a coordinate's column beside a column of its minutes ("Lat Deg", "Lat Min"): it
 * holds whole degrees, which read as decimal ones would put the store up to 110 km off. What is
 * said of them, or null when the file has no such columns.
 */
function unreadDegrees(columns: Column[], headerOf: Map<string, string>): string | null {
  const ranges = new Set(columns.map((c) => maximumOf(c.header)))
  const split = columns.flatMap((c, i) => {
    const field = minutesOf(c.header)
    return field === null || ranges.has(field) ? [] : [i]
  })
  const splitFields = new Set(split.map((i) => minutesOf(columns[i]!.header)!))
  const degrees = columns.flatMap((c, i) => (c.field !== null && splitFields.has(c.field) ? [i] : []))
  if (degrees.length === 0) return null
  for (const i of degrees) {
    headerOf.delete(columns[i]!.field!)
    columns[i]!.field = null
  }
  const named = (list: number[]) => list.map((i) => `"${columns[i]!.header}"`).join(', ')
  return `The columns ${named(degrees)} and ${named(split)} hold degrees and minutes apart, which are not read: each row's address is placed instead. To import the points, give each coordinate in one column as decimal degrees (52.5200, or 52° 31' 12" N).`
}

/**
 * Reads as days' hours the candidate columns that name no day another names, when the file's
 * headers name five days or more, or the weekend in two columns, or the column an hours word
 * or a range of days with hours under it.
 */
function markDaysColumns(
  candidates: { column: Column; days: string }[],
  named: readonly (readonly number[])[],
  columns: Column[],
  below: readonly RawRecord[],
): void {
  const week = new Set<number>()
  const kept = new Set<number>()
  const byDays = candidates.map((_, i) => i).sort((a, b) => named[b]!.length - named[a]!.length)
  for (const i of byDays) {
    if (named[i]!.length === 0 || named[i]!.some((day) => week.has(day))) continue
    for (const day of named[i]!) week.add(day)
    kept.add(i)
  }
  const weekend = kept.size >= 2 && week.size === 2 && week.has(5) && week.has(6)
  const at = (i: number) => columns.indexOf(candidates[i]!.column)
  const read = candidates.map(
    ({ column, days }, i) =>
      kept.has(i) &&
      (week.size >= 5 || weekend || hasHoursWord(column.header) || rangeOfHours(days, named[i]!, at(i), below)),
  )
  // A day beside a range of days read ("Fr" by "Mo-Mi") is named as plainly: read when a row holds
  // hours in it, so the week of columns does not close it.
  const ranged = read.some((r, i) => r && DAY_RANGE.test(candidates[i]!.days))
  candidates.forEach(({ column, days }, i) => {
    if (read[i] || (ranged && kept.has(i) && hoursBelow(at(i), below))) column.field = `${DAYS_FIELD}${days}`
  })
}

/**
 * A range of days alone ("Sa-So", "Sat-Sun") is a column of their hours when a row holds hours in
 * it: a range names days plainly, as a lone "Sa" or "PN" does not.
 */
function rangeOfHours(days: string, named: readonly number[], at: number, below: readonly RawRecord[]): boolean {
  return named.length >= 2 && DAY_RANGE.test(days) && hoursBelow(at, below)
}

/** Whether a row holds hours in the column at `at`. */
function hoursBelow(at: number, below: readonly RawRecord[]): boolean {
  return below.some((r) => {
    const text = (r.cells[at] ?? '').trim()
    return text !== '' && parseDayHours(text).kind !== 'unknown'
  })
}

/** Whether a day's cell gives hours: open, closed ("x", "-", "zu"), in doubt ("5-9"), or made a date ("14. Okt"). */
function holdsHours(cell: string): boolean {
  const text = cell.trim()
  return (
    /^(?:x|[-\u2010-\u2015\u2212]+)$/i.test(text) ||
    (text !== '' && parseDayHours(text).kind !== 'unknown') ||
    hoursAsDate(text)
  )
}

/**
 * What is wrong with a row's width, or null: rows must have the header's cells; cells past it, or
 * in a column the header leaves unnamed, are allowed only empty (spreadsheet padding).
 */
export function widthProblem(
  { cells }: RawRecord,
  { width, unnamed }: Header,
  headerLine: number,
  delimiter: string,
): string | null {
  if (cells.length < width)
    return `This row has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} but the header has ${width} columns. Add the missing cells (an empty cell is just the separator), or look for a line break in a cell that is not in double quotes.`
  const filled = unnamed.find((i) => cells[i] !== '')
  if (filled !== undefined)
    return `This row has text in column ${columnLetter(filled)}, which has no name in the header (line ${headerLine}). Name the column (for example "description") or delete it.`
  let last = cells.length - 1
  while (last >= width && cells[last] === '') last--
  if (last >= width)
    return `This row has text in column ${columnLetter(last)}, past the header's last column (${columnLetter(width - 1)}). Put any cell that contains ${delimiterName(delimiter)} in double quotes, or name the extra column in the header.`
  return null
}

/**
 * The problems of two adjacent rows short of the header's cells whose cells together fill it, one
 * cell cut in two: a line break in a cell without double quotes. Null for other rows.
 */
export function cutRow(above: RawRecord, below: RawRecord, { width }: Header): [above: string, below: string] | null {
  const a = above.cells.length
  const b = below.cells.length
  if (above.next !== below.line || a >= width || b >= width || a + b - 1 !== width) return null
  const cell = clipped(`${above.cells[a - 1]} / ${below.cells[0]}`)
  return [
    `This row has ${a} of the header's ${width} cells, and line ${below.line} the rest: a line break in the cell in column ${columnLetter(a - 1)} ("${cell}") cuts the row in two. Put that cell in double quotes, or take the line break out.`,
    `The rest of line ${above.line}, cut from it by a line break in a cell without double quotes.`,
  ]
}
