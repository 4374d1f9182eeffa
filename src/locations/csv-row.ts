// One data row of a locations CSV read into a location body, by the file's header: its cells into
// the body's fields, its address parts joined, its hours read. Cells are trimmed; text cells
// a spreadsheet would run as a formula were written with a leading "'" (OWASP's CSV injection
// advice) and are read back without it.
import { LOCATION_ID } from '../core/ids'
import { countryCode, countryLabel, countryMisspelt } from '../geocode/countries'
import { type AddressParts, DAYS } from '../store/locations'
import {
  ADDRESS_PARTS,
  asCode,
  COUNTRY_CODE,
  joinAddress,
  joinedOtherwiseBefore,
  mendParts,
  postcodeInForm,
  rowCountry,
  rowParts,
} from './csv-address'
import { formulaText, keptDayText, unguardCell } from './csv-cells'
import { readPoint } from './csv-coordinates'
import { readSpecialHours } from './csv-dates'
import {
  addressField,
  errorIn,
  errorsSaid,
  excelError,
  excelErrorSaid,
  garbledAddress,
  garbledNotes,
  hoursAsDate,
  lostDigits,
  maybeGarbled,
  type NamedCell,
} from './csv-garbled'
import { closedColumn, furtherLine, MORE_PHONES } from './csv-columns'
import { type Column, DAYS_FIELD, type Header } from './csv-header'
import type { RawRecord } from './csv-records'
import { hoursColumnsOf, timeField, timesInto } from './csv-times'
import {
  CLOSED_STATUSES,
  conditionRefused,
  DANISH_TRUE,
  decimalComma,
  deleteCell,
  firstPhone,
  idCell,
  notDanish,
  OTHER_STATUSES,
  splitTags,
  statusProblem,
  webAddress,
} from './csv-values'
import {
  closedX,
  dashesClosed,
  type DayNote,
  dayCell,
  notedDays,
  holidaysNote,
  noDayNote,
  spansSaid,
  spansNotes,
  spansWeek,
  weekRead,
} from './csv-week'
import { statusInput } from './model'

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
  /** The address parts its part columns give (csv-address.ts rowParts); left out when they give none. */
  parts?: AddressParts
  /**
   * What in the row could not be read into the body, by field (null: the row as a whole, whose
   * cells are not in their columns): the row is not to be written.
   */
  problems: { field: string | null; message: string }[]
  /** What in the row was read otherwise than written, said in its result's warnings. */
  notes: string[]
  /** Its note (one of notes) of a postcode given back the leading zero a spreadsheet dropped. */
  postcodeNote?: string
  /** Its address as joined before (BulkItem.formerAddress); left out when it has none. */
  formerAddress?: string
  /** Whether its address was joined with its country code written as a name (readAddress). */
  countryNamed?: boolean
  /** The header each day's hours came from (csv-times.ts hoursColumnsOf); left out when the file has no hours columns. */
  hoursColumns?: (string | undefined)[]
  /** The special hours column's header, when the file has one. */
  specialColumn?: string
  /** What is said of its address cells Excel lost (BulkItem.addressLost); left out when none. */
  addressLost?: string
  /** Said after the refusal of an address that cannot be placed: its garbled cells, and how to read them. */
  unplaced?: string
}

/** What to write in a closed column (closedColumn) in place of a cell it does not read. */
const CLOSED_WRITE = 'Write true for a store closed for good (imported as a draft), or false.'
/** Fields that name the store a row is of. */
const KEY_FIELDS = new Set(['id', 'external_id'])
/** Fields whose empty cell leaves the key out: they cannot be cleared, and id/external_id pick the row's target. */
const OMIT_WHEN_EMPTY = new Set(['id', 'external_id', 'name', 'address', 'status'])
const MAP_FIELDS = new Set(['contact', 'social', 'hours', 'custom_fields'])
/** The fields of the day columns: "hours.monday" ... "hours.sunday". */
const DAY_FIELDS = new Set(DAYS.map((d) => `hours.${d}`))

/** Each column of some days' hours with text: its header, its days, its hours. */
type Spans = [header: string, days: string, hours: string][]
/** Each cell of a day's opening or closing time: its column, its field, its text. */
type Times = [column: number, field: string, cell: string][]

