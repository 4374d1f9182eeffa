// One run of the in-process Query API bench, in its own child process: the locator seeded in a
// fresh SQLite database, the index built and its memory measured, then the queries, the writes,
// the settings and the compaction timed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFilters, setPriorityRules } from '../src/operator'
import { locationsBody } from '../src/api/public/answer'
import { searchDoc } from '../src/indexes/present'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore } from '../src/store'
import KDBush from 'kdbush'
import { type QueryType, scenario, seedLocator, WARM_MS, WARM_QUERIES } from './scenario'
import { FILTER_GROUPS, FILTERS, PRIORITY } from './synthetic'

const utf8 = new TextDecoder()
/** A query string's offset (0 when it sends none). */
const offsetOf = (qs: string) => Number(/(?:^|&)offset=(\d+)/.exec(qs)?.[1] ?? 0)

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

export type RunResult = {
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

export async function runOnce(size: number, run: number, seed: number, quick: boolean): Promise<RunResult> {
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
