// What the embedded geocoder's tests share: the geocoder on its real compiled data, built once
// into data/ as on first start.
import { beforeAll } from 'bun:test'
import {
  DEFAULT_GEODATA_PATH,
  type EmbeddedGeocoder,
  ensureGeodata,
  openEmbeddedGeocoder,
} from '../../src/geocode/embedded'

export let geo: EmbeddedGeocoder

/** Registers, in the calling file, the hook that builds the data if need be and opens the geocoder. */
export function useEmbeddedGeocoder(): void {
  beforeAll(async () => {
    await ensureGeodata(DEFAULT_GEODATA_PATH)
    geo = openEmbeddedGeocoder(DEFAULT_GEODATA_PATH)
  }, 120_000)
}
