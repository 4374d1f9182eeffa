// Which field each header cell of a locations CSV fills, by the spellings of csv-spellings.ts. Matching
// ignores case, spaces, '_', '-' and '.', so "Store Code", "store_code" and "STORE-CODE" all name external_id.
import { clipped, withinEdits } from '../core/text'
import { namesDays } from '../core/week-days'
import { splitWeekHours } from '../core/week-hours'
import { cellText } from './csv-cells'
import { excelError } from './csv-garbled'
import { COLUMN_NAMES, FALLBACK_NAMES } from './csv-spellings'
import { NORDIC_FILE_NAMES, NORDIC_NAMES, NOT_MISSPELT } from './csv-spellings-nordic'
import { CLOSED_STATUSES, DANISH_FALSE } from './csv-values'

/** Words a column of some days' hours has beside its days ("Öffnungszeiten Mo-Fr", "Sat-Sun Hours", "Opening Sat"). */
const HOURS_WORDS =
  /(?<!\p{L})(?:opening hours|opening times|open hours|store hours|business hours|hours|opening|öffnungszeiten|geschäftszeiten|horaires|horario|orari|openingstijden)(?!\p{L})/giu

/** Whether a header names its column's hours ("Öffnungszeiten Sa", "Sat-Sun Hours"). */
export const hasHoursWord = (header: string): boolean => header.search(HOURS_WORDS) >= 0

/**
 * The days a header names when its column holds their hours ("Mo-Fr", "Öffnungszeiten Sa",
 * "Sat-Sun Hours"), as written, or null: days named as a week of hours names them (week-hours.ts).
 */
export function daysColumn(header: string): string | null {
  const days = header.replace(HOURS_WORDS, ' ').replace(/[():]/g, ' ').replace(/\s+/g, ' ').trim()
  return days !== '' && namesDays(days) ? days : null
}

/** Header prefixes before the first '.' that name a custom field: custom.<id>, custom_fields.<id>. */
const CUSTOM_PREFIXES = new Set(['custom', 'customfields'])

/** What an import template writes after a header cell to mark it required or not: "Name *", "Address:". */
export const MARK =
  /\s*(?:\*+|:|\((?:required|optional|pflichtfeld|pflicht|erforderlich|obligatoire|facultatif|obligatorio|opcional|obbligatorio|facoltativo|verplicht|optioneel)\))\s*$/iu

/**
 * What a coordinate column's header says after its name of the datum or the unit: "Latitude
 * (WGS84)", "Lng [decimal degrees]", "Lat °", "Lon_WGS84", "latitude_deg". Every such note means the decimal
 * degrees the cells are read as; a header with another datum ("(GCJ-02)") stays unread.
 */
const COORDINATE_NOTE =
  /(?:\s*[([]\s*(?:wgs\s*-?\s*84|epsg\s*:?\s*4326|(?:decimal|dezimal|décimal|decimale|decimaal)(?:\s*(?:degrees?|grad|°))?|dd|deg|degrees?|grad|grados|gradi|°)\s*[)\]]|\s*°|[\s_-]+(?:wgs\s*-?\s*84|deg|degrees|dd))\s*$/iu

/** A coordinate column's header without its note of datum or unit (COORDINATE_NOTE): "Latitude (WGS84)" is "Latitude". */
export const withoutCoordinateNote = (header: string): string => header.replace(MARK, '').replace(COORDINATE_NOTE, '')

const COORDINATE_FIELDS = new Set(['coordinates.lat', 'coordinates.lng'])

