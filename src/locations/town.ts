// A location's town from the embedded data: the address parts its address did not yield, by a
// reverse lookup at its point, and the words of its town's names, which keyword search matches
// ("Cologne" finds a store in Köln).
import type { PlaceSource } from '../geocode/embedded/place-source'
import type { ReverseLookup, Reversed } from '../geocode/embedded/reverse'
import type { Store } from '../store'
import { samePoint, unplacedRecord } from '../store/location-compare'
import { type AddressParts, type LocationRecord, REVERSE_SOURCE } from '../store/locations'

export { REVERSE_SOURCE }

/** The reverse lookup a write uses; resolves to null when the service has no place data (GEOCODER=none). */
export type TownSource = () => Promise<ReverseLookup | null>

/** The reverse lookup of a place source (read from its data file on first use). */
export const townsFrom =
  (places: PlaceSource | null): TownSource =>
  async () =>
    places === null ? null : places.reverse()

const ALL: (keyof AddressParts)[] = ['city', 'postcode', 'region', 'country']
/** The parts a geocoded point of each precision may take from the lookup: none finer than the point. */
const FILLABLE: Record<string, (keyof AddressParts)[]> = {
  rooftop: ALL,
  street: ALL,
  postcode: ['city', 'region', 'country'],
  city: ['region', 'country'],
}

/** What placeRecord asks of the reverse lookup. */
export type TownLookup = Pick<ReverseLookup, 'writtenAt' | 'townNamed' | 'nameIn' | 'namesOf'>

/** The town an address names at a point, as writtenAt answered it: a bulk import's checks looked it up. */
export type KnownTown = { lat: number; lng: number; address: string; town: Reversed | null }

/**
 * `towns`, answering writtenAt at `known`'s point and address without a second lookup: at a point
 * samePoint to it too, as a write keeps the stored point for one a sheet rounded (service.ts).
 */
export function withKnownTown(towns: ReverseLookup, known: KnownTown): TownLookup {
  return {
    writtenAt: (lat, lng, address) =>
      samePoint({ lat, lng }, known) && address === known.address ? known.town : towns.writtenAt(lat, lng, address),
    townNamed: (name, lat, lng) => towns.townNamed(name, lat, lng),
    nameIn: (id, name, address) => towns.nameIn(id, name, address),
    namesOf: (id) => towns.namesOf(id),
  }
}

/** Whether the location's coordinates were sent, not geocoded: its parts are all the lookup's to give. */
export const pinned = (r: LocationRecord) => r.geocoding === null || r.geocoding.source === REVERSE_SOURCE

/**
 * `record` with its address parts completed, its town named as its address writes it, and its
 * town's names, by `towns`: the parts its address did not yield, each no finer than its point
 * (the town the address names where its reach holds the point, a postcode the address writes),
 * never from another country than the parts say. For coordinates sent, the parts are all the
 * lookup's, and `geocoding` says how it found them (`{precision: "postcode" | "city", source:
 * "reverse"}`; null where no town is near), unless a moved pin keeps its address's parts: then
 * it stays null.
 */
export function placeRecord(record: LocationRecord, towns: TownLookup): LocationRecord {
  const pin = pinned(record)
  const fromPoint = pin && (record.geocoding !== null || Object.keys(record.addressParts).length === 0)
  const fillable = pin ? ALL : (FILLABLE[record.geocoding!.precision] ?? [])
  const parts: AddressParts = { ...record.addressParts }
  const found = pin || fillable.some((k) => !parts[k]) ? towns.writtenAt(record.lat, record.lng, record.address) : null
  if (found !== null && (!parts.country || parts.country === found.parts.country))
    for (const k of fillable) if (!parts[k] && found.parts[k]) parts[k] = found.parts[k]
  const geocoding = !pin
    ? record.geocoding
    : fromPoint && found !== null
      ? { precision: found.precision, source: REVERSE_SOURCE }
      : null
  const town = parts.city ? towns.townNamed(parts.city, record.lat, record.lng) : -1
  // Named as the address writes it: "München" where the lookup or the geocoder said Munich.
  if (town !== -1) parts.city = towns.nameIn(town, parts.city!, record.address)
  return { ...record, addressParts: parts, geocoding, townNames: town === -1 ? '' : towns.namesOf(town) }
}

/** `next` placed by `towns` when there are, else as unplacedRecord says. */
export const placed = (next: LocationRecord, current: LocationRecord | null, towns: TownLookup | null) =>
  towns === null ? unplacedRecord(next, current) : placeRecord(next, towns)

/** Rows placed in one transaction: at most about 0.1 ms a row, a few ms of the event loop at a time. */
const PLACE_BATCH = 50

/**
 * Places the rows whose town is not looked up yet (written before migration 10, by the demo
 * loader, or while the place data could not be read), a batch per shared commit, keeping their
 * updated_at. Returns how many it placed.
 */
export async function placeUnplaced(store: Store, towns: ReverseLookup, stopped: () => boolean = () => false) {
  let after = ''
  let placedRows = 0
  while (!stopped()) {
    const rows = await store.writeSoon(() => {
      const batch = store.locations.unplaced(after, PLACE_BATCH)
      for (const current of batch) store.locations.replace(placeRecord(current, towns), current)
      return batch
    })
    if (rows.length === 0) break
    after = rows.at(-1)!.id
    placedRows += rows.length
  }
  return placedRows
}