/** What a row's cells say, gathered by field; the body is made of them once all are read. */
type Gathered = {
  body: Record<string, unknown>
  /** The week's hours in one cell, its days' in columns of some days, its days' times, its special hours. */
  week?: string
  spans: Spans
  /** What the notes of some days' own in its day columns' cells give each day (dayCell), for notedInto. */
  dayNotes: DayNote[]
  times: Times
  special?: string
  /** The delete cell: true to delete, a string that says why it was not read. */
  removal: boolean | string
  /** The if_updated_at cell: a delete row's condition, a problem of any other row but empty. */
  condition?: string
  /** An if_updated_at cell Excel saved as an error: a problem of any row. */
  lostCondition?: NamedCell
  unreadStatus?: string
  /** What is said of the phone numbers a cell of several holds past the first (firstPhone). */
  dropped?: string
  /** The header and cell of further phone numbers (MORE_PHONES), and whether the row's phone cell has text. */
  morePhones?: [header: string, cell: string]
  phoneGiven?: boolean
  /** The header of the region cell the row fills, and a second's other region, said as a problem. */
  regionHeader?: string
  regionClash?: string
  /** Further address lines the row fills (Google's "Address line 3", Yext's "Address > Line 3"), each with its number. */
  further: [line: number, cell: string][]
  coordinateCells: [header: string, field: string, cell: string][]
  // Entries, not objects: a custom field id such as "__proto__" stays an ordinary key.
  maps: Map<string, [string, string][]>
  parts: Map<string, string>
  suspects: NamedCell[]
  // Pushed to, not copied: a row of many tags columns costs by its tags, not their square.
  tags: string[]
  hasTags: boolean
  codeCell: string
}

/** A data row, its cells in the header's columns, as a location body and what reading it found. */
export function readRow(header: Header, { cells, line }: RawRecord): CsvRow {
  const { columns, hasAddress, countries, countryCodes, weekendAlone, idsAmongCodes, halfPoint } = header
  const gathered = gatherCells(header, cells)
  const { body, spans, special, removal, parts, suspects } = gathered
  // Its store code read as such would match no store: its id's, or another's.
  const codeId = idsAmongCodes !== null && LOCATION_ID.test(idCell(String(body.external_id ?? '')).trim())
  const idProblem = codeId ? [{ field: 'external_id', message: idsAmongCodes }] : []
  // An id Excel lost beside a store code leaves the row matched by that code, as a row without an id.
  const code = removal === true || errorIn(suspects, (f) => f === 'external_id') ? '' : String(body.external_id ?? '')
  const idLost = code === '' ? undefined : suspects.find((c) => c.error && c.field === 'id')
  // A store code Excel lost names no store: matched by none, the row would make a new one.
  for (const c of suspects)
    if (c.error && KEY_FIELDS.has(c.field) && c !== idLost)
      idProblem.push({ field: c.field, message: excelErrorSaid(c, '') })
  if (removal === true && gathered.lostCondition !== undefined)
    idProblem.push({ field: 'if_updated_at', message: excelErrorSaid(gathered.lostCondition, '') })
  if (removal === true) return removalRow(line, body, gathered.condition, idProblem)
  const notes = suspects.length === 0 ? [] : garbledNotes(suspects.filter((c) => c !== idLost))
  if (idLost)
    notes.unshift(excelErrorSaid(idLost, `, and the row is matched by its store code ${JSON.stringify(code)}`))
  if (gathered.dropped !== undefined) notes.push(gathered.dropped)
  // A coordinate Excel lost leaves the point unknown, not half of it: the stored one stays.
  const lostPoint = errorIn(suspects, (f) => f.startsWith('coordinates'))
  const { point, problems } = readPoint(lostPoint ? [] : gathered.coordinateCells)
  problems.unshift(...idProblem)
  // A row whose delete cell is unread may delete or not: that cell's problem is said alone.
  const condition = gathered.condition || gathered.lostCondition?.text
  if (condition && removal === false)
    problems.push({ field: 'if_updated_at', message: conditionRefused(condition, columns) })
  // One coordinate alone, the file having no column of the other: the file's problem, said of the row.
  if (halfPoint !== null && Object.keys(point).length === 1)
    problems.push({ field: point.lat === undefined ? 'coordinates.lat' : 'coordinates.lng', message: halfPoint })
  // 0,0 is where back-office systems put a store they have no point for, in the Gulf of Guinea.
  if (point.lat === 0 && point.lng === 0)
    notes.push(
      'The coordinates 0,0 were read as none, as a placeholder: the address was placed instead (or, for a store kept, its point stays).',
    )
  else if (Object.keys(point).length > 0 && problems.length === 0) body.coordinates = point
  for (const [top, entries] of gathered.maps) body[top] = Object.fromEntries(entries)
  const { week, dayNotes } = gathered
  // A time Excel lost leaves its days' hours unknown, not opening or closing alone: the stored ones stay.
  const lostDays = new Set(suspects.flatMap((c) => (c.error ? (timeField(c.field)?.days ?? []) : [])))
  const times = gathered.times.filter(([, field]) => !timeField(field)!.days.some((d) => lostDays.has(d)))
  const hoursCells = { week, spans, dayNotes, times, columns, weekendAlone, keptDays: keptDays(columns, cells) }
  readHours(body, hoursCells, problems, notes)
  const hoursColumns = hoursColumnsOf(columns, cells, spans)
  if (gathered.unreadStatus !== undefined) problems.push({ field: 'status', message: gathered.unreadStatus })
  if (gathered.regionClash !== undefined) problems.push({ field: 'region', message: gathered.regionClash })
  if (typeof removal === 'string') problems.push({ field: 'delete', message: removal })
  if (special !== undefined) {
    const dated = readSpecialHours(special, header.dateOrder)
    if (typeof dated === 'string') problems.push({ field: 'special_hours', message: dated })
    else body.special_hours = dated
  }
  const cell = typeof body.address === 'string' ? body.address : undefined
  const { postcodeNote, formerAddress, countryNamed } = readAddress(
    body,
    parts,
    gathered.codeCell,
    { columns, hasAddress, countries, countryCodes },
    notes,
  )
  // A part Excel lost leaves the address unknown, not joined from the others: the stored one stays.
  const addressLost = errorsSaid(suspects, addressField)
  if (addressLost) delete body.address
  const own = addressLost ? {} : rowParts(parts, cell)
  return {
    line,
    body,
    country: parts.get('country') || rowCountry(parts),
    postcode: parts.get('postcode') || null,
    city: parts.get('city') || null,
    ...(Object.keys(own).length > 0 && { parts: own }),
    problems,
    notes,
    ...(postcodeNote !== undefined && { postcodeNote }),
    ...(formerAddress !== undefined && !addressLost && { formerAddress, countryNamed }),
    ...(addressLost !== null && { addressLost }),
    unplaced: (suspects.length > 0 && garbledAddress(suspects)) || undefined,
    ...(hoursColumns !== null && { hoursColumns }),
    ...(special !== undefined && { specialColumn: columns.find((c) => c.field === 'special_hours')!.header }),
  }
}

