// storeloc locations import of an export that went through a spreadsheet, which keeps 15
// significant digits of a number: its points, rounded so, are the stored ones (nothing to update),
// while a pin moved 1e-7 degrees (1 cm) still moves. Run as a real subprocess against a real file.
import { beforeEach, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Sheet').locator.id
})

/** A number as Excel keeps it: 15 significant digits. */
const sheet = (x: number) => String(Number(x.toPrecision(15)))

test('an export saved from a sheet, its points rounded to 15 digits, imports with nothing to update', () => {
  const rows =
    'external_id,name,address,lat,lng\n' +
    'S1,One,"Marienplatz 1, 80331 München, Germany",48.137431234567891,11.575490123456789\n' +
    'S2,Two,"Government Street 1, Victoria, BC, Canada",48.428421234567891,-123.36543212345678\n'
  json('locations', 'import', locatorId, '--file', file('placed.csv', rows))
  const csv = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
  const points = [...csv.matchAll(/,(-?\d+\.\d+),(-?\d+\.\d+),/g)].map((m) => [Number(m[1]), Number(m[2])])
  expect(points).toHaveLength(2)
  let rounded = csv
  for (const [lat, lng] of points) {
    expect(`${sheet(lat!)},${sheet(lng!)}`).not.toBe(`${lat},${lng}`)
    rounded = rounded.replace(`${lat},${lng}`, `${sheet(lat!)},${sheet(lng!)}`)
  }
  const dry = storeloc('locations', 'import', locatorId, '--file', file('sheet.csv', rounded), '--dry-run')
  expect(dry.code).toBe(0)
  expect(dry.stdout).toContain('0 to create, 0 to update, 2 unchanged, 0 to delete.')
  const real = json('locations', 'import', locatorId, '--file', file('sheet.csv', rounded))
  expect(real).toMatchObject({ created: 0, updated: 0, unchanged: 2 })
  // The stored points keep their digits: the export is the same as before.
  expect(storeloc('locations', 'export', locatorId, '--format', 'csv').stdout).toBe(csv)
  // A pin moved 1e-7 degrees is a move, rounded or not.
  const [lat] = points[0]!
  const moved = rounded.replace(`${sheet(lat!)},`, `${sheet(lat! + 1e-7)},`)
  const pin = json('locations', 'import', locatorId, '--file', file('moved.csv', moved))
  expect(pin).toMatchObject({ updated: 1, unchanged: 1 })
  expect(pin.results[0]).toMatchObject({ action: 'updated', changes: ['coordinates'] })
  const stored = (json('locations', 'export', locatorId) as { coordinates: { lat: number } }[])[0]!
  expect(stored.coordinates.lat).toBe(Number(sheet(lat! + 1e-7)))
})
