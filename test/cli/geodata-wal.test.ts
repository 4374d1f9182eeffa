// The geocoder's data file in WAL mode (opened once by a tool that set it), with no -wal beside
// it: a command reads it without making a -wal and -shm beside it, as every read-only open of a
// file there does (store/read-open).
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded'
import { tempDir } from '../helpers'

const root = join(import.meta.dir, '..', '..')
let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

test('a geocode on data in WAL mode with no -wal leaves nothing beside the data file', () => {
  const geodata = join(dir, 'geo', 'geocoder.sqlite')
  mkdirSync(join(dir, 'geo'))
  copyFileSync(join(root, DEFAULT_GEODATA_PATH), geodata)
  const tool = new Database(geodata)
  expect(tool.query<{ journal_mode: string }, []>('PRAGMA journal_mode = WAL').get()?.journal_mode).toBe('wal')
  tool.close() // its last close removes the -wal and -shm
  expect(readdirSync(join(dir, 'geo'))).toEqual(['geocoder.sqlite'])

  const p = Bun.spawnSync(
    [process.execPath, join(root, 'src/cli/main.ts'), 'geocode', 'Unter den Linden 77, Berlin', '--json'],
    {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: join(dir, 'storeloc.db'), GEODATA_PATH: geodata, GEOCODER: 'embedded' },
    },
  )
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(p.stdout.toString()).parts.city).toBe('Berlin')
  expect(readdirSync(join(dir, 'geo'))).toEqual(['geocoder.sqlite'])
})