/** The row's cells, each read (a formula's text, a web address) and gathered by its field; the cells that look wrong as suspects. */
function gatherCells({ columns, width, numbers, garbled, danish }: Header, cells: readonly string[]): Gathered {
  const gathered: Gathered = {
    body: {},
    spans: [],
    dayNotes: [],
    times: [],
    removal: false,
    further: [],
    coordinateCells: [],
    maps: new Map(),
    parts: new Map(),
    suspects: [],
    tags: [],
    hasTags: false,
    codeCell: '',
  }
  const { suspects } = gathered
  for (let i = 0; i < width; i++) {
    const { field, header } = columns[i]!
    if (field === null) continue
    // A formula of one text is that text: no formula to warn of.
    const text = formulaText(cells[i]!)
    const cell = webAddress(text ?? unguardCell(cells[i]!), field)
    if (excelError(cell)) {
      // Not read, as if empty: a stored value stays; a store code's is a problem of its row (readRow).
      const lost: NamedCell = { header, field, text: cell, error: true }
      // Whether, or on what condition, the row deletes is unknown: a problem of the row, never no condition.
      if (field === 'delete') gathered.removal = excelErrorSaid(lost, '')
      else if (field === 'if_updated_at') gathered.lostCondition = lost
      else suspects.push(lost)
      if (field === MORE_PHONES) gathered.morePhones = [header, cell]
      // A phone lost is unknown, not empty: further numbers do not replace the stored one.
      if (field === 'contact.phone') gathered.phoneGiven = true
      continue
    }
    if (text === null && cells[i]!.startsWith('=')) suspects.push({ header, field, text: cell, formula: true })
    else if (garbled && maybeGarbled(cell)) suspects.push({ header, field, text: cell })
    else if (field.startsWith('hours') && hoursAsDate(cell)) suspects.push({ header, field, text: cell })
    if (!gatherHours(gathered, i, field, header, [cell, cells[i]!], danish))
      gatherField(gathered, field, header, cell, cells[i]!, { numbers, danish })
  }
  // A tags column Excel lost leaves the tags unknown, not those of the others: the stored ones stay.
  if (gathered.hasTags && !errorIn(suspects, (f) => f.split('.')[0] === 'tags')) gathered.body.tags = gathered.tags
  if (gathered.morePhones !== undefined && !gathered.phoneGiven) phoneFromMore(gathered, gathered.morePhones)
  if (gathered.further.length > 0) joinLines(gathered)
  return gathered
}

