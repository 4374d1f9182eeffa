// What examples/sync.ts finds in the list itself, before any request: the rows that list a store
// twice, and the ids that name no store of the locator (matched by their codes instead).
import { bareCode } from '../src/core/text'
import type { Row, Stored } from './sync-parts'

/**
 * The rows that list a store again, each with its problem: the code of an earlier row (compared
 * as the service compares codes, bareCode), or its id. Requests are checked apart: a code given
 * twice in two of them would go unnoticed, and an id twice is one store listed twice (one of its
 * rows renumbering it), however far apart.
 */
export function listedTwice(rows: Row[]): Map<Row, { label: string; message: string }> {
  const twice = new Map<Row, { label: string; message: string }>()
  const firstOf = new Map<string, Row>()
  const firstWithId = new Map<string, Row>()
  for (const r of rows) {
    const code = r.location.external_id as string
    const id = r.location.id
    const first = firstOf.get(bareCode(code)) ?? (typeof id === 'string' ? firstWithId.get(id) : undefined)
    if (first === undefined) {
      firstOf.set(bareCode(code), r)
      if (typeof id === 'string') firstWithId.set(id, r)
      continue
    }
    // As the bulk route says it of rows in one request; a line given twice is said so.
    const problem =
      JSON.stringify(first.location) === JSON.stringify(r.location)
        ? `repeats ${first.label}; give each store once.`
        : firstOf.get(bareCode(code)) === first
          ? `the same store code as ${first.label}; give each external_id once.`
          : `the same location (${id}) as ${first.label}; give each store once.`
    twice.set(r, { label: r.label, message: `${r.label} (external_id ${JSON.stringify(code)}): ${problem}` })
  }
  return twice
}

/**
 * Notes, on each row whose id names no store of the locator (`stored`), that the route matches it
 * by its store code instead, or makes it anew: an id from another locator's export, or of a store
 * deleted since, is otherwise matched silently.
 */
export function idsOfNoStore(rows: Row[], stored: Stored[]): void {
  const ids = new Set(stored.map((s) => s.id))
  const codes = new Set(stored.flatMap((s) => (s.external_id === null ? [] : [bareCode(s.external_id)])))
  for (const r of rows) {
    const id = typeof r.location.id === 'string' ? r.location.id.trim() : ''
    if (id === '' || ids.has(id)) continue
    const code = r.location.external_id as string
    const then = codes.has(bareCode(code))
      ? `it is matched by its store code ${JSON.stringify(code)} instead`
      : `no store has its store code ${JSON.stringify(code)} either, so it is made anew`
    r.notes.push(`its id ${id} names no store of this locator: ${then}. Check that the id column is this locator's export's.`)
  }
}
