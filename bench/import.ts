// Import benchmark: the speed targets for bulk imports. `storeloc locations import` of a CSV
// file with coordinates, the same rows through POST /admin/v1/locations/bulk, a file of addresses
// only geocoded by the embedded geocoder (and again with its cache filled), and public queries
// over HTTP while another process imports into the locator they ask about.
//
//   bun bench/import.ts [--rows 50000] [--runs 3] [--seed 42] [--base 100000] [--rate 200]
//                       [--baseline 10] [--settle 3] [--steps cli,bulk,geocode,live] [--out bench/results] [--quick]
//
// --quick: 5,000 rows, 1 run, a live locator of 10,000, 3 s of queries without an import. Prints
// the markdown report and writes import.json and import.md in --out. The code, by job, in
// bench/import/: options.ts, data.ts (the files), cli.ts (the CLI timed, fresh locators),
// stages.ts (where an import's time goes), bulk.ts, stream.ts (the live step's client), live.ts,
// report.ts (the record and the markdown). See bench/README.md, "Import benchmark".
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../src/store'
import { fsType, makeWorkDir, runCleanly } from './http/processes'
import { bulkRun } from './import/bulk'
import { cacheRows, checkImported, cliImport, freshLocator } from './import/cli'
import { addressRows, coordinateRows, distinctAddresses, toBodies, toCsv } from './import/data'
import { liveRun, planLive } from './import/live'
import { type ImportOptions, parseImportArgs } from './import/options'
import { type GeocodeRun, type ImportRecord, report, TARGETS } from './import/report'
import { importStages } from './import/stages'
import { provenance } from './system'

const log = (msg: string) => console.error(`[import] ${msg}`)
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** A fresh database and locator for each import: `name`-<n>.db in the work folder. */
function freshDb(dir: string, name: string) {
  const db = join(dir, `${name}.db`)
  return { db, ...freshLocator(db, name) }
}

/** Targets 1 and 3's figures: runs of the CLI on a file, each on a fresh database. */
async function cliRuns(o: ImportOptions, dir: string, file: string) {
  const runs = []
  for (let run = 1; run <= o.runs; run++) {
    const { db, locatorId } = freshDb(dir, `cli-${run}`)
    const r = await cliImport(db, locatorId, file)
    checkImported(r, db, locatorId, o.rows)
    log(`cli run ${run}: ${secs(r.wallMs)}, CPU ${r.userS.toFixed(1)} + ${r.sysS.toFixed(1)} s`)
    runs.push(r)
  }
  return runs
}

/** Target 3: each run on a fresh database, its cache empty, then the same file into another locator. */
async function geocodeRuns(o: ImportOptions, dir: string, file: string): Promise<GeocodeRun[]> {
  const runs: GeocodeRun[] = []
  for (let run = 1; run <= o.runs; run++) {
    const first = freshDb(dir, `geocode-${run}`)
    const cold = await cliImport(first.db, first.locatorId, file)
    checkImported(cold, first.db, first.locatorId, o.rows)
    const afterCold = cacheRows(first.db)
    const second = freshLocator(first.db, `geocode-${run}-again`)
    const warm = await cliImport(first.db, second.locatorId, file)
    checkImported(warm, first.db, second.locatorId, o.rows)
    const afterWarm = cacheRows(first.db)
    log(
      `geocode run ${run}: cache empty ${secs(cold.wallMs)}, filled ${secs(warm.wallMs)}; cache rows ${afterCold}, ${afterWarm}`,
    )
    runs.push({
      cold,
      warm,
      cacheRows: { cold: afterCold, warm: afterWarm },
      geocoded: cold.said.find((l) => l.startsWith('Geocoded')) ?? '',
    })
  }
  return runs
}

async function main(): Promise<void> {
  const o = parseImportArgs(Bun.argv.slice(2))
  const prov = provenance(new Date())
  const dir = makeWorkDir('storeloc-import-bench-')
  const tmpFs = fsType(dir)
  if (tmpFs === 'tmpfs') log(`warning: ${dir} is on tmpfs, where fsync costs nothing: set TMPDIR to a disk`)
  const record: ImportRecord = {
    benchmark: 'import',
    ...prov,
    versions: { bun: Bun.version, sqlite: '' },
    options: o,
    targets: TARGETS,
    data: { tmpFs, coordinateFileBytes: 0, addressFileBytes: null, distinctAddresses: null },
    cli: [],
    bulk: [],
    geocode: [],
    live: [],
    stages: { coordinates: null, addresses: null },
  }
  const rows = coordinateRows(o.rows, o.seed, 'store')
  const coordinates = join(dir, 'coordinates.csv')
  writeFileSync(coordinates, toCsv(rows))
  record.data.coordinateFileBytes = Bun.file(coordinates).size
  if (o.steps.includes('cli')) {
    record.cli = await cliRuns(o, dir, coordinates)
    const { db, locatorId } = freshDb(dir, 'stages-coordinates')
    record.stages.coordinates = await importStages(db, locatorId, coordinates)
  }
  if (o.steps.includes('bulk')) {
    const bodies = toBodies(rows)
    for (let run = 1; run <= o.runs; run++) {
      const r = await bulkRun(dir, bodies, run)
      if (r.rows !== o.rows) throw new Error(`bulk run ${run}: ${r.rows} rows in the locator, ${o.rows} sent`)
      log(`bulk run ${run}: ${secs(r.totalMs)} for ${r.requests} requests`)
      record.bulk.push(r)
    }
  }
  if (o.steps.includes('geocode')) {
    const addresses = await addressRows(o.rows, o.seed, 'store')
    const file = join(dir, 'addresses.csv')
    writeFileSync(file, toCsv(addresses))
    record.data.addressFileBytes = Bun.file(file).size
    record.data.distinctAddresses = distinctAddresses(addresses)
    record.geocode = await geocodeRuns(o, dir, file)
    const { db, locatorId } = freshDb(dir, 'stages-addresses')
    record.stages.addresses = await importStages(db, locatorId, file)
  }
  if (o.steps.includes('live')) {
    const plan = planLive(o, dir)
    for (let run = 1; run <= o.runs; run++) {
      const r = await liveRun(o, plan, dir, run)
      log(
        `live run ${run}: p99 ${r.without.p99.toFixed(2)} ms without, ${r.during.p99.toFixed(2)} ms during (max ${r.during.max.toFixed(1)} ms); visible ${r.visibleMs?.toFixed(0)} ms after the CLI's exit`,
      )
      record.live.push(r)
    }
  }
  const store = openStore(join(dir, 'cli-version.db'))
  record.versions.sqlite = store.db.query<{ v: string }, []>('select sqlite_version() as v').get()!.v
  store.close()
  const md = report(record)
  console.log(md)
  mkdirSync(o.out, { recursive: true })
  writeFileSync(join(o.out, 'import.json'), `${JSON.stringify(record, null, 2)}\n`)
  writeFileSync(join(o.out, 'import.md'), `${md}\n`)
  log(`wrote ${join(o.out, 'import.json')} and import.md`)
}

await runCleanly(main, log)
