// `storeloc backup FILE` where FILE is a symbolic link (a backups folder on another disk): the file
// it leads to is written, and the link stays, as restore does with a linked DATABASE_PATH.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
beforeEach(() => {
  dir = tempDir()
  mkdirSync(join(dir, 'backups'))
  mkdirSync(join(dir, 'disk'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const dbPath = () => join(dir, 'live.db')
const { storeloc, json } = cliRunner(dbPath)
/** The link FILE, and the file it leads to. */
const link = () => join(dir, 'backups', 'latest.db')
const real = () => join(dir, 'disk', 'latest.db')
const namesIn = (file: string) =>
  cliRunner(() => file)
    .json('locator', 'list')
    .map((l: { name: string }) => l.name)

test('backup --force through a link replaces the file it leads to, and keeps the link', () => {
  json('locator', 'create', '--name', 'First')
  json('backup', real())
  symlinkSync('../disk/latest.db', link())
  json('locator', 'create', '--name', 'Second')

  const r = storeloc('backup', link(), '--force')
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
  expect(namesIn(real()).sort()).toEqual(['First', 'Second'])
  expect([readdirSync(join(dir, 'backups')), readdirSync(join(dir, 'disk'))]).toEqual([['latest.db'], ['latest.db']])
})

test('backup through a link into another folder names that folder when it removes what killed backups left', () => {
  json('locator', 'create', '--name', 'First')
  symlinkSync('../disk/latest.db', link())
  const partial = `latest.db.partial-${Bun.spawnSync(['true']).pid}` // of a process that ended
  const hourAgo = Date.now() / 1000 - 3600
  writeFileSync(join(dir, 'disk', partial), 'partial')
  utimesSync(join(dir, 'disk', partial), hourAgo, hourAgo)
  const r = storeloc('backup', link())
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  const disk = realpathSync(join(dir, 'disk'))
  expect(r.stdout).toEndWith(`\nRemoved what killed backups left in ${disk}, where ${link()} leads: ${partial}.\n`)
  expect(readdirSync(join(dir, 'disk'))).toEqual(['latest.db'])
})

test('backup through a link to a file not made yet makes the file it leads to', () => {
  json('locator', 'create', '--name', 'First')
  symlinkSync('../disk/latest.db', link())
  const r = storeloc('backup', link())
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
  expect(namesIn(real())).toEqual(['First'])
})

test('backup through a link into a folder not there is refused, naming it; the link stays', () => {
  json('locator', 'create', '--name', 'First')
  symlinkSync('../unmounted/latest.db', link())
  const r = storeloc('backup', link())
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${link()} leads to ${dir}/unmounted/latest.db, whose folder ${dir}/unmounted is not there: mount the disk it is on, or make the folder, or name another file.\n`,
  })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
})

test('a backup or restore FILE that is a link leading back to itself is refused naming the loop', () => {
  json('locator', 'create', '--name', 'First')
  symlinkSync('latest.db', link())
  const loop = `${link()} cannot be opened: it is a symbolic link that leads back to itself (${link()} -> ${link()}).`
  const backup = storeloc('backup', link())
  expect({ code: backup.code, stderr: backup.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${loop} Make the link lead to a file or a folder, or name another file.\n`,
  })
  const restore = storeloc('restore', link())
  expect({ code: restore.code, stderr: restore.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${loop} Make the link lead to the backup, or name the backup itself.\n`,
  })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
})

test('backup through a link that leads through a file is refused naming that file; nothing is written', () => {
  json('locator', 'create', '--name', 'First')
  writeFileSync(join(dir, 'disk', 'notes.txt'), 'notes')
  symlinkSync('../disk/notes.txt/latest.db', link())
  const r = storeloc('backup', link())
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${link()} leads to ${dir}/disk/notes.txt/latest.db, but ${dir}/disk/notes.txt is a file, not a folder, so nothing is under it: make the link lead into a folder, or name another file.\n`,
  })
  expect([readdirSync(join(dir, 'backups')), readdirSync(join(dir, 'disk'))]).toEqual([['latest.db'], ['notes.txt']])
})

test('restore into a DATABASE_PATH link that leads through a file is refused naming that file', () => {
  json('locator', 'create', '--name', 'First')
  json('backup', real())
  writeFileSync(join(dir, 'notes.txt'), 'notes')
  symlinkSync('../notes.txt/live.db', link())
  const r = cliRunner(link).storeloc('restore', real())
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${link()} leads to ${dir}/notes.txt/live.db, but ${dir}/notes.txt is a file, not a folder, so nothing is under it: make the link lead into a folder, or set DATABASE_PATH to another file.\n`,
  })
  expect(readdirSync(join(dir, 'backups'))).toEqual(['latest.db'])
})

test('a backup FILE or DATABASE_PATH link whose target goes back up from a file (`notes.txt/../x.db`) is refused naming it', () => {
  json('locator', 'create', '--name', 'First')
  json('backup', real())
  writeFileSync(join(dir, 'disk', 'notes.txt'), 'notes')
  symlinkSync('../disk/notes.txt/../latest.db', link())
  const leads = `${link()} leads to ${dir}/disk/notes.txt/../latest.db, but ${dir}/disk/notes.txt is a file, not a folder, so nothing is under it: make the link lead into a folder,`
  const backup = storeloc('backup', link())
  expect({ code: backup.code, stderr: backup.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${leads} or name another file.\n`,
  })
  const restore = cliRunner(link).storeloc('restore', real())
  expect({ code: restore.code, stderr: restore.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${leads} or set DATABASE_PATH to another file.\n`,
  })
  expect(readdirSync(join(dir, 'disk')).sort()).toEqual(['latest.db', 'notes.txt'])
})

test('a start on a DATABASE_PATH link that goes up from a file is refused before any database is made', () => {
  writeFileSync(join(dir, 'disk', 'notes.txt'), 'notes')
  symlinkSync('../disk/notes.txt/../new.db', link())
  const p = Bun.spawnSync([process.execPath, join(import.meta.dir, '../../src/storeloc.ts'), 'serve'], {
    env: { ...process.env, DATABASE_PATH: link(), PORT: '0', DEMO: '0', GEOCODER: 'none' },
  })
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({
    code: 3,
    stderr: `Cannot use the database: ${link()} leads to ${dir}/disk/notes.txt/../new.db, but ${dir}/disk/notes.txt is a file, not a folder, so nothing is under it: make the link lead into a folder, or set DATABASE_PATH to another file.\n`,
  })
  expect(readdirSync(join(dir, 'disk'))).toEqual(['notes.txt'])
}, 30_000)
