// Test fixtures: a real store on a temporary file, a real app, and a geocoder stand-in that
// answers from a fixed table (the HTTP geocoder tests use real stand-in servers instead).
import { afterEach, beforeEach } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { normalizeLocationBody, pickLocationFields } from '../src/locations/normalize'
import { createApp, type AppDeps } from '../src/server/app'
import { cachedGeocoder, type Geocoder, type GeocodeResult, noGeocoder } from '../src/geocode/geocoder'
import { DEFAULT_GEODATA_PATH } from '../src/geocode/embedded/build'
import { placeSearchAt } from '../src/geocode/embedded/place-source'
import { newLocationRecord } from '../src/locations/record'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore, type Store } from '../src/store'
import { MIGRATIONS } from '../src/store/migrations'
import { QUIET_MS, treeCpuTicks, workingTicks } from './process-waits'
import { tracked } from './started'

export const tempDir = () => mkdtempSync(join(tmpdir(), 'storeloc-test-'))

/**
 * A database file at `path` of schema `version` (up to this program's), with the rows `fill` puts
 * in it. Its path. `journal` 'wal': as a storeloc of that version left it; 'delete' (rollback
 * journal): as its `storeloc backup` wrote a copy (VACUUM INTO).
 */
export function olderSchemaDatabase(
  path: string,
  version: number,
  fill?: (db: Database) => void,
  journal: 'wal' | 'delete' = 'wal',
): string {
  const db = new Database(path, { create: true })
  db.exec(`PRAGMA journal_mode = ${journal}`)
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration)
  db.exec(`PRAGMA user_version = ${version}`)
  fill?.(db)
  db.close()
  return path
}

/** A database file at `path` whose schema is newer than this program's (user_version 999). */
export function newerSchemaDatabase(path: string): string {
  const db = new Database(path)
  db.exec('PRAGMA user_version = 999')
  db.close()
  return path
}

/** Answers the addresses in `table` (matched case-insensitively, whole string) and nothing else; counts calls. */
export function tableGeocoder(
  table: Record<string, Omit<GeocodeResult, 'source' | 'parts'> & Partial<GeocodeResult>>,
): Geocoder & { calls: string[] } {
  const calls: string[] = []
  const byKey = new Map(Object.entries(table).map(([k, v]) => [k.toLowerCase(), v]))
  return {
    name: 'table',
    calls,
    async geocode(address) {
      calls.push(address)
      const hit = byKey.get(address.trim().toLowerCase())
      return hit ? { source: 'table', parts: {}, ...hit } : null
    },
  }
}

export const KNOWN_ADDRESSES = {
  '1600 Pennsylvania Avenue NW, Washington, DC 20500': {
    lat: 38.8977,
    lng: -77.0365,
    precision: 'rooftop' as const,
    parts: { city: 'Washington', region: 'DC', postcode: '20500', country: 'US' },
  },
  '10 Downing Street, London SW1A 2AA': {
    lat: 51.5034,
    lng: -0.1276,
    precision: 'rooftop' as const,
    parts: { city: 'London', postcode: 'SW1A 2AA', country: 'GB' },
  },
}

export type TestEnv = {
  store: Store
  app: ReturnType<typeof createApp>
  geocoder: ReturnType<typeof tableGeocoder>
  locatorId: string
  key: string
  dir: string
  /** Sends a request to the app; `body` objects are sent as JSON. */
  call: (
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string>; key?: string | null },
  ) => Promise<{ status: number; body: any; headers: Headers }>
  close: () => void
}

/** The app on `store` as a server makes it, without a geocoder or a log: for a database file the CLI also writes. */
export const quietApp = (store: Store) =>
  createApp({ store, geocoder: noGeocoder, config: { maxBodyBytes: 262144, logRequests: false }, log: () => {} })

/**
 * `indexUpkeep`: small bounds, so that a few writes reach the indexes' compactions and JSON layouts.
 * `addresses`: what the stand-in geocoder knows (KNOWN_ADDRESSES unless given).
 */
