// GET /admin/v1/locations/export: every location of the locator at once, as JSON or as the CSV
// that `locations import` and the bulk route read back with nothing changed.
import { CsvWriteError } from '../../locations/csv-write'
import { exportText } from '../../locations/export'
import { type AdminDeps, exportQuery } from '../../locations/service'
import { AdminError } from './errors'

/** The export's answer: a JSON body, or a CSV file (Content-Disposition: attachment). */
export async function exportAnswer(deps: AdminDeps, locatorId: string, params: URLSearchParams): Promise<Response> {
  const { format, status, style } = exportQuery(params)
  if (format === 'json') {
    const items = await exportText(deps.store, locatorId, status, { format, indent: 0 })
    return new Response(new Blob(['{"success":true,"locations":', ...items, '}']), {
      headers: { 'content-type': 'application/json;charset=utf-8' }, // as Elysia's other answers
    })
  }
  let csv: Uint8Array[]
  try {
    csv = await exportText(deps.store, locatorId, status, { format, style })
  } catch (e) {
    // A value that would not read back as written (a tag holding "|", the tags separator); a
    // database error goes on to the app's handler (503 busy or damaged).
    if (!(e instanceof CsvWriteError)) throw e
    throw new AdminError('invalid_request', `${e.message} Or export as JSON (format=json).`)
  }
  return new Response(new Blob(csv), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="locations-${locatorId}.csv"`,
    },
  })
}
