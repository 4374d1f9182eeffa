// A DATABASE_PATH that leads into a loop of symbolic links (a link to itself, two links to each
// other, a folder link to itself): the CLI and a start name the link and where it leads, not
// SQLite's bare "unable to open database file", nor "No database at".
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { bunOn, run } from './as-user'

let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const mend = 'Make the link lead to the database file or its folder, or set DATABASE_PATH to the file itself.'

test('a database path in a loop of links: the CLI and a start say which link leads back to itself', () => {
  const a = join(dir, 'a.db')
  const b = join(dir, 'b.db')
  symlinkSync('b.db', a) // relative, as `ln -s` is often given
  symlinkSync(a, b)
  const said = `${a} cannot be opened: it is a symbolic link that leads back to itself (${a} -> ${b} -> ${a}). ${mend}`
  for (const argv of [['locator', 'list'], ['doctor'], ['backup', join(dir, 'copy.db')]]) {
    const r = run([...bunOn('cli/main.ts'), ...argv], a)
    expect({ argv, ...r }).toEqual({ argv, code: 1, stdout: '', stderr: `storeloc: ${said}\n` })
  }
  const start = run([...bunOn('main.ts')], a, {}, 15_000)
  expect(start.code).toBe(3)
  expect(start.stderr).toContain(`Cannot use the database at ${a}: unable to open database file. ${said}`)
})

test('a folder of the database path that is a link to itself is named', () => {
  const folder = join(dir, 'data')
  symlinkSync(folder, folder)
  const database = join(folder, 'storeloc.db')
  const said = `${database} cannot be opened: its folder ${folder} is a symbolic link that leads back to itself (${folder} -> ${folder}). ${mend}`
  const list = run([...bunOn('cli/main.ts'), 'locator', 'list'], database)
  expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const made = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'A'], database)
  expect(made.code).toBe(1)
  expect(made.stderr).toEndWith(`${said}\n`)
  const start = run([...bunOn('main.ts')], database, {}, 15_000)
  expect(start.code).toBe(3)
  expect(start.stderr).toContain(said)
})

test('a folder link in a loop followed by .. in the path is named, not the path .. would make', () => {
  const folder = join(dir, 'data')
  symlinkSync(folder, folder)
  // The system follows data before .. can take it back: the path cannot be reached at all.
  const database = `${folder}/../storeloc.db`
  const said = `${database} cannot be opened: its folder ${folder} is a symbolic link that leads back to itself (${folder} -> ${folder}). ${mend}`
  const list = run([...bunOn('cli/main.ts'), 'locator', 'list'], database)
  expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
})
