// storeloc locations import --encoding naming an encoding the file's bytes cannot be in: the
// refusal says what the bytes are and what to type instead, nothing imported.
import { beforeEach, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Misnamed').locator.id
})

const CSV = 'name,address,lat,lng\nCafé,1 Rue,48.87,2.33\n'

/** The refusal of `bytes` imported with `--encoding label`, after the file's path. */
function refusal(bytes: Uint8Array, label: string): string {
  const path = file('stores.csv', bytes)
  const r = storeloc('locations', 'import', locatorId, '--file', path, '--encoding', label)
  expect(r.code).toBe(1)
  expect(json('locations', 'export', locatorId)).toEqual([])
  return r.stderr.trim().replace(`storeloc: Nothing was imported: ${path} cannot be read as CSV: `, '')
}

test('UTF-8 named us-ascii or UTF-16: the refusal says to leave out --encoding', () => {
  const utf8 = new TextEncoder().encode(CSV)
  expect(refusal(utf8, 'us-ascii')).toBe(
    'The file is named ASCII ("us-ascii"), but it holds bytes beyond ASCII. Its bytes are UTF-8, which is read when no encoding is named: leave out --encoding.',
  )
  expect(refusal(utf8, 'utf-16le')).toBe(
    'The file is named UTF-16 ("utf-16le"), but it is not: UTF-16 writes a NUL byte beside each comma, digit and line break, and it has none. Its bytes are UTF-8, which is read when no encoding is named: leave out --encoding.',
  )
})

test('Windows-1252 named us-ascii: the refusal says to save it as UTF-8, or to give --encoding windows-1252', () => {
  expect(refusal(new Uint8Array(Buffer.from(CSV, 'latin1')), 'us-ascii')).toBe(
    'The file is named ASCII ("us-ascii"), but it holds bytes beyond ASCII. Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and leave out --encoding. Or, if it is Windows-1252 (most back offices in the West), give its encoding: --encoding windows-1252.',
  )
})

test('UTF-16 without its byte order mark named another encoding: the refusal names the UTF-16 it is in', () => {
  const le = new Uint8Array(Buffer.from(CSV, 'utf16le'))
  const save = 'Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and leave out --encoding.'
  expect(refusal(le, 'us-ascii')).toBe(
    `The file is named "us-ascii", but it is UTF-16 text without its byte order mark (a NUL byte beside each ASCII letter). ${save} Or give its encoding: --encoding utf-16le.`,
  )
  expect(refusal(le, 'windows-1252')).toBe(
    `The file is named "windows-1252", but it is UTF-16 text without its byte order mark (a NUL byte beside each ASCII letter). ${save} Or give its encoding: --encoding utf-16le.`,
  )
  const be = le.map((_, i) => le[i ^ 1]!)
  expect(refusal(be, 'utf-16le')).toBe(
    `The file is named "utf-16le", but it is UTF-16 text without its byte order mark (a NUL byte beside each ASCII letter). ${save} Or give its encoding: --encoding utf-16be.`,
  )
})
