// Where an import's time goes: the CLI's steps run in this process, timed apart (the file read and
// parsed as CSV, the rows checked, the addresses geocoded, the write transaction), on a fresh
// locator of a fresh database, as `storeloc locations import` runs them.
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../src/core/config'
import { createGeocoder } from '../../src/geocode'
import { openEmbeddedGeocoder } from '../../src/geocode/embedded'
import { noGeocoder } from '../../src/geocode/geocoder'
import { bulkUpsert } from '../../src/locations/bulk'
import { readLocationsCsv } from '../../src/locations/csv'
import { openStore } from '../../src/store'
import { join } from 'node:path'
import { ROOT } from '../http/options'

export type Stages = {
  /** The file read and parsed into rows. */
  readMs: number
  /** Every row checked and matched (no geocoder). */
  checkMs: number
  /** The geocoder made ready (the embedded one's data opened); 0 with no address to geocode. */
  geocoderMs: number
  /** The addresses geocoded, one after the other, each answer stored in the geocode cache. */
  geocodeMs: number
  /** The rows written in one transaction, to its commit. */
  writeMs: number
  /** The whole, from the file's read to the commit. */
  totalMs: number
  /** Addresses geocoded. */
  geocoded: number
  /** The embedded resolver alone over the same addresses, no cache (only when some were geocoded). */
  resolverMs: number | null
}

/** Runs the import of `file` into `locatorId` of `db` in this process, its stages timed apart. */
export async function importStages(db: string, locatorId: string, file: string): Promise<Stages> {
  const t0 = performance.now()
  const read = readLocationsCsv(readFileSync(file))
  const items = read.rows.map((r) => ({ raw: r.body, key: `line ${r.line}`, country: r.country, postcode: r.postcode }))
  const tRead = performance.now()
  const store = openStore(db)
  const config = loadConfig({ DATABASE_PATH: db, GEODATA_PATH: join(ROOT, 'data/geocoder.sqlite') })
  const needsGeocoder = items.some((i) => (i.raw as { coordinates?: unknown }).coordinates === undefined)
  let geocoderMs = 0
  const marks: Record<string, number> = {}
  let geocoded = 0
  try {
    const tg = performance.now()
    const stack = needsGeocoder ? await createGeocoder(config.geocoder, store) : null
    geocoderMs = needsGeocoder ? performance.now() - tg : 0
    const start = performance.now()
    try {
      await bulkUpsert({ store, geocoder: stack?.geocoder ?? noGeocoder }, locatorId, items, {
        onProgress: (p) => {
          marks[p.stage] = performance.now()
          if (p.stage === 'geocoded') geocoded = p.done
        },
      })
    } finally {
      stack?.close()
    }
    const checked = marks.checked!
    const geocodedAt = marks.geocoded ?? checked
    return {
      readMs: tRead - t0,
      checkMs: checked - start,
      geocoderMs,
      geocodeMs: geocodedAt - checked,
      writeMs: marks.written! - geocodedAt,
      totalMs: marks.written! - t0,
      geocoded,
      resolverMs: geocoded > 0 ? resolverAlone(config.geocoder.dataPath, items) : null,
    }
  } finally {
    store.close()
  }
}

/** The embedded resolver's own time over the items' addresses, in turn, without the cache. */
function resolverAlone(dataPath: string, items: { raw: unknown }[]): number {
  const geocoder = openEmbeddedGeocoder(dataPath)
  const t = performance.now()
  for (const item of items) {
    const address = (item.raw as { address?: unknown }).address
    if (typeof address === 'string') geocoder.lookup(address)
  }
  const ms = performance.now() - t
  geocoder.close()
  return ms
}
