// A locations CSV's id column beside its store codes: read as ids of this service, as store codes
// when most of its cells are none, or not at all, and what is said of each reading.
import { LOCATION_ID } from '../core/ids'
import { clipped } from '../core/text'
import { cellText } from './csv-cells'
import { fallbackField } from './csv-columns'
import type { Column } from './csv-header'
import type { RawRecord } from './csv-records'
import { idCell } from './csv-values'

/**
 * An id cell as its row reads it (csv-row.ts readRow): a formula of one text is that text
 * ("=\"loc_1\"" is loc_1), an id in capitals is the id (csv-values.ts idCell), so a cell is
 * judged an id or none as its row is matched.
 */
const idText = (cell: string | undefined): string => idCell(cellText(cell ?? '')).trim()

/** The column's filled cells: how many are ids of this service (loc_...), how many are not. */
function idCounts(records: readonly RawRecord[], column: number): { ours: number; others: number } {
  let ours = 0
  let others = 0
  for (const r of records) {
    const cell = idText(r.cells[column])
    if (cell === '') continue
    if (LOCATION_ID.test(cell)) ours++
    else others++
  }
  return { ours, others }
}

/**
 * A file's own "ID" column (Shopify's, a back office's) holds its store codes, not ids of ours:
 * the external_id when no column gives that and most of its filled cells are no ids of this
 * service; its cells that are one are then refused, each naming itself (idsAmongCodes), as the
 * other reading refuses its cells that are none: either way the few cells are named, and no row
 * is matched by what it does not hold. Beside a column of store codes an id column of no ids of
 * ours is no key rows are matched by: not read, and what is said of it returned.
 */
export function readIdColumn(
  columns: Column[],
  headerOf: Map<string, string>,
  below: readonly RawRecord[],
): { foreign: string | null; idsAmongCodes: string | null } {
  const id = columns.findIndex((c) => c.field === 'id')
  if (id < 0) return { foreign: null, idsAmongCodes: null }
  const counts = idCounts(below, id)
  if (!headerOf.has('external_id') && holdsCodes(counts)) {
    headerOf.delete('id')
    headerOf.set('external_id', columns[id]!.header)
    columns[id]!.field = 'external_id'
    return { foreign: null, idsAmongCodes: counts.ours === 0 ? null : codeIdProblem(columns[id]!.header, counts) }
  }
  const foreign = counts.ours === 0 ? foreignIds(columns, id, below) : null
  if (foreign !== null) {
    headerOf.delete('id')
    columns[id]!.field = null
  }
  return { foreign: foreign ?? mixedIds(columns, id, below), idsAmongCodes: null }
}

/** A tie is read as ids, as an export writes them. */
const holdsCodes = ({ ours, others }: { ours: number; others: number }): boolean => others > ours

/** Whether the file's id column holds store codes more than ids of this service: readIdColumn's external_id where no column gives it. */
export function idColumnOfCodes(columns: readonly Column[], below: readonly RawRecord[]): boolean {
  const id = columns.findIndex((c) => c.field === 'id')
  return id >= 0 && holdsCodes(idCounts(below, id))
}

/** The problem of a row whose cell in an id column read as store codes is an id of this service. */
function codeIdProblem(header: string, { ours, others }: { ours: number; others: number }): string {
  const filled = (ours + others).toLocaleString('en')
  return `The "${header}" column is read as store codes (external_id): ${others.toLocaleString('en')} of its ${filled} filled cells are no ids of this service (loc_...), but this one is. Write in its place the store code this location has, if it has one (another code would create it a second time); or name this column external_id and move the ids to an id column of their own; or delete the row.`
}

/**
 * What is said of an id column beside store codes read as ids, a cell of it being one of this
 * service's, whose other cells are not: those rows are matched by their store codes, as a row's id
 * that names no location gives way to its external_id, but for a row with no store code or a
 * delete row, which is refused (bulk-check.ts, bulk-removals.ts). Null when every filled cell is an id.
 */
function mixedIds(columns: readonly Column[], id: number, below: readonly RawRecord[]): string | null {
  const code = columns.find((c) => c.field === 'external_id')
  if (code === undefined) return null
  const others = below.filter((r) => {
    const cell = idText(r.cells[id])
    return cell !== '' && !LOCATION_ID.test(cell)
  })
  if (others.length === 0) return null
  const header = columns[id]!.header
  const first = others[0]!
  const shown = `${JSON.stringify(clipped(first.cells[id]!.trim()))} on line ${first.line}`
  const which =
    others.length === 1
      ? `1 of its cells is none (${shown}): that row is matched by its store code in the "${code.header}" column (with no store code, or deleting its store, it would be refused)`
      : `${others.length} of its cells are none (${shown}, ...): those rows are matched by their store codes in the "${code.header}" column (a row of them with no store code, or deleting its store, would be refused)`
  return `The "${header}" column is read as ids of this service (loc_...), but ${which}. Clear the cells that are no ids of this service.`
}

/**
 * What is said of an id column none of whose cells is an id of this service ("7") beside a column
 * of store codes: not read, as a row's id that names no location gives way to its external_id.
 * Null when no column gives the external_id, or the column has no filled cell.
 */
function foreignIds(columns: readonly Column[], id: number, below: readonly RawRecord[]): string | null {
  const code = columns.find((c) => c.field === 'external_id')
  const first = below.find((r) => idText(r.cells[id]) !== '')
  if (code === undefined || first === undefined) return null
  const header = columns[id]!.header
  return `The "${header}" column is not read: its cells (${JSON.stringify(clipped(first.cells[id]!.trim()))} on line ${first.line}) are no ids of this service (loc_...), and rows are matched by the "${code.header}" column. Delete the "${header}" column, or name it for what it holds.`
}

/**
 * What is said of a file with a store code column and WP Store Locator's wpsl_id beside it: the
 * code is the external_id, the wpsl_id not read; stores an import of its wpsl_id alone made have
 * that as their external_id, and are not matched. Null for any other file.
 */
export function codesBeside(columns: readonly Column[]): string | null {
  const code = columns.find((c) => c.field === 'external_id')
  const other = columns.find((c) => c.field === null && fallbackField(c.header) === 'external_id')
  if (code === undefined || other === undefined) return null
  return `The "${other.header}" column is not read: the "${code.header}" column gives the rows' external_id, and rows are matched by it. Stores an import of the "${other.header}" column alone made have their ${other.header} as their external_id, and a row whose store code matches none makes its store again: import with one of the two columns, or give those stores their store codes first (locations export, fill in external_id, import that file: its rows match by id).`
}
