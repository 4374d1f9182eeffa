// HTTP benchmark: the real service (`bun src/main.ts`) under wrk on loopback, against a bare
// `Bun.serve` returning a static body of the same size, in the same run; plus sustained
// Management-API creates with synchronous=FULL, and the WORKERS=N gain when the build has it.
//
//   bun bench/http.ts [--size 100000] [--seed 42] [--runs 3] [--duration 10] [--slices 5] [--warmup 2]
//                     [--connections 50] [--workers 1,2] [--paths 400000] [--sample 2000] [--types radius_typical]
//                     [--write-connections 16] [--write-duration <duration>] [--no-writes]
//                     [--json path] [--entry src/main.ts] [--quick]
//   bun bench/http.ts --render <json>   (the report of a --json file, written again by this code)
//
// --quick: 10,000 locations, 1 run, 3 s per measurement, 1 s warm-up, 200,000 paths, 500 sampled (options given
// explicitly still win). Needs wrk (`apt-get install -y wrk`, run here as root when missing) and
// taskset (util-linux), 2+ cores; without them it prints "HTTP: skipped (<reason>)" and succeeds.
//
// What it does (see bench/README.md, "HTTP benchmark"):
//  1. Seeds a temporary SQLite database (bench/scenario.ts: seedLocator), lifts the locator's rate
//     limit out of the way (the limiter still runs on every request), creates a secret key.
//  2. Starts the service with WORKERS=1 pinned to CPU 0 (`taskset -c 0`), and one with WORKERS=N
//     (N > 1, unpinned) per extra --workers entry; wrk always runs `taskset -c 1 wrk -t1`.
//     GEOCODER=none, DEMO=0, LOG_REQUESTS=0. Each server is used once /readyz answers 200 and it
//     has printed its "listening" line: the service has built its index at start and finished the
//     build's background work (public JSON, word index, name order); with workers, each does so
//     before it listens, and the primary prints the line once all listen. Then 20 requests in a
//     row on fresh connections must answer in < 100 ms.
//  3. Per run (the scenario order rotates from run to run so drift hits all alike):
//     bare (a separate Bun.serve, pinned to CPU 0, static body of the run's mean body size, a
//     string, which Bun copies into each response), bareBlob (the same, its body kept as a Blob,
//     sent without a copy, as the service sends a kept answer: a reference, no target),
//     copies (a stand-in Bun.serve, pinned: a body of the same size copied per response from as
//     many random places as an answer has locations, of a buffer as large as the locations' JSON),
//     answer (a stand-in Bun.serve, pinned, started once: the service's answer path alone,
//     registry.sync() and locationsBody(), over the same database, for the varied paths),
//     varied (--paths distinct public radius queries from scenario(set, seed, run), more than a
//     measurement asks for, so each is asked at most once and none is answered from the response
//     cache; the report says so, or warns when a run went round them), repeated (the path among the
//     first --sample, whose bodies give the mean size, closest to the mean), and varied with
//     WORKERS=N. Each is --warmup seconds of wrk on another set of paths (discarded), then
//     --duration seconds measured, in --slices slices (5; 1 with --quick) taken in turn with the
//     other scenarios' (slice 1 of each scenario, then slice 2 of each, ...), each slice on its own
//     part of the run's paths, and merged (mergeSlices): a scenario's time is spread over the run,
//     so the machine's slow and fast minutes fall on every scenario alike. CPU figures are over the
//     window from when wrk's script has read its paths (it prints @@INIT, as wrk starts its clock)
//     to wrk's exit.
//  4. Writes: on the WORKERS=1 server, once per run, wrk POSTs /admin/v1/locations with bodies
//     from generate() (coordinates given: no geocoding), counting 201s; the locator's row count
//     (via the API) must grow by at least that many (and at most that plus the requests still in
//     flight when wrk stopped); after a graceful stop the database file is counted again.
//
// --json <path> writes: { benchmark: "http", date, commit, dirty, machine, versions, options, setup,
// targets, runs: [{ run, paths, meanBodyBytes, repeated: { path, bodyBytes }, scenarios: { <key>:
// WrkResult }, ratios: { varied_vs_bare, repeated_vs_bare, workers<N>_vs_varied } }], writes:
// [{ run, result: WrkResult, created, rowsAdded, inFlightAtStop, landed }], summary: { scenarios:
// { <key>: { label, rps, p50Us, p99Us, bytesPerResponse, serverCpu, clientCpu, otherCpu,
// serverCoreBusy, clientCoreBusy: Spread, faultsPerRequest: Spread | null, errors } }, ratios:
// { <key>: Spread }, writes: { rps, p50Us, p99Us, serverCpu, otherCpu: Spread, allLanded,
// fileRows: { api, file } } } }, where Spread = { median, min, max, runs: number[] } and WrkResult
// is the type below (times in µs, CPU as a fraction of one core over the measured window,
// serverCpuS the server's CPU seconds over it; a scenario measured in slices keeps each slice's
// own WrkResult under `slices`). Scenario keys: bare, bareBlob, copies, answer, varied, repeated,
// workers<N>; ratios add copies_vs_bare, answer_vs_bare, varied_vs_bare_per_cpu and
// repeated_vs_bare_per_cpu (each server's requests ÷ its CPU seconds: what the targets are judged
// on), and the same two against bareBlob (varied_vs_bare_blob_per_cpu, repeated_vs_bare_blob_per_cpu).
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createKey } from '../src/operator/index'
import { openStore } from '../src/store'
import { scenario, seedLocator } from './scenario'
import { type Spread, spread } from './spread'
import { generate } from './synthetic'
import { aptInstall, type Provenance, provenance, provenanceLine, readOptions } from './system'

const ROOT = resolve(import.meta.dir, '..')
const SERVER_CPU = '0'
const CLIENT_CPU = '1'
/** Warm-up: this many requests in a row, each on a new connection, must answer within FAST_MS. */
const WARM_STREAK = 20
/** The warm-up's paths come from scenario(set, seed, run + WARM_SET): none of the measured ones. */
const WARM_SET = 1000
const FAST_MS = 100

/** Other processes' CPU (fraction of one core) above which the report says the figures are disturbed. */
const OTHER_LOAD_WARN = 0.05
/** wrk at or above this share of its core against the bare server: the bare rate may be the client's limit (the report says so). */
const CLIENT_BOUND = 0.95

const TARGETS = { variedVsBare: 0.4, repeatedVsBare: 0.8, createsPerSecond: 500 }

// ---------------------------------------------------------------- options

type Options = {
  size: number
  seed: number
  runs: number
  duration: number
  /**
   * Each scenario's --duration is measured in this many slices, the scenarios' slices taken in
   * turn, so each scenario's time is spread over the run (absent in records made before: 1).
   */
  slices?: number
  warmup: number
  connections: number
  workers: number[]
  paths: number
  /** Paths fetched to measure the mean body size (the first of the run's set). */
  sample: number
  types: string[]
  writeConnections: number
  writeDuration: number
  writes: boolean
  json: string | null
  quick: boolean
  /** The service's entry point. */
  entry: string
  /** A --json file to write the report of again (nothing is run). */
  render: string | null
}

const USAGE =
  'usage: bun bench/http.ts [--size 100000] [--seed 42] [--runs 3] [--duration 10] [--slices 5] [--warmup 2] [--connections 50] [--workers 1,2] [--paths 400000] [--sample 2000] [--types radius_typical] [--write-connections 16] [--write-duration S] [--no-writes] [--json path] [--entry src/main.ts] [--quick] | --render <json>'

