// Query API benchmark, in process: index build from SQLite, memory, query latency through the same
// code the HTTP route runs, and the cost of a write until the next query sees it.
//
//   bun bench/query.ts [--sizes 10000,100000] [--runs 3] [--out bench/results] [--seed 42]
//
// Each (size, run) runs in a fresh child process (clean heap, cold JIT), with its own temporary
// SQLite database. Writes <out>/query.json and <out>/query.md and prints the markdown.
// See bench/README.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setFilters, setPriorityRules } from '../src/operator'
import { locationsBody } from '../src/api/public/answer'
import { searchDoc } from '../src/indexes/present'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore } from '../src/store'
import KDBush from 'kdbush'
import { type QueryType, scenario, seedLocator, WARM_MS, WARM_QUERIES } from './scenario'
import { type Spread, spread } from './spread'
import { FILTER_GROUPS, FILTERS, PRIORITY } from './synthetic'
import { provenance, provenanceLine } from './system'

const utf8 = new TextDecoder()
/** A query string's offset (0 when it sends none). */
const offsetOf = (qs: string) => Number(/(?:^|&)offset=(\d+)/.exec(qs)?.[1] ?? 0)

// ---------------------------------------------------------------- options

type Options = {
  sizes: number[]
  runs: number
  out: string
  seed: number
  quick: boolean
  child: { size: number; run: number } | null
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    sizes: [10_000, 100_000],
    runs: 3,
    out: resolve(import.meta.dir, 'results'),
    seed: 42,
    quick: false,
    child: null,
  }
  let childSize = 0
  let childRun = 0
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const v = () => {
      const x = argv[++i]
      if (x === undefined) throw new Error(`${a} needs a value`)
      return x
    }
    if (a === '--sizes')
      o.sizes = v()
        .split(',')
        .map((s) => Number(s.replace(/_/g, '')))
    else if (a === '--runs') o.runs = Number(v())
    else if (a === '--out') o.out = resolve(v())
    else if (a === '--seed') o.seed = Number(v())
    else if (a === '--quick') {
      // about a minute: 10k only, one run, fewer queries per type (explicit --sizes/--runs after it win)
      o.quick = true
      o.sizes = [10_000]
      o.runs = 1
    } else if (a === '--child-size') childSize = Number(v())
    else if (a === '--child-run') childRun = Number(v())
    else
      throw new Error(
        `unknown option ${a}\nusage: bun bench/query.ts [--quick] [--sizes 10000,100000] [--runs 3] [--out bench/results] [--seed 42]`,
      )
  }
  if (o.sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error('--sizes: whole numbers >= 1000')
  if (!(o.runs >= 1)) throw new Error('--runs must be >= 1')
  if (childSize > 0) o.child = { size: childSize, run: childRun }
  return o
}

// ---------------------------------------------------------------- statistics

type Stat = { n: number; median: number; p99: number; mean: number; max: number }

function stat(samples: number[]): Stat {
  const s = [...samples].sort((a, b) => a - b)
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!
  return {
    n: s.length,
    median: q(0.5),
    p99: q(0.99),
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    max: s[s.length - 1]!,
  }
}

// ---------------------------------------------------------------- one run (child process)

type RunResult = {
  size: number
  run: number
  generateMs: number
  prepareMs: number
  insertMs: number
  build: {
    totalMs: number
    textBackgroundMs: number
    breakdown: { readRowsMs: number; presentMs: number; kdbushOnlyMs: number; locatorIndexMsDerived: number }
    heapBytes: number
    rssBytes: number
    jsonBytes: number
    bytesPerLocation: number
    bytesPerLocationBeyondJson: number
  }
  densest: { city: string; stores: number }[]
  /** The query types as bench/scenario.ts gave them at this size (the deep page's radius depends on the data). */
  types: Pick<QueryType, 'key' | 'label' | 'target' | 'nonEmpty'>[]
  /** empty: answers with no location (a total no greater than the offset); distinct: distinct query strings among the timed ones. */
  queries: Record<string, Stat & { meanTotal: number; meanBodyBytes: number; empty: number; distinct: number }>
  write: {
    n: number
    commitMs: Stat
    syncMs: Stat
    nextQueryMs: Stat
    visibleMs: Stat
    allVisible: boolean
    compaction: {
      bound: number
      batchWrites: number
      batchSyncMs: number
      deltaWhenFull: number
      fullDeltaQueryUs: Stat
      fullDeltaWarmUs: Stat
      compactMs: number
      longestBlockMs: number
      nextQueryMs: number
      deltaAfter: number
    }
    /** Settings writes, commit + sync + the next query (ms): new priority rules, new filters; every one seen in that query. */
    settings: { n: number; priorityMs: Stat; filtersMs: Stat; allVisible: boolean }
  }
}

