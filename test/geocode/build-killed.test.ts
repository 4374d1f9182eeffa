// A start killed while it builds the geocoder's data leaves its temporary file (as large as the
// data) beside GEODATA_PATH: the next start removes it, and builds the data again where it is
// missing. Which machine and process wrote a leftover is in its name, with when that process
// started; one of this machine's processes that is no longer running, or started at another time,
// wrote none still being written. Another PID namespace's or hostname's (another container's,
// sharing the folder) may be running: on this machine's own disk, its file is removed once its
// builder holds its lock no more (an empty file holds none), else once long untouched.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  copyFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  readlinkSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { basename, join } from 'node:path'
import { Database } from 'bun:sqlite'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../../src/geocode/embedded'
import { buildGeodata, GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { openBuildFile } from '../../src/geocode/embedded/build-files'
import { geodataVersion } from '../../src/geocode/embedded/ensure'
import { tempDir } from '../helpers'

const root = join(import.meta.dir, '..', '..')
/** This machine and its PID namespace, as a build file's name says them. */
const host = `${hostname().replace(/[^\w-]/g, '_')}-pid${readlinkSync('/proc/self/ns/pid').slice(5, -1)}`
let dir: string
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** When process `pid` started, as a build file's name says it: clock ticks since the boot (/proc/PID/stat, field 22). */
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!
}

/** The id of a process that has ended. */
function endedPid(): number {
  const p = Bun.spawnSync(['true'])
  return p.pid
}

test('a build killed midway leaves its temporary file; the next start removes it and builds the data', async () => {
  const out = join(dir, 'geocoder.sqlite')
  const build = Bun.spawn([process.execPath, join(root, 'src/geocode/embedded/build.ts'), out], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  const name = `geocoder.sqlite.${host}.${build.pid}-${startOf(build.pid)}.locked.tmp`
  const tmp = join(dir, name)
  // Killed once it has written its first pages.
  while (!existsSync(tmp) || statSync(tmp).size === 0) await Bun.sleep(20)
  build.kill('SIGKILL')
  await build.exited
  expect(readdirSync(dir)).toContain(name)
  expect(existsSync(out)).toBe(false)

  await ensureGeodata(out)
  expect(readdirSync(dir)).toEqual(['geocoder.sqlite'])
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
}, 180_000)

test('data of this version there already: the leftovers of a build killed beside it are removed, the data kept', async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  const pid = endedPid()
  writeFileSync(`${out}.${host}.${pid}.tmp`, 'SQLite format 3\u0000')
  writeFileSync(`${out}.${host}.${pid}.tmp-journal`, '')
  // Not a build's: another name, or a running process's (this one's parent, never this one).
  writeFileSync(join(dir, 'geocoder.sqlite.notes'), 'kept')
  const running = `geocoder.sqlite.${host}.${process.ppid}-${startOf(process.ppid)}.tmp`
  writeFileSync(join(dir, running), '')
  await ensureGeodata(out)
  expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', 'geocoder.sqlite.notes', running].sort())
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
})

test("a leftover whose process id another program of this machine has taken since is removed; a running build's is kept, however long untouched", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  // Two running processes: one whose id a build killed earlier had (its name says another start),
  // one that builds, between two long steps (its file untouched for two hours).
  const [taken, builder] = [Bun.spawn(['sleep', '60']), Bun.spawn(['sleep', '60'])]
  try {
    const left = `geocoder.sqlite.${host}.${taken.pid}-${Number(startOf(taken.pid)) - 1}.tmp`
    const written = `geocoder.sqlite.${host}.${builder.pid}-${startOf(builder.pid)}.tmp`
    for (const file of [left, `${left}-journal`, written]) writeFileSync(join(dir, file), 'SQLite format 3\u0000')
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    utimesSync(join(dir, written), hoursAgo, hoursAgo)
    await ensureGeodata(out)
    expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', written].sort())
  } finally {
    taken.kill()
    builder.kill()
  }
})

