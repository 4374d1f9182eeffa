// What may lie where a build of the geocoder's data writes: a folder made by mistake at a name
// the build needs. It ends no start with a stack trace.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ensureGeodata, GeodataPathError } from '../../src/geocode/embedded'
import { buildFile, removeStaleBuilds } from '../../src/geocode/embedded/build-files'
import { tempDir } from '../helpers'

let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The name this process's build file would have, were it the file of process `pid`, which has ended. */
function endedBuildFile(out: string): string {
  const pid = Bun.spawnSync(['true']).pid
  return buildFile(out).replace(`.${process.pid}-`, `.${pid}-`)
}

test("a folder where the data, its journal or this build's file goes: refused in one line naming it, the folder kept", async () => {
  const out = join(dir, 'geocoder.sqlite')
  for (const folder of [out, `${out}-journal`, buildFile(out), `${buildFile(out)}-journal`]) {
    mkdirSync(folder)
    const said: string[] = []
    const start = ensureGeodata(out, (line) => said.push(line))
    await expect(start).rejects.toBeInstanceOf(GeodataPathError)
    await expect(start).rejects.toThrow(`${folder} is a folder,`)
    expect(said).toEqual([]) // refused before any build began
    expect(readdirSync(dir)).toEqual([basename(folder)])
    rmSync(folder, { recursive: true })
  }
})

test("a folder named like a killed build's file is no build's: a start steps around it and keeps it", () => {
  const out = join(dir, 'geocoder.sqlite')
  const folder = endedBuildFile(out)
  const file = endedBuildFile(out)
  mkdirSync(folder)
  writeFileSync(file, 'SQLite format 3\u0000')
  removeStaleBuilds(out)
  expect(readdirSync(dir)).toEqual([basename(folder)])
})