export function makeEnv(
  options: Pick<AppDeps, 'indexUpkeep' | 'places'> & { addresses?: Parameters<typeof tableGeocoder>[0] } = {},
): TestEnv {
  const { addresses = KNOWN_ADDRESSES, ...deps } = options
  const dir = tempDir()
  const store = openStore(join(dir, 'test.db'))
  const geocoder = tableGeocoder(addresses)
  const app = createApp({
    store,
    geocoder: cachedGeocoder(geocoder, store.geocodeCache),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
    places: placeSearchAt(DEFAULT_GEODATA_PATH),
    ...deps,
  })
  const { locator, secret } = createLocator(store, 'Test locator')
  const env: TestEnv = {
    store,
    app,
    geocoder,
    locatorId: locator.id,
    key: secret,
    dir,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) }
      const key = opts.key === undefined ? env.key : opts.key
      if (key !== null) headers.authorization ??= `Bearer ${key}`
      let body: string | undefined
      if (typeof opts.body === 'string') body = opts.body
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body)
        headers['content-type'] ??= 'application/json'
      }
      const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
      const text = await res.text()
      let parsed: any = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers }
    },
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return env
}

/** A valid create body with coordinates (no geocoding needed). */
export const storeBody = (over: Record<string, unknown> = {}) => ({
  name: 'Corner Store',
  address: '1 Main Street, Springfield',
  coordinates: { lat: 39.78, lng: -89.65 },
  ...over,
})

export type Running = {
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  lines: string[]
  /**
   * The first line matching `re` (the `nth`, from 1); fails after `quietMs` (QUIET_MS) in which the
   * process wrote nothing and used no CPU time, or when it ends.
   */
  waitFor: (re: RegExp, quietMs?: number, nth?: number) => Promise<string>
  /**
   * Resolves once the output has ended (every process writing it closed it): every line is then in
   * `lines`. The process's exit alone does not say so: its last lines may still be unread.
   */
  ended: Promise<void>
}

/** Lines of text as they come, in chunks, and a wait for the first that matches. */
function lineCollector(
  /** The process writing, whose CPU time counts as progress. */
  pid?: () => number | undefined,
): Pick<Running, 'lines' | 'waitFor' | 'ended'> & { add: (text: string) => void; end: () => void } {
  const lines: string[] = []
  const output = Promise.withResolvers<void>()
  const waiters: { re: RegExp; nth: number; resolve: (l: string) => void; reject: (e: Error) => void }[] = []
  const matching = (re: RegExp) => lines.filter((l) => re.test(l))
  let buf = ''
  let ended = false
  let lastOutput = performance.now()
  const failure = (re: RegExp, why: string) => new Error(`${why} waiting for ${re}; got:\n${lines.join('\n')}`)
  const settle = (w: (typeof waiters)[number]) => waiters.splice(waiters.indexOf(w), 1)
  return {
    lines,
    ended: output.promise,
    add(text) {
      lastOutput = performance.now()
      buf += text
      let i: number
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '') // a terminal ends its lines with CR LF
        buf = buf.slice(i + 1)
        lines.push(line)
        for (const w of waiters.filter((w) => w.re.test(line) && matching(w.re).length >= w.nth)) {
          settle(w)
          w.resolve(line)
        }
      }
    },
    end() {
      ended = true
      output.resolve()
      for (const w of [...waiters]) {
        settle(w)
        w.reject(failure(w.re, 'the output ended'))
      }
    },
    waitFor: (re, quietMs = QUIET_MS, nth = 1) =>
      new Promise((resolve, reject) => {
        const hit = matching(re)[nth - 1]
        if (hit) return resolve(hit)
        if (ended) return reject(failure(re, 'the output ended'))
        const waiter = { re, nth, resolve, reject }
        waiters.push(waiter)
        const cpu = () => {
          const writer = pid?.()
          return writer === undefined ? 0 : treeCpuTicks(writer)
        }
        let cpuSeen = cpu()
        const check = () => {
          if (!waiters.includes(waiter)) return
          const quiet = performance.now() - lastOutput
          if (quiet < quietMs) return void setTimeout(check, quietMs - quiet)
          const used = cpu()
          const worked = used - cpuSeen >= workingTicks(quietMs)
          cpuSeen = used
          if (worked) return void setTimeout(check, quietMs) // silent, but working
          settle(waiter)
          reject(failure(re, `${quietMs / 1000} s without output or work,`))
        }
        setTimeout(check, quietMs)
      }),
  }
}

