// A store opened for reading alone (openStore's readOnly) with no -wal beside the file: immutable,
// its reads take no lock, so a process that opens and writes the file meanwhile may tear them.
// changedSinceOpen says so, for the caller to read again; through a -wal, reads are as any other's.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { rotatePublicToken } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')
let dir: string
let path: string
let locatorId: string
/** The CLI's `argv` on the database, in a process of its own: its last close removes the -wal. */
function cli(...argv: string[]): string {
  const env = { ...process.env, DATABASE_PATH: path, GEOCODER: 'none', DEMO: '0' }
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'src', 'cli', 'main.ts'), ...argv], { cwd: ROOT, env })
  expect(p.stderr.toString()).toBe('')
  return p.stdout.toString()
}
beforeEach(() => {
  dir = tempDir()
  path = join(dir, 'storeloc.db')
  locatorId = JSON.parse(cli('locator', 'create', '--name', 'Shop', '--json')).locator.id
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

test('opened with no -wal, a write by another connection since is told', () => {
  expect(existsSync(`${path}-wal`)).toBe(false)
  const reader = openStore(path, true, false, true)
  try {
    expect(reader.locators.get(locatorId)?.name).toBe('Shop')
    expect(reader.changedSinceOpen()).toBe(false)
    // Another process opened, wrote and closed: its checkpoint wrote the file, the -wal is gone.
    cli('locator', 'set', locatorId, '--name', 'Other')
    expect(existsSync(`${path}-wal`)).toBe(false)
    expect(reader.changedSinceOpen()).toBe(true)
  } finally {
    reader.close()
  }
})

test('an open by another connection is told: it may write the file at any checkpoint', () => {
  const reader = openStore(path, true, false, true)
  const writer = openStore(path)
  try {
    expect(reader.changedSinceOpen()).toBe(true)
  } finally {
    writer.close()
    reader.close()
  }
})

test('opened through a -wal that is there, its reads take locks: nothing to tell', () => {
  const writer = openStore(path)
  const reader = openStore(path, true, false, true)
  try {
    rotatePublicToken(writer, locatorId)
    expect(reader.changedSinceOpen()).toBe(false)
  } finally {
    reader.close()
    writer.close()
  }
})
