// `storeloc restore` with DATABASE_PATH a link to the database file elsewhere (another disk), a
// layout operations.md gives: the file the link leads to is replaced, and the link stays.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { cliRunner, serverUrl, startServer, tempDir } from '../helpers'

let dir: string
beforeEach(() => {
  dir = tempDir()
  mkdirSync(join(dir, 'live'))
  mkdirSync(join(dir, 'disk'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The service's DATABASE_PATH, and the file it leads to. */
const link = () => join(dir, 'live', 'storeloc.db')
const real = () => join(dir, 'disk', 'storeloc.db')
const byLink = cliRunner(link)
const byFile = cliRunner(real)
const names = () => byFile.json('locator', 'list').map((l: { name: string }) => l.name)

test('a restore through a link to the database replaces the file it leads to, and keeps the link', () => {
  byFile.json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  byFile.json('backup', copy)
  byFile.json('locator', 'create', '--name', 'Dropped')
  symlinkSync('../disk/storeloc.db', link())

  const r = byLink.storeloc('restore', copy)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
  expect(names()).toEqual(['Kept'])
  expect([readdirSync(join(dir, 'live')), readdirSync(join(dir, 'disk'))]).toEqual([['storeloc.db'], ['storeloc.db']])
})

test('a restore through a link into another folder names that folder when it removes what killed restores left', () => {
  byFile.json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  byFile.json('backup', copy)
  symlinkSync('../disk/storeloc.db', link())
  const left = `storeloc.db.restoring-${Bun.spawnSync(['true']).pid}` // of a process that ended
  const hourAgo = Date.now() / 1000 - 3600
  writeFileSync(join(dir, 'disk', left), 'copy')
  utimesSync(join(dir, 'disk', left), hourAgo, hourAgo)
  const r = byLink.storeloc('restore', copy)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  const disk = realpathSync(join(dir, 'disk'))
  expect(r.stdout).toEndWith(`\nRemoved what killed restores left in ${disk}, where ${link()} leads: ${left}.\n`)
  expect(readdirSync(join(dir, 'disk'))).toEqual(['storeloc.db'])
})

test('a restore through a link to a file not made yet makes the file it leads to', () => {
  const source = join(dir, 'source.db')
  cliRunner(() => source).json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  cliRunner(() => source).json('backup', copy)
  symlinkSync('../disk/storeloc.db', link())

  const r = byLink.storeloc('restore', copy)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(lstatSync(link()).isSymbolicLink()).toBe(true)
  expect(names()).toEqual(['Kept'])
})

test('a restore through a link to the database a server has open is refused, the file left', async () => {
  byFile.json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  byFile.json('backup', copy)
  symlinkSync('../disk/storeloc.db', link())
  const server = startServer(link(), { LOG_REQUESTS: '0', DEMO: '0', GEOCODER: 'none' })
  try {
    await serverUrl(server)
    const inode = statSync(real()).ino
    const r = byLink.storeloc('restore', copy)
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: expect.stringMatching(new RegExp(`^storeloc: ${link()} is in use by process ${server.proc.pid} `)),
    })
    expect([statSync(real()).ino, lstatSync(link()).isSymbolicLink()]).toEqual([inode, true])
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
}, 30_000)

test('a restore through a link into a folder not there (a disk not mounted) is refused as a start is, the link kept', () => {
  const source = join(dir, 'source.db')
  cliRunner(() => source).json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  cliRunner(() => source).json('backup', copy)
  symlinkSync('../mnt/storeloc.db', link())

  const r = byLink.storeloc('restore', copy)
  const folder = join(dir, 'mnt')
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${link()} leads to ${folder}/storeloc.db, whose folder ${folder} is not there: mount the disk it is on, or make the folder (mkdir -p ${folder}) writable by the service's user, or set DATABASE_PATH to another file.\n`,
  })
  expect([lstatSync(link()).isSymbolicLink(), readdirSync(dir).sort()]).toEqual([
    true,
    ['copy.db', 'disk', 'live', 'source.db'],
  ])
})

test('a restore through a link that leads back to itself is refused naming the link', () => {
  const source = join(dir, 'source.db')
  cliRunner(() => source).json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  cliRunner(() => source).json('backup', copy)
  symlinkSync('storeloc.db', link())

  const r = byLink.storeloc('restore', copy)
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${link()} cannot be opened: it is a symbolic link that leads back to itself (${link()} -> ${link()}). Make the link lead to the database file or its folder, or set DATABASE_PATH to the file itself.\n`,
  })
})

test('a DATABASE_PATH under a link to a folder not there (a disk not mounted) is refused naming the folder', () => {
  const source = join(dir, 'source.db')
  cliRunner(() => source).json('locator', 'create', '--name', 'Kept')
  const copy = join(dir, 'copy.db')
  cliRunner(() => source).json('backup', copy)
  symlinkSync('../mnt/storeloc', join(dir, 'live', 'data'))
  const under = join(dir, 'live', 'data', 'storeloc.db')
  const folder = join(dir, 'mnt', 'storeloc')
  const said = `${under} leads to ${folder}/storeloc.db, whose folder ${folder} is not there: mount the disk it is on, or make the folder (mkdir -p ${folder}) writable by the service's user, or set DATABASE_PATH to another file.`
  const r = cliRunner(() => under).storeloc('restore', copy)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const made = cliRunner(() => under).storeloc('locator', 'create', '--name', 'New')
  expect({ code: made.code, stderr: made.stderr.replace(/^storeloc: .*?\(database [^)]*\)\. /, '') }).toEqual({
    code: 1,
    stderr: `${said}\n`,
  })
  expect([lstatSync(join(dir, 'live', 'data')).isSymbolicLink(), readdirSync(dir).sort()]).toEqual([
    true,
    ['copy.db', 'disk', 'live', 'source.db'],
  ])
})