/** The machine's environment but its path settings: messages say whether a setting is set. */
export function machineEnv() {
  const { DATABASE_PATH: _database, GEODATA_PATH: _geodata, ...machine } = process.env
  return machine
}

const serverEnv = (dbPath: string, extraEnv: Record<string, string>) => ({
  ...machineEnv(),
  DATABASE_PATH: dbPath,
  PORT: '0',
  HOST: '127.0.0.1',
  ...extraEnv,
})

/**
 * Runs `bun src/main.ts` on a database file, on a free port; collects its stdout lines. `command`
 * replaces `bun src/main.ts` (with the options after it), such as the storeloc launcher's.
 */
export function startServer(
  dbPath: string,
  extraEnv: Record<string, string> = {},
  command: string[] = [process.execPath, join(import.meta.dir, '..', 'src/main.ts')],
): Running {
  const proc = tracked(
    Bun.spawn(command, {
      cwd: join(import.meta.dir, '..'),
      env: serverEnv(dbPath, extraEnv),
      stdout: 'pipe',
      stderr: 'pipe',
    }),
  )
  return { proc, ...stdoutLines(proc) }
}

/** The lines a process writes on stdout, as they come, and a wait for the first that matches. */
export function stdoutLines(proc: {
  stdout: ReadableStream<Uint8Array>
  pid?: number
}): Pick<Running, 'lines' | 'waitFor' | 'ended'> {
  const collected = lineCollector(() => proc.pid)
  ;(async () => {
    const decoder = new TextDecoder()
    for await (const chunk of proc.stdout) collected.add(decoder.decode(chunk, { stream: true }))
    collected.end()
  })()
  return { lines: collected.lines, waitFor: collected.waitFor, ended: collected.ended }
}

/** startServer, with its stdout and stderr a terminal (a pseudo-terminal), as `npm start` typed in one has them. */
export function startInTerminal(
  dbPath: string,
  extraEnv: Record<string, string> = {},
): Omit<Running, 'proc' | 'ended'> & { proc: Bun.Subprocess } {
  const collected = lineCollector(() => proc.pid)
  const decoder = new TextDecoder()
  const proc = tracked(
    Bun.spawn([process.execPath, join(import.meta.dir, '..', 'src/main.ts')], {
      cwd: join(import.meta.dir, '..'),
      env: serverEnv(dbPath, extraEnv),
      terminal: {
        cols: 250,
        rows: 50,
        data: (_terminal, data) => collected.add(decoder.decode(data, { stream: true })),
      },
    }),
  )
  return { proc, lines: collected.lines, waitFor: collected.waitFor }
}

/**
 * A port no socket holds now, for a server a test must reach before it says where it listens: the
 * kernel picks it (a port chosen at random may be the local end of one of the run's connections).
 */
export function freePort(): string {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) })
  const port = probe.port!
  probe.stop(true)
  return String(port)
}

/**
 * startServer on a port from freePort, for a server a test reaches before it says where it listens,
 * and its first line matching `re`. Another process may take the port between freePort and the
 * bind: a start that ends saying so is made again on another port; one that ends otherwise fails.
 * `command`: the one startServer runs, given the port. PORT names the port too, unless `extraEnv`
 * sets PORT (for a test of an option that wins over it).
 */
export async function startOnFreePort(
  dbPath: string,
  extraEnv: Record<string, string>,
  re: RegExp,
  command?: (port: string) => string[],
): Promise<{ server: Running; port: string; line: string }> {
  for (;;) {
    const port = freePort()
    const server = startServer(dbPath, { PORT: port, ...extraEnv }, command?.(port))
    const ended = server.proc.exited.then((code) => ({ code }))
    const first = await Promise.race([
      server.waitFor(re).then(
        (line) => ({ line }),
        () => ended,
      ),
      ended,
    ])
    if ('line' in first) return { server, port, line: first.line }
    const stderr = await new Response(server.proc.stderr).text()
    if (stderr.includes(`another program uses port ${port}`)) continue
    throw new Error(`the server exited ${first.code}: ${stderr}`)
  }
}

