// A first start builds the offline geocoder's data (several seconds) in a worker thread: it shows
// each step, written over the last on a terminal and as plain lines otherwise, and /healthz
// answers "starting" meanwhile.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readlinkSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/core/config'
import { startInTerminal, startOnFreePort, startServer, tempDir } from './helpers'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const STEP = /^ {2}step (\d) of 5: [a-z ]+ \(\d+ s\)$/

test('not on a terminal, over an empty file: a line a step, in order; /healthz answers "starting" while it builds; what a stopped build left is removed', async () => {
  // A build stopped midway by a process that is gone leaves its temporary file and journal.
  const gone = Bun.spawn(['true'])
  const host = `${hostname().replace(/[^\w-]/g, '_')}-pid${readlinkSync('/proc/self/ns/pid').slice(5, -1)}` // this machine, as a build file's name says it
  await gone.exited
  const left = [`plain-geo.sqlite.${host}.${gone.pid}.tmp`, `plain-geo.sqlite.${host}.${gone.pid}.tmp-journal`].map(
    (f) => join(dir, f),
  )
  for (const file of left) writeFileSync(file, 'left by a stopped build')
  writeFileSync(join(dir, 'plain-geo.sqlite'), '') // an empty file holds nothing: built over
  // The port is reached before the server says where it listens: /healthz during the build.
  const { server, port } = await startOnFreePort(
    join(dir, 'plain.db'),
    { DEMO: '0', GEODATA_PATH: join(dir, 'plain-geo.sqlite') },
    /Preparing the offline geocoder data/,
  )
  try {
    const health: string[] = []
    while (!server.lines.some((l) => l.startsWith('Offline geocoder ready'))) {
      // No time limit of its own: a reply that waited for the build counts no "starting", and fails below.
      const res = await fetch(`http://127.0.0.1:${port}/healthz`)
      health.push(((await res.json()) as { status: string }).status)
      await Bun.sleep(200)
    }
    expect(health.filter((s) => s === 'starting').length).toBeGreaterThan(3)
    await server.waitFor(/"listening"/)
    const steps = server.lines.filter((l) => STEP.test(l)).map((l) => Number(STEP.exec(l)![1]))
    expect(steps).toEqual([1, 2, 3, 4, 5])
    expect(server.lines.some((l) => l.includes('\r'))).toBe(false)
    for (const file of left) expect(existsSync(file)).toBe(false)
  } finally {
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)
  }
}, 180_000) // builds the data: 44 s of this test here at load 13