/**
 * The row's phone from its cell of further numbers (MORE_PHONES), its phone cell being empty or
 * none: their first; what is said of the others kept for the row's notes.
 */
function phoneFromMore(gathered: Gathered, [header, cell]: [string, string]): void {
  const { phone, dropped } = firstPhone(cell, header)
  const contact = (gathered.maps.get('contact') ?? []).filter(([key]) => key !== 'phone')
  // A number Excel lost leaves the phone unknown, not empty: the stored one stays, as beside a phone cell so lost.
  const lost = excelError(cell) || lostDigits(phone)
  if (lostDigits(phone)) gathered.suspects.push({ header, field: 'contact.phone', text: phone })
  else if (dropped !== null && !lost) gathered.dropped = dropped
  gathered.maps.set('contact', lost ? contact : [...contact, ['phone', phone]])
}

/** The second address line, then the further ones by their numbers, apart by commas: each text once, case aside. */
function joinLines({ parts, further }: Gathered): void {
  const lines = [parts.get('street2') ?? '', ...further.sort((a, b) => a[0] - b[0]).map(([, cell]) => cell)]
  const seen = new Set<string>()
  const kept = lines.filter((cell) => cell !== '' && !seen.has(cell.toLowerCase()) && seen.add(cell.toLowerCase()))
  parts.set('street2', kept.join(', '))
}

/**
 * A cell of the row's hours but its day columns (a day's opening or closing time, its week, some
 * days', its special hours) or its delete cell and its condition into `gathered`; false for any other cell.
 */
function gatherHours(
  gathered: Gathered,
  column: number,
  field: string,
  header: string,
  [cell, raw]: [cell: string, raw: string],
  danish: boolean,
): boolean {
  if (timeField(field) !== null) gathered.times.push([column, field, cell])
  else if (field === 'hours') gathered.week = cell
  else if (field.startsWith(DAYS_FIELD)) {
    // A cell marked with a "'" goes as the file has it: spansWeek keeps its text as written.
    const hours = keptDayText(raw) === null ? closedX(cell) : raw
    if (cell !== '') gathered.spans.push([header, field.slice(DAYS_FIELD.length), hours])
  } else if (field === 'special_hours') gathered.special = cell
  else if (field === 'delete') gathered.removal = deleteCell(cell, header, danish)
  else if (field === 'if_updated_at') gathered.condition = cell
  else return false
  return true
}

/** The problem of a row whose two region columns give two regions. */
const regionClash = (first: string, region: string, header: string, other: string) =>
  `The "${first}" cell gives the region "${region}" and the "${header}" cell "${other}": fill in one of them.`

/**
 * An address part's cell into `gathered`: of two region columns (Brandify's state and province)
 * the one the row fills, the first when both give one region in any case ("ON", "on"); further
 * address lines ("Address line 3", "Address > Line 3") kept for joinLines.
 */
function gatherPart(gathered: Gathered, top: string, header: string, cell: string): void {
  const before = gathered.parts.get(top) ?? ''
  const line = top === 'street2' ? furtherLine(header) : 0
  if (line > 0) {
    if (cell !== '') gathered.further.push([line, cell])
  } else if (top !== 'region' || before === '') {
    gathered.parts.set(top, cell)
    if (top === 'region' && cell !== '') gathered.regionHeader = header
  } else if (cell !== '' && cell.toLowerCase() !== before.toLowerCase())
    gathered.regionClash = regionClash(gathered.regionHeader!, before, header, cell)
}

