// GEODATA_PATH left out, a command run elsewhere than the service's folder (cron, a shell): the
// geocoder's data beside the database is read, not built again under that folder. Run as a real
// subprocess, from one temporary folder, on a database in another.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded'
import { tempDir } from '../helpers'
import { dbPath, dir, json, useTempDatabase } from './temp-database'

const root = join(import.meta.dir, '..', '..')
const cli = [process.execPath, join(root, 'src/cli/main.ts')]

useTempDatabase()
/** Where the command is typed: no data of this version there. */
let here: string
beforeEach(() => {
  here = tempDir()
})
afterEach(() => rmSync(here, { recursive: true, force: true }))

/** The test run's data, beside the database: as the unit's StateDirectory holds both. */
const dataBeside = () => {
  const beside = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), beside)
  return beside
}

/** A geocoder data file of another version at `path`: its meta table alone. */
function otherVersion(path: string): void {
  const db = new Database(path)
  db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('version', '5')")
  db.close()
}

/** The CLI run in `here` with DATABASE_PATH and without GEODATA_PATH, or with `geodata`. */
function typedHere(argv: string[], geodata?: string) {
  const given: Record<string, string | undefined> = { ...process.env, DATABASE_PATH: dbPath, GEODATA_PATH: geodata }
  if (geodata === undefined) delete given.GEODATA_PATH
  const p = Bun.spawnSync([...cli, ...argv], { cwd: here, env: given })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

const reading = (beside: string) =>
  `GEODATA_PATH is not set and data/geocoder.sqlite under ${here} holds no geocoder data of this version: reading the database's folder's, ${beside}.\n`

describe('GEODATA_PATH left out, no data here', () => {
  test('geocode reads the data beside the database, and says so on standard error alone', () => {
    json('locator', 'create', '--name', 'Shop') // the database the service has
    const beside = dataBeside()
    writeFileSync(join(here, 'data'), '') // a file where data/ would be made: no build may go here
    const p = typedHere(['geocode', 'Berlin, Germany', '--json'])
    expect(p.stderr).toBe(reading(beside))
    expect(p.code).toBe(0)
    expect(JSON.parse(p.stdout)).toMatchObject({ source: 'embedded', parts: { city: 'Berlin' } })
    expect(readFileSync(join(here, 'data'), 'utf8')).toBe('')
  })

  test('a relative DATABASE_PATH, a quote and a space in its folder: the data in that folder is read', () => {
    const folder = join(here, "the shop's data")
    mkdirSync(folder)
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(folder, 'geocoder.sqlite'))
    writeFileSync(join(here, 'data'), '')
    const env = { ...process.env, DATABASE_PATH: "the shop's data/s.db", GEODATA_PATH: undefined }
    const p = Bun.spawnSync([...cli, 'geocode', 'Berlin, Germany', '--json'], { cwd: here, env })
    expect(p.stderr.toString()).toBe(reading(join(folder, 'geocoder.sqlite')))
    expect(JSON.parse(p.stdout.toString())).toMatchObject({ source: 'embedded', parts: { city: 'Berlin' } })
  })

  test('an import of rows with coordinates reads it, its town looked up in it; data of another version here stays', () => {
    const { locator } = json('locator', 'create', '--name', 'Shop')
    const beside = dataBeside()
    mkdirSync(join(here, 'data'))
    otherVersion(join(here, 'data', 'geocoder.sqlite'))
    const csv = join(here, 'stores.csv')
    writeFileSync(csv, 'name,address,lat,lng\nGate,Pariser Platz 1,52.51628,13.37770\n')
    const p = typedHere(['locations', 'import', locator.id, '--file', csv, '--json'])
    expect(p.stderr).toBe(reading(beside))
    expect(p.code).toBe(0)
    expect(JSON.parse(p.stdout)).toMatchObject({ success: true, created: 1 })
    // Placed by the reverse lookup of the data: its postcode's area.
    expect(json('locations', 'export', locator.id)).toMatchObject([{ geocoding: { source: 'reverse' } }])
    expect(new Database(join(here, 'data', 'geocoder.sqlite')).query('SELECT value FROM meta').get()).toEqual({
      value: '5',
    })
  })

  test('a database reached through a symbolic link: the data beside its real file is read, not beside the link', () => {
    json('locator', 'create', '--name', 'Shop')
    const beside = dataBeside()
    const links = join(here, 'links')
    mkdirSync(links)
    symlinkSync(dbPath, join(links, 'shop.db'))
    writeFileSync(join(here, 'data'), '')
    const env = { ...process.env, DATABASE_PATH: join(links, 'shop.db'), GEODATA_PATH: undefined }
    const p = Bun.spawnSync([...cli, 'geocode', 'Berlin, Germany', '--json'], { cwd: here, env })
    expect(p.stderr.toString()).toBe(reading(beside))
    expect(p.exitCode).toBe(0)
    expect(JSON.parse(p.stdout.toString())).toMatchObject({ source: 'embedded', parts: { city: 'Berlin' } })
    expect(existsSync(join(links, 'geocoder.sqlite'))).toBe(false)
  })

  test("the service's DATABASE_PATH a link to another disk, through a relative link: the data beside the link is read", () => {
    json('locator', 'create', '--name', 'Shop')
    // The unit's folder holds the data and a link to the database moved elsewhere (no data there).
    const state = join(here, 'state')
    const mid = join(here, 'mid')
    mkdirSync(state)
    mkdirSync(mid)
    symlinkSync(dbPath, join(mid, 'shop.db'))
    symlinkSync(join('..', 'mid', 'shop.db'), join(state, 'storeloc.db'))
    const beside = join(state, 'geocoder.sqlite')
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), beside)
    writeFileSync(join(here, 'data'), '')
    const env = { ...process.env, DATABASE_PATH: join(state, 'storeloc.db'), GEODATA_PATH: undefined }
    const p = Bun.spawnSync([...cli, 'geocode', 'Berlin, Germany', '--json'], { cwd: here, env })
    expect(p.stderr.toString()).toBe(reading(beside))
    expect(p.exitCode).toBe(0)
    expect(JSON.parse(p.stdout.toString())).toMatchObject({ source: 'embedded', parts: { city: 'Berlin' } })
    expect(existsSync(join(dir, 'geocoder.sqlite'))).toBe(false)
  })

  test('GEODATA_PATH set is read alone: no data there is built there, not looked for beside the database', () => {
    json('locator', 'create', '--name', 'Shop')
    dataBeside()
    writeFileSync(join(here, 'data'), '') // the build GEODATA_PATH asks for cannot go here
    const p = typedHere(['geocode', 'Berlin, Germany'], join(here, 'data', 'geocoder.sqlite'))
    expect(p.code).toBe(1)
    expect(p.stderr).not.toContain("reading the database's folder's")
    const asked = join(here, 'data', 'geocoder.sqlite')
    expect(p.stderr).toStartWith(
      `storeloc: Could not build the offline geocoder data at ${asked}: ${asked} cannot be reached: ${here}/data is a file`,
    )
  })

  test('data of another version beside the database: not read, and named when none can be made here', () => {
    json('locator', 'create', '--name', 'Shop')
    const beside = join(dir, 'geocoder.sqlite')
    otherVersion(beside)
    writeFileSync(join(here, 'data'), '')
    const p = typedHere(['geocode', 'Berlin'])
    expect(p.code).toBe(1)
    expect(p.stderr).not.toContain("reading the database's folder's")
    expect(p.stderr).toEndWith(
      ` GEODATA_PATH is not set, so this command looked under ${here}. The database's folder has the data: ${beside}. Run it as GEODATA_PATH=${beside} storeloc geocode Berlin --database ${dbPath}, the service's setting.\n`,
    )
    expect(existsSync(join(here, 'data', 'geocoder.sqlite'))).toBe(false)
  })

  test('doctor: a folder at data/geocoder.sqlite here is named as where the data goes unset, not as GEODATA_PATH', () => {
    json('locator', 'create', '--name', 'Shop')
    mkdirSync(join(here, 'data', 'geocoder.sqlite'), { recursive: true })
    const p = typedHere(['doctor', '--json'])
    const check = JSON.parse(p.stdout).checks.find((c: { check: string }) => c.check === 'geocoder data')
    expect({ code: p.code, problems: check.problems }).toEqual({
      code: 1,
      problems: [
        {
          problem: `data/geocoder.sqlite, where the geocoder's data goes when GEODATA_PATH is not set (under the folder this runs in, ${here}), is a folder: a service run here does not start (exit 3), as it builds the geocoder's data only where no file is.`,
          fix: "Move that folder away, or run this in the service's folder, or set GEODATA_PATH as the service's is.",
        },
      ],
    })
  })

  test('a database in memory has no folder: a geocoder.sqlite in the current one is not read as its', () => {
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(here, 'geocoder.sqlite'))
    writeFileSync(join(here, 'data'), '')
    const env = { ...process.env, DATABASE_PATH: ':memory:', GEODATA_PATH: undefined }
    const p = Bun.spawnSync([...cli, 'geocode', 'Berlin, Germany', '--json'], { cwd: here, env })
    expect(p.stderr.toString()).not.toContain("reading the database's folder's")
    expect(p.stderr.toString()).toBe('')
    expect(JSON.parse(p.stdout.toString()).message).toStartWith(
      `Could not build the offline geocoder data at data/geocoder.sqlite, GEODATA_PATH's default, under the folder this runs in (${here}): data/geocoder.sqlite cannot be reached: ${here}/data is a file`,
    )
    expect(p.exitCode).toBe(1)
  })
})
