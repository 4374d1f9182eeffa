// What the locations CSV tests share: a file's bodies, its rows read wrong as a whole, and the
// error a file is refused with.
import { readLocationsCsv } from '../../src/locations/csv'
import { CsvError } from '../../src/locations/csv-records'

export const bodies = (input: string | Uint8Array) => readLocationsCsv(input).rows.map((r) => r.body)

/** Each row whose cells are not in the header's columns: its line and its problem. */
export const misread = (input: string | Uint8Array) =>
  readLocationsCsv(input).rows.flatMap(({ line, problems }) =>
    problems.filter((p) => p.field === null).map(({ message }) => ({ line, message })),
  )

export function readError(input: string | Uint8Array): CsvError {
  try {
    readLocationsCsv(input)
  } catch (e) {
    if (e instanceof CsvError) return e
    throw e
  }
  throw new Error('the CSV was read without error')
}
