// GET /admin/v1/locations/export: every location of the locator at once, as JSON or as the CSV
// that `locations import` and the bulk route read back with nothing changed.
import { single } from '../../core/urlencoded'
import { writeLocationsCsv } from '../../locations/csv'
import { type AdminDeps, exportLocations } from '../../locations/service'
import { AdminError } from './errors'

const once = (params: URLSearchParams, name: string) =>
  single(params, name, (tail) => new AdminError('invalid_request', `The ${name} parameter ${tail}`))

/** The export's answer: a JSON body, or a CSV file (Content-Disposition: attachment). */
export function exportAnswer(deps: AdminDeps, locatorId: string, params: URLSearchParams): unknown {
  const format = once(params, 'format') ?? 'json'
  if (format !== 'json' && format !== 'csv')
    throw new AdminError('invalid_request', `The format parameter must be json or csv; got ${JSON.stringify(format)}.`)
  const locations = exportLocations(deps, locatorId, once(params, 'status'))
  if (format === 'json') return { success: true, locations }
  let csv: string
  try {
    csv = writeLocationsCsv(
      locations,
      deps.store.customFields.list(locatorId).map((f) => f.id),
    )
  } catch (e) {
    // A tag holding "|", the tags separator, cannot be written so that it reads back the same.
    throw new AdminError('invalid_request', `${(e as Error).message} Export as JSON (format=json), or rename the tag.`)
  }
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="locations-${locatorId}.csv"`,
    },
  })
}
