// The lines a database's dump writes around its rows that are no stores: SQL Server's sqlcmd
// and PostgreSQL's psql rule the header off with dashes and count the rows below them ("(2 rows
// affected)", "(2 rows)"), SAP's list output rules them off above and below, and back offices'
// exports end with their count ("*** 2 Datensätze ***").
import { filledCells, type RawRecord } from './csv-records'

/**
 * Whether a line is a ruler, as under a header or below the rows: each filled cell dashes or
 * equals signs (SAP's list output, "|-----|", leaves an empty cell either side), crossed by "+"
 * where the columns meet (psql's "-----+-----", which no "|" splits).
 */
export function rulerLine(r: RawRecord): boolean {
  const filled = filledCells(r)
  return filled.length > 0 && filled.every((cell) => /^(?:-{2,}|={2,})(?:\+(?:-{2,}|={2,}))*$/.test(cell))
}

/**
 * Whether a line of one cell below `rows` rows counts them, as a dump's last line does: the
 * number of rows in its text. A line of one cell that counts nothing is a row cut short.
 */
export function countLine(r: RawRecord, rows: number): boolean {
  const filled = filledCells(r)
  if (filled.length !== 1 || r.cells.length > 1) return false
  const numbers = filled[0]!.match(/\d+(?:[.,']\d{3})*/g) ?? []
  return numbers.length === 1 && Number(numbers[0]!.replace(/[.,']/g, '')) === rows
}
