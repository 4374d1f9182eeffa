// storeloc locations import of a store list's lines: how a refused line is worded, and the lines
// a sheet keeps above its header.
import { beforeEach, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dir, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Lines').locator.id
})

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

describe('a refused line', () => {
  test('a store code given twice reads as a sentence: the same store code as the line before', () => {
    const csv = 'Store Code;Name;Address;Lat;Lng\r\nF040;A;a;52,5;13,4\r\nF040;B;b;52,5;13,4\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('twice.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '  line 3 (external_id "F040"): the same store code as line 2; give each external_id once.\n',
    )
  })
})
