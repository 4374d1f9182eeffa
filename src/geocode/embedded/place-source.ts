// The place search of a data file, made once per process: in a worker thread at the start
// (warm), or on first use; and the reverse lookup over the same file.
import { GEODATA_VERSION } from './build'
import { GeodataDamagedError, metElsewhere, openGeodata } from './open'
import { buildPlaceParts, type PlaceParts } from './place-parts'
import { PlaceSearch } from './places'
import { RESOLVER_VERSION } from './resolve'
import { type ReverseLookup, reverseLookupAt } from './reverse'

/** What places-worker.ts posts back. */
export type PlacesMessage = { kind: 'done'; parts: PlaceParts } | { kind: 'failed'; message: string; damaged: boolean }

/** The place search over the geocoder's data file at `path`, shared by every caller in the process. */
export type PlaceSource = {
  /** The search; made now (blocking about a second) if warm() was not asked. Throws PlacesWarming while warm() runs. */
  (): PlaceSearch
  /** Makes it in a worker thread, off the event loop; resolves when it is ready (true) or failed (false: then the next call makes it). */
  warm(): Promise<boolean>
  /** Where a point is, from the same data (reverse.ts): made on first use, in about 0.2 s. */
  reverse(): ReverseLookup
  /** What its answers rank by besides the text: the data's version and the resolver's (RESOLVER_VERSION). */
  version: string
}

/** Asked for while warm() builds it: a moment later it answers. */
export class PlacesWarming extends Error {}

const sources = new Map<string, PlaceSource>()

export function placeSearchAt(path: string): PlaceSource {
  const known = sources.get(path)
  if (known !== undefined) return known
  let made: PlaceSearch | null = null
  let warming: Promise<boolean> | null = null
  // A damaged file stays so until it is built again (a restart): said at once, not read again per request.
  let damaged: GeodataDamagedError | null = null
  const source = (() => {
    if (made !== null) return made
    if (damaged !== null) throw damaged
    if (warming !== null) throw new PlacesWarming('The place data is being read; retry in a moment.')
    const db = openGeodata(path)
    try {
      made = new PlaceSearch(buildPlaceParts(db))
    } catch (e) {
      if (e instanceof GeodataDamagedError) damaged = e
      throw e
    } finally {
      db.close()
    }
    return made
  }) as PlaceSource
  source.warm = () =>
    (warming ??= new Promise<boolean>((resolve) => {
      if (made !== null) return resolve(true)
      const worker = new Worker(new URL('./places-worker.ts', import.meta.url))
      const done = () => {
        worker.terminate()
        warming = null
        resolve(made !== null)
      }
      worker.onmessage = (event: MessageEvent<PlacesMessage>) => {
        if (event.data.kind === 'done') made = new PlaceSearch(event.data.parts)
        else if (event.data.damaged) damaged = metElsewhere(event.data.message) // said now, not read again
        done()
      }
      worker.onerror = done
      worker.postMessage(path)
    }))
  source.reverse = () => reverseLookupAt(path)
  source.version = `${GEODATA_VERSION}.${RESOLVER_VERSION}`
  sources.set(path, source)
  return source
}
