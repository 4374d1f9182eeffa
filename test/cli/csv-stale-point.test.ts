// storeloc locations import of an export whose address was changed but not its point, imported
// twice: the second run reads the point as the one the new address replaced and leaves the store
// where the first run put it. Run as a real subprocess against a real database file.
import { beforeEach, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

type Exported = { external_id: string; address: string; coordinates: { lat: number; lng: number } }
const exported = (code: string) =>
  (json('locations', 'export', locatorId) as Exported[]).find((l) => l.external_id === code)!

const BERLIN = 'Friedrichstraße 120, 10117 Berlin, Germany'
const HAMBURG = 'Jungfernstieg 10, 20354 Hamburg, Germany'

test('an edited export imported twice: the store stays at its new address, and its export imports unchanged', () => {
  const placed = `external_id,name,address\nS1,One,"${BERLIN}"\nS2,Two,"Marienplatz 1, 80331 München, Germany"\n`
  json('locations', 'import', locatorId, '--file', file('placed.csv', placed))
  const berlin = exported('S1').coordinates
  const csv = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
  expect(csv).toContain(`${berlin.lat},${berlin.lng}`)
  const edited = file('edited.csv', csv.replace(BERLIN, HAMBURG))
  const first = json('locations', 'import', locatorId, '--file', edited)
  expect(first).toMatchObject({ updated: 1, unchanged: 1 })
  const hamburg = exported('S1')
  expect(hamburg.address).toBe(HAMBURG)
  expect(hamburg.coordinates.lat).toBeCloseTo(53.55, 1)
  const second = storeloc('locations', 'import', locatorId, '--file', edited)
  expect(second.code).toBe(0)
  expect(second.stdout).toContain('0 created, 0 updated, 2 unchanged, 0 deleted.')
  expect(second.stdout).toContain(
    `line 2 (external_id "S1"): The coordinates sent are its former address's point, replaced when its address changed: the location stays at its address's point.`,
  )
  expect(exported('S1')).toEqual(hamburg)
  const again = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
  const back = json('locations', 'import', locatorId, '--file', file('again.csv', again))
  expect(back).toMatchObject({ created: 0, updated: 0, unchanged: 2 })
  expect(back.results.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([])
})

test('a pin of its own beside the new address moves the store; the old point sent after it is a pin as well', () => {
  json('locations', 'import', locatorId, '--file', file('placed.csv', `external_id,name,address\nS1,One,"${BERLIN}"\n`))
  const csv = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
  const { lat, lng } = exported('S1').coordinates
  const edited = file('edited.csv', csv.replace(BERLIN, HAMBURG))
  json('locations', 'import', locatorId, '--file', edited)
  const pin = csv.replace(BERLIN, HAMBURG).replace(`${lat},${lng}`, '53.5534,9.9921')
  const pinned = json('locations', 'import', locatorId, '--file', file('pin.csv', pin))
  expect(pinned.results[0]).toMatchObject({ action: 'updated', changes: ['coordinates', 'geocoding'] })
  expect(exported('S1').coordinates).toEqual({ lat: 53.5534, lng: 9.9921 })
  const old = json('locations', 'import', locatorId, '--file', edited)
  expect(old.results[0]).toMatchObject({ action: 'updated', changes: ['coordinates'] })
  expect(exported('S1').coordinates).toEqual({ lat, lng })
})