/** Any other cell into `gathered`, by its field: `raw` is the cell as the file has it. */
function gatherField(
  gathered: Gathered,
  field: string,
  header: string,
  cell: string,
  raw: string,
  { numbers, danish }: Pick<Header, 'numbers' | 'danish'>,
): void {
  const { body } = gathered
  const dot = field.indexOf('.')
  const top = dot < 0 ? field : field.slice(0, dot)
  if (top === 'tags') gathered.hasTags = true
  const key = field.slice(dot + 1)
  if (field === 'contact.phone') gathered.phoneGiven = cell !== ''
  if (field === MORE_PHONES) {
    if (cell !== '') gathered.morePhones = [header, cell]
  } else if (top === 'coordinates') {
    if (cell !== '') gathered.coordinateCells.push([header, field, cell])
  } else if (field === 'contact.phone' && lostDigits(cell)) {
    gathered.suspects.push({ header, field, text: cell }) // not read: garbledNotes says why
  } else if (MAP_FIELDS.has(top)) {
    const entries = gathered.maps.get(top) ?? []
    let value = numbers.has(field) ? decimalComma(cell) : cell
    if (top === 'hours') {
      const day = DAYS.indexOf(key as (typeof DAYS)[number])
      const read = dayCell(header, cell, raw, day)
      if (read.note !== null) gathered.dayNotes.push(read.note)
      value = read.text
    }
    entries.push([key, value])
    gathered.maps.set(top, entries)
  } else if (field === COUNTRY_CODE) gathered.codeCell = asCode(cell)
  else if (ADDRESS_PARTS.has(top)) gatherPart(gathered, top, header, cell)
  else if (top === 'tags') gathered.tags.push(...splitTags(cell))
  else if (top === 'status' && cell !== '') {
    const word = cell.toLowerCase()
    const closed = closedColumn(header)
    const status = closed ? CLOSED_STATUSES.get(word) : (OTHER_STATUSES.get(word) ?? statusInput(cell))
    if (word === DANISH_TRUE && !danish)
      gathered.unreadStatus = notDanish(cell, header, closed ? CLOSED_WRITE : 'Write published or draft.')
    else if (status === undefined) gathered.unreadStatus = statusProblem(cell, header)
    else body.status = status
  } else if (cell !== '' || !OMIT_WHEN_EMPTY.has(top)) body[top] = top === 'id' ? idCell(cell) : cell
}

/**
 * The row's address parts into body.address, joined with its address cell, and its country and
 * postcode mended in parts: what was read otherwise than written is said in notes. Its note of a
 * postcode given back its leading zero, if any, and the address as joined before
 * (BulkItem.formerAddress).
 */
