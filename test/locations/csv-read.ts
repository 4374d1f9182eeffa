// What the locations CSV tests share: a file's bodies, and the error a file is refused with.
import { readLocationsCsv } from '../../src/locations/csv'
import { CsvError } from '../../src/locations/csv-records'

export const bodies = (input: string | Uint8Array) => readLocationsCsv(input).rows.map((r) => r.body)

export function readError(input: string | Uint8Array): CsvError {
  try {
    readLocationsCsv(input)
  } catch (e) {
    if (e instanceof CsvError) return e
    throw e
  }
  throw new Error('the CSV was read without error')
}
