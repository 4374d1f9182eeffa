// A build of the geocoder's data that fails midway (a full disk, a step that throws) leaves no
// temporary file behind: on the database's own disk, it would keep that disk full.
import { expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildGeodata } from '../../src/geocode/embedded/build'
import { tempDir } from '../helpers'

test('a build that fails midway removes its temporary files and makes no data file', async () => {
  const dir = tempDir()
  try {
    const out = join(dir, 'geocoder.sqlite')
    // Step 1 comes after the places are read and the file is made; the later steps only add rows
    // to that same file, at a core's work for tens of seconds.
    const failing = buildGeodata(out, (index) => {
      if (index === 1) throw new Error('No space left on device')
    })
    await expect(failing).rejects.toThrow('No space left on device')
    expect(readdirSync(dir)).toEqual([])
    expect(existsSync(out)).toBe(false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
