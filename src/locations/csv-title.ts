// The header of a locations CSV below a sheet's title lines: found when the lines above it are
// plainly titles, and what is said of the lines skipped.
import { columnField } from './csv-columns'
import { at, type CsvError, filledCells, lineShown, type RawRecord } from './csv-records'

/** How many lines below a header that names no field are looked at for the real one. */
const HEADER_SEARCH = 10
/** A line above the header is a title (a sheet's name, a date) when it fills at most this many cells. */
const TITLE_CELLS = 2

/** The cells of a record that name a field: two or more make it a header. */
const namedCells = (r: RawRecord) => r.cells.filter((cell) => cell !== '' && columnField(cell) !== null)

/**
 * Where the header is when the first line names no field: the first of the next lines naming two
 * fields or more, when the lines above it are titles (a sheet's name, its date); else the refusal.
 */
export function headerBelow(first: RawRecord, records: RawRecord[]): number {
  const found = titledHeader(first, records)
  if (found >= 0) return found
  throw noHeader(first, records)
}

/** headerBelow's header, or -1 for its refusal. */
export function titledHeader(first: RawRecord, records: RawRecord[]): number {
  const found = records.slice(0, HEADER_SEARCH).findIndex((r) => namedCells(r).length >= 2)
  const above = [first, ...records.slice(0, Math.max(found, 0))]
  return found >= 0 && above.every((r) => filledCells(r).length <= TITLE_CELLS) ? found : -1
}

/** The warning of the title lines taken for no row: what they held, so a store among them is seen. */
export function skippedNote(above: RawRecord[], header: RawRecord): string {
  const lines = above.filter((r) => filledCells(r).length > 0)
  const which =
    lines.length === 1
      ? `line ${lines[0]!.line} (${lineShown(lines[0]!)}) was`
      : `lines ${lines.map((r) => r.line).join(', ')} (${lines.map(lineShown).join(', ')}) were`
  const move = lines.length === 1 ? 'If it is a store' : 'If a store is among them'
  return `The header is line ${header.line}: ${which} above it and read as no store. ${move}, move it below the header.`
}

/** The refusal of a first line that names no field: a title above the header, or no header. */
function noHeader(first: RawRecord, records: RawRecord[]): CsvError {
  const header = records.slice(0, HEADER_SEARCH).find((r) => namedCells(r).length >= 2)
  if (header !== undefined) {
    return at(
      first.line,
      `the first line is read as the header, but it names no location field; line ${header.line} does (${namedCells(header).join(', ')}). Delete the lines above line ${header.line}.`,
    )
  }
  return at(
    first.line,
    'the first line is read as the header, but it names no location field. Name the columns in the first line, for example external_id,name,address,lat,lng (docs/cli.md lists them).',
  )
}
