// storeloc locations import of files as other store locators and listing tools export them
// (test/fixtures/csv): each imports as it is, and its export imports again changing nothing.
import { beforeEach, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Moving').locator.id
})

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))

describe('files from other tools', () => {
  // Keyed: the file has a store's key (wpsl_id, sl_id, Store code, Filialnummer), so importing it again
  // matches its stores; StoreRocket's template has none, and would create them again.
  // What the first two stores of each file hold of what the tool writes its own way.
  type Stored = { external_id: string | null; status: string; tags: string[]; hours: Record<string, string> }
  const FILES: [tool: string, name: string, keyed: boolean, shown: (l: Stored) => unknown, stored: unknown[]][] = [
    [
      'WP Store Locator (CSV Manager)',
      'wpsl-csv-manager.csv',
      true,
      (l) => [l.external_id, l.hours.sunday],
      [
        ['412', 'Closed'],
        ['413', ''],
      ],
    ],
    [
      'Store Locator Plus',
      'store-locator-plus.csv',
      true,
      (l) => [l.external_id, l.tags, l.hours.saturday, l.hours.sunday],
      [
        ['17', ['repairs', 'rentals'], '10am-4pm', 'closed'],
        ['18', ['repairs'], '', ''],
      ],
    ],
    [
      'StoreRocket',
      'storerocket.csv',
      false,
      (l) => [l.status, l.tags],
      [
        ['published', ['Repairs', 'Rentals']],
        ['draft', ['Repairs']],
      ],
    ],
    [
      'Google Business Profile bulk sheet',
      'google-business-profile.csv',
      true,
      (l) => [l.external_id, l.hours.saturday],
      [
        ['CH1', '10:00AM-4:00PM'],
        ['CH2', 'closed'],
      ],
    ],
    [
      'Excel, German, ";"',
      'excel-de.csv',
      true,
      (l) => [l.external_id, l.hours.monday],
      [
        ['101', '9-18'],
        ['102', '09:00-18:30'],
      ],
    ],
  ]
  // The files of the hosted locators a chain most often moves from hold 20 stores; the others 10.
  const TWENTY = new Set(['wpsl-csv-manager.csv', 'storerocket.csv', 'google-business-profile.csv'])
  for (const [tool, name, keyed, shown, stored] of FILES) {
    test(`${tool}: imports as exported, and its export re-imports to no change`, () => {
      const stores = TWENTY.has(name) ? 20 : 10
      const path = file(name, fixture(name))
      expect(json('locations', 'import', locatorId, '--file', path, '--dry-run').created).toBe(stores)
      expect(json('locations', 'import', locatorId, '--file', path).created).toBe(stores)
      expect(json('locations', 'export', locatorId).slice(0, 2).map(shown)).toEqual(stored)
      const exported = storeloc('locations', 'export', locatorId, '--format', 'csv')
      expect(exported.code).toBe(0)
      const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
      expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, stores])
      if (!keyed) return
      const source = json('locations', 'import', locatorId, '--file', path)
      expect([source.created, source.updated, source.unchanged]).toEqual([0, 0, stores])
    })
  }

  test("StoreRocket's hours_id column is a note of the file, not a warning of line 2's store", () => {
    const path = file('storerocket.csv', fixture('storerocket.csv'))
    const dry = json('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(dry.notes).toEqual([expect.stringContaining('The column "hours_id" names hours templates')])
    expect(dry.results.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([])
    const said = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(said.stdout).toContain('The column "hours_id" names hours templates')
    expect(said.stdout).not.toContain('Check 1 location')
  })

  test("a template's opening and closing time columns import as each day's hours; the export re-imports to no change", () => {
    const header =
      'Store Code,Name,Address,Lat,Lng,Mon Open,Mon Close,Mon Open 2,Mon Close 2,Sat Open,Sat Close,Sun Open,Sun Close'
    const rows = [
      'S1,Cycle Hub Leeds,12 Briggate,53.7972,-1.5417,9:00 AM,12:30 PM,1:30 PM,6:00 PM,0.416666667,0.666666667,,',
      'S2,Cycle Hub York,3 Coney Street,53.9591,-1.0842,08:00,17:00,,,,,,',
    ]
    const path = file('template.csv', [header, ...rows].join('\r\n'))
    expect(json('locations', 'import', locatorId, '--file', path).created).toBe(2)
    const stored = json('locations', 'export', locatorId).map((l: { hours: Record<string, string> }) => l.hours)
    expect(stored.map((h: Record<string, string>) => [h.monday, h.saturday, h.sunday, h.tuesday])).toEqual([
      ['9:00 AM-12:30 PM, 1:30 PM-6:00 PM', '10:00-16:00', 'closed', ''],
      ['08:00-17:00', 'closed', 'closed', ''],
    ])
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv')
    const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
    expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, 2])
    const source = json('locations', 'import', locatorId, '--file', path)
    expect([source.created, source.updated, source.unchanged]).toEqual([0, 0, 2])
    // An opening time without its closing time refuses the file, naming the cells.
    const lone = file('lone.csv', `${header}\r\n${rows[1]!.replace('08:00,17:00', '08:00,')}\r\n`)
    const refused = storeloc('locations', 'import', locatorId, '--file', lone)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'The "Mon Open" cell (column F) gives "08:00" but the "Mon Close" cell (column G) is empty.',
    )
  })
})
