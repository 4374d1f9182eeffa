// storeloc locations import of rows that cannot be placed: the advice names the file's own
// coordinate columns, and a misspelt town's likely name.
import { beforeEach, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dir, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

function file(content: string): string {
  const path = join(dir, 'lost.csv')
  writeFileSync(path, content)
  return path
}

test("an address that cannot be placed: the advice names the file's coordinate columns, and a misspelt town's guess", () => {
  const csv = 'Name,Address,Latitude,Longitude\nLost,Qqzx Xyzzy Vvw,,\nTypo,"1 Princes Street, Edinbrugh",,\n'
  const r = storeloc('locations', 'import', locatorId, '--file', file(csv))
  expect(r.code).toBe(1)
  expect(r.stderr).toContain(
    `line 2 ("Lost"): The address "Qqzx Xyzzy Vvw" could not be geocoded. Fix the address or fill in the row's "Latitude" and "Longitude" columns.`,
  )
  expect(r.stderr).toContain('Did you mean Edinburgh, United Kingdom? Fix the address')
  expect(r.stderr).not.toContain('{"lat"')
})

test('an address that cannot be placed in a file of one coordinates column: the advice names that column', () => {
  // The second row's point makes "Coordinates" the file's column of both coordinates.
  const csv = 'Name,Address,Coordinates\nLost,"Qwxyzz 12, Blorptown",\nFound,"1 High St, Leeds","53.7997, -1.5492"\n'
  const r = storeloc('locations', 'import', locatorId, '--file', file(csv))
  expect(r.code).toBe(1)
  expect(r.stderr).toContain(
    `line 2 ("Lost"): The address "Qwxyzz 12, Blorptown" could not be geocoded. Fix the address or fill in the row's "Coordinates" column.`,
  )
  expect(r.stderr).not.toContain('"lat"')
})

test("an address that cannot be placed in the row's country: the refusal names the country its postcode and town are in", () => {
  // The Country column filled down a sheet: a Munich store marked France.
  const csv =
    'Store Code,Name,Street,Zip,City,Country\nM1,Marienplatz,Marienplatz 1,80331,München,France\nM2,Nowhere,Qqzx 1,,Blorptown,France\n'
  const r = storeloc('locations', 'import', locatorId, '--file', file(csv), '--dry-run')
  expect(r.code).toBe(1)
  expect(r.stderr).toContain(
    `line 2 (external_id "M1"): The address "Marienplatz 1, 80331 München, France" could not be geocoded. Fix the address or fill in the row's "lat" and "lng" columns. Its postcode and town, 80331 München, are in Germany, not France: check the row's country.`,
  )
  // A town no country has gets no such line.
  expect(r.stderr).not.toContain('Blorptown, are in')
})
