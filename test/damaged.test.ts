// Damaged database files, as a disk or a careless copy leaves them: each start serves correctly
// or exits 3 with one line; a file found damaged while serving takes no more writes. Real
// processes on real files.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import {
  copyFileSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../src/geocode/embedded'
import { createKey, createLocator } from '../src/operator'
import { loadDemo } from '../src/operator/demo'
import { readConfig } from '../src/server/options'
import { openToStart, unlessStopped } from '../src/server/start'
import { openStore } from '../src/store'
import { logCaughtUp, serverUrl, startServer, tempDir } from './helpers'

const ROOT = join(import.meta.dir, '..')
const PAGE = 4096
let dir: string
let base: string
let demoKey: string
let demoToken: string

beforeAll(() => {
  dir = tempDir()
  base = join(dir, 'base.db')
  const store = openStore(base)
  createLocator(store, 'First')
  const demo = loadDemo(store, join(ROOT, 'data/demo/demo.json'))
  demoKey = createKey(store, demo.locator.id, null).secret
  demoToken = demo.locator.publicToken
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)') // every page in the file, none in the WAL
  store.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Overwrites `pages` pages from page `first` (0-based) of `path` with bytes that are no page of SQLite's. */
function garble(path: string, first: number, pages: number): void {
  const fd = openSync(path, 'r+')
  const junk = Buffer.alloc(pages * PAGE)
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 251
  writeSync(fd, junk, 0, junk.length, first * PAGE)
  closeSync(fd)
}

const copyOf = (name: string) => {
  const path = join(dir, name)
  copyFileSync(base, path)
  return path
}

const DAMAGES: Record<string, (path: string) => void> = {
  'its header': (path) => garble(path, 0, 1),
  'middle pages': (path) => garble(path, Math.floor(statSync(path).size / PAGE / 2), 8),
  'its last pages': (path) => garble(path, statSync(path).size / PAGE - 4, 4),
  'half of it cut off': (path) => truncateSync(path, Math.floor(statSync(path).size / PAGE / 2) * PAGE),
}

for (const [damage, apply] of Object.entries(DAMAGES)) {
  test(`a file damaged in ${damage}: the start exits 3 (a person must mend it) with one line, no stack trace, and writes nothing`, async () => {
    const path = copyOf(`${damage.replaceAll(' ', '-')}.db`)
    apply(path)
    const before = readFileSync(path)
    const server = startServer(path, { DEMO: '0' })
    expect(await server.proc.exited).toBe(3)
    const stderr = (await new Response(server.proc.stderr).text()).trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toStartWith(`Cannot use the database at ${path}: `)
    expect(stderr).not.toContain('    at ')
    await server.ended
    expect(server.lines.join('\n')).not.toContain('"listening"')
    expect(readFileSync(path).equals(before)).toBe(true)
  })
}

test('a damaged file found while the geocoder is made fails the start where it is awaited, not as an unhandled rejection', async () => {
  const path = copyOf('found-while-made.db')
  DAMAGES['middle pages']!(path)
  const { config } = readConfig([], { DATABASE_PATH: path, GEOCODER: 'none' })
  const open = { store: null, geocoding: null }
  const opened = await openToStart(
    config,
    open,
    unlessStopped(() => false),
    () => {},
  )
  try {
    // As a first start's build of the geocoder's data outlasts the check: bun test fails a test
    // on a rejection no one handles.
    while (Bun.peek.status(opened.checked) === 'pending') await Bun.sleep(10)
    await Bun.sleep(0)
    await expect(opened.checked).rejects.toThrow(`Cannot use the database at ${path}: it is damaged`)
  } finally {
    opened.store.close()
  }
})

test("a damaged file on a first start is refused before the geocoder's data is built", async () => {
  const path = copyOf('first-start.db')
  DAMAGES['middle pages']!(path)
  const geodata = join(dir, 'first-start-geocoder.sqlite')
  const server = startServer(path, { DEMO: '0', GEODATA_PATH: geodata })
  expect(await server.proc.exited).toBe(3)
  const stderr = await new Response(server.proc.stderr).text()
  expect(stderr).toStartWith(`Cannot use the database at ${path}: it is damaged`)
  await server.ended
  // The build began and was left: no data file, no line saying it is ready.
  expect(server.lines.join('\n')).toContain('Preparing the offline geocoder data')
  expect(existsSync(geodata)).toBe(false)
})

test("a damaged file refused in process while the geocoder's data is built ends the build: its worker, its file", async () => {
  const path = copyOf('in-process.db')
  DAMAGES['middle pages']!(path)
  const geodata = join(dir, 'in-process', 'geocoder.sqlite')
  const script = join(dir, 'in-process.ts')
  // The caller goes on after the refusal: its process ends by itself only once no worker is left.
  writeFileSync(
    script,
    `import { existsSync, readdirSync } from 'node:fs'
import { readConfig } from ${JSON.stringify(join(ROOT, 'src/server/options'))}
import { openToStart, unlessStopped } from ${JSON.stringify(join(ROOT, 'src/server/start'))}
const { config } = readConfig([], { DATABASE_PATH: ${JSON.stringify(path)}, GEODATA_PATH: ${JSON.stringify(geodata)} })
const open = { store: null, geocoding: null }
process.on('exit', () => console.error('left: ' + JSON.stringify(existsSync(${JSON.stringify(join(dir, 'in-process'))}) ? readdirSync(${JSON.stringify(join(dir, 'in-process'))}) : [])))
await openToStart(config, open, unlessStopped(() => false), () => {}).catch((e) => console.error('refused: ' + e.message.split(':')[0]))
open.store?.close()
`,
  )
  const child = Bun.spawn([process.execPath, script], { stdout: 'ignore', stderr: 'pipe' })
  expect(await child.exited).toBe(0)
  const said = (await new Response(child.stderr).text()).trim().split('\n')
  expect(said).toEqual([`refused: Cannot use the database at ${path}`, 'left: []'])
})

test("the start's line gives the sqlite3 command that saves what is left, its path quoted for a shell", async () => {
  const path = copyOf("the shop's stores.db")
  DAMAGES['middle pages']!(path)
  const server = startServer(path, { DEMO: '0' })
  expect(await server.proc.exited).toBe(3)
  const stderr = await new Response(server.proc.stderr).text()
  expect(stderr).toContain(`(sqlite3 '${path.replace("'", `'\\''`)}' .recover)`)
})

test('a WAL file of garbage beside a whole database, or a file of zero length: the start serves', async () => {
  const wal = copyOf('garbage-wal.db')
  writeFileSync(`${wal}-wal`, Buffer.alloc(64 * 1024, 0x5a))
  const empty = join(dir, 'zero.db')
  writeFileSync(empty, '')
  for (const [path, locations] of [
    [wal, 553],
    [empty, 0],
  ] as const) {
    const server = startServer(path, { DEMO: '0' })
    try {
      const loaded = JSON.parse(await server.waitFor(/"indexes loaded"/))
      expect(loaded.locations).toBe(locations)
      const ready = await fetch(`${await serverUrl(server)}/readyz`)
      expect(ready.status).toBe(200)
    } finally {
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
    }
  }
})

test('a file found damaged while serving refuses every write with 503 database_damaged; /readyz says failed', async () => {
  const path = copyOf('later.db')
  const server = startServer(path, { DEMO: '0', LOG_REQUESTS: '0' })
  try {
    const url = await serverUrl(server)
    const headers = { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' }
    const list = () => fetch(`${url}/admin/v1/locations?limit=100&page=3`, { headers })
    expect((await list()).status).toBe(200)

    // The pages of the locations go bad on disk; another connection's commit makes the server read them again.
    const pages = statSync(path).size / PAGE
    garble(path, Math.floor(pages * 0.3), Math.floor(pages * 0.4))
    const other = new Database(path)
    other.exec('PRAGMA busy_timeout = 5000') // the server may be writing a key's last use just then
    other.exec('CREATE TABLE nudge (x); DROP TABLE nudge')
    other.close()

    const read = await list()
    expect(read.status).toBe(503)
    const body = (await read.json()) as { error: string; message: string }
    expect(body.error).toBe('database_damaged')
    expect(body.message).toContain(`The database file ${path} is damaged`)

    // A CSV export is refused as damaged too, not as a value CSV cannot hold.
    const csv = await fetch(`${url}/admin/v1/locations/export?format=csv`, { headers })
    expect([csv.status, ((await csv.json()) as { error: string }).error]).toEqual([503, 'database_damaged'])
    // A page says so as a page, naming no file.
    const sitemap = await fetch(`${url}/l/${demoToken}/sitemap.xml`)
    expect([sitemap.status, sitemap.headers.get('content-type')]).toEqual([503, 'text/html; charset=utf-8'])
    expect(await sitemap.text()).not.toContain(path)

    const walBefore = statSync(`${path}-wal`).size
    const created = await fetch(`${url}/admin/v1/locations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'After the damage', address: '1 Main Street', coordinates: { lat: 1, lng: 2 } }),
    })
    expect(created.status).toBe(503)
    expect(((await created.json()) as { error: string }).error).toBe('database_damaged')
    expect(created.headers.get('retry-after')).not.toBeNull()
    expect(statSync(`${path}-wal`).size).toBe(walBefore)

    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(503)
    const readiness = (await ready.json()) as { status: string; message: string }
    expect(readiness.status).toBe('failed')
    expect(readiness.message).toContain('is damaged')
    const told = await server.waitFor(/is damaged/)
    expect(JSON.parse(told).level).toBe('error')
    // Told once: a later check of the idle sync's (a second apart) is seen to run, and says no more
    // of it. Each check looks for damage first, then logs the file moved away.
    renameSync(path, `${path}.away`)
    await server.waitFor(/was moved or deleted/)
    renameSync(`${path}.away`, path)
    expect(server.lines.filter((l) => l.includes('is damaged'))).toHaveLength(1)
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})