test("a leftover whose name tells no start (an older version's) is kept while its process runs and writes; removed once an hour untouched", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  const [idle, writing] = [Bun.spawn(['sleep', '60']), Bun.spawn(['sleep', '60'])]
  try {
    const left = `geocoder.sqlite.${host}.${idle.pid}.tmp`
    const written = `geocoder.sqlite.${host}.${writing.pid}.tmp`
    for (const file of [left, written]) writeFileSync(join(dir, file), 'SQLite format 3\u0000')
    const hoursAgo = new Date(Date.now() - 61 * 60 * 1000)
    utimesSync(join(dir, left), hoursAgo, hoursAgo)
    await ensureGeodata(out)
    expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', written].sort())
  } finally {
    idle.kill()
    writing.kill()
  }
})

test("another container's build beside current data, sharing its folder, is kept while it writes; removed once an hour untouched", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  // Its process ids are not this machine's: a process id not running here may be running there.
  const pid = endedPid()
  const writing = [
    `geocoder.sqlite.storeloc-b.${pid}-4242.tmp`,
    `geocoder.sqlite.storeloc-d.${pid}.tmp`,
    `geocoder.sqlite.${pid}.tmp`, // by an older version
  ]
  const left = [`geocoder.sqlite.storeloc-c.${pid}-4242.tmp`, `geocoder.sqlite.${pid + 1}.tmp`]
  for (const file of [...writing, ...left]) writeFileSync(join(dir, file), 'SQLite format 3\u0000')
  const hoursAgo = new Date(Date.now() - 61 * 60 * 1000)
  for (const file of left) utimesSync(join(dir, file), hoursAgo, hoursAgo)
  await ensureGeodata(out)
  expect(readdirSync(dir).sort()).toEqual(['geocoder.sqlite', ...writing].sort())
})

test('a build in another container of the same hostname sharing the folder (its own PID namespace) is kept while it writes', async () => {
  const out = join(dir, 'geocoder.sqlite')
  // A copy, not a link: a build writes at a link's target, the data every test reads.
  copyFileSync(join(root, DEFAULT_GEODATA_PATH), out)
  // The build's own entry point, in a PID namespace of its own (its /proc too), as a container's.
  const other = Bun.spawn(
    [
      'unshare',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      process.execPath,
      'src/geocode/embedded/build.ts',
      out,
    ],
    { cwd: root, stdout: 'ignore', stderr: 'ignore' },
  )
  try {
    // Once it has written its first pages, so holds its file's lock (an empty file is removed).
    let building: string | undefined
    while (building === undefined && other.exitCode === null) {
      await Bun.sleep(50)
      building = readdirSync(dir).find(
        (f) => f.endsWith('.tmp') && (statSync(join(dir, f), { throwIfNoEntry: false })?.size ?? 0) > 0,
      )
    }
    expect(building).toBeDefined()
    await ensureGeodata(out)
    expect(readdirSync(dir)).toContain(building!)
  } finally {
    other.kill('SIGKILL') // unshare ignores SIGTERM while it waits; its death ends the build (--kill-child)
    await other.exited
  }
}, 60_000) // starts a build, and ends it once it has written: seconds, more on a loaded machine

/**
 * Starts what a build does first, in a PID namespace of its own (a container's, of this
 * hostname): names its file (or takes `name`, another machine's), locks it and, unless `empty`,
 * writes it, says its path; then, if `killed`, is killed (not its namespace's first process,
 * which a signal from inside would not end), else waits.
 */
function builderElsewhere(
  out: string,
  killed: boolean,
  { name, empty = false }: { name?: string; empty?: boolean } = {},
) {
  const script = join(dir, `builder-${killed}-${name ?? 'own'}-${empty}.ts`)
  writeFileSync(
    script,
    `import { Database } from 'bun:sqlite'
import { buildFile, lockBuildFile } from ${JSON.stringify(join(root, 'src/geocode/embedded/build-files'))}
const file = ${name === undefined ? `buildFile(${JSON.stringify(out)})` : JSON.stringify(join(dir, name))}
const db = new Database(file, { create: true, strict: true })
lockBuildFile(db)
if (!${empty}) db.exec('CREATE TABLE t (x)')
console.log(file)
if (${killed}) process.kill(process.pid, 'SIGKILL')
await Bun.sleep(120_000)
db.close()
`,
  )
  const proc = Bun.spawn(
    [
      'unshare',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      'sh',
      '-c',
      `"${process.execPath}" "${script}"; true`,
    ],
    { stdout: 'pipe', stderr: 'ignore' },
  )
  const file = (async () => {
    const reader = proc.stdout.getReader()
    let text = ''
    while (!text.includes('\n')) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    return text.trim()
  })()
  return { proc, file }
}

