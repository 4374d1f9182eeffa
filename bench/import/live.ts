// Queries while an import runs: the service on a seeded locator answers public queries sent at a
// steady pace, first with nothing else going on, then while `storeloc locations import` adds rows
// to the same locator from another process; and how soon after the CLI's exit a public answer
// holds the new locations.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { IndexRegistry } from '../../src/indexes/registry'
import { openStore } from '../../src/store'
import { ROOT } from '../http/options'
import { stopChild } from '../http/processes'
import { type Server, startService, waitForLine, waitReady, warmIndex } from '../http/servers'
import { scenario, seedLocator } from '../scenario'
import { cliImport, type CliRun, commitTime, countRows, cpuMark, otherCpu } from './cli'
import { coordinateRows, PROBE_POINT, toCsv } from './data'
import type { ImportOptions } from './options'
import { type Latency, latency, probe, queryStream, type Sample } from './stream'

/** The seeded database each run starts from (a copy), the import's file and the query paths. */
export type LivePlan = {
  template: string
  locatorId: string
  token: string
  file: string
  paths: string[]
  /** Paths to another locator of the same database, which the import leaves alone. */
  neighbourPaths: string[]
}

export type LiveRun = {
  run: number
  /** Queries with no import running, for `baseline` seconds. */
  without: Latency
  /** Queries from the CLI's spawn to `settle` seconds after its exit. */
  during: Latency
  /**
   * The same, parted at the import's commit (the change log's time of its last change): the
   * queries sent until then (the CLI read, checked and wrote meanwhile), and those sent after
   * (the server applied the commit).
   */
  beforeCommit: Latency
  afterCommit: Latency
  /** Queries to the other locator, without and during the import. */
  neighbour: { without: Latency; during: Latency }
  /** The queries during the import slower than 10 ms: when each was sent (ms from the commit) and its time. */
  slow: { sentMs: number; ms: number }[]
  /** The slowest query during the import: when it was sent, ms from the CLI's exit (negative: before). */
  slowestSentFromExitMs: number
  /** Sends the client made more than 5 ms late (it did not keep its pace then), without and during. */
  late: { without: number; during: number }
  cli: CliRun
  /** From the CLI's exit to the first public answer holding the probe location (negative: before the exit). */
  visibleMs: number | null
  /** From the import's commit to the first answer holding the probe location. */
  visibleAfterCommitMs: number | null
  /** That answer's own time, ms. */
  visibleQueryMs: number | null
  /** The server logged that it builds the index again from the rows, rather than applying each change. */
  rebuilt: boolean
  /** The server logged that build, made in the background, swapped in this many ms after it began; null if not logged. */
  backgroundMs: number | null
  /** The locator's index built from its rows after the import, in this process, until it answers (ms). */
  buildMs: number
  otherCpu: { without: number; during: number }
}

/** Seconds of queries before the measured ones, discarded: the server's code for varied paths warmed. */
export const WARM_S = 2
/** The other locator's queries, as a share of --rate. */
export const NEIGHBOUR_SHARE = 1 / 4
/** The other locator's stores: a tenth of the imported one's. */
export const neighbourSize = (base: number) => Math.max(1000, Math.round(base / 10))

const log = (msg: string) => console.error(`[import] ${msg}`)

