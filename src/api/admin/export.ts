// GET /admin/v1/locations/export: every location of the locator at once, as JSON or as the CSV
// that `locations import` and the bulk route read back with nothing changed.
import { writeLocationsCsv } from '../../locations/csv'
import { type AdminDeps, exportLocations, exportQuery } from '../../locations/service'
import { AdminError } from './errors'

/** The export's answer: a JSON body, or a CSV file (Content-Disposition: attachment). */
export function exportAnswer(deps: AdminDeps, locatorId: string, params: URLSearchParams): unknown {
  const { format, status, style } = exportQuery(params)
  const locations = exportLocations(deps, locatorId, status)
  if (format === 'json') return { success: true, locations }
  let csv: string
  try {
    csv = writeLocationsCsv(
      locations,
      deps.store.customFields.list(locatorId).map((f) => f.id),
      style,
    )
  } catch (e) {
    // A value that would not read back as written (a tag holding "|", the tags separator).
    throw new AdminError('invalid_request', `${(e as Error).message} Or export as JSON (format=json).`)
  }
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="locations-${locatorId}.csv"`,
    },
  })
}