function parseArgs(argv: string[]): Options {
  const quick = argv.includes('--quick')
  const o: Options = {
    size: quick ? 10_000 : 100_000,
    seed: 42,
    runs: quick ? 1 : 3,
    duration: quick ? 3 : 10,
    slices: quick ? 1 : 5,
    warmup: quick ? 1 : 2,
    connections: 50,
    workers: [1, 2],
    paths: quick ? 200_000 : 400_000,
    sample: quick ? 500 : 2000,
    types: ['radius_typical'],
    writeConnections: 16,
    writeDuration: 0,
    writes: true,
    json: null,
    quick,
    entry: join(ROOT, 'src/main.ts'),
    render: null,
  }
  readOptions(argv, USAGE, (a, v, int) => {
    if (a === '--quick') return true
    else if (a === '--size') o.size = int(100)
    else if (a === '--seed') o.seed = int(0)
    else if (a === '--runs') o.runs = int(1)
    else if (a === '--duration') o.duration = int(1)
    else if (a === '--slices') o.slices = int(1)
    else if (a === '--warmup') o.warmup = int(0)
    else if (a === '--connections') o.connections = int(1)
    else if (a === '--workers') o.workers = v().split(',').map((s) => Number(s))
    else if (a === '--paths') o.paths = int(1)
    else if (a === '--sample') o.sample = int(1)
    else if (a === '--types') o.types = v().split(',')
    else if (a === '--write-connections') o.writeConnections = int(1)
    else if (a === '--write-duration') o.writeDuration = int(1)
    else if (a === '--no-writes') o.writes = false
    else if (a === '--json') o.json = resolve(v())
    else if (a === '--entry') o.entry = resolve(v())
    else if (a === '--render') o.render = resolve(v())
    else return false
    return true
  })
  if (o.workers.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--workers: a list of whole numbers >= 1, e.g. 1,2')
  o.workers = [...new Set([1, ...o.workers])].sort((x, y) => x - y)
  if (o.writeDuration === 0) o.writeDuration = o.duration
  // wrk takes whole seconds.
  if (o.duration % o.slices! !== 0) throw new Error(`--duration ${o.duration} is not a whole number of seconds a slice for --slices ${o.slices}: make it a multiple of --slices`)
  return o
}

// ---------------------------------------------------------------- processes (all tracked for cleanup)

type Child = { proc: Bun.Subprocess; group: boolean; fds: number[] }
const children = new Set<Child>()
let tmp = ''

/** Every process in /proc: parent, process group, CPU ticks (utime + stime) and minor page faults. */
function procTable(): Map<number, { ppid: number; pgrp: number; ticks: number; minflt: number }> {
  const out = new Map<number, { ppid: number; pgrp: number; ticks: number; minflt: number }>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(name), { ppid: Number(f[1]), pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]), minflt: Number(f[7]) })
    } catch {
      // exited meanwhile
    }
  }
  return out
}

/** pid, its descendants and its process group's members. */
function tree(pid: number, table = procTable()): number[] {
  const found = new Set([pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [p, s] of table) {
      if (!found.has(p) && (found.has(s.ppid) || s.pgrp === pid)) {
        found.add(p)
        grew = true
      }
    }
  }
  return [...found].filter((p) => table.has(p))
}

const CLK_TCK = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** Per-core jiffies from /proc/stat: busy (everything but idle and iowait) and total. */
function coreTimes(): Map<string, { busy: number; total: number }> {
  const out = new Map<string, { busy: number; total: number }>()
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line)
    if (!m) continue
    const f = m[2]!.trim().split(/\s+/).map(Number)
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0)
    out.set(m[1]!, { busy: total - f[3]! - f[4]!, total })
  }
  return out
}

function coreBusy(before: Map<string, { busy: number; total: number }>, after: Map<string, { busy: number; total: number }>, core: string): number {
  const a = before.get(core)
  const b = after.get(core)
  return a && b && b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : Number.NaN
}

function signalChild(c: Child, signal: NodeJS.Signals): void {
  const pids = c.group ? tree(c.proc.pid) : [c.proc.pid]
  if (c.group) {
    try {
      process.kill(-c.proc.pid, signal)
    } catch {
      // group gone
    }
  }
  for (const p of pids) {
    try {
      process.kill(p, signal)
    } catch {
      // gone
    }
  }
}

async function stopChild(c: Child, graceMs = 5000): Promise<void> {
  if (!children.has(c)) return
  if (c.proc.exitCode === null && c.proc.signalCode === null) {
    signalChild(c, 'SIGTERM')
    const done = await Promise.race([c.proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)])
    if (!done) {
      signalChild(c, 'SIGKILL')
      await c.proc.exited
    }
  }
  // Workers the server started may outlive it by a moment.
  if (c.group) signalChild(c, 'SIGKILL')
  for (const fd of c.fds) closeSync(fd)
  children.delete(c)
}

let cleaned = false
async function cleanup(): Promise<void> {
  if (cleaned) return
  cleaned = true
  await Promise.all([...children].map((c) => stopChild(c, 3000)))
  if (tmp) rmSync(tmp, { recursive: true, force: true })
}

// ---------------------------------------------------------------- servers

type Server = { label: string; child: Child; pid: number; base: string; out: string; err: string; pids: number[] }

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = s.port!
  s.stop(true)
  return port
}

function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

/** Spawns a server in its own process group (so its workers can be stopped with it), logs to files. */
function spawnServer(label: string, argv: string[], env: Record<string, string | undefined>, pinned: boolean): Server {
  const port = freePort()
  const out = join(tmp, `${label}.out.log`)
  const err = join(tmp, `${label}.err.log`)
  const fds = [openSync(out, 'w'), openSync(err, 'w')]
  const cmd = pinned ? ['taskset', '-c', SERVER_CPU, ...argv] : argv
  const base = { ...process.env }
  delete base.WORKERS
  const proc = Bun.spawn(cmd, { cwd: ROOT, env: { ...base, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdin: 'ignore', stdout: fds[0]!, stderr: fds[1]!, detached: true })
  const child: Child = { proc, group: true, fds }
  children.add(child)
  return { label, child, pid: proc.pid, base: `http://127.0.0.1:${port}`, out, err, pids: [proc.pid] }
}

async function waitReady(s: Server, path: string, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (s.child.proc.exitCode !== null || s.child.proc.signalCode !== null) {
      throw new Error(`${s.label} exited (${s.child.proc.exitCode ?? s.child.proc.signalCode}):\n${tail(s.out)}\n${tail(s.err)}`)
    }
    try {
      const r = await fetch(s.base + path, { keepalive: false })
      await r.arrayBuffer()
      if (r.status === 200) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`${s.label} not ready after ${timeoutMs / 1000} s:\n${tail(s.out)}\n${tail(s.err)}`)
}

/** The service on the seeded database, with WORKERS=n; n = 1 pinned to SERVER_CPU. */
function startService(entry: string, db: string, workers: number): Server {
  const env = { DATABASE_PATH: db, DEMO: '0', LOG_REQUESTS: '0', GEOCODER: 'none', WORKERS: String(workers) }
  return spawnServer(`service-w${workers}`, [process.execPath, entry], env, workers === 1)
}

/** Waits until the server's stdout has a line containing `text`. */
async function waitForLine(s: Server, text: string, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!readFileSync(s.out, 'utf8').includes(text)) {
    if (Date.now() > until) throw new Error(`${s.label}: no ${text} line after ${timeoutMs / 1000} s:\n${tail(s.out)}`)
    await Bun.sleep(100)
  }
}

/** Requests `path` on fresh connections until WARM_STREAK in a row answer 200 within FAST_MS. */
async function warmIndex(s: Server, path: string): Promise<number> {
  const t0 = performance.now()
  let streak = 0
  let n = 0
  while (streak < WARM_STREAK) {
    if (++n > 2000) throw new Error(`${s.label}: no ${WARM_STREAK} fast answers in a row after 2000 requests`)
    const t = performance.now()
    const r = await fetch(s.base + path, { keepalive: false, headers: { 'accept-encoding': 'identity' } })
    const body = await r.text()
    if (r.status !== 200) throw new Error(`${s.label}: GET ${path} answered ${r.status}: ${body.slice(0, 300)}`)
    streak = performance.now() - t < FAST_MS ? streak + 1 : 0
  }
  return performance.now() - t0
}

/**
 * The bare baseline: a static JSON body of exactly `bytes` bytes, with the service's content-type;
 * as a string (Bun copies it into each response, as the issue's bare server would be written), or
 * kept as a Blob (`blob`: sent without a copy, as the service sends its kept answers).
 */
