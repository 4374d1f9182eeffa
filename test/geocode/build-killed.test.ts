// A start killed while it builds the geocoder's data leaves its temporary file (as large as the
// data) beside GEODATA_PATH: the next start removes it, and builds the data again where it is
// missing. Which process wrote a leftover is in its name; one that is no longer running wrote none
// still being written.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../../src/geocode/embedded'
import { GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { geodataVersion } from '../../src/geocode/embedded/ensure'
import { tempDir } from '../helpers'

const root = join(import.meta.dir, '..', '..')
let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The id of a process that has ended. */
function endedPid(): number {
  const p = Bun.spawnSync(['true'])
  return p.pid
}

test('a build killed midway leaves its temporary file; the next start removes it and builds the data', async () => {
  const out = join(dir, 'geocoder.sqlite')
  const build = Bun.spawn([process.execPath, join(root, 'src/geocode/embedded/build.ts'), out], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const tmp = `${out}.${build.pid}.tmp`
  // Killed once it has written its first pages.
  while (!existsSync(tmp) || statSync(tmp).size === 0) await Bun.sleep(20)
  build.kill('SIGKILL')
  await build.exited
  expect(readdirSync(dir)).toContain(`geocoder.sqlite.${build.pid}.tmp`)
  expect(existsSync(out)).toBe(false)

  await ensureGeodata(out)
  expect(readdirSync(dir)).toEqual(['geocoder.sqlite'])
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
}, 180_000)

test('data of this version there already: the leftovers of a build killed beside it are removed, the data kept', async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  const pid = endedPid()
  writeFileSync(`${out}.${pid}.tmp`, 'SQLite format 3\u0000')
  writeFileSync(`${out}.${pid}.tmp-journal`, '')
  // Not a build's: another name, or a running process's (this one's parent, never this one).
  writeFileSync(join(dir, 'geocoder.sqlite.notes'), 'kept')
  writeFileSync(`${out}.${process.ppid}.tmp`, '')
  await ensureGeodata(out)
  expect(readdirSync(dir).sort()).toEqual(
    ['geocoder.sqlite', 'geocoder.sqlite.notes', `geocoder.sqlite.${process.ppid}.tmp`].sort(),
  )
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
})
