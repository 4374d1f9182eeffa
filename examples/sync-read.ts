// How examples/sync.ts reads a store list: a CSV file as the CLI import reads it (its lines, the
// columns and cells not read), or a JSON one, {"locations": [...]} or a top-level array. Each row
// carries its label for messages: its line, or its place in the JSON list.
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import type { BulkLocation, CustomField } from 'storeloc/client'
// The CLI import's own CSV reader and its wording of a row: this script runs from the service's checkout.
import { csvBulkItems, readLocationsCsv, separatorOfName } from '../src/locations/csv'
import { CsvError, type RawRecord } from '../src/locations/csv-records'
import { jsonListItems, whoIs } from '../src/locations/bulk-problems'
import type { BulkItem } from '../src/locations/bulk'
import { usage } from './sync-command'
import type { Row } from './sync-parts'

/** The file's bytes, or an error that names it: not there, or a folder. */
function readList(file: string): Buffer {
  try {
    return readFileSync(file)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new Error(`No file ${file}.`)
    if (code === 'EISDIR') throw new Error(`${file} is a folder, not a file.`)
    throw e
  }
}

/**
 * The list's rows, each with its line (CSV) or position (JSON) for messages, the CSV columns not
 * read, and the cells not read; a CSV column may name one of `customFields` by its name or id.
 * `encoding`: a CSV file's, null for UTF-8. `notes`: what of the file is not read (a JSON object's
 * keys beside "locations"), or what reading a CSV file noted of it as a whole. `noStore`: a CSV
 * file's lines read as no store (a totals row, a dump's count of its rows).
 */
export function readRows(
  file: string,
  customFields: CustomField[],
  encoding: string | null,
): {
  rows: Row[]
  unknown: string[]
  unread: { label: string; message: string }[]
  notes: string[]
  noStore: RawRecord[]
} {
  const bytes = readList(file)
  if (extname(file).toLowerCase() === '.json') {
    if (encoding !== null) usage('--encoding is for CSV files: JSON is UTF-8.')
    let json: { locations?: unknown } | unknown[]
    try {
      json = JSON.parse(new TextDecoder().decode(bytes))
    } catch (e) {
      throw new Error(`${file} is not valid JSON (${(e as Error).message}). A CSV file needs a name ending in .csv, a tab separated one in .tsv.`)
    }
    const list = Array.isArray(json) ? json : json?.locations
    if (!Array.isArray(list)) throw new Error(`${file} holds no array of locations.`)
    // Named as the file has them, as the CLI import names them: "[3]", or "locations[3]".
    const rows = jsonListItems(list, Array.isArray(json)).map(({ raw, key }, place) => ({
      label: key,
      place,
      location: idAsRead(raw as BulkLocation),
      wholeSpecialHours: false,
      notes: [],
    }))
    return { rows, unknown: [], unread: [], notes: Array.isArray(json) ? [] : besideLocations(file, json), noStore: [] }
  }
  // The rows as the CLI import reads them: named by line, with what could not be read.
  let read: ReturnType<typeof readLocationsCsv>
  try {
    read = readLocationsCsv(bytes, customFields, { encoding, typedSeparator: separatorOfName(file) })
  } catch (e) {
    if (e instanceof CsvError) throw new Error(`${file} cannot be read as CSV: ${e.message}`)
    throw e
  }
  const items = csvBulkItems(read)
  // Cells that could not be read (a week of hours) stop the sync, with the rest of the list's problems.
  const unread = items.flatMap((i) =>
    (i.unread ?? []).map((p) => ({ label: i.key, message: `${whoIs(i.key, i.raw as BulkLocation)}: ${p.message}` })),
  )
  const rows = items.map((i, place) => ({
    label: i.key,
    place,
    location: withPointUnread(i),
    wholeSpecialHours: i.wholeSpecialHours ?? false,
    notes: i.notes ?? [],
    item: i,
  }))
  // What the file as a whole noted (a country's names, a weekend alone), as the CLI import says it.
  const notes = read.notes.map((note) => `${file}: ${note}`)
  return { rows, unknown: read.unknown, unread, notes, noStore: read.noStore }
}

/**
 * A JSON object's keys beside "locations", which the sync does not read: a point given once for
 * the file ("lat", "lng") places no store, each of which has its own coordinates.
 */
function besideLocations(file: string, json: object): string[] {
  const keys = Object.keys(json).filter((k) => k !== 'locations')
  if (keys.length === 0) return []
  const point = keys.some((k) => /^(lat|lng|lon|long|latitude|longitude|coordinates)$/i.test(k))
    ? `; each store's point is its own "coordinates": {"lat": ..., "lng": ...}`
    : ''
  const named = keys.map((k) => JSON.stringify(k)).join(', ')
  return [`${file}: its top-level ${named} ${keys.length === 1 ? 'is' : 'are'} not read, only "locations" is${point}.`]
}

/**
 * An item's id as the bulk route reads it: blanks around it aside, a blank one none. The sync
 * matches rows to stores by it too (a renumbering's chain, a store listed twice).
 */
function idAsRead(location: BulkLocation): BulkLocation {
  if (typeof location?.id !== 'string') return location
  const { id, ...rest } = location
  return id.trim() === '' ? rest : { ...rest, id: id.trim() }
}

/**
 * A row whose coordinates could not be read, with a stand-in point: the service checks its other
 * fields without placing its address, whose refusal ("fill in the columns") would be beside the
 * point. Such a row stops the sync, so only the dry runs send it.
 */
function withPointUnread(item: BulkItem): BulkLocation {
  const raw = item.raw as BulkLocation
  const unread = item.unread?.some((u) => u.field?.startsWith('coordinates')) ?? false
  return unread ? { ...raw, coordinates: { lat: 0, lng: 0 } } : raw
}