function startBare(bytes: number, run: number, blob = false): Server {
  const head = '{"success":true,"data":{"pad":"'
  const foot = '"}}'
  const body = head + 'x'.repeat(Math.max(0, bytes - head.length - foot.length)) + foot
  const bodyFile = join(tmp, `bare-body-${run}${blob ? '-blob' : ''}.json`)
  writeFileSync(bodyFile, body)
  const script = join(tmp, blob ? 'bare-blob.ts' : 'bare.ts')
  writeFileSync(
    script,
    [
      '// bench/http.ts baseline: Bun.serve with a static body, built per request as the service does.',
      blob ? `const body = new Blob([await Bun.file(${JSON.stringify(bodyFile)}).text()])` : `const body = await Bun.file(${JSON.stringify(bodyFile)}).text()`,
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => new Response(body, { headers }) })",
      '',
    ].join('\n'),
  )
  return spawnServer(`bare${blob ? '-blob' : ''}-${run}`, [process.execPath, script], {}, true)
}

/**
 * Stand-in: a `Bun.serve` whose every response is a body of `bytes` bytes made of `pieces` pieces
 * copied from random places of a buffer of `arenaBytes` (filled once): what the machine takes to
 * send an answer whose locations' JSON no cache holds, with no index and no route around it.
 */