/** The base URL a started server printed in its "listening" line. */
export async function serverUrl(server: Running): Promise<string> {
  const line = await server.waitFor(/"listening"/)
  const url = new URL(JSON.parse(line).url)
  return `http://127.0.0.1:${url.port}`
}

let caughtUp = 0

/**
 * Resolves once `server`'s output holds every line it wrote for the requests answered before: a
 * request of its own is sent, and its log line waited for (one process, its request log on). A
 * line's absence is read after this; the answers alone come before their lines at times.
 */
export async function logCaughtUp(server: Running, base: string): Promise<void> {
  const id = `caught-up-${process.pid}-${++caughtUp}`
  await (await fetch(`${base}/healthz`, { headers: { 'x-request-id': id } })).arrayBuffer()
  await server.waitFor(new RegExp(`"request_id":"${id}"`))
}

/**
 * `stderr` without an import's progress lines: an import past a second prints them, as it may on a
 * loaded machine; tests of them pass --progress and read them whole.
 */
export function unprogressed(stderr: string): string {
  return stderr.replace(/^[\d,]+ rows? read\b.*\n/gm, '')
}

/** Runs the storeloc CLI as a real subprocess on the database file `dbPath()` names. */
export function cliRunner(dbPath: () => string) {
  const root = join(import.meta.dir, '..')
  const storeloc = (...argv: string[]) => {
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), ...argv], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath() },
    })
    const stderr = p.stderr.toString()
    return {
      code: p.exitCode,
      stdout: p.stdout.toString(),
      stderr: argv.includes('--progress') ? stderr : unprogressed(stderr),
    }
  }
  /** The parsed --json output of a command that must succeed. */
  const json = (...argv: string[]) => {
    const r = storeloc(...argv, '--json')
    if (r.code !== 0) throw new Error(`storeloc ${argv.join(' ')} exited ${r.code}: ${r.stderr}`)
    return JSON.parse(r.stdout)
  }
  return { storeloc, json }
}

/** A fresh store on a temporary file for each test of the calling file (hooks registered here). */
export function withTempStore(): { readonly store: Store } {
  let dir = ''
  let store: Store | null = null
  beforeEach(() => {
    dir = tempDir()
    store = openStore(join(dir, 'store.db'))
  })
  afterEach(() => {
    store?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    get store() {
      return store!
    },
  }
}

/** A schedule that only queues background tasks: the test runs them when it chooses. */
export function taskQueue() {
  const tasks: (() => void)[] = []
  return {
    schedule: (task: () => void) => void tasks.push(task),
    runOne: () => tasks.shift()?.(),
    runAll: () => {
      while (tasks.length > 0) tasks.shift()!()
    },
  }
}

/** Commits `fn`'s writes in one transaction on another connection to the same file, as another process (the CLI's import) does. */
export function otherProcess(store: Store, fn: (other: Store) => void): void {
  const other = openStore(store.db.filename)
  try {
    other.write(() => fn(other))
  } finally {
    other.close()
  }
}

/** A new location's record as the Management API's create makes it from `body` (no custom field definitions, not geocoded), to insert directly. */
export const locationRecord = (locatorId: string, body: Record<string, unknown>) =>
  newLocationRecord(locatorId, normalizeLocationBody(pickLocationFields(body), 'create', []), null, null)

/**
 * A locator with its Query API on and `n` published locations inserted in one transaction: the
 * i-th named `${name} ${i}`, with `fields(i)` (its address and coordinates).
 */
export function servedLocator(store: Store, name: string, n: number, fields: (i: number) => Record<string, unknown>) {
  const { locator, secret } = createLocator(store, name)
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  const ids: string[] = []
  store.write(() => {
    for (let i = 0; i < n; i++) {
      const record = locationRecord(locator.id, { name: `${name} ${i}`, status: 'published', ...fields(i) })
      store.locations.insert(record)
      ids.push(record.id)
    }
  })
  return { locator: store.locators.get(locator.id)!, secret, ids }
}

const SPELL_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
}