test("a container of this hostname started again removes at once the file its killed build left; a running build's, in another, is kept", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  const killed = builderElsewhere(out, true)
  const running = builderElsewhere(out, false)
  try {
    const [left, written] = [await killed.file, await running.file]
    await killed.proc.exited
    // Both named by this hostname, in PID namespaces not this one's.
    for (const file of [left, written]) {
      expect(file).toStartWith(`${out}.${hostname().replace(/[^\w-]/g, '_')}-pid`)
      expect(file).not.toStartWith(`${out}.${host}.`)
    }
    expect(readdirSync(dir)).toContain(left.slice(dir.length + 1))
    await ensureGeodata(out)
    // The running build's file (and its journal) kept; nothing else left, nor made by looking.
    const files = readdirSync(dir).filter((f) => f.startsWith('geocoder.sqlite'))
    expect(files).toContain(written.slice(dir.length + 1))
    expect(files.filter((f) => !f.startsWith(written.slice(dir.length + 1)))).toEqual(['geocoder.sqlite'])
  } finally {
    running.proc.kill('SIGKILL') // its namespace's first process ends, and with it the build
    await running.proc.exited
  }
})

test('a build killed before its first write leaves an empty file, which a start in another container removes at once', async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  // One of this hostname in another PID namespace; one of a container with a hostname of its own.
  const killed = [
    builderElsewhere(out, true, { empty: true }),
    builderElsewhere(out, true, { name: `geocoder.sqlite.storeloc-b.${endedPid()}-4242.locked.tmp`, empty: true }),
  ]
  const left = await Promise.all(killed.map((b) => b.file))
  await Promise.all(killed.map((b) => b.proc.exited))
  for (const file of left) expect(statSync(file).size).toBe(0)
  await ensureGeodata(out)
  expect(readdirSync(dir).filter((f) => f.startsWith('geocoder.sqlite'))).toEqual(['geocoder.sqlite'])
})

test("a container with a hostname of its own, sharing the folder: its killed build's file is removed at once, its running build's kept", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  const pid = endedPid()
  const killed = builderElsewhere(out, true, { name: `geocoder.sqlite.storeloc-c.${pid}-4242.locked.tmp` })
  const running = builderElsewhere(out, false, { name: `geocoder.sqlite.storeloc-d.${pid}-4242.locked.tmp` })
  try {
    const [left, written] = [await killed.file, await running.file]
    await killed.proc.exited
    expect(statSync(left).size).toBeGreaterThan(0)
    await ensureGeodata(out)
    // The running build's file (and its journal) kept; nothing else left, nor made by looking.
    const files = readdirSync(dir).filter((f) => f.startsWith('geocoder.sqlite'))
    expect(files).toContain(basename(written))
    expect(files.filter((f) => !f.startsWith(basename(written)))).toEqual(['geocoder.sqlite'])
  } finally {
    running.proc.kill('SIGKILL')
    await running.proc.exited
  }
})

test("a running build's file that this start's user may not read is kept", async () => {
  const out = join(dir, 'geocoder.sqlite')
  chmodSync(dir, 0o777) // a folder two users share: one builds, the other starts
  const running = builderElsewhere(out, false, { name: `geocoder.sqlite.storeloc-b.${endedPid()}-4242.locked.tmp` })
  try {
    const written = await running.file
    chmodSync(written, 0o600) // as a builder under umask 077 makes it
    const start = join(dir, 'start.ts')
    writeFileSync(
      start,
      `import { removeStaleBuilds } from ${JSON.stringify(join(root, 'src/geocode/embedded/build-files'))}
removeStaleBuilds(process.argv[2]!)
`,
    )
    const nobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
    const other = Bun.spawnSync([...nobody, process.execPath, start, out], { stderr: 'pipe' })
    expect(other.stderr.toString()).toBe('')
    expect(other.exitCode).toBe(0)
    expect(readdirSync(dir)).toContain(basename(written))
  } finally {
    running.proc.kill('SIGKILL')
    await running.proc.exited
  }
})

