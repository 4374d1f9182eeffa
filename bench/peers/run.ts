// One peers run: our store seeded (or the caller's), every engine made ready (ours built and its
// JSON filled, the peers loaded and indexed), then timed type by type, taking turns, and their
// first answers compared.
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { locationsBody } from '../../src/api/public/answer'
import { nameKey } from '../../src/core/text'
import { presentContext, publicLocation, searchText } from '../../src/indexes/present'
import { IndexRegistry } from '../../src/indexes/registry'
import { openStore, type Store } from '../../src/store'
import { scenario, seedLocator, WARM_MS, WARM_QUERIES } from '../scenario'
import type { SyntheticSet } from '../synthetic'
import { type OpenPostgis, openPostgis, pgAnswer, PostgisFailed } from './postgis'
import { parseQuery } from './query'
import { fmtUs } from './report'
import { SQLITE_METHOD, SqlitePeer } from './sqlite'
import { type Budget, measureTogether, ROUNDS, type Timed, type TypeQueries } from './timing'
import {
  type Compared,
  compared,
  type PeerResult,
  type PeerSkipped,
  type PeersOptions,
  type PeersResult,
  type PeerStat,
  type SanityCheck,
} from './types'

const utf8 = new TextDecoder()

/** Timed queries per type, as bench/query.ts times. */
const N = 2000

