// The HTTP bench's run: seed, start the servers, measure the read scenarios run by run and the
// writes, and gather the record.
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
import { writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey } from '../../src/operator'
import { openStore } from '../../src/store'
import { scenario, seedLocator } from '../scenario'
import { generate } from '../synthetic'
import { aptInstall, provenance } from '../system'
import { CLIENT_CPU, type Options, SERVER_CPU } from './options'
import { cleanup, fsType, makeWorkDir, stopChild, tree } from './processes'
import { type HttpRecord, perCpu, type RunRecord, summarize, TARGETS, UNCACHED, type WriteRecord } from './record'
import { report } from './report'
import {
  type Server,
  startAnswerOnly,
  startBare,
  startCopies,
  startService,
  waitForLine,
  waitReady,
  warmIndex,
} from './servers'
import { luaScript, mergeSlices, runWrk, socketErrors, type WrkResult } from './wrk'

/** The warm-up's paths come from scenario(set, seed, run + WARM_SET): none of the measured ones. */
const WARM_SET = 1000

async function adminTotal(s: Server, secret: string): Promise<number> {
  const r = await fetch(`${s.base}/admin/v1/locations?limit=1`, { headers: { authorization: `Bearer ${secret}` } })
  const body = (await r.json()) as { pagination?: { total?: number } }
  if (r.status !== 200 || typeof body.pagination?.total !== 'number')
    throw new Error(`GET /admin/v1/locations answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`)
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

export function log(msg: string): void {
  console.error(`[http] ${msg}`)
}

/** Runs the benchmark with options `o`: prints the report, and writes the record to --json. */
export async function runHttp(o: Options): Promise<void> {
  const prov = provenance(new Date())
  const skipped = cannotRun()
  if (skipped) {
    log(`skipped: ${skipped}`)
    console.log(`# HTTP benchmark\n\nHTTP: skipped (${skipped}).\n`)
    if (o.json) writeFileSync(o.json, `${JSON.stringify({ benchmark: 'http', ...prov, skipped }, null, 2)}\n`)
    return
  }
  const tmp = makeWorkDir()
  const tmpFs = fsType(tmp)
  if (tmpFs === 'tmpfs')
    log(`warning: ${tmpdir()} is tmpfs, where fsync costs nothing: write figures will flatter; set TMPDIR to a disk`)
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
      log(
        `WORKERS=${n}: ${s.pids.length} processes (${s.pids.join(', ')}), unpinned; they share CPU ${CLIENT_CPU} with wrk`,
      )
    }
    const warmMs = await warmIndex(s, firstPaths[0]!)
    log(
      `${s.label} ready, index warm in ${(warmMs / 1000).toFixed(1)} s (started ${((performance.now() - t) / 1000).toFixed(1)} s ago)`,
    )
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
  for (const n of extraWorkers)
    labels[`workers${n}`] = `public radius query, varied, WORKERS=${n} (unpinned, shares CPU ${CLIENT_CPU} with wrk)`
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
    log(
      `run ${run}: ${paths.length} paths, of ${sizes.length}: mean body ${mean.toFixed(0)} bytes (min ${Math.min(...sizes)}, max ${Math.max(...sizes)}); repeated path body ${repeated.bodyBytes} bytes`,
    )

    const bare = startBare(Math.round(mean), run)
    await waitReady(bare, '/')
    const bareBlob = startBare(Math.round(mean), run, true)
    await waitReady(bareBlob, '/')
    const copies = startCopies(Math.round(mean), pieces, Math.round((o.size * mean) / pieces), run)
    await waitReady(copies, '/')
    // Each slice asks its own part of the run's paths: a path is asked at most once by a server in a run.
    const slices = o.slices!
    const chunk = Math.floor(paths.length / slices)
    const variedScripts = Array.from({ length: slices }, (_, i) =>
      luaScript(`varied-${run}-${i + 1}`, paths.slice(i * chunk, (i + 1) * chunk), null),
    )
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
    for (const n of extraWorkers)
      plan[`workers${n}`] = { server: services.get(n)!, scripts: variedScripts, warm: warmScript }
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
          log(
            `run ${run} ${key}: ${r.requests} requests went round the slice's ${chunk} paths: answers asked for a third time may have come from the response cache (raise --paths)`,
          )
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
    for (const n of extraWorkers)
      ratios[`workers${n}_vs_varied`] = scenarios[`workers${n}`]!.rps / scenarios.varied!.rps
    runs.push({ run, paths: paths.length, meanBodyBytes: mean, pieces, repeated, order, scenarios, ratios })
  }
  await stopChild(answerOnly.child)
  for (const n of extraWorkers) await stopChild(services.get(n)!.child)

  // 4. Writes, last (they grow the locator), on the WORKERS=1 server.
  const writes: WriteRecord[] = []
  let fileRows: { api: number; file: number } | null = null
  if (o.writes) {
    const pool = generate(Math.max(1000, Math.min(20_000, o.writeDuration * 2000)), o.seed + 1).bodies.map((b) =>
      JSON.stringify(b),
    )
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
      log(
        `writes run ${run}: ${r.rps.toFixed(0)} creates/s, p50 ${(r.latencyUs.p50 / 1000).toFixed(2)} ms, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms; 201s ${r.created}, rows added ${rowsAdded}${landed ? '' : ' MISMATCH'}; server CPU ${(r.serverCpu * 100).toFixed(0)}%, other processes ${(r.otherCpu * 100).toFixed(0)}% of a core`,
      )
    }
    await stopChild(main1.child)
    const check = openStore(db)
    fileRows = { api: total, file: check.locations.count(seeded.locatorId, null) }
    check.close()
  }
  await cleanup()

  // 5. Report.
  const wrkVersion = (Bun.spawnSync(['wrk', '--version']).stdout.toString().split('\n')[0] ?? '')
    .replace(/\s+Copyright.*$/, '')
    .trim()
  const versions = { bun: Bun.version, wrk: wrkVersion, sqlite: sqliteVersion }

  const summary = summarize(keys, labels, runs, writes, fileRows)

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