test("a start that opened a killed build's file keeps the running build's file made at its name meanwhile", async () => {
  const out = join(dir, 'geocoder.sqlite')
  symlinkSync(join(root, DEFAULT_GEODATA_PATH), out)
  // A build's first file, written and let go (another start removed it from under it, as the
  // builder found); this start opens it, and before it reads it that start removes it and the
  // builder makes its file again at that name, writes and locks it.
  const name = `geocoder.sqlite.storeloc-b.${endedPid()}-4242.locked.tmp`
  const file = join(dir, name)
  const first = new Database(file, { create: true })
  first.exec('CREATE TABLE t (x)')
  first.close()
  let running: ReturnType<typeof builderElsewhere> | undefined
  const exec = Database.prototype.exec
  Database.prototype.exec = function (this: Database, ...args: Parameters<typeof exec>) {
    if (this.filename === file && running === undefined) {
      rmSync(file)
      running = builderElsewhere(out, false, { name })
      while ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) === 0) Bun.sleepSync(20)
    }
    return exec.apply(this, args)
  }
  try {
    await ensureGeodata(out)
    expect(running).toBeDefined()
    expect(readdirSync(dir)).toContain(name)
  } finally {
    Database.prototype.exec = exec
    running?.proc.kill('SIGKILL')
    await running?.proc.exited
  }
})

test('a build whose file a start in another container removes before its first write makes it again, and goes on', () => {
  const out = join(dir, 'geocoder.sqlite')
  const start = join(dir, 'start.ts')
  writeFileSync(
    start,
    `import { removeStaleBuilds } from ${JSON.stringify(join(root, 'src/geocode/embedded/build-files'))}
removeStaleBuilds(process.argv[2]!)
`,
  )
  const building = () => readdirSync(dir).filter((f) => f.endsWith('.locked.tmp'))
  let removed = false
  const { db, file } = openBuildFile(out, (db) => {
    if (!removed) {
      expect(building()).toHaveLength(1)
      const other = Bun.spawnSync(['unshare', '--pid', '--fork', '--mount-proc', process.execPath, start, out])
      expect(other.exitCode).toBe(0)
      expect(building()).toEqual([])
      removed = true
    }
    db.exec('CREATE TABLE t (x)')
  })
  db.close()
  expect(removed).toBe(true)
  expect(building()).toEqual([basename(file)])
  // What it wrote is in the file at its name, not in the one removed.
  const read = new Database(file, { readonly: true })
  try {
    expect(read.query('SELECT name FROM sqlite_master').all()).toEqual([{ name: 't' }])
  } finally {
    read.close()
  }
})

test('a build whose file is removed each time it is made gives up after three, saying why and what to do', () => {
  const out = join(dir, 'geocoder.sqlite')
  let made = 0
  const removedEachTime = (db: Database) => {
    made++
    rmSync(db.filename) // as a start beside it does, taking it for a killed build's
    db.exec('CREATE TABLE t (x)')
  }
  expect(() => openBuildFile(out, removedEachTime)).toThrow(
    /\.locked\.tmp was removed as soon as it was made, 3 times \(by starts sharing its folder, as a killed build's\): start again$/,
  )
  expect(made).toBe(3)
  expect(readdirSync(dir)).toEqual([])
})

/** The files under `folder` this process has open (/proc/self/fd), removed ones too. */
function openUnder(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(`${folder}/`) ? [target] : []
    } catch {
      return [] // the folder's own descriptor, closed meanwhile
    }
  })
}

test('a build, whole or failed midway, leaves none of its files open', async () => {
  const out = join(dir, 'whole', 'geocoder.sqlite')
  await buildGeodata(out)
  expect(geodataVersion(out)).toBe(GEODATA_VERSION)
  expect(openUnder(dir)).toEqual([])
  // A step that throws fails the build where a full disk would, its statements prepared.
  const failed = join(dir, 'failed', 'geocoder.sqlite')
  const stop = (index: number) => {
    if (index === 2) throw new Error('stopped at step 3')
  }
  await expect(buildGeodata(failed, stop)).rejects.toThrow('stopped at step 3')
  expect(readdirSync(join(dir, 'failed'))).toEqual([])
  expect(openUnder(dir)).toEqual([])
}, 300_000) // two builds: a minute and more each on a loaded machine
