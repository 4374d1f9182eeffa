// An export's text (GET /admin/v1/locations/export, `locations export`): a locator's locations as
// the Management API's JSON or as CSV, read from one moment of the file a slice at a time, with
// the event loop free between slices: a server answers queries while it exports 50,000 stores.
import type { Store } from '../store'
import type { LocationStatus } from '../store/locations'
import { eachSlice } from '../store/snapshot'
import { type CsvStyle, csvWriter } from './csv-write'
import { toAdminLocation } from './service'

/** Locations a slice: a few milliseconds of reading and writing text each. */
export const EXPORT_SLICE = 200

export type ExportFormat = { format: 'json'; indent: number } | { format: 'csv'; style: CsvStyle }

const utf8 = new TextEncoder()

/**
 * Writes the export's text in pieces to `write`, UTF-8, which joined are a JSON array of the
 * locator's locations (JSON.stringify with `indent`) or a CSV file, of `status` only unless null.
 * Each piece is encoded as it is made: a whole export's text would take about 0.1 s to encode at
 * 50,000 stores. Throws a CsvWriteError for a value a CSV cell cannot hold, and the database's errors.
 */
export async function exportTo(
  store: Store,
  locatorId: string,
  status: LocationStatus | null,
  format: ExportFormat,
  write: (piece: Uint8Array) => void,
): Promise<void> {
  const snapshot = store.snapshot()
  try {
    const csv = format.format === 'csv' ? csvWriter(snapshot.customFieldIds(locatorId), format.style) : null
    const indent = format.format === 'json' ? format.indent : 0
    let slices = 0
    write(utf8.encode(csv === null ? '[' : csv.header()))
    const read = (afterSeq: number, limit: number) => snapshot.locations(locatorId, status, afterSeq, limit)
    await eachSlice(snapshot, EXPORT_SLICE, read, (records) => {
      const locations = records.map(toAdminLocation)
      const text = csv !== null ? csv.rows(locations) : `${slices > 0 ? ',' : ''}${arrayItems(locations, indent)}`
      slices++
      write(utf8.encode(text))
    })
    if (csv === null) write(utf8.encode(slices > 0 && indent > 0 ? '\n]' : ']'))
  } finally {
    snapshot.close()
  }
}

/** The items of JSON.stringify(values, null, indent) without its brackets: slices joined by ',' make the whole. */
function arrayItems(values: readonly unknown[], indent: number): string {
  const text = JSON.stringify(values, null, indent)
  return indent > 0 ? text.slice(1, -2) : text.slice(1, -1)
}
