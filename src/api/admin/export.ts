// GET /admin/v1/locations/export: every location of the locator at once, as JSON or as the CSV
// that `locations import` and the bulk route read back with nothing changed.
import { CsvWriteError } from '../../locations/csv-write'
import { exportTo } from '../../locations/export'
import { weighted } from '../../core/weighted'
import { type AdminDeps, exportQuery } from '../../locations/service'
import { AdminError } from './errors'
import { Spool, spoolDir } from './spool'

const utf8 = new TextEncoder()

/** The export's answer: a JSON body, or a CSV file (Content-Disposition: attachment). */
export async function exportAnswer(deps: AdminDeps, locatorId: string, request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams
  // Without a format the answer is chosen by Accept, and says so to caches (RFC 9110 12.5.5).
  const byAccept = !query.has('format')
  const { format, status, style } = exportQuery(byAccept ? negotiated(query, request) : query)
  // Written whole before the answer starts: a value CSV cannot hold is still a 400, and the
  // database's read ends however slowly the client takes the answer.
  const spool = new Spool(spoolDir(deps.store.path))
  const write = (piece: Uint8Array) => spool.write(piece)
  try {
    if (format === 'json') {
      write(utf8.encode('{"success":true,"locations":'))
      await exportTo(deps.store, locatorId, status, { format, indent: 0 }, write)
      write(utf8.encode('}'))
    } else await exportTo(deps.store, locatorId, status, { format, style }, write)
  } catch (e) {
    spool.discard()
    // A value that would not read back as written (a tag holding "|", the tags separator); a
    // database error goes on to the app's handler (503 busy or damaged).
    if (!(e instanceof CsvWriteError)) throw e
    throw new AdminError('invalid_request', `${e.message} Or export as JSON (format=json).`)
  }
  const headers: Record<string, string> =
    format === 'json'
      ? { 'content-type': 'application/json;charset=utf-8' } // as Elysia's other answers
      : {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="locations-${locatorId}.csv"`,
        }
  if (byAccept) headers.vary = 'Accept'
  return new Response(spool.body(), { headers })
}

/**
 * A query that names no format, with format=csv when Accept ranks text/csv above all else
 * (`curl -H "Accept: text/csv"`); "*\/*" (fetch, curl) keeps JSON.
 */
function negotiated(params: URLSearchParams, request: Request): URLSearchParams {
  let best = ''
  let bestQ = 0
  for (const { item, q } of weighted(request.headers.get('accept'))) if (q > bestQ) [best, bestQ] = [item, q]
  if (best === 'text/csv') params.set('format', 'csv')
  return params
}