async function runOnce(size: number, run: number, seed: number, quick: boolean): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'storeloc-bench-'))
  try {
    const store = openStore(join(dir, 'bench.sqlite'))
    const { locatorId, set, ids, generateMs, prepareMs, insertMs } = seedLocator(store, size, seed)

    // (a) Index build, rows in SQLite -> queryable, as the first public query of a locator does it.
    // Seeding left tens of MB of garbage: collect until the heap stops shrinking, so it is not
    // counted against (or for) the index.
    const settle = async () => {
      let before = Number.POSITIVE_INFINITY
      for (let i = 0; i < 10; i++) {
        Bun.gc(true)
        await Bun.sleep(20)
        const now = process.memoryUsage().heapUsed
        if (now >= before * 0.99) break
        before = now
      }
      return process.memoryUsage()
    }
    const m0 = await settle()
    let t = performance.now()
    const registry = new IndexRegistry(store)
    let entry = registry.entry(locatorId)
    const buildMs = performance.now() - t
    // The public JSON and FlexSearch's postings (for rare words) fill in afterwards, in scheduled
    // tasks between requests: let them run, and measure memory and queries once they are done.
    t = performance.now()
    while (!entry.index.textIndexReady || !entry.jsonReady) await Bun.sleep(0)
    const textBackgroundMs = performance.now() - t
    // And the name order (all=true by name takes a slower path until it is made), as a server's
    // preload waits for it before it answers.
    while (!entry.index.settled) await Bun.sleep(0)
    const m1 = await settle()
    // The JSON's bytes (UTF-8, in buffers the heap figure includes); their buffers' free space counts against the index.
    const jsonBytes = entry.arena.bytes.live
    const live = entry.index.size
    // Breakdown (a second pass over the same steps, outside the figure above).
    t = performance.now()
    const rows = store.locations.indexRows(locatorId, entry.ctx.rankReadsCustomFields)
    const readRowsMs = performance.now() - t
    t = performance.now()
    const docs = rows.map((r) => searchDoc(r, entry.ctx))
    const presentMs = performance.now() - t
    t = performance.now()
    const kd = new KDBush(docs.length)
    for (const d of docs) kd.add(d.lng, d.lat)
    kd.finish()
    const kdbushOnlyMs = performance.now() - t
    rows.length = 0
    docs.length = 0

    // (b) Query latency, the route's body path.
    const locator = store.locators.get(locatorId)!
    const ORIGIN = 'http://bench.local'
    const PATH = `/public/v1/${locator.publicToken ?? 'token'}/locations`
    /** The GET /:token/locations route's own path after the guards: sync, then locationsBody (src/api/public/answer.ts). */
    function handle(qs: string): { body: Uint8Array; total: number } {
      registry.sync()
      return locationsBody(registry, locator, `${ORIGIN}${PATH}?${qs}`)
    }

    const { types, typical, pick, densest } = scenario(set, seed, run)
    const queries: RunResult['queries'] = {}
    const N = quick ? 300 : 2000
    const BUDGET_MS = quick ? 500 : 4000 // per type; slow types stop early (N is reported)
    const WARM = quick ? { n: 2000, ms: 500 } : { n: WARM_QUERIES, ms: WARM_MS } // the quick run's figures are a look, not the record
    for (const type of types) {
      const warm = Array.from({ length: WARM.n }, type.gen)
      let t0 = performance.now()
      for (const qs of warm) {
        handle(qs)
        if (performance.now() - t0 > WARM.ms) break
      }
      const qss = Array.from({ length: N }, type.gen)
      const samples: number[] = []
      let totals = 0
      let bytes = 0
      let empty = 0
      t0 = performance.now()
      for (const qs of qss) {
        const s = performance.now()
        const r = handle(qs)
        samples.push((performance.now() - s) * 1000) // µs
        totals += r.total
        bytes += r.body.length
        if (r.total <= offsetOf(qs)) empty++
        if (samples.length >= 50 && performance.now() - t0 > BUDGET_MS) break
      }
      queries[type.key] = {
        ...stat(samples),
        meanTotal: totals / samples.length,
        meanBodyBytes: bytes / samples.length,
        empty,
        distinct: new Set(qss.slice(0, samples.length)).size,
      }
    }

    // (c) Write -> visible to the next query.
    const commit: number[] = []
    const syncs: number[] = []
    const nexts: number[] = []
    const visible: number[] = []
    let allVisible = true
    const moveOne = (id: string, qs: string) => {
      const m = /lat=([-\d.]+)&lng=([-\d.]+)/.exec(qs)!
      const rec = store.locations.get(locatorId, id)!
      store.locations.replace(
        { ...rec, lat: Number(m[1]), lng: Number(m[2]), updatedAt: new Date().toISOString() },
        rec,
      )
    }
    const WRITES = quick ? 50 : 200
    for (let i = 0; i < WRITES; i++) {
      const id = pick(ids)
      const qs = typical()
      const a = performance.now()
      store.write(() => moveOne(id, qs))
      const b = performance.now()
      registry.sync()
      const c = performance.now()
      const r = handle(`${qs}&limit=20`)
      const d = performance.now()
      if (!utf8.decode(r.body).includes(`"id":"${id}"`)) allVisible = false
      commit.push(b - a)
      syncs.push(c - b)
      nexts.push(d - c)
      visible.push(d - a)
    }
    // (d) Settings -> visible: new priority rules (every rank taken again) and new filters (every
    // JSON made again, in the background and for the answer at once), each committed, then the
    // next query, which must show it: no index rebuild on the request path.
    const SETTINGS = quick ? 4 : 10
    const priorityMs: number[] = []
    const filtersMs: number[] = []
    let settingsVisible = true
    const serviceTag = FILTER_GROUPS.services[0]!
    for (let i = 0; i < SETTINGS; i++) {
      // The first rule alternates: flagship stores first, then those with the offer, and back.
      const rules = i % 2 === 0 ? [...PRIORITY].reverse() : PRIORITY
      let a = performance.now()
      setPriorityRules(store, locatorId, rules)
      registry.sync()
      let r = handle('all=true&sort=priority&limit=1')
      priorityMs.push(performance.now() - a)
      const first = utf8.decode(r.body)
      if (
        !('tag' in rules[0]!
          ? first.includes(`"value":"${rules[0].tag}"`)
          : first.includes(`"value":"${rules[0]!.value}"`))
      )
        settingsVisible = false
      const name = `Services ${run}.${i}`
      a = performance.now()
      setFilters(
        store,
        locatorId,
        FILTERS.map((g) => (g.id === 'services' ? { ...g, name } : g)),
      )
      registry.sync()
      r = handle(`${typical()}&tags[]=${encodeURIComponent(serviceTag)}`)
      filtersMs.push(performance.now() - a)
      const body = utf8.decode(r.body)
      if (body.includes('"locations":[{') && !body.includes(`"name":"${name}"`)) settingsVisible = false
    }
    // The locator's own settings again, then its JSON's background fill let end, as between
    // requests, so the steps below start as before this one and read no row.
    setPriorityRules(store, locatorId, PRIORITY)
    setFilters(store, locatorId, FILTERS)
    registry.sync()
    entry = registry.entry(locatorId)
    while (!entry.jsonReady) await Bun.sleep(0)

    // Compaction: a batch of moves takes the delta past its bound; the crossing upsert only
    // schedules the compaction (steps on later turns of the event loop, off every request). The
    // bench runs synchronously, so no step has run yet: time a query over the full delta, then let
    // the steps run as in the service, timing the whole and the longest turn of the event loop
    // meanwhile (what a request arriving then could wait), then a query after it.
    let compaction: RunResult['write']['compaction']
    {
      const index = entry.index
      const before = index.stats()
      // Distinct locations from a random start; some may be in the delta already, so a few more
      // small batches may be needed to cross the bound.
      let batch = 0
      let batchSyncMs = 0
      let s = 0
      const start = Math.floor(Math.random() * ids.length)
      for (
        let n = Math.max(1, Math.floor(before.deltaBound - before.delta) + 1);
        !index.compacting && batch < ids.length;
        n = 16
      ) {
        store.write(() => {
          for (let i = 0; i < n; i++) moveOne(ids[(start + batch + i) % ids.length]!, typical())
        })
        batch += n
        s = performance.now()
        registry.sync()
        batchSyncMs += performance.now() - s
      }
      const full = index.stats()
      const qs = typical()
      // The first 50 queries after the batch (their code paths over a delta this large have not
      // been asked before: taken into the JIT's last tier as they run), then queries warmed as the
      // other types' (at most 2000 or 1 s of warm-up, then at most 2000 or 2 s timed). All run
      // synchronously: no compaction step runs in between.
      const fullDeltaQuery: number[] = []
      for (let i = 0; i < 50; i++) {
        s = performance.now()
        handle(typical())
        fullDeltaQuery.push((performance.now() - s) * 1000)
      }
      for (let i = 0, t0 = performance.now(); i < 2000 && performance.now() - t0 < 1000; i++) handle(typical())
      const fullDeltaWarm: number[] = []
      for (let i = 0, t0 = performance.now(); i < 2000 && performance.now() - t0 < 2000; i++) {
        s = performance.now()
        handle(typical())
        fullDeltaWarm.push((performance.now() - s) * 1000)
      }
      s = performance.now()
      let last = s
      let longestBlockMs = 0
      while (index.compacting) {
        await new Promise((resolve) => setTimeout(resolve, 0))
        const now = performance.now()
        longestBlockMs = Math.max(longestBlockMs, now - last)
        last = now
      }
      const compactMs = performance.now() - s
      s = performance.now()
      handle(qs)
      const nextQueryMs = performance.now() - s
      compaction = {
        bound: before.deltaBound,
        batchWrites: batch,
        batchSyncMs,
        deltaWhenFull: full.delta,
        fullDeltaQueryUs: stat(fullDeltaQuery),
        fullDeltaWarmUs: stat(fullDeltaWarm),
        compactMs,
        longestBlockMs,
        nextQueryMs,
        deltaAfter: index.stats().delta,
      }
    }
    entry = null as never
    store.close()
    const heapBytes = m1.heapUsed - m0.heapUsed
    return {
      size,
      run,
      generateMs,
      prepareMs,
      insertMs,
      build: {
        totalMs: buildMs,
        textBackgroundMs,
        breakdown: { readRowsMs, presentMs, kdbushOnlyMs, locatorIndexMsDerived: buildMs - readRowsMs - presentMs },
        heapBytes,
        rssBytes: m1.rss - m0.rss,
        jsonBytes,
        bytesPerLocation: heapBytes / live,
        bytesPerLocationBeyondJson: (heapBytes - jsonBytes) / live,
      },
      densest: densest.map((i) => ({ city: set.cities[i]!.name, stores: set.perCity[i]! })),
      types: types.map(({ key, label, target, nonEmpty }) => ({ key, label, target, nonEmpty })),
      queries,
      write: {
        n: WRITES,
        commitMs: stat(commit),
        syncMs: stat(syncs),
        nextQueryMs: stat(nexts),
        visibleMs: stat(visible),
        allVisible,
        compaction,
        settings: {
          n: SETTINGS,
          priorityMs: stat(priorityMs),
          filtersMs: stat(filtersMs),
          allVisible: settingsVisible,
        },
      },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------- parent: runs, aggregation, report

/** p99Us absent: the issue sets a median only. */
type LatencyTarget = { medianUs: number; p99Us?: number; reference?: boolean }
const TARGETS: {
  radius: LatencyTarget
  search: LatencyTarget
  bbox: LatencyTarget
  buildMs: number
  writeVisibleMs: number
  bytesBeyondJson: number
} = {
  radius: { medianUs: 50, p99Us: 1000 },
  search: { medianUs: 300, p99Us: 3000 },
  bbox: { medianUs: 50 },
  buildMs: 2000,
  writeVisibleMs: 5,
  bytesBeyondJson: 1.5 * 1024,
}
/**
 * The issue's targets are for 100k; at 1M radius may take 2x and the build 30 s. It states none for
 * search at 1M: the 100k one is shown for reference, with no PASS or MISS (a noisy 1M run's p99 of
 * 3.1 ms printed MISS against a target the issue never set).
 */
function targetsFor(size: number) {
  if (size < 1_000_000) return TARGETS
  return {
    ...TARGETS,
    radius: { medianUs: 100, p99Us: 2000 },
    search: { ...TARGETS.search, reference: true },
    bbox: { ...TARGETS.bbox, reference: true },
    buildMs: 30_000,
  }
}

function fmtUs(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(us >= 10_000 ? 0 : 1)} ms`
  return `${us.toFixed(us >= 100 ? 0 : 1)} µs`
}
const fmtMs = (ms: number) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`
const range = (s: Spread, f: (x: number) => string) => (s.runs.length > 1 ? `${f(s.min)}–${f(s.max)}` : '(1 run)')
const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**')

async function main() {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.child) {
    const r = await runOnce(o.child.size, o.child.run, o.seed, o.quick)
    process.stdout.write(`\n@@RESULT ${JSON.stringify(r)}\n`)
    return
  }
  const prov = provenance(new Date())
  const all: RunResult[] = []
  for (const size of o.sizes) {
    for (let run = 1; run <= o.runs; run++) {
      const t = performance.now()
      const proc = Bun.spawn(
        [
          process.execPath,
          import.meta.path,
          '--child-size',
          String(size),
          '--child-run',
          String(run),
          '--seed',
          String(o.seed),
          ...(o.quick ? ['--quick'] : []),
        ],
        { stdout: 'pipe', stderr: 'inherit' },
      )
      const text = await new Response(proc.stdout).text()
      if ((await proc.exited) !== 0) throw new Error(`run ${run} at ${size} failed`)
      const line = text.split('\n').find((l) => l.startsWith('@@RESULT '))
      if (!line) throw new Error(`run ${run} at ${size}: no result`)
      all.push(JSON.parse(line.slice(9)))
      console.error(`size ${size} run ${run}: ${((performance.now() - t) / 1000).toFixed(1)} s`)
    }
  }
  const pkg = (name: string) => {
    try {
      return require(`${name}/package.json`).version as string
    } catch {
      return 'unknown'
    }
  }
  const versions = {
    bun: Bun.version,
    kdbush: pkg('kdbush'),
    geokdbush: pkg('geokdbush'),
    flexsearch: pkg('flexsearch'),
    sqlite: '',
  }
  {
    const { Database } = await import('bun:sqlite')
    const db = new Database(':memory:')
    versions.sqlite = db.query<{ v: string }, []>('select sqlite_version() as v').get()!.v
    db.close()
  }

  const sizes = o.sizes.map((size) => {
    const rs = all.filter((r) => r.size === size)
    const queryKeys = Object.keys(rs[0]!.queries)
    const queries = Object.fromEntries(
      queryKeys.map((k) => [
        k,
        {
          n: rs.map((r) => r.queries[k]!.n),
          medianUs: spread(rs.map((r) => r.queries[k]!.median)),
          p99Us: spread(rs.map((r) => r.queries[k]!.p99)),
          maxUs: spread(rs.map((r) => r.queries[k]!.max)),
          meanTotalHits: spread(rs.map((r) => r.queries[k]!.meanTotal)),
          meanBodyBytes: spread(rs.map((r) => r.queries[k]!.meanBodyBytes)),
          emptyAnswers: rs.map((r) => r.queries[k]!.empty),
          distinct: rs.map((r) => r.queries[k]!.distinct),
        },
      ]),
    )
    return {
      size,
      runs: rs.length,
      densest: rs[0]!.densest,
      types: rs[0]!.types,
      generateMs: spread(rs.map((r) => r.generateMs)),
      prepareMs: spread(rs.map((r) => r.prepareMs)),
      insertMs: spread(rs.map((r) => r.insertMs)),
      build: {
        totalMs: spread(rs.map((r) => r.build.totalMs)),
        textBackgroundMs: spread(rs.map((r) => r.build.textBackgroundMs)),
        readRowsMs: spread(rs.map((r) => r.build.breakdown.readRowsMs)),
        presentMs: spread(rs.map((r) => r.build.breakdown.presentMs)),
        locatorIndexMsDerived: spread(rs.map((r) => r.build.breakdown.locatorIndexMsDerived)),
        kdbushOnlyMs: spread(rs.map((r) => r.build.breakdown.kdbushOnlyMs)),
        heapBytes: spread(rs.map((r) => r.build.heapBytes)),
        rssBytes: spread(rs.map((r) => r.build.rssBytes)),
        jsonBytes: spread(rs.map((r) => r.build.jsonBytes)),
        bytesPerLocation: spread(rs.map((r) => r.build.bytesPerLocation)),
        bytesPerLocationBeyondJson: spread(rs.map((r) => r.build.bytesPerLocationBeyondJson)),
      },
      queries,
      write: {
        n: rs.map((r) => r.write.n),
        allVisible: rs.every((r) => r.write.allVisible),
        commitMs: {
          median: spread(rs.map((r) => r.write.commitMs.median)),
          p99: spread(rs.map((r) => r.write.commitMs.p99)),
        },
        syncMs: {
          median: spread(rs.map((r) => r.write.syncMs.median)),
          p99: spread(rs.map((r) => r.write.syncMs.p99)),
        },
        nextQueryMs: {
          median: spread(rs.map((r) => r.write.nextQueryMs.median)),
          p99: spread(rs.map((r) => r.write.nextQueryMs.p99)),
        },
        visibleMs: {
          median: spread(rs.map((r) => r.write.visibleMs.median)),
          p99: spread(rs.map((r) => r.write.visibleMs.p99)),
        },
        compaction: rs.map((r) => r.write.compaction),
        settings: {
          n: rs.map((r) => r.write.settings.n),
          allVisible: rs.every((r) => r.write.settings.allVisible),
          priorityMs: {
            median: spread(rs.map((r) => r.write.settings.priorityMs.median)),
            max: spread(rs.map((r) => r.write.settings.priorityMs.max)),
          },
          filtersMs: {
            median: spread(rs.map((r) => r.write.settings.filtersMs.median)),
            max: spread(rs.map((r) => r.write.settings.filtersMs.max)),
          },
        },
      },
    }
  })

  const md: string[] = []
  md.push('# Query API benchmark (in process)', '')
  md.push(
    `${provenanceLine(prov)} · bun ${versions.bun}, SQLite ${versions.sqlite}, kdbush ${versions.kdbush}, geokdbush ${versions.geokdbush}, flexsearch ${versions.flexsearch}`,
    '',
  )
  md.push(
    'Synthetic stores around the 300 most populous GeoNames places (Zipf-weighted: population^1.3), 5% of them noise, radius 25 miles unless the row says otherwise, limit 20. Each run is a fresh process and database. Figures: median of the runs\' values (median, p99 and max of each run\'s queries); "spread" is min–max across runs. Query times are per request through the route\'s body path (sync, parse, index query, the answer written as the bytes sent), not HTTP. "Empty answers": timed answers with no location in their page (summed over runs).',
    '',
  )
  for (const s of sizes) {
    md.push(`## ${s.size.toLocaleString('en')} locations (${s.runs} run${s.runs > 1 ? 's' : ''})`, '')
    md.push(`Densest cities: ${s.densest.map((d) => `${d.city} ${d.stores}`).join(', ')}.`, '')
    md.push(
      '| Query | N/run | hits (mean total) | empty answers | median | spread | p99 | spread | max | spread | target | |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    )
    for (const l of s.types) {
      const q = s.queries[l.key]!
      const tg = l.target ? targetsFor(s.size)[l.target] : null
      const ok = tg ? q.medianUs.median < tg.medianUs && q.p99Us.median < (tg.p99Us ?? Infinity) : null
      const empty = q.emptyAnswers.reduce((a, b) => a + b, 0)
      const asked = q.n.reduce((a, b) => a + b, 0)
      // The N column names the distinct strings when a run asked some twice.
      const repeats = q.distinct.some((d, i) => d < q.n[i]!) ? ` (${Math.min(...q.distinct)} distinct)` : ''
      const bounds = tg
        ? `< ${fmtUs(tg.medianUs)}${tg.p99Us === undefined ? ' median' : ` / < ${fmtUs(tg.p99Us)}`}`
        : ''
      const target = tg ? (tg.reference ? `none (100k's: ${bounds})` : bounds) : l.nonEmpty ? 'no empty answer' : '—'
      const met =
        ok !== null
          ? tg!.reference
            ? ok
              ? '(within)'
              : '(over)'
            : verdict(ok)
          : l.nonEmpty
            ? verdict(empty === 0)
            : ''
      md.push(
        `| ${l.label} | ${Math.min(...q.n)}${Math.min(...q.n) !== Math.max(...q.n) ? `–${Math.max(...q.n)}` : ''}${repeats} | ${q.meanTotalHits.median.toFixed(0)} | ${empty === 0 ? '0' : `${empty} of ${asked}`} | ${fmtUs(q.medianUs.median)} | ${range(q.medianUs, fmtUs)} | ${fmtUs(q.p99Us.median)} | ${range(q.p99Us, fmtUs)} | ${fmtUs(q.maxUs.median)} | ${range(q.maxUs, fmtUs)} | ${target} | ${met} |`,
      )
    }
    md.push('')
    const b = s.build
    const w = s.write
    md.push('| Figure | value | spread | target | |', '|---|---:|---:|---|---|')
    md.push(
      `| generate + validate (normalizeLocationBody, newLocationRecord) | ${fmtMs(s.prepareMs.median)} | ${range(s.prepareMs, fmtMs)} | — | |`,
    )
    md.push(`| insert, one write transaction | ${fmtMs(s.insertMs.median)} | ${range(s.insertMs, fmtMs)} | — | |`)
    md.push(
      `| index build, SQLite rows → queryable | ${fmtMs(b.totalMs.median)} | ${range(b.totalMs, fmtMs)} | < ${fmtMs(targetsFor(s.size).buildMs)} | ${verdict(b.totalMs.median < targetsFor(s.size).buildMs)} |`,
    )
    md.push(
      `| then public JSON + FlexSearch postings, in background tasks (queries served meanwhile) | ${fmtMs(b.textBackgroundMs.median)} | ${range(b.textBackgroundMs, fmtMs)} | | |`,
    )
    md.push(
      `| … read rows (locations.indexRows: the columns search needs) | ${fmtMs(b.readRowsMs.median)} | ${range(b.readRowsMs, fmtMs)} | | |`,
    )
    md.push(
      `| … present (searchDoc: folded name and text, tags, rank) | ${fmtMs(b.presentMs.median)} | ${range(b.presentMs, fmtMs)} | | |`,
    )
    md.push(
      `| … new LocatorIndex (tables, vocabulary, KDBush; derived) | ${fmtMs(b.locatorIndexMsDerived.median)} | ${range(b.locatorIndexMsDerived, fmtMs)} | | |`,
    )
    md.push(`| … of which KDBush alone | ${fmtMs(b.kdbushOnlyMs.median)} | ${range(b.kdbushOnlyMs, fmtMs)} | | |`)
    const kb = (x: number) => `${(x / 1024).toFixed(2)} KB`
    const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`
    md.push(`| heap growth of the index (after GC) | ${mb(b.heapBytes.median)} | ${range(b.heapBytes, mb)} | | |`)
    md.push(`| RSS growth | ${mb(b.rssBytes.median)} | ${range(b.rssBytes, mb)} | | |`)
    md.push(`| heap per location | ${kb(b.bytesPerLocation.median)} | ${range(b.bytesPerLocation, kb)} | | |`)
    md.push(`| … of which pre-serialized JSON | ${kb(b.jsonBytes.median / s.size)} | | | |`)
    md.push(
      `| heap per location beyond the JSON | ${kb(b.bytesPerLocationBeyondJson.median)} | ${range(b.bytesPerLocationBeyondJson, kb)} | < 1.5 KB | ${verdict(b.bytesPerLocationBeyondJson.median < TARGETS.bytesBeyondJson)} |`,
    )
    md.push(
      `| write commit (store.write + locations.replace), median / p99 | ${fmtMs(w.commitMs.median.median)} / ${fmtMs(w.commitMs.p99.median)} | ${range(w.commitMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| registry.sync() applying it, median / p99 | ${fmtMs(w.syncMs.median.median)} / ${fmtMs(w.syncMs.p99.median)} | ${range(w.syncMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| next query (radius top-20), median / p99 | ${fmtMs(w.nextQueryMs.median.median)} / ${fmtMs(w.nextQueryMs.p99.median)} | ${range(w.nextQueryMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| write → visible (commit + sync + query), median / p99 | ${fmtMs(w.visibleMs.median.median)} / ${fmtMs(w.visibleMs.p99.median)} | ${range(w.visibleMs.median, fmtMs)} | < 5 ms | ${verdict(w.visibleMs.median.median < TARGETS.writeVisibleMs)}${w.visibleMs.p99.median >= TARGETS.writeVisibleMs ? ' (p99 over)' : ''} |`,
    )
    const c = w.compaction
    const sync = spread(c.map((x) => x.batchSyncMs / Math.max(1, x.batchWrites)))
    const fullQ = spread(c.map((x) => x.fullDeltaQueryUs.median))
    const fullWarm = spread(c.map((x) => x.fullDeltaWarmUs.median))
    const compactMs = spread(c.map((x) => x.compactMs))
    const blockMs = spread(c.map((x) => x.longestBlockMs))
    md.push(
      `| sync of ${c[0]!.batchWrites} moves (batches until the delta passes its bound), per upsert | ${fmtMs(sync.median)} | ${range(sync, fmtMs)} | | |`,
    )
    md.push(
      `| radius top-20 with a full delta (${c[0]!.deltaWhenFull} keys in it), the first 50 queries after the batch, median | ${fmtUs(fullQ.median)} | ${range(fullQ, fmtUs)} | | |`,
    )
    const warmN = c.map((x) => x.fullDeltaWarmUs.n)
    md.push(
      `| … then warmed (after up to 2000 queries or 1 s), median of ${Math.min(...warmN)}${Math.min(...warmN) === Math.max(...warmN) ? '' : `–${Math.max(...warmN)}`} queries | ${fmtUs(fullWarm.median)} | ${range(fullWarm, fmtUs)} | | |`,
    )
    md.push(
      `| compaction (delta → new KDBush base; scheduled, in steps between requests), wall time | ${fmtMs(compactMs.median)} | ${range(compactMs, fmtMs)} | off the request path | ${verdict(c.every((x) => x.deltaAfter < x.bound))} |`,
    )
    md.push(
      `| … the longest the event loop was blocked meanwhile | ${fmtMs(blockMs.median)} | ${range(blockMs, fmtMs)} | | |`,
    )
    md.push(`| every moved location visible in the next query | ${w.allVisible ? 'yes' : '**no**'} | | | |`)
    const st = w.settings
    md.push(
      `| new priority rules → visible (commit, ranks taken again, query), median / max of ${Math.min(...st.n)} | ${fmtMs(st.priorityMs.median.median)} / ${fmtMs(st.priorityMs.max.median)} | ${range(st.priorityMs.median, fmtMs)} | no rebuild | |`,
    )
    md.push(
      `| new filters → visible (commit, JSON made again, query), median / max of ${Math.min(...st.n)} | ${fmtMs(st.filtersMs.median.median)} / ${fmtMs(st.filtersMs.max.median)} | ${range(st.filtersMs.median, fmtMs)} | no rebuild | |`,
    )
    md.push(`| every settings write seen by the next query | ${st.allVisible ? 'yes' : '**no**'} | | | |`)
    md.push('')
  }
  const markdown = md.join('\n')
  mkdirSync(o.out, { recursive: true })
  const json = {
    benchmark: 'query',
    ...prov,
    versions,
    options: { sizes: o.sizes, runs: o.runs, seed: o.seed },
    targets: TARGETS,
    sizes,
    raw: all,
  }
  writeFileSync(join(o.out, 'query.json'), `${JSON.stringify(json, null, 2)}\n`)
  writeFileSync(join(o.out, 'query.md'), `${markdown}\n`)
  console.log(markdown)
}

await main()