/** Seeds the locators the live runs copy, writes the import's file (its last row the probe), and draws the query paths. */
export function planLive(o: ImportOptions, dir: string): LivePlan {
  const template = join(dir, 'live-template.db')
  const t = performance.now()
  const store = openStore(template)
  const seeded = seedLocator(store, o.base, o.seed)
  const neighbour = seedLocator(store, neighbourSize(o.base), o.seed + 2)
  // The client's pace would meet the default limit (1000 a minute); the limiter still counts.
  for (const id of [seeded.locatorId, neighbour.locatorId])
    store.write(() => store.locators.updateSettings(id, { rateLimit: 2_000_000_000 }))
  const token = store.locators.get(seeded.locatorId)!.publicToken
  const neighbourToken = store.locators.get(neighbour.locatorId)!.publicToken
  store.close()
  log(`seeded ${o.base} locations for the live step in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  const file = join(dir, 'live.csv')
  writeFileSync(file, toCsv(coordinateRows(o.rows, o.seed + 1, 'live', true)))
  // More than any run asks: no path is asked twice, so every answer is made, none taken from the answer cache.
  const count = o.rate * (WARM_S + o.baseline + o.settle + 120)
  const draw = (set: typeof seeded.set, tok: string, n: number) => {
    const typical = scenario(set, o.seed, 1).types.find((x) => x.key === 'radius_typical')!
    return Array.from({ length: n }, () => `/public/v1/${tok}/locations?${typical.gen()}`)
  }
  return {
    template,
    locatorId: seeded.locatorId,
    token,
    file,
    paths: draw(seeded.set, token, count),
    neighbourPaths: draw(neighbour.set, neighbourToken, Math.ceil(count * NEIGHBOUR_SHARE)),
  }
}

/** The run's database: a copy of the seeded one (its WAL too, when it has one). */
function copyTemplate(template: string, db: string): void {
  for (const suffix of ['', '-wal']) if (existsSync(template + suffix)) copyFileSync(template + suffix, db + suffix)
}

async function ready(db: string, warmPaths: string[]): Promise<Server> {
  const server = startService(join(ROOT, 'src/main.ts'), db, 1)
  await waitReady(server, '/readyz')
  await waitForLine(server, '"listening"')
  for (const path of warmPaths) await warmIndex(server, path)
  return server
}

/** How long the locator's index takes to build from the rows, as a server builds it before a query can use it. */
function buildMs(db: string, locatorId: string): number {
  const store = openStore(db)
  try {
    // No background work (the JSON fill, compactions): only what a query waits for.
    const registry = new IndexRegistry(store, () => {})
    const t = performance.now()
    registry.entry(locatorId)
    return performance.now() - t
  } finally {
    store.close()
  }
}

/**
 * Both locators' queries at their pace while `work` runs, each path asked once in the run (the
 * cursor moves past those sent); the other processes' CPU meanwhile.
 */
async function queriesWhile<T>(
  server: Server,
  plan: LivePlan,
  o: ImportOptions,
  cursor: { main: number; side: number },
  work: () => Promise<T>,
) {
  const from = cpuMark()
  const main = queryStream(server.base, plan.paths.slice(cursor.main), o.rate)
  const side = queryStream(server.base, plan.neighbourPaths.slice(cursor.side), o.rate * NEIGHBOUR_SHARE)
  const value = await work()
  const ours = await main.stop()
  const theirs = await side.stop()
  cursor.main += ours.samples.length
  cursor.side += theirs.samples.length
  return { value, ours, theirs, otherCpu: otherCpu(from, [server.pid]) }
}

/** One live run on a fresh copy of the seeded database. */
export async function liveRun(o: ImportOptions, plan: LivePlan, dir: string, run: number): Promise<LiveRun> {
  const db = join(dir, `live-${run}.db`)
  copyTemplate(plan.template, db)
  const server = await ready(db, [plan.paths[0]!, plan.neighbourPaths[0]!])
  try {
    const probePath = `/public/v1/${plan.token}/locations?lat=${PROBE_POINT.lat}&lng=${PROBE_POINT.lng}&radius=1&unit=km`
    const before = await probe(server.base, probePath).stop()
    if (before.foundAt !== null) throw new Error(`the probe's circle holds a location before the import: ${probePath}`)
    const cursor = { main: 0, side: 0 }
    await queriesWhile(server, plan, o, cursor, () => Bun.sleep(WARM_S * 1000))
    const quiet = await queriesWhile(server, plan, o, cursor, () => Bun.sleep(o.baseline * 1000))
    const watch = probe(server.base, probePath)
    const busy = await queriesWhile(server, plan, o, cursor, async () => {
      const cli = await cliImport(db, plan.locatorId, plan.file)
      await Bun.sleep(o.settle * 1000)
      return cli
    })
    const cli = busy.value
    // Read once the queries stopped: opening the database holds this process, the client's, a while.
    const commit = commitTime(db, plan.locatorId)
    const seen = await watch.stop()
    const rows = countRows(db, plan.locatorId)
    if (cli.exitCode !== 0 || rows !== o.base + o.rows)
      throw new Error(`the live import exited ${cli.exitCode}, ${rows} rows of ${o.base + o.rows}:\n${cli.stderrTail}`)
    const during = busy.ours.samples
    const slowest = during.reduce((a, b) => (b.ms > a.ms ? b : a), during[0] as Sample)
    const out = readFileSync(server.out, 'utf8')
    const rebuilt = out.includes('the index is built again from the rows')
    const swapped = out.split('\n').find((line) => line.includes('index built again in the background'))
    await stopChild(server.child)
    return {
      run,
      without: latency(quiet.ours.samples),
      during: latency(during),
      beforeCommit: latency(during.filter((x) => x.sentAt <= commit)),
      afterCommit: latency(during.filter((x) => x.sentAt > commit)),
      neighbour: { without: latency(quiet.theirs.samples), during: latency(busy.theirs.samples) },
      slow: during
        .filter((x) => x.ms > 10)
        .map((x) => ({ sentMs: Math.round(x.sentAt - commit), ms: Math.round(x.ms) })),
      slowestSentFromExitMs: slowest.sentAt - cli.exitedAt,
      late: { without: quiet.ours.late + quiet.theirs.late, during: busy.ours.late + busy.theirs.late },
      cli,
      visibleMs: seen.foundAt === null ? null : seen.foundAt - cli.exitedAt,
      visibleAfterCommitMs: seen.foundAt === null ? null : seen.foundAt - commit,
      visibleQueryMs: seen.foundMs,
      rebuilt,
      backgroundMs: swapped === undefined ? null : (JSON.parse(swapped) as { ms: number }).ms,
      buildMs: buildMs(db, plan.locatorId),
      otherCpu: { without: quiet.otherCpu, during: busy.otherCpu },
    }
  } finally {
    await stopChild(server.child)
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true })
  }
}
