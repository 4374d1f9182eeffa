// The embedded offline geocoder: the default. Reads the compiled SQLite file (see embedded/build.ts);
// never loads the gazetteer into JavaScript memory and never touches the network.
import type { Geocoder, GeocodeResult } from './geocoder'
import { DEFAULT_GEODATA_PATH, GEODATA_VERSION } from './embedded/build'
import { geodataVersion } from './embedded/ensure'
import { openGeodata } from './embedded/open'
import { resolver } from './embedded/resolve'

export { DEFAULT_GEODATA_PATH } from './embedded/build'
export { ensureGeodata, GeodataPathError } from './embedded/ensure'
export { GeodataDamagedError } from './embedded/open'

export type EmbeddedGeocoder = Geocoder & {
  /** The same answer as geocode(), synchronously. */
  lookup(address: string): GeocodeResult | null
  close(): void
}

export function openEmbeddedGeocoder(path: string = DEFAULT_GEODATA_PATH): EmbeddedGeocoder {
  const version = geodataVersion(path)
  if (version !== GEODATA_VERSION) {
    throw new Error(
      `The offline geocoder data at ${path} is ${version === null ? 'missing' : `of version ${version}`}; ensureGeodata() builds it.`,
    )
  }
  const db = openGeodata(path)
  const { lookup } = resolver(db)
  return {
    name: 'embedded',
    lookup,
    geocode: async (address) => lookup(address),
    close: () => db.close(),
  }
}
