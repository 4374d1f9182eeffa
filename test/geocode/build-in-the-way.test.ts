// What may lie where a build of the geocoder's data writes: a folder made by mistake at a name
// the build needs, a killed build's file another user left in a shared folder (sticky bit) or
// one in a folder this user may not write, another program's database, and a second build this
// process asks for meanwhile. None ends a start with a stack trace.
import { Database } from 'bun:sqlite'
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { basename, join } from 'node:path'
import { DEFAULT_GEODATA_PATH, ensureGeodata, GeodataPathError } from '../../src/geocode/embedded'
import { GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { buildFile, FOREIGN_BUILD_IDLE_MS, removeStaleBuilds } from '../../src/geocode/embedded/build-files'
import { geodataVersion } from '../../src/geocode/embedded/ensure'
import { tempDir } from '../helpers'

const root = join(import.meta.dir, '..', '..')
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
  expect(removeStaleBuilds(out)).toEqual([])
  expect(readdirSync(dir)).toEqual([basename(folder)])
})

/** The lines a start as user nobody says for the data at `out`, in `dir`: a script there runs it. */
async function startAsNobody(out: string): Promise<string[]> {
  const start = join(dir, 'start.ts')
  writeFileSync(
    start,
    `import { ensureGeodata } from ${JSON.stringify(join(root, 'src/geocode/embedded'))}
await ensureGeodata(process.argv[2]!, console.log)
`,
  )
  chmodSync(start, 0o644)
  const nobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
  const other = Bun.spawn([...nobody, process.execPath, start, out], { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = await Promise.all([new Response(other.stdout).text(), new Response(other.stderr).text()])
  expect(stderr).toBe('')
  expect(await other.exited).toBe(0)
  return stdout.trim().split('\n')
}

test("in a shared folder with the sticky bit, another user's killed build is kept, said once, and the data built beside it", async () => {
  const out = join(dir, 'geocoder.sqlite')
  chmodSync(dir, 0o1777) // as /tmp: each user may remove only their own files
  const left = endedBuildFile(out) // this user's (root's): the start runs as another
  writeFileSync(left, 'SQLite format 3\u0000')
  const lines = await startAsNobody(out)
  expect(lines.filter((line) => line.startsWith(left))).toEqual([
    `${left} is a stopped build's file this user may not remove (another user's, in a shared folder): it takes as much room as the data; remove it as its owner or as root.`,
  ])
  expect(lines.at(-1)).toStartWith('Offline geocoder ready: ')
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
  expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', basename(left), 'start.ts'].sort())
}, 180_000) // a build: a minute and more on a loaded machine

test("in a folder this user may not write, a killed build's file is kept and said so, the data there read", async () => {
  const out = join(dir, 'geocoder.sqlite')
  copyFileSync(DEFAULT_GEODATA_PATH, out)
  const left = endedBuildFile(out)
  writeFileSync(left, 'SQLite format 3\u0000')
  chmodSync(dir, 0o755) // root's: the start runs as another user, who may read it only
  expect(await startAsNobody(out)).toEqual([
    `${left} is a stopped build's file this user may not remove (its folder is not this user's to write): it takes as much room as the data; remove it as a user who may write that folder, or as root.`,
  ])
  expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', basename(left), 'start.ts'].sort())
})

test('two starts in one process at once: one builds, the other waits for it; one that stops waiting leaves the build be', async () => {
  const out = join(dir, 'geocoder.sqlite')
  const said: string[][] = [[], [], []]
  const first = ensureGeodata(out, (line) => said[0]!.push(line))
  const second = ensureGeodata(out, (line) => said[1]!.push(line))
  const stop = new AbortController()
  const third = ensureGeodata(out, (line) => said[2]!.push(line), undefined, stop.signal)
  stop.abort(new Error('no longer waited for'))
  await expect(third).rejects.toThrow('no longer waited for')
  await first
  await second
  expect(said[0]!.filter((line) => line.startsWith('Preparing'))).toHaveLength(1)
  expect(said[0]!.at(-1)).toStartWith('Offline geocoder ready: ')
  // The second waited, then found the data there.
  expect(said[1]).toEqual([`Waiting for the offline geocoder data this process is preparing in ${out}...`])
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
  expect(readdirSync(dir)).toEqual(['geocoder.sqlite'])
}, 180_000) // a build: a minute and more on a loaded machine

test('two starts in one process for one path spelt through a linked folder: the second waits for the first', async () => {
  const real = join(dir, 'real')
  mkdirSync(real)
  symlinkSync(real, join(dir, 'link'))
  const out = join(real, 'geocoder.sqlite')
  const linked = join(dir, 'link', 'geocoder.sqlite')
  writeFileSync(out, 'not the data') // refused at once: no build needed to see the second wait
  const said: string[] = []
  const [first, second] = await Promise.allSettled([
    ensureGeodata(out),
    ensureGeodata(linked, (line) => said.push(line)),
  ])
  expect(first.status === 'rejected' && String(first.reason)).toContain(`${out} is not the offline geocoder's data`)
  expect(second.status === 'rejected' && String(second.reason)).toContain(
    `${linked} is not the offline geocoder's data`,
  )
  // Each builds in a file of one name (the folder's and this process's): the second waited.
  expect(said).toEqual([`Waiting for the offline geocoder data this process is preparing in ${linked}...`])
})

test('two starts in one process for one path through a linked folder, under folders not made yet: the second waits', async () => {
  const real = join(dir, 'real')
  mkdirSync(real)
  symlinkSync(real, join(dir, 'link'))
  const [one, two] = [new AbortController(), new AbortController()]
  const said: string[] = []
  const first = ensureGeodata(join(dir, 'link', 'new', 'geocoder.sqlite'), () => {}, undefined, one.signal)
  const linked = join(real, 'new', 'geocoder.sqlite')
  const second = ensureGeodata(linked, (line) => said.push(line), undefined, two.signal)
  // Said at the call: waiting for the first's build, not beginning one of its own in the same file.
  expect(said).toEqual([`Waiting for the offline geocoder data this process is preparing in ${linked}...`])
  const ended = Promise.allSettled([first, second]) // before the aborts: the first may end at once
  two.abort(new Error('second no longer waited for'))
  one.abort(new Error('first no longer waited for'))
  expect((await ended).map((end) => end.status === 'rejected' && String(end.reason))).toEqual([
    'Error: first no longer waited for',
    'Error: second no longer waited for',
  ])
})

test("a GEODATA_PATH naming a file that is not the data: refused with nothing beside it removed, though named like a build's", async () => {
  const backup = join(dir, 'shop.db')
  writeFileSync(backup, 'a backup')
  const beside = `${backup}.20261206.tmp` // as an older version named its build file: removed once idle
  writeFileSync(beside, 'the owner’s')
  const idle = (Date.now() - 2 * FOREIGN_BUILD_IDLE_MS) / 1000
  utimesSync(beside, idle, idle)
  await expect(ensureGeodata(backup)).rejects.toThrow(`${backup} is not the offline geocoder's data`)
  expect(readdirSync(dir).sort()).toEqual(['shop.db', 'shop.db.20261206.tmp'])
})

test("a GEODATA_PATH naming another program's database in WAL mode: refused with nothing made beside it", async () => {
  const other = join(dir, 'other.db')
  const db = new Database(other, { create: true })
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT)')
  db.close() // the last close removes its -wal and -shm
  expect(readdirSync(dir)).toEqual(['other.db'])
  await expect(ensureGeodata(other)).rejects.toThrow(`${other} is not the offline geocoder's data`)
  expect(geodataVersion(other)).toBeNull()
  expect(readdirSync(dir)).toEqual(['other.db'])
})

test('a GEODATA_PATH naming a database in use, its -wal holding pages its file has not yet: judged by both, as SQLite reads it', async () => {
  const other = join(dir, 'other.db')
  const db = new Database(other, { create: true })
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE notes (text TEXT)')
    // The file's first page, whole in the -wal, as a checkpoint under way leaves it: half written.
    const fd = openSync(other, 'r+')
    writeSync(fd, Buffer.alloc(100, 0xff), 0, 100, 100)
    closeSync(fd)
    await expect(ensureGeodata(other)).rejects.toThrow(`${other} is not the offline geocoder's data`)
  } finally {
    db.close()
  }
})