function startCopies(bytes: number, pieces: number, arenaBytes: number, run: number): Server {
  const script = join(tmp, 'copies.ts')
  writeFileSync(
    script,
    [
      '// bench/http.ts stand-in: each body copied from random places of a large buffer, as answers are from the JSON arena.',
      `const head = Buffer.from('{"success":true,"data":{"pad":"'), foot = Buffer.from('"}}')`,
      `const bytes = ${bytes}, pieces = ${pieces}`,
      'const piece = Math.max(1, Math.floor((bytes - head.length - foot.length) / pieces))',
      `const arena = Buffer.alloc(Math.max(${arenaBytes}, 4 * piece), 'x')`,
      'const body = Buffer.alloc(bytes, "x")',
      'head.copy(body, 0)',
      'foot.copy(body, bytes - foot.length)',
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => {",
      '  for (let i = 0, pos = head.length; i < pieces; i++, pos += piece) {',
      '    const at = Math.floor(Math.random() * (arena.length - piece))',
      '    arena.copy(body, pos, at, at + piece)',
      '  }',
      '  return new Response(body, { headers })',
      '} })',
      '',
    ].join('\n'),
  )
  return spawnServer(`copies-${run}`, [process.execPath, script], {}, true)
}

/**
 * Stand-in: a `Bun.serve` answering GET /public/v1/{token}/locations from the service's own answer
 * path (registry.sync(), then locationsBody()) over the same database, nothing else: no guard, no
 * rate count, no answer cache, one header. Prints "ready" once its index and JSON are built.
 */
function startAnswerOnly(db: string, token: string): Server {
  const script = join(tmp, 'answer-only.ts')
  const src = (f: string) => JSON.stringify(join(ROOT, 'src', f))
  writeFileSync(
    script,
    [
      "// bench/http.ts stand-in: the service's answer path alone, in a bare Bun.serve.",
      `import { openStore } from ${src('store')}`,
      `import { locationsBody } from ${src('api/public/answer')}`,
      `import { IndexRegistry } from ${src('indexes/registry')}`,
      `const store = openStore(${JSON.stringify(db)})`,
      'const registry = new IndexRegistry(store)',
      'await registry.preload()',
      `const locator = registry.locatorByToken(${JSON.stringify(token)})!`,
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: (request) => {",
      '  registry.sync()',
      '  return new Response(locationsBody(registry, locator, request.url).body, { headers })',
      '} })',
      "console.log('ready')",
      '',
    ].join('\n'),
  )
  return spawnServer('answer-only', [process.execPath, script], {}, true)
}

// ---------------------------------------------------------------- wrk

type WrkResult = {
  rps: number
  requests: number
  durationS: number
  /** Bytes read per response: status line, headers and body. */
  bytesPerResponse: number
  latencyUs: { mean: number; p50: number; p90: number; p99: number; p999: number; max: number }
  errors: { connect: number; read: number; write: number; status: number; timeout: number }
  /** 201 answers (write script only). */
  created: number
  /**
   * CPU seconds the server's processes used over the window: from when wrk's script had read its
   * paths (it says @@INIT, as wrk starts its clock) to wrk's exit. Absent in records made before
   * f9e178d, whose CPU figures are over wrk's whole run, its start-up included (see perCpu); in
   * f9e178d's and 0e76d3c's, from wrk's start (the server idles while wrk starts).
   */
  serverCpuS?: number
  /** The server's CPU seconds while wrk started (before @@INIT): ~0, a check that it idled. Absent before the window began at @@INIT. */
  serverStartUpCpuS?: number
  /**
   * Minor page faults of the server's processes over the window: memory touched for the first
   * time, or again after the allocator gave it back to the kernel. Absent in records made before
   * this was counted.
   */
  serverMinorFaults?: number
  /** wrk's run, from its start to its exit, in seconds. */
  wallS?: number
  /** The window the CPU figures are over, in seconds: durationS and wrk's exit. */
  windowS?: number
  /** CPU used over the window by the server's processes and by wrk, as a fraction of one core. */
  serverCpu: number
  clientCpu: number
  /** CPU used by every other process on the machine (kernel threads included) over the window: interference. */
  otherCpu: number
  /** How busy each core was over the window (anything but idle/iowait: our processes, softirq, anyone else's work). */
  coreBusy: { server: number; client: number }
  /** A scenario measured in slices (--slices): each slice's own result, in the order taken; this one is merged from them (mergeSlices). Absent when measured in one piece. */
  slices?: WrkResult[]
}

/** A wrk script cycling through the lines of `file`: GET paths, or POST JSON bodies to `post.path`. */
function luaScript(name: string, lines: string[], post: { path: string; secret: string } | null): string {
  const file = join(tmp, `${name}.lines`)
  writeFileSync(file, lines.join('\n') + '\n')
  const script = join(tmp, `${name}.lua`)
  const lua = [
    '-- generated by bench/http.ts',
    `local file = ${JSON.stringify(file)}`,
    'local reqs = {}',
    'local n = 0',
    'local i = 0',
    'created = 0',
    'function init(args)',
    '  for line in io.lines(file) do',
    '    if line ~= "" then',
    '      n = n + 1',
    post
      ? `      reqs[n] = wrk.format("POST", ${JSON.stringify(post.path)}, { ["Content-Type"] = "application/json", ["Authorization"] = ${JSON.stringify(`Bearer ${post.secret}`)} }, line)`
      : '      reqs[n] = wrk.format("GET", line)',
    '    end',
    '  end',
    // Read: the bench takes its CPU samples now, as wrk starts its clock (runWrk).
    '  io.write("@@INIT\\n")',
    '  io.flush()',
    'end',
    'function request()',
    '  i = i % n + 1',
    '  return reqs[i]',
    'end',
    post ? 'function response(status, headers, body)\n  if status == 201 then created = created + 1 end\nend' : '',
    'local threads = {}',
    'function setup(thread) table.insert(threads, thread) end',
    'function done(summary, latency, requests)',
    '  local c = 0',
    '  for _, t in ipairs(threads) do c = c + (t:get("created") or 0) end',
    '  local e = summary.errors',
    '  io.write(string.format(\'@@WRK {"requests":%d,"bytes":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latencyUs":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d},"created":%d}\\n\',',
    '    summary.requests, summary.bytes, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, c))',
    'end',
    '',
  ].join('\n')
  writeFileSync(script, lua)
  return script
}

async function runWrk(s: Server, script: string, seconds: number, connections: number): Promise<WrkResult> {
  const cmd = ['taskset', '-c', CLIENT_CPU, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, s.base + '/']
  const sample = () => ({ table: procTable(), cores: coreTimes(), at: performance.now() })
  const spawned = sample()
  const pids = tree(s.pid, spawned.table)
  const proc = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const child: Child = { proc, group: false, fds: [] }
  children.add(child)
  // The script says @@INIT once it has read its paths (~1 s for 400,000), as wrk starts its clock:
  // the CPU samples are taken then, so every CPU figure is over the measured window (and wrk's exit).
  let init: ReturnType<typeof sample> | null = null
  const readOut = async () => {
    const decoder = new TextDecoder()
    let text = ''
    for await (const chunk of proc.stdout) {
      text += decoder.decode(chunk, { stream: true })
      if (init === null && text.includes('@@INIT\n')) init = sample()
    }
    return text + decoder.decode()
  }
  const [out, err] = await Promise.all([readOut(), new Response(proc.stderr).text()])
  const code = await proc.exited
  const end = sample()
  children.delete(child)
  const line = out.split('\n').find((l) => l.startsWith('@@WRK '))
  if (code !== 0 || !line) throw new Error(`wrk exited ${code} against ${s.label}:\n${out}\n${err}`)
  if (init === null) throw new Error(`wrk's script against ${s.label} never said @@INIT (its init() did not run to its end):\n${out}\n${err}`)
  const from: ReturnType<typeof sample> = init
  const ticksOf = (table: ReturnType<typeof procTable>, list: number[]) => list.reduce((sum, p) => sum + (table.get(p)?.ticks ?? 0), 0)
  let serverTicks = 0
  let serverFaults = 0
  let otherTicks = 0
  for (const [p, after] of end.table) {
    const before = from.table.get(p)
    const delta = after.ticks - (before?.ticks ?? 0)
    if (pids.includes(p)) {
      serverTicks += delta
      serverFaults += after.minflt - (before?.minflt ?? 0)
    } else if (p !== process.pid && p !== proc.pid) otherTicks += delta
  }
  const r = JSON.parse(line.slice(6)) as Omit<WrkResult, 'rps' | 'durationS' | 'bytesPerResponse' | 'serverCpu' | 'clientCpu' | 'otherCpu' | 'coreBusy'> & { bytes: number; durationUs: number }
  // No CPU seen for requests answered: the server's processes were not found (perCpu would divide by 0).
  if (r.requests > 0 && serverTicks === 0) throw new Error(`no CPU time counted for ${s.label} (pids ${pids.join(', ')}) over ${r.requests} requests`)
  const usage = proc.resourceUsage()
  const durationS = r.durationUs / 1e6
  const windowS = (end.at - from.at) / 1000
  // wrk's CPU from the samples on: its total less what it had used by then (it has exited, so its total is its rusage's).
  const clientS = usage ? Number(usage.cpuTime.total) / 1e6 - (from.table.get(proc.pid)?.ticks ?? 0) / CLK_TCK : Number.NaN
  return {
    rps: r.requests / durationS,
    requests: r.requests,
    durationS,
    bytesPerResponse: r.requests > 0 ? r.bytes / r.requests : 0,
    latencyUs: r.latencyUs,
    errors: r.errors,
    created: r.created,
    serverCpuS: serverTicks / CLK_TCK,
    serverStartUpCpuS: (ticksOf(from.table, pids) - ticksOf(spawned.table, pids)) / CLK_TCK,
    serverMinorFaults: serverFaults,
    wallS: (end.at - spawned.at) / 1000,
    windowS,
    serverCpu: serverTicks / CLK_TCK / windowS,
    clientCpu: clientS / windowS,
    otherCpu: otherTicks / CLK_TCK / windowS,
    coreBusy: { server: coreBusy(from.cores, end.cores, SERVER_CPU), client: coreBusy(from.cores, end.cores, CLIENT_CPU) },
  }
}

const socketErrors = (r: WrkResult) => r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout

/**
 * A scenario's slices as one result: requests, bytes, errors, CPU seconds and faults summed, its
 * rate over the slices' measured seconds, the CPU shares and core busy times over their windows;
 * the latency percentiles are the slices' medians (wrk gives no histogram to merge), the mean and
 * max over all. The slices are kept in `slices`.
 */
function mergeSlices(rs: WrkResult[]): WrkResult {
  if (rs.length === 1) return rs[0]!
  const sum = (f: (r: WrkResult) => number) => rs.reduce((a, r) => a + f(r), 0)
  const median = (f: (r: WrkResult) => number) => spread(rs.map(f)).median
  const requests = sum((r) => r.requests)
  const durationS = sum((r) => r.durationS)
  const windowS = sum((r) => r.windowS!)
  const overWindow = (f: (r: WrkResult) => number) => sum((r) => f(r) * r.windowS!) / windowS
  const serverCpuS = sum((r) => r.serverCpuS!)
  return {
    rps: requests / durationS,
    requests,
    durationS,
    bytesPerResponse: requests > 0 ? sum((r) => r.bytesPerResponse * r.requests) / requests : 0,
    latencyUs: {
      mean: requests > 0 ? sum((r) => r.latencyUs.mean * r.requests) / requests : 0,
      p50: median((r) => r.latencyUs.p50),
      p90: median((r) => r.latencyUs.p90),
      p99: median((r) => r.latencyUs.p99),
      p999: median((r) => r.latencyUs.p999),
      max: Math.max(...rs.map((r) => r.latencyUs.max)),
    },
    errors: { connect: sum((r) => r.errors.connect), read: sum((r) => r.errors.read), write: sum((r) => r.errors.write), status: sum((r) => r.errors.status), timeout: sum((r) => r.errors.timeout) },
    created: sum((r) => r.created),
    serverCpuS,
    serverStartUpCpuS: sum((r) => r.serverStartUpCpuS!),
    serverMinorFaults: sum((r) => r.serverMinorFaults!),
    wallS: sum((r) => r.wallS!),
    windowS,
    serverCpu: serverCpuS / windowS,
    clientCpu: overWindow((r) => r.clientCpu),
    otherCpu: overWindow((r) => r.otherCpu),
    coreBusy: { server: overWindow((r) => r.coreBusy.server), client: overWindow((r) => r.coreBusy.client) },
    slices: rs,
  }
}

// ---------------------------------------------------------------- the benchmark

type RunRecord = {
  run: number
  paths: number
  meanBodyBytes: number
  /** Pieces per body of the copies stand-in: an answer's locations, on average. */
  pieces: number
  repeated: { path: string; bodyBytes: number }
  order: string[]
  scenarios: Record<string, WrkResult>
  ratios: Record<string, number>
}
type WriteRecord = { run: number; result: WrkResult; created: number; rowsAdded: number; inFlightAtStop: number; landed: boolean }
type ScenarioSummary = {
  label: string
  rps: Spread
  p50Us: Spread
  p99Us: Spread
  bytesPerResponse: Spread
  serverCpu: Spread
  clientCpu: Spread
  otherCpu: Spread
  serverCoreBusy: Spread
  clientCoreBusy: Spread
  /** The server's minor page faults a request (serverMinorFaults ÷ requests); absent or null in records made before they were counted. */
  faultsPerRequest?: Spread | null
  errors: number
}
type HttpSummary = {
  scenarios: Record<string, ScenarioSummary>
  ratios: Record<string, Spread>
  writes: { rps: Spread; p50Us: Spread; p99Us: Spread; serverCpu: Spread; otherCpu: Spread; allLanded: boolean; fileRows: { api: number; file: number } | null } | null
}

/** What a run of this bench records (its --json file), and what report() writes the markdown from. */
type HttpRecord = Provenance & {
  benchmark: 'http'
  versions: { bun: string; wrk: string; sqlite: string }
  options: Options
  setup: { serverCpu: string; clientCpu: string; wrk: string; workersUnpinned: number[]; workersUnsupported: number[]; tmpFs: string; synchronous: number | undefined }
  targets: typeof TARGETS
  runs: RunRecord[]
  writes: WriteRecord[]
  summary: HttpSummary
}

/** Scenarios of servers without the response cache: a path asked again is answered again. */
const UNCACHED = new Set(['bare', 'bareBlob', 'copies', 'answer'])

/**
 * Requests a second of the server's own CPU: its rate were its core full (the bare server's often
 * is not, wrk's is). A record made before f9e178d has no serverCpuS: its serverCpu was taken over
 * wrk's whole run, start-up included, which is ~1 s longer for the scenarios whose scripts read
 * 400,000 paths than for the one repeated: their CPU a request, the bare server's among them,
 * was understated by about a tenth, and so the repeated scenario's ratio (report() says so).
 */
const perCpu = (r: WrkResult) => (r.serverCpuS === undefined ? r.rps / r.serverCpu : r.requests / r.serverCpuS)

/** Whether a record's server CPU was taken over wrk's whole run (before f9e178d): perCpu. */
const cpuOverWholeRun = (runs: RunRecord[]) => runs.some((r) => Object.values(r.scenarios).some((s) => s.serverCpuS === undefined))

/**
 * The report, from a run's record: what the bench prints, and `--render <json>` prints again from
 * a --json file (with this code's judgement: the ratios the targets are judged on are taken from
 * each run's scenarios, so a record made before they were is judged the same way).
 */
function report(j: HttpRecord): string {
  const { options: o, versions, runs, writes, summary } = j
  const prov: Provenance = { date: j.date, commit: j.commit, dirty: j.dirty, machine: j.machine }
  const { workersUnsupported: unsupported, workersUnpinned: extraWorkers, tmpFs, synchronous, serverCpu: SERVER_CPU, clientCpu: CLIENT_CPU } = j.setup
  const keys = Object.keys(summary.scenarios)
  /** Scenarios of varied paths (not the one repeated) in which some run (or slice of one) asked more requests than it had paths. */
  const wentRound = new Set(
    keys.filter((k) => !UNCACHED.has(k) && k !== 'repeated' && runs.some((r) => (r.scenarios[k]!.slices ?? [r.scenarios[k]!]).some((x, _, all) => x.requests > Math.floor(r.paths / all.length)))),
  )
  const slices = o.slices ?? 1
  const perCpuRatio = (k: string) => spread(runs.map((r) => perCpu(r.scenarios[k]!) / perCpu(r.scenarios.bare!)))
  const n = o.runs
  const rng = (s: Spread, f: (x: number) => string) => (s.runs.length > 1 ? `${f(s.min)}–${f(s.max)}` : '(1 run)')
  const num = (x: number) => x.toFixed(0)
  const ms = (us: number) => `${(us / 1000).toFixed(us >= 10_000 ? 1 : 2)} ms`
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`
  const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**')
  const meanBody = spread(runs.map((r) => r.meanBodyBytes))
  const md: string[] = []
  md.push('# HTTP benchmark', '')
  md.push(`${provenanceLine(prov)} · bun ${versions.bun} · ${versions.wrk} · SQLite ${versions.sqlite}`, '')
  md.push(
    `${o.size.toLocaleString('en')} locations (seed ${o.seed}), ${n} run${n > 1 ? 's' : ''}, ${o.duration} s measured after ${o.warmup} s warm-up per scenario, scenario order rotated per run` +
      (slices > 1 ? `, each scenario's ${o.duration} s in ${slices} slices of ${o.duration / slices} s, the scenarios' slices taken in turn (each slice on its own ${Math.floor(o.paths / slices).toLocaleString('en')} of the run's paths), so every scenario's time is spread over the run. ` : '. ') +
      `Server (and the bare baseline) pinned to CPU ${SERVER_CPU}, \`taskset -c ${CLIENT_CPU} wrk -t1 -c${o.connections}\` on CPU ${CLIENT_CPU}, loopback, keep-alive. ` +
      `Query types: ${o.types.join(', ')}; mean body ${num(meanBody.median)} bytes${n > 1 ? ` (${num(meanBody.min)}–${num(meanBody.max)} across runs)` : ''}, which is the bare body's size. ` +
      'Figures: median over runs; spread: min–max over runs; latency from wrk (closed loop, so it includes queueing behind the other connections)' +
      (slices > 1 ? ", each run's p50 and p99 the median of its slices'." : '.'),
    '',
  )
  md.push(
    `| Scenario | req/s | spread | p50 | spread | p99 | spread | bytes/response (wire) | server CPU | wrk CPU | CPU ${SERVER_CPU} / ${CLIENT_CPU} busy | other load (worst run) | server page faults / request | errors |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  )
  for (const k of keys) {
    const s = summary.scenarios[k]!
    md.push(
      `| ${s.label} | ${num(s.rps.median)} | ${rng(s.rps, num)} | ${ms(s.p50Us.median)} | ${rng(s.p50Us, ms)} | ${ms(s.p99Us.median)} | ${rng(s.p99Us, ms)} | ${num(s.bytesPerResponse.median)} | ${pct(s.serverCpu.median)} | ${pct(s.clientCpu.median)} | ${pct(s.serverCoreBusy.median)} / ${pct(s.clientCoreBusy.median)} | ${pct(s.otherCpu.max)} | ${s.faultsPerRequest ? `${s.faultsPerRequest.median.toFixed(3)}${n > 1 ? ` (${rng(s.faultsPerRequest, (x) => x.toFixed(3))})` : ''}` : '—'} | ${s.errors === 0 ? '0' : `**${s.errors}**`} |`,
    )
  }
  for (const w of unsupported) md.push(`| public radius query, varied, WORKERS=${w} | not supported by this build, skipped | | | | | | | | | | | | |`)
  md.push('')
  md.push(
    wentRound.size === 0
      ? `Distinct paths: ${o.paths.toLocaleString('en')} a run, more than any measurement asked for, so none was asked twice in one (the first ${o.sample.toLocaleString('en')}, fetched before to size the bare body, twice): every answer was made, none came from the response cache, which keeps an answer from its second ask and sends it from the third.`
      : `**Some measurements of ${[...wentRound].join(', ')} asked more requests than the run's ${o.paths.toLocaleString('en')} paths: a path asked for a third time may have been answered from the response cache. Rerun with a larger --paths.**`,
    '',
  )
  const worstOther = Math.max(...runs.flatMap((x) => Object.values(x.scenarios).map((y) => y.otherCpu)), ...writes.map((x) => x.result.otherCpu))
  if (worstOther > OTHER_LOAD_WARN) {
    md.push(`**Other processes used up to ${pct(worstOther)} of a core during a measurement ("other load", worst run): the machine was shared and these figures are disturbed; rerun when it is quiet.**`, '')
  }
  // wrk's core full against the bare server: its rate is the client's limit, below what the server could do.
  const bare = summary.scenarios.bare
  if (bare && bare.clientCpu.median >= CLIENT_BOUND) {
    md.push(
      `**Against the bare server wrk used ${pct(bare.clientCpu.median)} of its core (the server ${pct(bare.serverCpu.median)} of its own): the bare rate is most likely the load generator's limit rather than the server's, and a ratio of rates flatters ours.**`,
      '',
    )
  }
  md.push(
    "The targets are judged per second of the server's own CPU (its requests ÷ the CPU seconds it used, per run): what each server answers with its core full, which one wrk core cannot drive the bare server to. The ratios of rates as measured are shown beside them.",
    '',
  )
  if (cpuOverWholeRun(runs)) {
    md.push(
      `**This record's server CPU was taken over wrk's whole run, its start-up included** (as the bench took it before f9e178d). wrk reads its script's paths before its clock starts: the run's ${o.paths.toLocaleString('en')} for every scenario but the repeated one, whose script has one (about 1 s for 400,000 on the AMD EPYC VM of 2026-11-28, against ${o.duration} s measured here), while the server idles. So the CPU a request of the servers measured with the long scripts, the bare one's among them, and the repeated scenario's ratio per second of CPU below, are understated by that start-up's share of the run. The bench now takes each server's CPU a request (its CPU seconds over the measured window ÷ its requests).`,
      '',
    )
  }
  md.push('| Ratio (per run, then median) | value | spread | target | |', '|---|---:|---:|---|---|')
  // A record made before the ratios per second of CPU were has them taken from its runs here.
  const r: Record<string, Spread> = { ...summary.ratios }
  for (const k of ['varied', 'repeated']) r[`${k}_vs_bare_per_cpu`] ??= perCpuRatio(k)
  md.push(`| varied / bare, per second of server CPU | ${pct(r.varied_vs_bare_per_cpu!.median)} | ${rng(r.varied_vs_bare_per_cpu!, pct)} | ≥ ${pct(TARGETS.variedVsBare)} | ${verdict(r.varied_vs_bare_per_cpu!.median >= TARGETS.variedVsBare)} |`)
  md.push(`| repeated / bare, per second of server CPU | ${pct(r.repeated_vs_bare_per_cpu!.median)} | ${rng(r.repeated_vs_bare_per_cpu!, pct)} | ≥ ${pct(TARGETS.repeatedVsBare)} | ${verdict(r.repeated_vs_bare_per_cpu!.median >= TARGETS.repeatedVsBare)} |`)
  md.push(`| varied / bare, req/s as measured | ${pct(r.varied_vs_bare!.median)} | ${rng(r.varied_vs_bare!, pct)} | | |`)
  md.push(`| repeated / bare, req/s as measured | ${pct(r.repeated_vs_bare!.median)} | ${rng(r.repeated_vs_bare!, pct)} | | |`)
  if (r.varied_vs_bare_blob_per_cpu && r.repeated_vs_bare_blob_per_cpu) {
    md.push(`| varied / bare with a Blob body, per second of server CPU | ${pct(r.varied_vs_bare_blob_per_cpu.median)} | ${rng(r.varied_vs_bare_blob_per_cpu, pct)} | (measured, no target) | |`)
    md.push(`| repeated / bare with a Blob body, per second of server CPU | ${pct(r.repeated_vs_bare_blob_per_cpu.median)} | ${rng(r.repeated_vs_bare_blob_per_cpu, pct)} | (measured, no target) | |`)
  }
  md.push(`| stand-in: copies / bare | ${pct(r.copies_vs_bare!.median)} | ${rng(r.copies_vs_bare!, pct)} | (measured, no target) | |`)
  md.push(`| stand-in: answer path alone / bare | ${pct(r.answer_vs_bare!.median)} | ${rng(r.answer_vs_bare!, pct)} | (measured, no target) | |`)
  for (const w of extraWorkers) {
    const s = r[`workers${w}_vs_varied`]!
    md.push(`| WORKERS=${w} / WORKERS=1, varied (gain) | ${s.median.toFixed(2)}× | ${rng(s, (x) => `${x.toFixed(2)}×`)} | (measured, no target) | |`)
  }
  md.push('')
  // Where a distinct answer's time goes: each step of the ladder's CPU a request (records before
  // f9e178d: its time per request at its rate, 1 / req/s), the median over runs, less the step before.
  const byCpu = !cpuOverWholeRun(runs)
  const usPer = (k: string) => (byCpu ? spread(runs.map((x) => 1e6 / perCpu(x.scenarios[k]!))).median : 1e6 / summary.scenarios[k]!.rps.median)
  const pieceCount = spread(runs.map((x) => x.pieces)).median
  const signed = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(1)}`
  md.push(
    (byCpu
      ? "What a distinct answer's time is made of, in µs of the server's CPU a request (medians over runs), each less the step before: "
      : "What a distinct answer's time is made of, per request at the median rates (1 s / req/s, each less the step before; the server's core was not always full, so these are upper bounds): ") +
      `the bare server ${usPer('bare').toFixed(1)} µs; ` +
      `copying the body from ${num(pieceCount)} random places of a buffer as large as the locations' JSON, as an answer's JSON is copied, ${signed(usPer('copies') - usPer('bare'))} µs; ` +
      `the answer path itself instead (sync, parse, the index's query with its total, the JSON copied), ${signed(usPer('answer') - usPer('bare'))} µs over bare; ` +
      `the service's route around it (the guards, the rate count, the answer cache, the ETag and CORS headers, the request id) ${signed(usPer('varied') - usPer('answer'))} µs more. ` +
      `The ${pct(TARGETS.variedVsBare)} target leaves ${(usPer('bare') / TARGETS.variedVsBare - usPer('bare')).toFixed(1)} µs a request over bare.` +
      (byCpu && summary.scenarios.bareBlob ? ` The bare server with its body kept as a Blob (sent without a copy, as the service sends a kept answer): ${usPer('bareBlob').toFixed(1)} µs.` : ''),
    '',
  )
  if (summary.writes) {
    const w = summary.writes
    const created = writes.map((x) => x.created)
    const added = writes.map((x) => x.rowsAdded)
    md.push(
      `Writes: \`POST /admin/v1/locations\`, one location per request with coordinates (no geocoding), ${o.writeConnections} connections, ${o.writeDuration} s per run after ${o.warmup} s warm-up, WORKERS=1 server pinned to CPU ${SERVER_CPU}; SQLite WAL, synchronous=${synchronous === 2 ? 'FULL' : `${synchronous} (not FULL!)`}, database on ${tmpFs}.`,
      '',
    )
    md.push('| Figure | value | spread | target | |', '|---|---:|---:|---|---|')
    md.push(`| creates/s | ${num(w.rps.median)} | ${rng(w.rps, num)} | ≥ ${TARGETS.createsPerSecond} | ${verdict(w.rps.median >= TARGETS.createsPerSecond)} |`)
    md.push(`| latency p50 | ${ms(w.p50Us.median)} | ${rng(w.p50Us, ms)} | | |`)
    md.push(`| latency p99 | ${ms(w.p99Us.median)} | ${rng(w.p99Us, ms)} | | |`)
    md.push(`| server CPU / other load (worst run) | ${pct(w.serverCpu.median)} / ${pct(w.otherCpu.max)} | | | |`)
    md.push(`| 201 answers / rows added, per run | ${created.join(', ')} / ${added.join(', ')} | | rows − 201s in 0…${o.writeConnections} (in flight at stop) | ${w.allLanded ? 'PASS' : '**MISS**'} |`)
    md.push(`| rows in the file after a graceful stop = rows the API counted | ${w.fileRows ? `${w.fileRows.file} = ${w.fileRows.api}` : '—'} | | equal | ${w.fileRows && w.fileRows.file === w.fileRows.api ? 'PASS' : '**MISS**'} |`)
    md.push('')
  }
  return md.join('\n')
}

async function adminTotal(s: Server, secret: string): Promise<number> {
  const r = await fetch(`${s.base}/admin/v1/locations?limit=1`, { headers: { authorization: `Bearer ${secret}` } })
  const body = (await r.json()) as { pagination?: { total?: number } }
  if (r.status !== 200 || typeof body.pagination?.total !== 'number') throw new Error(`GET /admin/v1/locations answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`)
  return body.pagination.total
}

function which(cmd: string): boolean {
  return Bun.which(cmd) !== null
}

/**
 * Why this machine cannot run the bench, or null. Debian's wrk is the load generator: installed
 * here when missing, as the peers install PostGIS; when it cannot be, the bench is skipped with the
 * reason, as PostGIS is.
 */
function cannotRun(): string | null {
  if (!which('wrk')) {
    const why = aptInstall(['wrk'], log)
    if (!which('wrk')) return `wrk is not installed: ${why ?? 'apt-get installed wrk, and no wrk command was found'}`
  }
  if (!which('taskset')) return 'taskset is not installed (util-linux)'
  if (cpus().length < 2) return 'it needs 2 cores: the server on CPU 0, wrk on CPU 1'
  return null
}

function fsType(dir: string): string {
  const p = Bun.spawnSync(['findmnt', '-no', 'FSTYPE', '-T', dir])
  return p.exitCode === 0 ? p.stdout.toString().trim() : 'unknown'
}

function log(msg: string): void {
  console.error(`[http] ${msg}`)
}

async function main(): Promise<void> {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.render) {
    const record = JSON.parse(readFileSync(o.render, 'utf8')) as HttpRecord | { skipped: string }
    if ('skipped' in record) console.log(`# HTTP benchmark\n\nHTTP: skipped (${record.skipped}).\n`)
    else if (!record.runs?.every((r) => ['bare', 'copies', 'answer', 'varied', 'repeated'].every((k) => r.scenarios?.[k]?.serverCpu !== undefined))) {
      throw new Error(`${o.render}: a record without the scenarios this report is made of (bare, copies, answer, varied, repeated, each with its server CPU), from before they were all measured; the markdown written with it is its report`)
    } else {
      const now = provenance(new Date())
      const note = `Written again from the run's JSON by \`bench/http.ts --render\` on ${now.date.slice(0, 10)} at commit ${now.commit.slice(0, 7)}: the run's figures as recorded, the targets judged as that code judges them.`
      const parts = report(record).split('\n\n') // the title, the run's provenance, then the rest
      parts.splice(2, 0, note)
      console.log(parts.join('\n\n'))
    }
    return
  }
  const prov = provenance(new Date())
  const skipped = cannotRun()
  if (skipped) {
    log(`skipped: ${skipped}`)
    console.log(`# HTTP benchmark\n\nHTTP: skipped (${skipped}).\n`)
    if (o.json) writeFileSync(o.json, `${JSON.stringify({ benchmark: 'http', ...prov, skipped }, null, 2)}\n`)
    return
  }
  tmp = mkdtempSync(join(tmpdir(), 'storeloc-http-bench-'))
  const tmpFs = fsType(tmp)
  if (tmpFs === 'tmpfs') log(`warning: ${tmpdir()} is tmpfs, where fsync costs nothing: write figures will flatter; set TMPDIR to a disk`)
  const db = join(tmp, 'bench.db')

  // 1. Seed.
  let t = performance.now()
  const store = openStore(db)
  const seeded = seedLocator(store, o.size, o.seed)
  // The default limit (1000/min) and the CLI's cap (1M/min) would answer 429 within a run; the
  // limiter still counts every request, it just never refuses.
  store.write(() => store.locators.updateSettings(seeded.locatorId, { rateLimit: 2_000_000_000 }))
  const { secret } = createKey(store, seeded.locatorId, null)
  const token = store.locators.get(seeded.locatorId)!.publicToken
  const synchronous = store.db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()?.synchronous
  const sqliteVersion = store.db.query<{ v: string }, []>('select sqlite_version() as v').get()!.v
  store.close()
  const set = seeded.set
  log(`seeded ${o.size} locations in ${((performance.now() - t) / 1000).toFixed(1)} s (${tmp}, ${tmpFs})`)

  /** The run's paths; run + WARM_SET, its warm-up's (no path of the measurement is asked before it). */
  const pathsFor = (run: number) => {
    const sc = scenario(set, o.seed, run)
    const types = o.types.map((k) => {
      const ty = sc.types.find((x) => x.key === k)
      if (!ty) throw new Error(`--types: unknown query type ${k}; known: ${sc.types.map((x) => x.key).join(', ')}`)
      return ty
    })
    return Array.from({ length: o.paths }, (_, i) => `/public/v1/${token}/locations?${types[i % types.length]!.gen()}`)
  }
  const firstPaths = pathsFor(1)

  // 2. Servers.
  const services = new Map<number, Server>()
  const unsupported: number[] = []
  for (const n of o.workers) {
    t = performance.now()
    const s = startService(o.entry, db, n)
    await waitReady(s, '/readyz')
    // With workers, /readyz answers from the first that listens; the primary says "listening"
    // once every worker has built its index and listens.
    await waitForLine(s, '"listening"')
    if (n > 1) {
      // Let the workers start, then count them.
      let count = 1
      for (let i = 0; i < 50; i++) {
        await Bun.sleep(100)
        count = tree(s.pid).length
        if (count >= n) break
      }
      if (count < 2) {
        console.log(`WORKERS=${n}: not supported by this build, skipped`)
        unsupported.push(n)
        await stopChild(s.child)
        continue
      }
      s.pids = tree(s.pid)
      log(`WORKERS=${n}: ${s.pids.length} processes (${s.pids.join(', ')}), unpinned; they share CPU ${CLIENT_CPU} with wrk`)
    }
    const warmMs = await warmIndex(s, firstPaths[0]!)
    log(`${s.label} ready, index warm in ${(warmMs / 1000).toFixed(1)} s (started ${((performance.now() - t) / 1000).toFixed(1)} s ago)`)
    services.set(n, s)
  }
  const main1 = services.get(1)!
  const extraWorkers = [...services.keys()].filter((n) => n > 1)
  // The answer path alone, over the same database (its own index), for the stand-in scenario.
  const answerOnly = startAnswerOnly(db, token)
  await waitForLine(answerOnly, 'ready')
  await warmIndex(answerOnly, firstPaths[0]!)

  // 3. Read scenarios, interleaved.
  const labels: Record<string, string> = {
    bare: 'bare `Bun.serve`, static body of the same size (pinned)',
    bareBlob: 'reference: the bare server with its body kept as a Blob, sent without a copy (pinned)',
    copies: 'stand-in: the same size, copied per response from random places of a buffer as large as the JSON (pinned)',
    answer: 'stand-in: the answer path alone (`locationsBody`), distinct paths (pinned)',
    varied: `public radius query, distinct paths (pinned)`,
    repeated: 'public radius query, one path repeated (pinned)',
  }
  for (const n of extraWorkers) labels[`workers${n}`] = `public radius query, varied, WORKERS=${n} (unpinned, shares CPU ${CLIENT_CPU} with wrk)`
  const keys = ['bare', 'bareBlob', 'copies', 'answer', 'varied', 'repeated', ...extraWorkers.map((n) => `workers${n}`)]
  const runs: RunRecord[] = []
  for (let run = 1; run <= o.runs; run++) {
    const paths = run === 1 ? firstPaths : pathsFor(run)
    // Body sizes as served (identity encoding, as wrk asks), of the first --sample paths.
    const sizes: number[] = []
    let located = 0
    for (const p of paths.slice(0, o.sample)) {
      const r = await fetch(main1.base + p, { headers: { 'accept-encoding': 'identity' } })
      const text = await r.text()
      if (r.status !== 200) throw new Error(`GET ${p} answered ${r.status}`)
      sizes.push(Buffer.byteLength(text))
      located += (JSON.parse(text) as { data: { locations: unknown[] } }).data.locations.length
    }
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length
    /** The copies stand-in's pieces: as many as an answer's locations, on average. */
    const pieces = Math.max(1, Math.round(located / sizes.length))
    let best = 0
    for (let i = 1; i < sizes.length; i++) if (Math.abs(sizes[i]! - mean) < Math.abs(sizes[best]! - mean)) best = i
    const repeated = { path: paths[best]!, bodyBytes: sizes[best]! }
    log(`run ${run}: ${paths.length} paths, of ${sizes.length}: mean body ${mean.toFixed(0)} bytes (min ${Math.min(...sizes)}, max ${Math.max(...sizes)}); repeated path body ${repeated.bodyBytes} bytes`)

    const bare = startBare(Math.round(mean), run)
    await waitReady(bare, '/')
    const bareBlob = startBare(Math.round(mean), run, true)
    await waitReady(bareBlob, '/')
    const copies = startCopies(Math.round(mean), pieces, Math.round((o.size * mean) / pieces), run)
    await waitReady(copies, '/')
    // Each slice asks its own part of the run's paths: a path is asked at most once by a server in a run.
    const slices = o.slices!
    const chunk = Math.floor(paths.length / slices)
    const variedScripts = Array.from({ length: slices }, (_, i) => luaScript(`varied-${run}-${i + 1}`, paths.slice(i * chunk, (i + 1) * chunk), null))
    const warmScript = luaScript(`warm-${run}`, pathsFor(run + WARM_SET), null)
    const repeatedScript = luaScript(`repeated-${run}`, [repeated.path], null)
    const plan: Record<string, { server: Server; scripts: string[]; warm: string }> = {
      bare: { server: bare, scripts: variedScripts, warm: warmScript },
      bareBlob: { server: bareBlob, scripts: variedScripts, warm: warmScript },
      copies: { server: copies, scripts: variedScripts, warm: warmScript },
      answer: { server: answerOnly, scripts: variedScripts, warm: warmScript },
      varied: { server: main1, scripts: variedScripts, warm: warmScript },
      repeated: { server: main1, scripts: Array<string>(slices).fill(repeatedScript), warm: repeatedScript },
    }
    for (const n of extraWorkers) plan[`workers${n}`] = { server: services.get(n)!, scripts: variedScripts, warm: warmScript }
    const order = keys.map((_, i) => keys[(i + run - 1) % keys.length]!)
    const taken: Record<string, WrkResult[]> = Object.fromEntries(keys.map((k) => [k, []]))
    const describe = (r: WrkResult) => {
      const bad = r.errors.status + socketErrors(r)
      return `${r.rps.toFixed(0)} req/s, p50 ${(r.latencyUs.p50 / 1000).toFixed(2)} ms, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms, ${r.bytesPerResponse.toFixed(0)} B/response, server CPU ${(r.serverCpu * 100).toFixed(0)}%, wrk CPU ${(r.clientCpu * 100).toFixed(0)}%, CPU ${SERVER_CPU}/${CLIENT_CPU} busy ${(r.coreBusy.server * 100).toFixed(0)}%/${(r.coreBusy.client * 100).toFixed(0)}%, other processes ${(r.otherCpu * 100).toFixed(0)}% of a core${bad ? `, ${bad} ERRORS` : ''}`
    }
    // Slice by slice, every scenario in the run's order (each warmed up before its first slice).
    for (let slice = 0; slice < slices; slice++) {
      for (const key of order) {
        const { server, scripts, warm } = plan[key]!
        if (slice === 0 && o.warmup > 0) await runWrk(server, warm, o.warmup, o.connections)
        const r = await runWrk(server, scripts[slice]!, o.duration / slices, o.connections)
        taken[key]!.push(r)
        if (scripts === variedScripts && !UNCACHED.has(key) && r.requests > chunk) {
          log(`run ${run} ${key}: ${r.requests} requests went round the slice's ${chunk} paths: answers asked for a third time may have come from the response cache (raise --paths)`)
        }
        if (slices > 1) log(`run ${run} ${key} slice ${slice + 1}/${slices}: ${describe(r)}`)
      }
    }
    const scenarios: Record<string, WrkResult> = {}
    for (const key of order) {
      scenarios[key] = mergeSlices(taken[key]!)
      log(`run ${run} ${key}: ${describe(scenarios[key]!)}`)
    }
    await stopChild(bare.child)
    await stopChild(bareBlob.child)
    await stopChild(copies.child)
    const ratios: Record<string, number> = {
      varied_vs_bare: scenarios.varied!.rps / scenarios.bare!.rps,
      repeated_vs_bare: scenarios.repeated!.rps / scenarios.bare!.rps,
      copies_vs_bare: scenarios.copies!.rps / scenarios.bare!.rps,
      answer_vs_bare: scenarios.answer!.rps / scenarios.bare!.rps,
      varied_vs_bare_per_cpu: perCpu(scenarios.varied!) / perCpu(scenarios.bare!),
      repeated_vs_bare_per_cpu: perCpu(scenarios.repeated!) / perCpu(scenarios.bare!),
      varied_vs_bare_blob_per_cpu: perCpu(scenarios.varied!) / perCpu(scenarios.bareBlob!),
      repeated_vs_bare_blob_per_cpu: perCpu(scenarios.repeated!) / perCpu(scenarios.bareBlob!),
    }
    for (const n of extraWorkers) ratios[`workers${n}_vs_varied`] = scenarios[`workers${n}`]!.rps / scenarios.varied!.rps
    runs.push({ run, paths: paths.length, meanBodyBytes: mean, pieces, repeated, order, scenarios, ratios })
  }
  await stopChild(answerOnly.child)
  for (const n of extraWorkers) await stopChild(services.get(n)!.child)

  // 4. Writes, last (they grow the locator), on the WORKERS=1 server.
  const writes: WriteRecord[] = []
  let fileRows: { api: number; file: number } | null = null
  if (o.writes) {
    const pool = generate(Math.max(1000, Math.min(20_000, o.writeDuration * 2000)), o.seed + 1).bodies.map((b) => JSON.stringify(b))
    const script = luaScript('writes', pool, { path: '/admin/v1/locations', secret })
    let total = 0
    for (let run = 1; run <= o.runs; run++) {
      if (o.warmup > 0) await runWrk(main1, script, o.warmup, o.writeConnections)
      await Bun.sleep(300) // requests in flight when the warm-up stopped
      const before = await adminTotal(main1, secret)
      const r = await runWrk(main1, script, o.writeDuration, o.writeConnections)
      await Bun.sleep(300)
      total = await adminTotal(main1, secret)
      const rowsAdded = total - before
      const inFlightAtStop = rowsAdded - r.created
      const landed = inFlightAtStop >= 0 && inFlightAtStop <= o.writeConnections && r.errors.status === 0
      writes.push({ run, result: r, created: r.created, rowsAdded, inFlightAtStop, landed })
      log(`writes run ${run}: ${r.rps.toFixed(0)} creates/s, p50 ${(r.latencyUs.p50 / 1000).toFixed(2)} ms, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms; 201s ${r.created}, rows added ${rowsAdded}${landed ? '' : ' MISMATCH'}; server CPU ${(r.serverCpu * 100).toFixed(0)}%, other processes ${(r.otherCpu * 100).toFixed(0)}% of a core`)
    }
    await stopChild(main1.child)
    const check = openStore(db)
    fileRows = { api: total, file: check.locations.count(seeded.locatorId, null) }
    check.close()
  }
  await cleanup()

  // 5. Report.
  const wrkVersion = (Bun.spawnSync(['wrk', '--version']).stdout.toString().split('\n')[0] ?? '').replace(/\s+Copyright.*$/, '').trim()
  const versions = { bun: Bun.version, wrk: wrkVersion, sqlite: sqliteVersion }

  const summary: HttpSummary = {
    scenarios: Object.fromEntries(
      keys.map((k) => {
        const rs = runs.map((r) => r.scenarios[k]!)
        return [
          k,
          {
            label: labels[k]!,
            rps: spread(rs.map((r) => r.rps)),
            p50Us: spread(rs.map((r) => r.latencyUs.p50)),
            p99Us: spread(rs.map((r) => r.latencyUs.p99)),
            bytesPerResponse: spread(rs.map((r) => r.bytesPerResponse)),
            serverCpu: spread(rs.map((r) => r.serverCpu)),
            clientCpu: spread(rs.map((r) => r.clientCpu)),
            otherCpu: spread(rs.map((r) => r.otherCpu)),
            serverCoreBusy: spread(rs.map((r) => r.coreBusy.server)),
            clientCoreBusy: spread(rs.map((r) => r.coreBusy.client)),
            faultsPerRequest: rs.every((r) => r.serverMinorFaults !== undefined && r.requests > 0) ? spread(rs.map((r) => r.serverMinorFaults! / r.requests)) : null,
            errors: rs.reduce((a, r) => a + r.errors.status + socketErrors(r), 0),
          },
        ]
      }),
    ),
    ratios: Object.fromEntries(Object.keys(runs[0]!.ratios).map((k) => [k, spread(runs.map((r) => r.ratios[k]!))])),
    writes:
      writes.length > 0
        ? {
            rps: spread(writes.map((w) => w.result.rps)),
            p50Us: spread(writes.map((w) => w.result.latencyUs.p50)),
            p99Us: spread(writes.map((w) => w.result.latencyUs.p99)),
            serverCpu: spread(writes.map((w) => w.result.serverCpu)),
            otherCpu: spread(writes.map((w) => w.result.otherCpu)),
            allLanded: writes.every((w) => w.landed) && fileRows !== null && fileRows.api === fileRows.file,
            fileRows,
          }
        : null,
  }

  const json: HttpRecord = {
    benchmark: 'http',
    ...prov,
    versions,
    options: o,
    setup: {
      serverCpu: SERVER_CPU,
      clientCpu: CLIENT_CPU,
      wrk: `taskset -c ${CLIENT_CPU} wrk -t1 -c${o.connections} -d${o.duration}s --timeout 10s -s <script>`,
      workersUnpinned: extraWorkers,
      workersUnsupported: unsupported,
      tmpFs,
      synchronous,
    },
    targets: TARGETS,
    runs,
    writes,
    summary,
  }
  console.log(report(json))
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify(json, null, 2)}\n`)
    log(`wrote ${o.json}`)
  }
}

let interrupted = false
process.on('SIGINT', () => {
  interrupted = true
  log('interrupted: stopping servers, removing temporary files')
  void cleanup().finally(() => process.exit(130))
})
process.on('SIGTERM', () => {
  interrupted = true
  void cleanup().finally(() => process.exit(143))
})

try {
  await main()
} catch (e) {
  if (!interrupted) console.error(e instanceof Error ? e.message : e)
  process.exitCode = 1
} finally {
  await cleanup()
}