/**
 * The property tests' oracle of search words, written apart from src/core/text.ts: compatibility forms
 * decomposed, nonspacing marks (accents) dropped, lowercased, letters spelt out; anything not a
 * letter, a (spacing) mark or a digit separates words.
 */
export function oracleWords(text: string): string[] {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .replace(/./gu, (c) => SPELL_OUT[c] ?? c)
  return plain.split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w !== '')
}

/**
 * Edit distances from `a` to `b` and to the closest of b's prefixes, an edit being a character
 * added, dropped or changed, or two neighbours swapped (optimal string alignment): the typo oracles'.
 */
export function editDistances(a: string, b: string): [whole: number, prefix: number] {
  let twoUp: number[] = []
  let row = Array.from({ length: a.length + 1 }, (_, i) => i) // b's first 0 characters
  let prefix = row[a.length]!
  for (let j = 1; j <= b.length; j++) {
    const next = [j]
    for (let i = 1; i <= a.length; i++) {
      next[i] = Math.min(row[i - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), row[i]! + 1, next[i - 1]! + 1)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        next[i] = Math.min(next[i]!, twoUp[i - 2]! + 1)
    }
    twoUp = row
    row = next
    prefix = Math.min(prefix, row[a.length]!)
  }
  return [row[a.length]!, prefix]
}

/** The edits a searched word may be off by, as the Query API documents it: 1 from 4 characters (with a letter), 2 from 8. */
export const typosAllowed = (w: string) => (w.length >= 8 ? 2 : w.length >= 4 && /\p{L}/u.test(w) ? 1 : 0)

/** Great-circle distance in km (haversine, mean Earth radius 6371 km): the tests' oracle, apart from geokdbush. */
export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** A bbox as the Query API takes it: west, south, east, north. */
export type Bbox = [number, number, number, number]

/**
 * Whether a point lies in a bbox as the Query API documents it: edges included; west > east
 * crosses the antimeridian; longitudes 180 and -180 are one meridian. The tests' oracle.
 */
export function inBbox([w, s, e, n]: Bbox, p: { lat: number; lng: number }): boolean {
  if (p.lat < s || p.lat > n) return false
  const within = (x: number) => (w <= e ? x >= w && x <= e : x >= w || x <= e)
  return within(p.lng) || (Math.abs(p.lng) === 180 && within(-p.lng))
}

/**
 * The bbox dLng and dLat degrees either side of a point: its longitudes wrapped into -180..180
 * (west > east when one wraps), its latitudes cut at the poles; every longitude from 180 up.
 */
export function bboxAround(p: { lat: number; lng: number }, dLng: number, dLat: number): Bbox {
  const s = Math.max(-90, p.lat - dLat)
  const n = Math.min(90, p.lat + dLat)
  if (dLng >= 180) return [-180, s, 180, n]
  const wrap = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x)
  return [wrap(p.lng - dLng), s, wrap(p.lng + dLng), n]
}

/**
 * Sends `raw` to 127.0.0.1:`port` on a connection of its own (`closeEarly`: its side ended once
 * sent); resolves with what came back when the server closes it. An answer on a connection kept
 * open is whole once 2 s pass without a byte; none at all is waited for up to 20 s, as a loaded
 * machine may take.
 */
export function sendRaw(port: number, raw: string, closeEarly = false): Promise<string> {
  return new Promise((resolve) => {
    let answer = ''
    const began = performance.now()
    let lastByte = began
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(raw)
      if (closeEarly) socket.end()
    })
    const end = () => {
      clearInterval(timer)
      socket.destroy()
      resolve(answer)
    }
    socket.on('data', (chunk) => {
      answer += chunk
      lastByte = performance.now()
    })
    socket.on('error', () => {})
    socket.on('close', end)
    const timer = setInterval(() => {
      const now = performance.now()
      if ((answer !== '' && now - lastByte >= 2000) || now - began >= 20_000) end()
    }, 100)
  })
}
