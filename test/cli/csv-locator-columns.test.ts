// storeloc locations import of columns other locators' files share with everyday sheets: a tags
// column by its own name, further address lines in any order, two region columns.
import { beforeEach, describe, expect, test } from 'bun:test'
import { file, json, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Columns').locator.id
})

const imported = (name: string, text: string) => json('locations', 'import', locatorId, '--file', file(name, text))
const stored = () => json('locations', 'export', locatorId)

describe('a column named Tags', () => {
  test('of numbers alone is read as tags, whatever its case', () => {
    const text =
      'external_id,name,address,lat,lng,Tags\nN1,North,1 Briggate,53.8,-1.54,1|2|3\nN2,South,2 Briggate,53.7,-1.5,7\n'
    const read = imported('tags.csv', text)
    expect([read.created, read.unknown_columns ?? [], read.notes ?? []]).toEqual([2, [], []])
    expect(stored().map((l: { tags: string[] }) => l.tags)).toEqual([['1', '2', '3'], ['7']])
  })
})
