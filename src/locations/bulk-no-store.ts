// delete_missing and the lines of a file read as no store (a totals row, a dump's count of its
// rows): such a line whose cell is the store code or the name of a location it would delete may
// be that store's row cut short, so the request is refused naming the line, never the store deleted.
import { nameKey } from '../core/text'
import type { BulkWords } from './bulk'
import { type Coded, codeSaid, sameCode } from './bulk-codes'
import { filledCells, lineShown, type RawRecord } from './csv-records'
import { LocationError } from './errors'

/** The location of `going` that line `r` names by a cell: its store code, or its name as a person reads it. */
function namedBy(r: RawRecord, going: readonly Coded[]): Coded | undefined {
  const cells = filledCells(r).map((cell) => cell.trim())
  const names = new Set(cells.map(nameKey).filter((key) => key !== ''))
  return going.find((l) => cells.some((cell) => sameCode(cell, l.externalId)) || names.has(nameKey(l.name)))
}

/** "line 4", "lines 4 and 5", "lines 4, 5 and 6". */
const linesSaid = (lines: readonly number[]) =>
  lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`

/**
 * Refuses delete_missing when a line read as no store (`noStore`) names a location it would delete
 * (`going`): one refusal of the request, a line of it for each such line.
 */
export function refuseNamedNoStore(going: readonly Coded[], noStore: readonly RawRecord[], words: BulkWords): void {
  if (going.length === 0 || noStore.length === 0) return
  const named = noStore.flatMap((r) => {
    const location = namedBy(r, going)
    return location === undefined ? [] : [{ r, location }]
  })
  if (named.length === 0) return
  const n = new Set(named.map(({ location }) => location.id)).size
  const one = named.length === 1
  throw new LocationError(
    'validation_error',
    `${words.deleteMissing} would delete ${n === 1 ? 'a location' : `${n} locations`} that ${linesSaid(named.map(({ r }) => r.line))} ${one ? 'names' : 'name'}, though ${one ? 'it was' : 'they were'} read as no store; nothing was written.`,
    {
      delete_missing: named.map(
        ({ r, location }) =>
          `Refused: line ${r.line} (${lineShown(r)}) was read as no store (a totals row, or a count of the rows above it), but it names the location ${JSON.stringify(location.name)} (external_id ${codeSaid(location.externalId)}), which nothing else in ${words.sent} keeps. If line ${r.line} is that store, write its row in full, with its name and its address or coordinates; if not, delete line ${r.line}. Then send it again.`,
      ),
    },
  )
}
