// A GEODATA_PATH that is a symbolic link: the data is built at the file it leads to and the link
// stays, or, where that file cannot be reached (through a file, into a folder not there, a loop),
// the start is refused in one line naming the link and where it leads, the link kept.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureGeodata, GeodataPathError } from '../../src/geocode/embedded'
import { GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { geodataVersion } from '../../src/geocode/embedded/ensure'
import { tempDir } from '../helpers'

let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The start's refusal for the data at `path`, with what it said meanwhile: nothing, as no build began. */
async function refusal(path: string): Promise<string> {
  const said: string[] = []
  const start = ensureGeodata(path, (line) => said.push(line))
  await expect(start).rejects.toBeInstanceOf(GeodataPathError)
  expect(said).toEqual([])
  return String(await start.catch((e: Error) => e.message))
}

test('a link through a file: refused naming the link, its target and the file; the link kept', async () => {
  writeFileSync(join(dir, 'notes'), 'a file')
  const link = join(dir, 'geocoder.sqlite')
  symlinkSync('notes/geocoder.sqlite', link)
  expect(await refusal(link)).toBe(
    `Could not build the offline geocoder data at ${link}: ${link} leads to ${join(dir, 'notes', 'geocoder.sqlite')}, but ${join(dir, 'notes')} is a file, not a folder, so nothing is under it: make the link lead into a folder, or point GEODATA_PATH at another file (or set GEOCODER=none to run without it).`,
  )
  expect(readlinkSync(link)).toBe('notes/geocoder.sqlite')
  expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', 'notes'])
})

test('a link into a folder that is not there (a disk not mounted): refused naming the folder; nothing made', async () => {
  const link = join(dir, 'geocoder.sqlite')
  const target = join(dir, 'disk', 'geo', 'geocoder.sqlite')
  symlinkSync(target, link)
  expect(await refusal(link)).toBe(
    `Could not build the offline geocoder data at ${link}: ${link} leads to ${target}, whose folder ${join(dir, 'disk', 'geo')} is not there: mount the disk it is on, or make that folder, or point GEODATA_PATH at another file (or set GEOCODER=none to run without it).`,
  )
  expect(readlinkSync(link)).toBe(target)
  expect(readdirSync(dir)).toEqual(['geocoder.sqlite'])
})

test('a link that leads back to itself: refused in one line; the link kept', async () => {
  const link = join(dir, 'geocoder.sqlite')
  symlinkSync('geocoder.sqlite', link)
  expect(await refusal(link)).toContain('is a symbolic link that leads back to itself')
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
})

test('build.ts run alone on a link through a file: refused in one line, the link kept', () => {
  writeFileSync(join(dir, 'notes'), 'a file')
  const link = join(dir, 'geocoder.sqlite')
  symlinkSync('notes/geocoder.sqlite', link)
  const p = Bun.spawnSync([process.execPath, join(import.meta.dir, '../../src/geocode/embedded/build.ts'), link], {
    timeout: 120_000,
  })
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({
    code: 1,
    stderr: `Could not build the offline geocoder data at ${link}: ${link} leads to ${join(dir, 'notes', 'geocoder.sqlite')}, but ${join(dir, 'notes')} is a file, not a folder, so nothing is under it: make the link lead into a folder, or point GEODATA_PATH at another file (or set GEOCODER=none to run without it).\n`,
  })
  expect(readlinkSync(link)).toBe('notes/geocoder.sqlite')
}, 150_000)

test('the doctor says a start refuses a link into a folder that is not there, and leaves the link', () => {
  const link = join(dir, 'geocoder.sqlite')
  const target = join(dir, 'disk', 'geocoder.sqlite')
  symlinkSync(target, link)
  const storeloc = (...argv: string[]) =>
    Bun.spawnSync([process.execPath, join(import.meta.dir, '../../src/storeloc.ts'), ...argv], {
      env: { ...process.env, DATABASE_PATH: join(dir, 'shop.db'), GEODATA_PATH: link, GEOCODER: 'embedded' },
    })
  expect(storeloc('locator', 'create', '--name', 'Shop').exitCode).toBe(0)
  const doctor = storeloc('doctor', '--json')
  expect(doctor.exitCode).toBe(1)
  const checks: { check: string; problems: { problem: string; fix: string }[] }[] = JSON.parse(
    doctor.stdout.toString(),
  ).checks
  expect(checks.find((c) => c.check === 'geocoder data')?.problems).toEqual([
    {
      problem: `${link} leads to ${target}, whose folder ${join(dir, 'disk')} is not there: mount the disk it is on, or make that folder, or point GEODATA_PATH at another file (or set GEOCODER=none to run without it). The service does not start with it (exit 3): it builds the data only where the link leads.`,
      fix: 'Mend the link, or set GEODATA_PATH to the file it should lead to (the start builds it there).',
    },
  ])
  expect(readlinkSync(link)).toBe(target)
}, 60_000)

test('a link to a file not made yet, in a folder that is there: the data is built there, the link kept', async () => {
  mkdirSync(join(dir, 'disk'))
  const link = join(dir, 'geocoder.sqlite')
  const target = join(dir, 'disk', 'geocoder.sqlite')
  symlinkSync('disk/geocoder.sqlite', link)
  const said: string[] = []
  await ensureGeodata(link, (line) => said.push(line))
  expect(said[0]).toStartWith(`Preparing the offline geocoder data in ${target} (where ${link} leads) `)
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(readlinkSync(link)).toBe('disk/geocoder.sqlite')
  expect(geodataVersion(target)).toBe(GEODATA_VERSION)
  expect(readdirSync(join(dir, 'disk'))).toEqual(['geocoder.sqlite']) // no build file left
  // Read again through the link: nothing more to build.
  const again: string[] = []
  await ensureGeodata(link, (line) => again.push(line))
  expect(again).toEqual([])
}, 180_000) // a build: a minute and more on a loaded machine