/** What a header says after a coordinate's name when its column holds the minutes or seconds: "Lat Min", "Latitude (seconds)". */
const MINUTES_NOTE =
  /(?:[\s_-]+|\s*[([]\s*)(?:min|mins|minutes?|minuten|minutos|minuti|mm|sec|secs|seconds?|sekunden|segundos|secondi|ss|['′"″])\s*[)\]]?\s*$/iu

const headerKey = (text: string) =>
  text
    .replace(MARK, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '')

/** Each field with its spellings in every language the tables give. */
const NAMES = [...Object.entries(COLUMN_NAMES), ...Object.entries(NORDIC_NAMES)]

/** Spelling key -> field. Built once from the table; a spelling that fits two fields is a bug in it. */
const FIELD_BY_KEY = new Map<string, string>()
for (const [field, names] of NAMES) {
  for (const name of [field, ...names]) {
    const key = headerKey(name)
    const other = FIELD_BY_KEY.get(key)
    if (other !== undefined && other !== field) throw new Error(`CSV header "${name}" would name ${other} and ${field}`)
    FIELD_BY_KEY.set(key, field)
  }
}
const FALLBACK_BY_KEY = new Map<string, string>()
for (const [field, names] of Object.entries(FALLBACK_NAMES))
  for (const name of names) {
    if (FIELD_BY_KEY.has(headerKey(name))) throw new Error(`CSV header "${name}" is a spelling and a fallback`)
    FALLBACK_BY_KEY.set(headerKey(name), field)
  }

/** Spelling key -> field of NORDIC_FILE_NAMES: read only in a Nordic file. */
const NORDIC_FILE_BY_KEY = new Map(
  Object.entries(NORDIC_FILE_NAMES).flatMap(([field, names]) => names.map((name) => [headerKey(name), field] as const)),
)
const NORDIC_KEYS = new Set(Object.values(NORDIC_NAMES).flatMap((names) => names.map(headerKey)))

/** Whether a header row has a Danish, Swedish or Norwegian spelling (NORDIC_NAMES): its file is written in one. */
export const nordicFile = (headers: readonly string[]): boolean => headers.some((h) => NORDIC_KEYS.has(headerKey(h)))

/** The field a header fills in a Nordic file only (NORDIC_FILE_NAMES: "Adress"), or null. */
export const nordicField = (header: string): string | null => NORDIC_FILE_BY_KEY.get(headerKey(header)) ?? null

/** Store Locator Plus writes each column's name after "sl_" (sl_address, sl_zip), and reads it without. */
const SLP_PREFIX = /^sl_/i

/** The key of a header, and of its name without Store Locator Plus's "sl_" (but sl_id, its store's key): the keys it may be read by. */
function headerKeys(header: string): string[] {
  const key = headerKey(header)
  return SLP_PREFIX.test(header) && !FALLBACK_BY_KEY.has(key) ? [key, headerKey(header.replace(SLP_PREFIX, ''))] : [key]
}

/**
 * The field a header cell fills, or null when none: a key of the table above, or
 * `custom_fields.<id>` with the id exactly as written after the first '.'.
 */
export function columnField(header: string): string | null {
  const dot = header.indexOf('.')
  if (dot > 0 && CUSTOM_PREFIXES.has(headerKey(header.slice(0, dot)))) {
    const id = header.slice(dot + 1).trim()
    return id === '' ? null : `custom_fields.${id}`
  }
  for (const key of headerKeys(header)) {
    const field = FIELD_BY_KEY.get(key)
    if (field !== undefined) return field
  }
  const bare = withoutCoordinateNote(header)
  const field = bare === header ? undefined : FIELD_BY_KEY.get(headerKey(bare))
  return field !== undefined && COORDINATE_FIELDS.has(field) ? field : null
}

/** What a header says after a coordinate's name when its column holds a range's top: "X Max" beside "X Min" (a bounding box). */
const MAXIMUM_NOTE = /(?:[\s_-]+|\s*[([]\s*)(?:max|maximum)\s*[)\]]?\s*$/iu

/** The coordinate a header names with `note` after it, or null. */
function notedCoordinate(header: string, note: RegExp): string | null {
  const named = header.replace(MARK, '')
  const bare = named.replace(note, '')
  if (bare === named || bare.trim() === '') return null
  const field = FIELD_BY_KEY.get(headerKey(withoutCoordinateNote(bare)))
  return field !== undefined && COORDINATE_FIELDS.has(field) ? field : null
}

/**
 * The coordinate whose minutes or seconds a header's column holds ("Lat Min", "Longitude
 * (seconds)"), or null: beside it, the column of that coordinate holds whole degrees, not decimal
 * ones. "X Min" beside "X Max" is a bounding box's (maximumOf).
 */
export const minutesOf = (header: string): string | null => notedCoordinate(header, MINUTES_NOTE)

/** The coordinate whose range's top a header's column holds ("X Max", "Lat (max)"), or null. */
export const maximumOf = (header: string): string | null => notedCoordinate(header, MAXIMUM_NOTE)

/** Columns other locators export that hold what no field can take from them, and what to write instead. */
const UNREAD_HINTS = new Map([
  [
    headerKey('hours_id'),
    'names hours templates (StoreRocket\'s), whose hours are not in the file: no hours are imported from it. Give each day\'s hours in a column of its own (monday ... sunday), such as "09:00-17:00" or "Closed", as StoreRocket also reads them.',
  ],
  // Not read as tags: one of Google's list for each store, the same across most chains' stores, it
  // would be a filter that filters nothing, and beside Labels (read as tags) mix Google's words in.
  [
    headerKey('primary category'),
    'is Google\'s category of each store (one of Google\'s list), not imported: tags are the locator\'s filters, and "Labels" are read as them. To filter by it, copy its values into "Labels".',
  ],
  // Not read as the description: Yext's Description column is that, and a promotion that ends
  // would stay on the store as its lasting text.
  [
    headerKey('featured message > description'),
    "is Yext's featured message, a promotion shown for a time, not the store's description: it is not imported. To show it on the location, add its text to the description.",
  ],
])

/**
 * The field of Google's "Additional phones": further numbers of each store, of which the first is
 * the phone where the row's phone cell is empty or the file has none (csv-row.ts). A location keeps one.
 */
export const MORE_PHONES = 'more_phones'

/** What is said of a column of further numbers (MORE_PHONES) when a row has them beside its phone: they are not imported. */
function morePhonesBeside(
  columns: readonly { header: string; field: string | null }[],
  below: readonly { cells: readonly string[]; line: number }[],
  at: number,
): string | null {
  const phone = columns.findIndex((c) => c.field === 'contact.phone')
  // A phone cell Excel saved as an error is unknown, not empty: further numbers are not read beside it (csv-row.ts).
  const given = (cell: string | undefined) => cellText(cell ?? '').trim() !== ''
  const both = below.find(
    (r) => given(r.cells[phone]) && given(r.cells[at]) && !excelError(cellText(r.cells[at] ?? '')),
  )
  return phone < 0 || both === undefined
    ? null
    : `gives the phone, its first number, only where ${JSON.stringify(columns[phone]!.header)} is empty: a location keeps one phone, so its numbers beside one (line ${both.line}) are not imported. To show another number, add it to the description or to a custom field.`
}

/** A tags cell of numbers alone ("1314", "1314,1316"): Yext's category ids, no names to filter by. */
const ID_LIST = /^\d+(?:\s*[,;|]\s*\d+)*$/

/**
 * Whether a tags column's cells hold ids alone, in each one filled: it is not read as tags. A
 * column named "Tags" (the export's own, in any case) is read whatever its tags.
 */
export function categoryIds(header: string, cells: readonly string[]): boolean {
  if (headerKey(header) === 'tags') return false
  const filled = cells.map((c) => c.trim()).filter((c) => c !== '')
  return filled.length > 0 && filled.every((c) => ID_LIST.test(c))
}

/**
 * Template spellings read as their field only when a filled cell of the column reads as it: other
 * sheets name other things so ("Schedule" of "Weekly"). Each with what such a column holds.
 */
const JUDGED = new Map<string, { reads: (cell: string) => boolean; hint: string }>([
  [
    headerKey('schedule'),
    {
      reads: (cell) => splitWeekHours(cell) !== null,
      hint: 'holds no opening hours (such as "Mon-Fri 9am-5pm"), so it is not read as them. To import hours, write them so in it, or in a column named "hours".',
    },
  ],
  [
    headerKey('store_image'),
    {
      // An image is a link: a cell with no "/" is a file's name ("leeds.jpg"), no address of it.
      reads: (cell) => cell.includes('/'),
      hint: 'holds file names, not web addresses, so it is not read as the image. Write each image\'s address, such as "https://example.com/leeds.jpg".',
    },
  ],
])

/** What a whole address column beside a street column holds (FALLBACK_NAMES), and what to write instead. */
const ADDRESS_BESIDE_STREET =
  'is read as the whole address only where no column gives the street: the street, town and postcode columns give it. Delete them to import it instead.'

/** Headers of a column of whether each store is closed for good (Yext's "Closed"), read as its status. */
const CLOSED_KEYS = new Set(['closed', 'permanently closed', 'lukket', 'permanent lukket'].map(headerKey))

/** Danish names of a yes/no column: one so named was written in Danish. */
const DANISH_KEYS = new Set(['slet', 'lukket', 'permanent lukket'].map(headerKey))

/**
 * Whether a file reads SAND, also an English word, as Danish Excel's TRUE (csv-values.ts
 * DANISH_TRUE): one of its yes/no columns (a status, a delete flag) is named in Danish or holds FALSK.
 */
export function danishFile(
  columns: readonly { header: string; field: string | null }[],
  below: readonly { cells: readonly string[] }[],
): boolean {
  const falsk = (i: number) =>
    below.some(
      (r) =>
        cellText(r.cells[i] ?? '')
          .trim()
          .toLowerCase() === DANISH_FALSE,
    )
  return columns.some(
    ({ header, field }, i) =>
      (field === 'status' || field === 'delete') && (DANISH_KEYS.has(headerKey(header)) || falsk(i)),
  )
}

/** Whether a status column says the store is closed (CLOSED_STATUSES): its yes is a draft. */
export const closedColumn = (header: string): boolean => CLOSED_KEYS.has(headerKey(header))

/** A "Closed" column's first cell neither yes nor no ("Sundays"); undefined for none, or any other column. */
const notStatus = (header: string, cells: readonly string[]): string | undefined =>
  closedColumn(header)
    ? cells
        .map((c) => c.trim())
        // A cell Excel saved as an error is its row's, unread there (csv-row.ts): no closed days.
        .find((c) => c !== '' && !excelError(c) && !CLOSED_STATUSES.has(c.toLowerCase()))
    : undefined

/**
 * Whether a "Closed" column has a cell neither yes nor no (another sheet's closed days): such a
 * column is no status fallback (csv-header.ts), so a later one ("Active") still is.
 */
export const closedDays = (header: string, cells: readonly string[]): boolean => notStatus(header, cells) !== undefined

/** What a "Closed" column of closed days holds (closedDays), and what to write instead; null for any other column. */
function closedUnread(header: string, cells: readonly string[]): string | null {
  const other = notStatus(header, cells)
  return other === undefined
    ? null
    : `holds ${JSON.stringify(clipped(other))}, neither yes nor no, so it is not read as whether the store is closed for good (a closed store is imported as a draft). If it lists the days a store is closed, give them in the store's hours instead: "Closed" in a day's column (sunday), or in the hours column ("Mon-Sat 9am-5pm, Sun closed").`
}

/** What a column of category ids holds, and what to write instead. */
export const CATEGORY_IDS =
  'holds numbers alone, read as another tool\'s ids of its categories (Yext\'s), not as tags: tags are the locator\'s filters, by name. To filter by them, write their names in a "Tags" column; a column named "Tags" is read as it is, numbers too.'

/** Further address lines (Google's "Address line 3" to "5", Yext's "Address > Line 3"), joined after the second's (csv-row.ts). */
const FURTHER_LINE = /^address>?line([3-5])$/

/** The number of a further address line's column ("Address line 3": 3), 0 for any other. */
export const furtherLine = (header: string): number => Number(FURTHER_LINE.exec(headerKey(header))?.[1] ?? 0)

/**
 * Whether a file may have another column of a field beside one: tags ("Category" and "Tags"), the
 * region (Brandify's "state" and "province": a row fills one), a further address line.
 */
export const severalColumns = (field: string, header: string): boolean =>
  field === 'tags' || field === 'region' || (field === 'street2' && furtherLine(header) > 0)

/**
 * Why a file's region columns are refused, or null: when no row fills one alone and most rows
 * filling two give two regions, they hold two things ("State" and a sales "Region"), not each
 * row's one of two. A few rows giving two are mistyped copies, each a problem of its line.
 */
export function regionsTogether(
  columns: readonly { header: string; field: string | null }[],
  below: readonly { cells: readonly string[] }[],
): string | null {
  const at = columns.flatMap((c, i) => (c.field === 'region' ? [i] : []))
  if (at.length < 2) return null
  // The first two columns a row gives two regions in, named in the message.
  let two: [number, number] | null = null
  let filledTwice = 0
  let differ = 0
  for (const { cells } of below) {
    const filled = at.filter((i) => (cells[i] ?? '').trim() !== '')
    if (filled.length === 1) return null
    if (filled.length === 0) continue
    filledTwice++
    const region = (i: number) => cells[i]!.trim().toLowerCase()
    const other = filled.find((i) => region(i) !== region(filled[0]!))
    if (other === undefined) continue
    differ++
    two ??= [filled[0]!, other]
  }
  // A sales region differs from the state on nearly every row, a typo on few: more than half is two things.
  if (two === null || differ * 2 <= filledTwice) return null
  const [first, second] = two.map((i) => columns[i]!.header)
  return `the columns "${first}" and "${second}" both fill the region. Delete or rename one of them.`
}

/**
 * What a column no field reads holds and what to write instead, when another tool's export is
 * known to have it or it is a whole address beside a street column; else null.
 */
function unreadHint(header: string, columns: readonly { header: string; field: string | null }[]): string | null {
  if (fallbackField(header) === 'address' && columns.some((c) => c.field === 'street')) return ADDRESS_BESIDE_STREET
  return UNREAD_HINTS.get(headerKey(header)) ?? null
}

/**
 * What a read column's cells hold when they are not its field (categoryIds, JUDGED), what to write
 * instead; else null. Beside day columns a judged week column is read only when each filled cell
 * reads as hours: the days' own columns give them, so a cell of other text is no doubt of theirs.
 */
function misreadHint(
  header: string,
  field: string,
  cells: readonly string[],
  columns: readonly { header: string; field: string | null }[],
): string | null {
  if (field === 'tags' && categoryIds(header, cells)) return CATEGORY_IDS
  const filled = cells.map((c) => c.trim()).filter((c) => c !== '')
  const judged = JUDGED.get(headerKey(header))
  if (judged === undefined) return null
  if (!filled.some(judged.reads)) return judged.hint
  const days = field === 'hours' ? columns.filter((c) => c.field !== 'hours' && c.field?.startsWith('hours')) : []
  // A day's text a week keeps as unknown ("Sat by appointment") is hours, as the row reads them.
  const other = days.length > 0 ? filled.find((c) => splitWeekHours(c, true) === null) : undefined
  if (other === undefined) return null
  const named = days.map((c) => `"${c.header}"`).join(', ')
  return `holds text that is no opening hours (${JSON.stringify(clipped(other))}), and the day columns (${named}) give them, so it is not read. To import a week of hours from it, write hours in each of its cells, such as "Sat 10am-2pm".`
}

/**
 * What each unread column with text holds and what to write instead, a column whose cells are not
 * its field (misreadHint) set unread first. Said only of a column with text: an empty one loses nothing.
 */
export function unreadNotes(
  columns: { header: string; field: string | null }[],
  below: readonly { cells: readonly string[]; line: number }[],
): string[] {
  const notes: string[] = []
  for (const [i, column] of columns.entries()) {
    const { header, field } = column
    if (field === MORE_PHONES) {
      const beside = morePhonesBeside(columns, below, i)
      if (beside !== null) notes.push(`The column "${header}" ${beside}`)
      continue
    }
    // Judged as the rows read them: ="Mo-Fr 9-18" is hours, as it is in an hours column.
    // A cell Excel saved as an error is its row's, unread there (csv-row.ts): the column is judged by its others.
    const cells = below.map((r) => cellText(r.cells[i] ?? '')).map((c) => (excelError(c) ? '' : c))
    const hint =
      field === null
        ? (unreadHint(header, columns) ?? closedUnread(header, cells))
        : misreadHint(header, field, cells, columns)
    if (hint !== null && field !== null) column.field = null
    if (hint !== null && cells.some((c) => c.trim() !== '')) notes.push(`The column "${header}" ${hint}`)
  }
  return notes
}

/** The field a header cell fills when no other column of its file does (FALLBACK_NAMES), or null. */
export function fallbackField(header: string): string | null {
  for (const key of headerKeys(header)) {
    const field = FALLBACK_BY_KEY.get(key)
    if (field !== undefined) return field
  }
  return null
}

/** Each spelling's key and the spelling as the tables write it: what a misspelt header may have meant. */
const SPELLINGS = [...NAMES, ...Object.entries(FALLBACK_NAMES)].flatMap(([field, names]) =>
  [field, ...names].map((name) => [headerKey(name), name] as const),
)

/** The spellings' keys without their numbers: "Address line 3" is a numbered copy of "Address line 1". */
const UNNUMBERED = new Set(SPELLINGS.map(([key]) => key.replace(/\d+/g, '')))

/** Words of a language the tables know, one edit from a spelling of another field (NOT_MISSPELT). */
const REAL_WORDS = new Set<string>(NOT_MISSPELT.map(headerKey))

/**
 * The spelling a header that names no field most likely meant: one edit away ("Adress",
 * "Postcde"), two for a header of 8 characters or more ("Latitdue"); null for none, for a
 * header shorter than 5, and for a numbered copy of a spelling ("Email 2", "Address line 3").
 */
export function meantColumn(header: string): string | null {
  const key = headerKey(header)
  // A fallback spelling left unread (County beside State) is no misspelling.
  if (key.length < 5 || UNNUMBERED.has(key.replace(/\d+/g, '')) || FALLBACK_BY_KEY.has(key) || REAL_WORDS.has(key))
    return null
  for (let edits = 1; edits <= (key.length >= 8 ? 2 : 1); edits++) {
    // Two edits that lengthen or shorten a name are another name ("Location": "Location ID").
    const meant = SPELLINGS.find(
      ([spelling]) =>
        withinEdits(key, spelling, edits) && (edits === 1 || !(spelling.startsWith(key) || key.startsWith(spelling))),
    )
    if (meant !== undefined) return meant[1]
  }
  return null
}

/** Fields as a person names them in a message, where the field's own name is the service's ("street2"). */
const FIELD_WORDS: Record<string, string> = {
  id: 'the id',
  external_id: 'the store code',
  address: 'the address',
  house_number: 'the house number',
  street2: 'the second address line',
  sublocality: 'the district',
  coordinates: 'the coordinates',
  'coordinates.lat': 'the latitude',
  'coordinates.lng': 'the longitude',
  'contact.phone': 'the phone number',
  'contact.email': 'the email address',
  'contact.website': 'the website',
  'social.instagram': 'the Instagram link',
  'social.facebook': 'the Facebook link',
  'social.twitter': 'the Twitter link',
  hours: 'the opening hours',
  special_hours: 'the special hours',
  timezone: 'the time zone',
  image_url: 'the image',
  delete: 'the delete flag',
}

/**
 * A field as a message names it ("the district", "Monday's hours", 'the custom field "wifi"'):
 * the words of FIELD_WORDS, else "the" and its name ("the city", "the postcode").
 */
export function fieldSaid(field: string): string {
  if (field.startsWith('hours.')) {
    const day = field.slice('hours.'.length)
    return `${day.charAt(0).toUpperCase()}${day.slice(1)}'s hours`
  }
  if (field.startsWith('custom_fields.')) return `the custom field "${field.slice('custom_fields.'.length)}"`
  return FIELD_WORDS[field] ?? `the ${field}`
}