export async function runPeers(opts: PeersOptions): Promise<PeersResult> {
  const log = opts.log ?? ((line: string) => console.error(line))
  const loadStart = loadavg()[0]!
  const budget: Budget = opts.quick
    ? { n: 200, warm: 20, warmMs: 300, budgetMs: 1000 }
    : { n: N, warm: WARM_QUERIES, warmMs: WARM_MS, budgetMs: 6000 }
  const oursBudget: Budget = opts.quick ? budget : { ...budget, budgetMs: 4000 } // as bench/query.ts
  const cleanups = new Map<string, () => void>()
  const cleanupAll = () => {
    for (const [key, fn] of [...cleanups].reverse()) {
      cleanups.delete(key)
      try {
        fn()
      } catch {
        // best effort: the next one still runs
      }
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupAll()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('exit', cleanupAll)
  try {
    // The data: our store seeded with the synthetic set (or the caller's), read back so every engine has the same ids.
    let store: Store
    let locatorId: string
    let set: SyntheticSet
    if (opts.from) {
      ;({ store, locatorId, set } = opts.from)
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'storeloc-peers-'))
      cleanups.set(dir, () => rmSync(dir, { recursive: true, force: true }))
      store = openStore(join(dir, 'ours.sqlite'))
      cleanups.set(`${dir}:store`, () => store.close())
      const t = performance.now()
      ;({ locatorId, set } = seedLocator(store, opts.size, opts.seed))
      log(`seeded ${opts.size.toLocaleString('en')} stores in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    }
    const records = store.locations.all(locatorId).filter((r) => r.status === 'published')
    const ctx = presentContext(
      store.filters.list(locatorId),
      store.customFields.list(locatorId),
      store.priority.list(locatorId),
    )
    // Each location's public JSON (what the peers store and fetch, as ours keeps it) and its
    // searchable text, folded as ours folds it: the words of searchText, as nameKey writes them
    // (searchText leaves ASCII punctuation in; PostgreSQL's parser would read "a.b" as a host).
    const docs = new Map(
      records.map(
        (r) =>
          [
            r.id,
            {
              json: JSON.stringify(publicLocation(r, ctx)),
              text: nameKey(searchText([r.name, r.address, r.description, ...r.tags])),
            },
          ] as const,
      ),
    )

    // The query strings, drawn exactly as bench/query.ts draws them for this (seed, run).
    // Not the bbox types: the peers' query code has no box (bench/README.md, "Peers").
    const types = scenario(set, opts.seed, opts.run).types.filter((type) => !type.key.startsWith('bbox'))
    const queries: TypeQueries[] = types.map((type) => ({
      type,
      warm: Array.from({ length: WARM_QUERIES }, type.gen),
      timed: Array.from({ length: N }, type.gen),
    }))
    const SANITY = 20
    const answers = new Map<string, Map<string, Compared[]>>() // engine -> type -> ids and total per compared query

    // Every engine is made ready first (ours built and its JSON filled, the peers loaded and
    // indexed), then timed type by type, taking turns (measureTogether).
    type Engine = Timed & {
      name: string
      log: string
      compare: (qs: string) => Compared | Promise<Compared>
      done: (type: string, s: PeerStat) => void
    }
    const timed: Engine[] = []

    // Ours: the GET /:token/locations body path, as bench/query.ts times it.
    let ours: PeersResult['ours'] = null
    if (opts.ours !== false) {
      const t = performance.now()
      const registry = new IndexRegistry(store)
      const entry = registry.entry(locatorId) as unknown as { jsonReady?: boolean; index: { settled?: boolean } }
      log(`ours: index built in ${((performance.now() - t) / 1000).toFixed(1)} s`)
      // The registry may fill each location's public JSON in background tasks after the build
      // (entry.jsonReady); queries meanwhile build it on demand and run 3-6x slower. The peers are
      // timed loaded, indexed and analysed, so ours is timed once that is done too, and the name
      // order made (all=true by name takes a slower path until then), as a server's preload waits.
      const t1 = performance.now()
      while ((entry.jsonReady === false || entry.index.settled === false) && performance.now() - t1 < 120_000)
        await Bun.sleep(20)
      if (entry.jsonReady !== undefined)
        log(`ours: public JSON filled in the background ${((performance.now() - t1) / 1000).toFixed(1)} s later`)
      const locator = store.locators.get(locatorId)!
      const base = `http://bench.local/public/v1/${locator.publicToken ?? 'token'}/locations?`
      const body = (qs: string) => locationsBody(registry, locator, base + qs)
      const out: NonNullable<PeersResult['ours']>['queries'] = {}
      ours = { queries: out }
      timed.push({
        name: 'ours',
        log: 'ours',
        budget: oursBudget,
        // The answer's total (every match) is what ours counts; rows returned are not counted in the timed loop.
        answer: (qs) => {
          registry.sync()
          return body(qs).total
        },
        compare: (qs) => {
          const { data } = JSON.parse(utf8.decode(body(qs).body)) as {
            data: { locations: { id: string }[]; pagination: { total: number } }
          }
          return { ids: data.locations.map((l) => l.id), total: data.pagination.total }
        },
        done: (type, { meanHits, ...rest }) => {
          out[type] = { ...rest, meanTotal: meanHits }
        },
      })
    }

    // (a) SQLite alone.
    const sqliteDir = mkdtempSync(join(tmpdir(), 'storeloc-peers-sqlite-'))
    cleanups.set(sqliteDir, () => rmSync(sqliteDir, { recursive: true, force: true }))
    const lite = new SqlitePeer(join(sqliteDir, 'peer.sqlite'))
    cleanups.set(`${sqliteDir}:db`, () => lite.close())
    const t = performance.now()
    const jsonById = new Map([...docs].map(([id, d]) => [id, d.json] as const))
    lite.load(records, jsonById)
    const sqliteLoadMs = performance.now() - t
    log(`SQLite ${lite.version}: loaded and indexed in ${(sqliteLoadMs / 1000).toFixed(1)} s`)
    if (opts.explain)
      for (const tq of queries)
        log(`SQLite plan, ${tq.type.key} (${tq.timed[0]}):\n${lite.explain(parseQuery(tq.timed[0]!))}`)
    const sqlite: PeerResult = {
      engine: 'SQLite (bun:sqlite)',
      version: lite.version,
      method: SQLITE_METHOD,
      loadMs: sqliteLoadMs,
      queries: {},
    }
    timed.push({
      name: 'sqlite',
      log: 'SQLite',
      budget,
      answer: (qs) => lite.answer(parseQuery(qs)).rows.length,
      compare: (qs) => compared(lite.answer(parseQuery(qs))),
      done: (type, s) => {
        sqlite.queries[type] = s
      },
    })

    // (b) PostGIS: any failure (install, start, load, a query) skips it with the reason.
    let postgis: PeerResult | PeerSkipped
    let open: OpenPostgis | null = null
    try {
      const opened = await openPostgis(records, docs, queries, { explain: opts.explain === true, log, cleanups })
      if ('skipped' in opened) postgis = opened
      else {
        open = opened
        postgis = opened.result
        const { pg, result } = opened
        timed.push({
          name: 'postgis',
          log: 'PostGIS',
          budget,
          answer: async (qs) => (await pgAnswer(pg, qs)).rows.length,
          compare: async (qs) => compared(await pgAnswer(pg, qs)),
          done: (type, s) => {
            result.queries[type] = s
          },
        })
      }
    } catch (e) {
      postgis = { skipped: `failed: ${(e as Error).message}` }
    }

    const rounds = opts.quick ? 2 : ROUNDS
    const timeAll = async () => {
      Bun.gc(true)
      for (const tq of queries) {
        const stats = await measureTogether(
          tq,
          timed,
          rounds,
          timed.findIndex((e) => e.name === 'ours'),
        )
        for (const [i, e] of timed.entries()) {
          const s = stats[i]!
          e.done(tq.type.key, s)
          log(`${e.log} ${tq.type.key}: ${fmtUs(s.median)} median, ${fmtUs(s.p99)} p99 (N ${s.n})`)
          const ids: Compared[] = []
          for (const qs of tq.timed.slice(0, SANITY)) ids.push(await e.compare(qs))
          answers.set(e.name, (answers.get(e.name) ?? new Map()).set(tq.type.key, ids))
        }
      }
    }
    try {
      await timeAll()
    } catch (e) {
      // A PostGIS query failed: skipped with the reason, and the others timed again without it.
      if (!(e instanceof PostgisFailed) || open === null) throw e
      postgis = { skipped: `failed: ${(e as Error).message}` }
      timed.splice(
        timed.findIndex((x) => x.name === 'postgis'),
        1,
      )
      answers.clear()
      await open.close()
      open = null
      await timeAll()
    }
    await open?.close()
    if ('skipped' in postgis) log(`PostGIS: skipped (${postgis.skipped})`)
    for (const key of [`${sqliteDir}:db`, sqliteDir]) {
      cleanups.get(key)!()
      cleanups.delete(key)
    }

    // Sanity: the same ordered ids and the same total from every engine, on the first timed queries of each type.
    const engines = [...answers.keys()]
    const sanity: SanityCheck = { perType: SANITY, engines, identical: {}, differences: [] }
    for (const tq of queries) {
      let same = 0
      for (let i = 0; i < SANITY; i++) {
        const ids = Object.fromEntries(engines.map((e) => [e, answers.get(e)!.get(tq.type.key)![i]!]))
        const first = JSON.stringify(ids[engines[0]!])
        if (engines.every((e) => JSON.stringify(ids[e]) === first)) same++
        else if (sanity.differences.length < 5) sanity.differences.push({ type: tq.type.key, qs: tq.timed[i]!, ids })
      }
      sanity.identical[tq.type.key] = same
    }
    const labels = Object.fromEntries(types.map((x) => [x.key, x.label]))
    return {
      size: opts.size,
      seed: opts.seed,
      run: opts.run,
      labels,
      ours,
      sqlite,
      postgis,
      sanity,
      loadAverage: { start: loadStart, end: loadavg()[0]! },
      rounds,
    }
  } finally {
    cleanupAll()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', cleanupAll)
  }
}