function readAddress(
  body: Record<string, unknown>,
  parts: Map<string, string>,
  codeCell: string,
  {
    columns,
    hasAddress,
    countries,
    countryCodes,
  }: Pick<Header, 'columns' | 'hasAddress' | 'countries' | 'countryCodes'>,
  notes: string[],
): { postcodeNote?: string; formerAddress?: string; countryNamed?: boolean } {
  const unknownCountry = readCountry(parts, codeCell, countryCodes)
  if (unknownCountry !== null) notes.push(unknownCountry)
  const written = parts.get('postcode')
  mendParts(parts)
  let postcodeNote: string | undefined
  if (written !== undefined && parts.get('postcode') !== written) {
    const column = columns.find((c) => c.field === 'postcode')!.header
    postcodeNote = `The postcode ${written.trim()} was read as ${parts.get('postcode')}: Excel drops leading zeros; format the "${column}" column as text.`
    notes.push(postcodeNote)
  }
  postcodeInForm(parts)
  // An empty address cell leaves the address as it is, as for any OMIT_WHEN_EMPTY field.
  if (hasAddress && body.address === undefined) return { postcodeNote }
  // A code ("DE") is joined as the name the file's other rows give countries ("Germany").
  const named = countries.get(parts.get('country') ?? '')
  const cell = body.address as string | undefined
  const joined = named ? new Map(parts).set('country', named) : parts
  const address = joinAddress(joined, cell)
  // An address cell with no parts joined to it is as it was written under any rule.
  if (address === undefined || address === cell) return { postcodeNote }
  body.address = address
  // A row the former rule joins alike needs no second join.
  const formerAddress = joinedOtherwiseBefore(parts) ? joinAddress(joined, cell, true) : address
  // The name is joined when the code would have been joined in its place.
  return { postcodeNote, formerAddress, countryNamed: named !== undefined && joinAddress(parts, cell) !== address }
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

/** The days whose cells the export marked to keep their text as written ("'-": a text "-", not a day closed; keptDayCell). */
function keptDays(columns: readonly Column[], cells: readonly string[]): Set<string> {
  const days = new Set<string>()
  for (const [i, { field }] of columns.entries())
    if (field !== null && DAY_FIELDS.has(field) && keptDayText(cells[i] ?? '') !== null)
      days.add(field.slice('hours.'.length))
  return days
}

/** Monday to Friday, as DAYS counts them. */
const WEEKDAYS = [0, 1, 2, 3, 4]

/**
 * A row's hours cells other than its day columns' into body.hours, after them: its days' opening
 * and closing times, then its week, in one cell and in columns of some days, for the days left.
 */
function readHours(
  body: Record<string, unknown>,
  {
    week,
    spans,
    dayNotes,
    times,
    columns,
    weekendAlone,
    keptDays,
  }: {
    week?: string
    spans: Spans
    dayNotes: DayNote[]
    times: Times
    columns: readonly Column[]
    weekendAlone: boolean
    keptDays: ReadonlySet<string>
  },
  problems: CsvRow['problems'],
  notes: string[],
): void {
  const kept: (string | undefined)[] = []
  const marked: number[] = []
  const whole = spans.length > 0 ? [...(week ? [week] : []), ...spansWeek(spans, kept, marked)].join('; ') : week
  if (times.length > 0) problems.push(...timesInto(body, times, columns, whole))
  if (!week?.trim()) notedInto(body, spans, dayNotes, kept, notes, weekendAlone ? WEEKDAYS : [])
  // Columns of days alone are named as the file names them; a week cell beside them is quoted with them.
  const said = week === undefined && spans.length > 0 ? spansSaid(spans) : undefined
  const read = whole === undefined ? null : weekRead(body, whole, kept, said, weekendAlone ? WEEKDAYS : [])
  if (read !== null) problems.push(...read.problems)
  dashesClosed(body, new Set([...keptDays, ...marked.map((i) => DAYS[i]!)]))
  const alone = read?.holidaysAlone ?? false
  const weekSaid = week === undefined || spans.length > 0 ? null : noDayNote(body, week.trim(), alone)
  if (weekSaid !== null) notes.push(weekSaid)
  // A week read beside public holidays leaves them out, as no day of it: said, not lost.
  const holidays = !week?.trim() || alone || read?.problems.length ? null : holidaysNote(week.trim())
  if (holidays !== null) notes.push(holidays)
}

/**
 * A day only notes of some days' own name ("9-18, Sa 10-13" beside an empty "Sa" or "Samstag"),
 * in a row with no week cell to give it, takes their hours (notedDays): through `kept` for the
 * week its columns of some days make, into body.hours where a day column left it empty.
 * `dayNotes`: what the day columns' notes give each day (dayCell); `unsaid`: the days the file
 * leaves unset (weekendAlone).
 */
function notedInto(
  body: Record<string, unknown>,
  spans: Spans,
  dayNotes: readonly DayNote[],
  kept: (string | undefined)[],
  notes: string[],
  unsaid: readonly number[],
): void {
  const hours = body.hours as Record<string, string> | undefined
  const filled = (i: number) => Boolean(hours?.[DAYS[i]!])
  // The week of columns of some days closes a day they leave out, but one the file leaves unset;
  // an empty day column clears it.
  const left = (i: number) =>
    spans.length > 0 && !unsaid.includes(i)
      ? 'and its own column is empty, so it is closed'
      : hours?.[DAYS[i]!] === ''
        ? 'and its own column is empty, so its hours are unknown'
        : 'and the file has no column of its own, so its hours are left as they are'
  // The day columns' notes first, then the columns of some days': notedDays quotes them so.
  // The row sets a day its column leaves empty, and one its columns of some days close.
  const sets = (i: number) => hours?.[DAYS[i]!] === '' || (spans.length > 0 && !unsaid.includes(i))
  const { noted, said } = notedDays(spans, [...dayNotes, ...spansNotes(spans)], { filled, sets, left })
  noted.forEach((text, i) => {
    if (text === undefined) return
    kept[i] ??= text
    if (hours !== undefined) hours[DAYS[i]!] ||= text
  })
  notes.push(...said)
}

/**
 * A row whose delete cell says yes as the delete item of the store its id or external_id names,
 * with its if_updated_at cell's condition, its other cells unread: its problems are those of the cells that name its store.
 */
function removalRow(
  line: number,
  body: Record<string, unknown>,
  condition: string | undefined,
  problems: CsvRow['problems'],
): CsvRow {
  const named = Object.fromEntries(
    ['id', 'external_id'].flatMap((field) => (body[field] ? [[field, body[field]]] : [])),
  )
  const held = condition ? { if_updated_at: condition } : {}
  return {
    line,
    body: { ...named, delete: true, ...held },
    country: null,
    postcode: null,
    city: null,
    problems,
    notes: [],
  }
}
