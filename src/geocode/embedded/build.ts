// Compiles the offline geocoder's data, once, from npm packages that ship it, into one read-only
// SQLite file. Run by ensureGeodata() (ensure.ts) on first start (and by tests); run alone
// (`bun src/geocode/embedded/build.ts`), it forces a rebuild. Sources and their licences:
// docs/geocoding.md, "Data and attributions".
import type { Database } from 'bun:sqlite'
import { mkdirSync, renameSync } from 'node:fs'
import { removeIfThere } from '../../core/remove-file'
import { dirname } from 'node:path'
import { buildTarget, openBuildFile, removeStaleBuilds, unlockBuildFile } from './build-files'
import { insertPlaces, loadPlaces, placeLookup } from './build-places'
import { insertPostcodes } from './build-postcodes'
import { insertCountries, insertRegions } from './build-regions'
import { writeReverseIndex } from './reverse'

/** Bump when the schema or the compiled content changes: files of another version are rebuilt. */
export const GEODATA_VERSION = '21'
export const DEFAULT_GEODATA_PATH = 'data/geocoder.sqlite'

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE places (
    id INTEGER PRIMARY KEY,              -- GeoNames id
    name TEXT NOT NULL, country TEXT NOT NULL, admin1 TEXT NOT NULL,
    lat REAL NOT NULL, lng REAL NOT NULL, population INTEGER NOT NULL,
    section INTEGER NOT NULL             -- 1: a section of a town (GeoNames PPLX), such as Köln's Altstadt Nord
  );
  CREATE TABLE place_names (
    key TEXT NOT NULL, place_id INTEGER NOT NULL,
    alt INTEGER NOT NULL,                -- 1: an alternate name
    spelling TEXT NOT NULL,              -- an alternate name as written, every way ("München|Munchen"); '' for a main name
    PRIMARY KEY (key, place_id)
  ) WITHOUT ROWID;
  CREATE TABLE postcodes (
    country TEXT NOT NULL, postcode TEXT NOT NULL, place_key TEXT NOT NULL, place TEXT NOT NULL, admin1 TEXT NOT NULL,
    lat REAL NOT NULL, lng REAL NOT NULL,
    precision TEXT NOT NULL,             -- postcode: the table has the code's own point; city: the town's point
    people INTEGER NOT NULL,             -- the town's population where the build knows it, else 0: ranks a code's towns
    PRIMARY KEY (country, postcode, place_key)
  ) WITHOUT ROWID;
  CREATE TABLE countries (key TEXT PRIMARY KEY, code TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE regions (
    country TEXT NOT NULL, key TEXT NOT NULL, admin1 TEXT NOT NULL,
    name TEXT NOT NULL,                  -- the region's label, on the row of its first name; else ''
    spelling TEXT NOT NULL,              -- this name as written, every way ("Normandía|Normandia"), where region-towns.ts gives it
    PRIMARY KEY (country, key)
  ) WITHOUT ROWID;
`

/** What a build does, in order: buildGeodata's `step` is told the index of each as it begins. */
export const GEODATA_STEPS = [
  'reading the places',
  'writing their names',
  'placing the postcodes',
  'writing the countries and regions',
  'indexing',
] as const

export type GeodataStats = { places: number; names: number; postcodes: number; ms: number }

export async function buildGeodata(
  outPath: string = DEFAULT_GEODATA_PATH,
  step: (index: number) => void = () => {},
): Promise<GeodataStats> {
  const t0 = performance.now()
  outPath = buildTarget(outPath) // a link's target: the rename below keeps the link
  mkdirSync(dirname(outPath), { recursive: true })
  removeStaleBuilds(outPath)
  const { db, file: tmp } = openBuildFile(outPath, (db) => {
    // No journal file beside it (bun's SQLite keeps DELETE when asked for OFF).
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF;')
    db.exec(SCHEMA)
  })
  try {
    const counts = await fill(db, step)
    unlockBuildFile(db)
    db.close()
    renameSync(tmp, outPath) // atomic: readers see the old file or the whole new one
    return { ...counts, ms: Math.round(performance.now() - t0) }
  } catch (e) {
    // A failed build (a full disk) leaves nothing behind: its files would keep that disk full.
    db.close()
    for (const file of [tmp, `${tmp}-journal`]) removeIfThere(file)
    throw e
  }
}

/** Writes the data into `db`, its tables made, each step told as it begins; whole once it returns. */
async function fill(db: Database, step: (index: number) => void): Promise<Omit<GeodataStats, 'ms'>> {
  step(0)
  const places = await loadPlaces()
  step(1)
  const names = insertPlaces(db, places)
  step(2)
  const lookup = placeLookup(places)
  const postcodes = insertPostcodes(db, lookup)
  step(3)
  insertCountries(db)
  insertRegions(db, lookup)

  step(4)
  db.exec('CREATE INDEX postcodes_by_code ON postcodes (postcode)')
  // A town's names, and its postcodes, for the reverse lookup.
  db.exec('CREATE INDEX place_names_by_place ON place_names (place_id)')
  db.exec('CREATE INDEX postcodes_by_place ON postcodes (country, place_key)')
  writeReverseIndex(db)
  db.run('INSERT INTO meta VALUES (?, ?), (?, ?)', ['version', GEODATA_VERSION, 'built_at', new Date().toISOString()])
  db.exec('ANALYZE') // the last write: a file with its statistics is whole (build-files.ts)
  return { places: places.length, names, postcodes }
}

if (import.meta.main) {
  const path = process.argv[2] ?? DEFAULT_GEODATA_PATH
  try {
    const stats = await buildGeodata(path)
    console.log(JSON.stringify({ path, ...stats }))
  } catch (e) {
    console.error((e as Error).message) // one line, as a start says it
    process.exit(1)
  }
}
