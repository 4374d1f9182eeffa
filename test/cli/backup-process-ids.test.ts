// A killed backup's copy is named by its process's id: a later backup tells an id no process can
// have from an id that runs.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { json } = cliRunner(() => dbPath)
const partials = () =>
  readdirSync(dir)
    .filter((f) => f.includes('.partial'))
    .sort()

/** Writes each file in `dir`, last changed `secondsAgo`. */
function leave(names: string[], secondsAgo: number): string[] {
  const then = Date.now() / 1000 - secondsAgo
  for (const name of names) {
    writeFileSync(join(dir, name), 'partial')
    utimesSync(join(dir, name), then, then)
  }
  return names
}

/** `name` in the test's folder, whole, as --json names a removed copy. */
const whole = (name: string) => join(realpathSync(dir), name)

test('a copy named by id 0, or an id past any process, goes once unchanged for minutes', () => {
  json('locator', 'create', '--name', 'Kept')
  const stale = leave(['a.db.partial-0-Ab12Cd', 'b.db.partial-2147483648', 'c.db.partial-99999999999-Qw34Er'], 11 * 60)
  const fresh = leave(['d.db.partial-4294967296-Zx56Cv'], 60)
  const r = json('backup', join(dir, 'copy.db'))
  expect(r.removed_partials).toEqual(stale.map(whole).sort())
  expect(partials()).toEqual(fresh)
})
