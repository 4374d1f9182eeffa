// What every listener's answers carry, whichever part of the service made them.

/**
 * The headers every answer carries: no guessing its type from its bytes; and a Management API
 * answer (drafts, contacts), or an error, is no cache's to keep unless it says otherwise (`admin`:
 * always). The public fast path's answers have them already.
 */
export function harden(response: Response, admin: boolean): Response {
  const { headers } = response
  if (!headers.has('x-content-type-options')) headers.set('x-content-type-options', 'nosniff')
  if ((admin || response.status >= 400) && !headers.has('cache-control')) headers.set('cache-control', 'no-store')
  return response
}