test('on a terminal: the steps are written over each other on one line, then cleared', async () => {
  const server = startInTerminal(join(dir, 'tty.db'), { DEMO: '0', GEODATA_PATH: join(dir, 'tty-geo.sqlite') })
  try {
    // Each step writes as it begins; a step of a loaded machine's build may write nothing for a minute.
    const ready = await server.waitFor(/Offline geocoder ready/, 90_000)
    // The line that ends in "ready" holds every step, each after a carriage return and an erase.
    const parts = ready.split('\r\x1b[K')
    expect(parts.slice(1, 6).map((p) => STEP.exec(p)?.[1])).toEqual(['1', '2', '3', '4', '5'])
    expect(parts.at(-1)).toStartWith('Offline geocoder ready: ')
    expect(server.lines.filter((l) => STEP.test(l))).toEqual([])
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
}, 180_000) // builds the data: 24 s of this test here at load 13

test('GEODATA_PATH naming a file that is not the data, or the database, is refused in one line; the file is left as it was', async () => {
  const database = join(dir, 'kept.db')
  // Made by a start that builds no geocoder data: that takes seconds, over 30 on a loaded machine.
  const first = startServer(database, { DEMO: '0', PORT: '0', GEOCODER: 'none' })
  await first.waitFor(/"listening"/)
  first.proc.kill('SIGTERM')
  expect(await first.proc.exited).toBe(0)
  const before = readFileSync(database)
  // A backup of the database, named as the geocoder's data by mistake: it was built over before.
  const backup = join(dir, 'backup.db')
  copyFileSync(database, backup)
  // A SQLite file cut short, as a copy of the geocoder's data stopped midway: said to be one that
  // cannot be read. Its first two pages name more.
  const cut = join(dir, 'cut-geo.sqlite')
  expect(before.length).toBeGreaterThan(8192)
  writeFileSync(cut, before.subarray(0, 8192))
  const folder = join(dir, 'a-folder')
  mkdirSync(folder)
  for (const [geodata, message] of [
    [backup, `${backup} is not the offline geocoder's data, so it is left as it is.`],
    [folder, `${folder} is a folder, not the offline geocoder's data, so it is left as it is.`],
    [cut, `${cut} is a SQLite file that cannot be read (damaged, or cut short), so it is left as it is.`],
    [database, 'GEODATA_PATH and DATABASE_PATH name one file'],
  ] as const) {
    const server = Bun.spawn([process.execPath, join(import.meta.dir, '..', 'src/main.ts')], {
      cwd: join(import.meta.dir, '..'),
      env: { ...process.env, DATABASE_PATH: database, GEODATA_PATH: geodata, DEMO: '0', PORT: '0' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const stderr = await new Response(server.stderr).text()
    expect(await server.exited).not.toBe(0)
    expect(stderr).toContain(message)
    expect(stderr).not.toContain('    at ') // one line, no stack trace
  }
  expect(readFileSync(backup)).toEqual(before)
  expect(readFileSync(database)).toEqual(before)
  // Nothing made beside them: a read-only open of the backup, a WAL database, would leave its -wal and -shm.
  for (const file of [backup, cut]) expect([`${file}-wal`, `${file}-shm`].filter((f) => existsSync(f))).toEqual([])
}, 60_000)

test('a GEODATA_PATH where the data cannot be made: the start exits 3 in one line that says what to change', async () => {
  const file = join(dir, 'a-file')
  writeFileSync(file, '')
  const geodata = join(file, 'geo.sqlite') // under a file, not a folder
  const server = startServer(join(dir, 'unbuilt.db'), { DEMO: '0', PORT: '0', GEODATA_PATH: geodata })
  expect(await server.proc.exited).toBe(3) // a person must change it
  const stderr = (await new Response(server.proc.stderr).text()).trim()
  expect(stderr.split('\n')).toHaveLength(1)
  expect(stderr).toStartWith(`Could not build the offline geocoder data at ${geodata}: `)
  expect(stderr).toContain('GEODATA_PATH says where it goes')
})

test("DATABASE_PATH naming the geocoder's data, GEODATA_PATH left out: the message names DATABASE_PATH alone", () => {
  expect(() => loadConfig({ DATABASE_PATH: 'data/geocoder.sqlite' })).toThrow(
    "DATABASE_PATH names the geocoder's data file (data/geocoder.sqlite). Point it at a file of its own (by default data/storeloc.db).",
  )
})

test('GEODATA_PATH naming the database by a link, or through a linked folder, is refused as one file', () => {
  const database = join(dir, 'linked.db')
  writeFileSync(database, '')
  symlinkSync(database, join(dir, 'symlink.db'))
  linkSync(database, join(dir, 'hardlink.db'))
  symlinkSync(dir, join(dir, 'folder-link'))
  symlinkSync('later.db', join(dir, 'to-later.db'))
  // A database not made yet, named through a linked folder or a link: the first start would make one file.
  for (const [databasePath, geodata] of [
    [database, join(dir, 'symlink.db')],
    [database, join(dir, 'hardlink.db')],
    [database, join(dir, 'folder-link', 'linked.db')],
    [join(dir, 'new.db'), join(dir, 'folder-link', 'new.db')],
    [join(dir, 'new', 'in-new.db'), join(dir, 'folder-link', 'new', 'in-new.db')], // under a folder not made yet
    [join(dir, 'later.db'), join(dir, 'to-later.db')],
  ])
    expect(() => loadConfig({ DATABASE_PATH: databasePath, GEODATA_PATH: geodata })).toThrow(
      `GEODATA_PATH and DATABASE_PATH name one file (${databasePath}).`,
    )
  // Two files beside each other are two.
  expect(
    loadConfig({ DATABASE_PATH: database, GEODATA_PATH: join(dir, 'folder-link', 'geo.sqlite') }).databasePath,
  ).toBe(database)
})

test("a link's `..` is read from the link's real folder, reached through a linked folder too", () => {
  // real/inner/db.link -> ../b/storeloc.db names real/b/storeloc.db, not made yet. Reached as
  // via/db.link (via -> real/inner), `..` is still real's: the b beside via is another folder.
  const base = join(dir, 'dot-dot')
  for (const folder of ['real/inner', 'real/b', 'b']) mkdirSync(join(base, folder), { recursive: true })
  symlinkSync(join('..', 'b', 'storeloc.db'), join(base, 'real', 'inner', 'db.link'))
  symlinkSync(join('real', 'inner'), join(base, 'via'))
  const databasePath = join(base, 'via', 'db.link')
  expect(() =>
    loadConfig({ DATABASE_PATH: databasePath, GEODATA_PATH: join(base, 'real', 'b', 'storeloc.db') }),
  ).toThrow(`GEODATA_PATH and DATABASE_PATH name one file (${databasePath}).`)
  expect(loadConfig({ DATABASE_PATH: databasePath, GEODATA_PATH: join(base, 'b', 'storeloc.db') }).databasePath).toBe(
    databasePath,
  )
})

test("a `..` in a link's target after a linked folder in it goes up from that folder's real place", () => {
  // real/inner/db.link -> ../lnk/../b/storeloc.db, real/lnk -> ../other/x: the system reads
  // real/lnk/.. as other, so the link names other/b/storeloc.db, not real/b/storeloc.db.
  const base = join(dir, 'dot-dot-chain')
  for (const folder of ['real/inner', 'real/b', 'other/x', 'other/b'])
    mkdirSync(join(base, folder), { recursive: true })
  symlinkSync('../lnk/../b/storeloc.db', join(base, 'real', 'inner', 'db.link'))
  symlinkSync(join('..', 'other', 'x'), join(base, 'real', 'lnk'))
  const databasePath = join(base, 'real', 'inner', 'db.link')
  expect(() =>
    loadConfig({ DATABASE_PATH: databasePath, GEODATA_PATH: join(base, 'other', 'b', 'storeloc.db') }),
  ).toThrow(`GEODATA_PATH and DATABASE_PATH name one file (${databasePath}).`)
  expect(
    loadConfig({ DATABASE_PATH: databasePath, GEODATA_PATH: join(base, 'real', 'b', 'storeloc.db') }).databasePath,
  ).toBe(databasePath)
})