test("a damaged geocoder data file is named as such: writes with coordinates, queries by lat/lng and the store's file go on", async () => {
  const path = copyOf('beside-bad-geodata.db')
  const geodata = join(dir, 'geodata.sqlite')
  copyFileSync(join(ROOT, DEFAULT_GEODATA_PATH), geodata)
  const pages = statSync(geodata).size / PAGE
  garble(geodata, 256, pages - 256) // the version in its first pages is whole
  const server = startServer(path, { DEMO: '0', GEODATA_PATH: geodata })
  try {
    const url = await serverUrl(server)
    await server.waitFor(/"indexes loaded"/)
    const headers = { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' }
    const create = (body: object) =>
      fetch(`${url}/admin/v1/locations`, { method: 'POST', headers, body: JSON.stringify(body) })
    const geocoded = await create({ name: 'Placed by address', address: 'Calle Hidalgo 5, Arcelia, Guerrero, Mexico' })
    expect(geocoded.status).toBe(503)
    const refusal = (await geocoded.json()) as { error: string; message: string }
    expect(refusal.error).toBe('unavailable')
    expect(refusal.message).toStartWith(`The offline geocoder's data file ${geodata} is damaged`)
    expect(refusal.message).toContain('The database of stores is not affected.')

    const pinned = await create({ name: 'Pinned', address: '1 Main Street', coordinates: { lat: 51.5, lng: -0.12 } })
    expect(pinned.status).toBe(201)
    const near = await fetch(`${url}/public/v1/${demoToken}/locations?lat=51.5&lng=-0.12&radius=1`)
    expect(near.status).toBe(200)
    for (const query of ['places?q=Lond', 'locations?near=London']) {
      const answer = await fetch(`${url}/public/v1/${demoToken}/${query}`)
      expect(answer.status).toBe(503)
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE')
    }
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({
      status: 'degraded',
      message: expect.stringContaining(`${geodata} is damaged`),
    })
    // Told once, whatever the answers it refused since: read once the lines of those answers are in.
    await logCaughtUp(server, url)
    const told = server.lines.filter((l) =>
      l.includes(`"message":"The offline geocoder's data file ${geodata} is damaged`),
    )
    expect(told).toHaveLength(1)
    expect(JSON.parse(told[0]!).level).toBe('error')
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
  const store = openStore(path)
  expect(store.damaged()).toBeNull()
  expect((store.db.query('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok')
  store.close()
})

test('one damaged page among the place names: near= and /places answer 503, not 500, and the file is named once', async () => {
  const path = copyOf('beside-one-bad-page.db')
  const geodata = join(dir, 'one-bad-page.sqlite')
  copyFileSync(join(ROOT, DEFAULT_GEODATA_PATH), geodata)
  const read = new Database(geodata, { readonly: true })
  const pages = read
    .query<{ pageno: number }, []>("SELECT pageno FROM dbstat WHERE name = 'place_names' AND pagetype = 'leaf'")
    .all()
  read.close()
  garble(geodata, pages[Math.floor(pages.length / 2)]!.pageno - 1, 1) // pageno counts from 1
  const server = startServer(path, { DEMO: '0', GEODATA_PATH: geodata })
  try {
    const url = await serverUrl(server)
    await server.waitFor(/"indexes loaded"/)
    await server.waitFor(/is damaged/) // the place data, read after the indexes, found so
    for (const query of ['places?q=Lond', 'locations?near=London', 'places?q=Paris']) {
      const answer = await fetch(`${url}/public/v1/${demoToken}/${query}`)
      expect({ query, status: answer.status }).toEqual({ query, status: 503 })
    }
    expect(((await (await fetch(`${url}/readyz`)).json()) as { status: string }).status).toBe('degraded')
    await logCaughtUp(server, url)
    const told = server.lines.filter((l) =>
      l.includes(`"message":"The offline geocoder's data file ${geodata} is damaged`),
    )
    expect(told).toHaveLength(1)
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})

test('a start on a full disk says the disk is full, in one line (a tmpfs filled up, in a mount namespace of its own)', () => {
  const mount = join(dir, 'full')
  const path = join(mount, 'base.db')
  // unshare -rm: a user and mount namespace, so the tmpfs needs no privileges and is gone with the process.
  const script = [
    `mkdir -p '${mount}'`,
    `mount -t tmpfs -o size=2m tmpfs '${mount}'`,
    `cp '${base}' '${path}'`,
    `dd if=/dev/zero of='${mount}/fill' bs=4k 2>/dev/null || true`,
    `exec '${process.execPath}' '${join(ROOT, 'src/main.ts')}'`,
  ].join(' && ')
  const p = Bun.spawnSync(['unshare', '-rm', 'sh', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: path, PORT: '0', HOST: '127.0.0.1', DEMO: '0' },
  })
  const stderr = p.stderr.toString().trim()
  expect(p.exitCode).toBe(1)
  expect(stderr.split('\n')).toHaveLength(1)
  expect(stderr).toStartWith(`Cannot use the database at ${path}: the disk that holds it is full (SQLite: `)
  expect(stderr).toEndWith('Free space on it, then start again.')
})
