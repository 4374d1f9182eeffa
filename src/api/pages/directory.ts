// A locator's store directory: its published stores by country and town, the town named as its
// store page names it (its address's city), read from one snapshot a slice at a time and kept
// until the locator's next write. Store pages, the directory's pages and the sitemap share it.
import { slugOf } from '../../core/slug'
import { nameKey, nameOrderKey } from '../../core/text'
import type { IndexRegistry } from '../../indexes/registry'
import type { Store } from '../../store'
import type { PlacedName } from '../../store/locations'
import type { Locator } from '../../store/locators'
import { eachSlice } from '../../store/snapshot'
import type { PageDeps } from './deps'

/**
 * The slug of the place that holds the stores of no known country, or of no known town in theirs
 * (a point at sea, a town the data does not know, an address never placed). No country code or
 * slugOf makes it: they hold no "_".
 */
export const OTHER = '_other'

/** A town's stores: `name` is null for OTHER; `stores` as read, storesOf puts them in name order. */
export type DirectoryTown = { slug: string; name: string | null; stores: TownStore[]; sorted: boolean }
type TownStore = { id: string; name: string }

/** A country's towns in name order, OTHER last; `code` is null for OTHER. */
export type DirectoryCountry = {
  slug: string
  code: string | null
  count: number
  towns: DirectoryTown[]
  town: Map<string, DirectoryTown>
}

/** `single`: the only country, when there is one (its towns are the directory's first page). */
export type Directory = {
  countries: DirectoryCountry[]
  country: Map<string, DirectoryCountry>
  single: DirectoryCountry | null
  count: number
}

/** A country code's slug: "FR" -> "fr"; OTHER for none, or anything but two letters. */
export const countrySlug = (code: string | null | undefined): string =>
  typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toLowerCase() : OTHER

/** A town's slug: slugOf its name; OTHER for none, or one of no letter or digit. */
export const townSlug = (city: string | null | undefined): string =>
  typeof city === 'string' && nameKey(city) !== '' ? slugOf(city) : OTHER

/** `items` in the order of their keys. */
const byKey = <T>(items: T[], key: (item: T) => string): T[] => {
  const keyed = items.map((item) => ({ item, k: key(item) }))
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
  return keyed.map((x) => x.item)
}

/** A directory made slice by slice: `add` each slice of rows, then `done`. */
function directoryMaker() {
  // country slug -> town slug -> its spellings (by count) and stores.
  const grouped = new Map<string, Map<string, { names: Map<string, number>; stores: TownStore[] }>>()
  // Town slugs by the name they are made of: a few thousand towns among many more rows.
  const slugs = new Map<string | null, string>()
  let count = 0
  const add = (rows: PlacedName[]) => {
    for (const row of rows) {
      const c = countrySlug(row.country)
      let t = slugs.get(row.city)
      if (t === undefined) slugs.set(row.city, (t = townSlug(row.city)))
      let towns = grouped.get(c)
      if (towns === undefined) grouped.set(c, (towns = new Map()))
      let town = towns.get(t)
      if (town === undefined) towns.set(t, (town = { names: new Map(), stores: [] }))
      if (t !== OTHER) town.names.set(row.city!, (town.names.get(row.city!) ?? 0) + 1)
      town.stores.push({ id: row.id, name: row.name })
      count++
    }
  }
  const done = (): Directory => {
    const countries: DirectoryCountry[] = []
    for (const [slug, groups] of grouped) {
      const towns: DirectoryTown[] = []
      let stores = 0
      for (const [t, g] of groups) {
        stores += g.stores.length
        // Its most written spelling: "Saint-Denis" over a lone "Saint Denis" of the same slug.
        const name = t === OTHER ? null : [...g.names].reduce((a, b) => (b[1] > a[1] ? b : a))[0]
        towns.push({ slug: t, name, stores: g.stores, sorted: false })
      }
      const ordered = byKey(towns, (t) => (t.name === null ? '\uffff' : `${nameOrderKey(t.name)}\u0000${t.slug}`))
      const code = slug === OTHER ? null : slug.toUpperCase()
      countries.push({ slug, code, count: stores, towns: ordered, town: new Map(ordered.map((t) => [t.slug, t])) })
    }
    const ordered = byKey(countries, (c) => (c.code === null ? '\uffff' : c.slug))
    return {
      countries: ordered,
      country: new Map(ordered.map((c) => [c.slug, c])),
      single: ordered.length === 1 ? ordered[0]! : null,
      count,
    }
  }
  return { add, done }
}

/** Rows a slice when a directory is made: a few milliseconds each, the event loop free between. */
const SLICE = 2000

/** The directory of the locator's published rows, read from one snapshot a slice at a time. */
async function makeDirectory(store: Store, locatorId: string): Promise<Directory> {
  const snapshot = store.snapshot()
  try {
    const maker = directoryMaker()
    await eachSlice(snapshot, SLICE, (after, limit) => snapshot.placedNames(locatorId, after, limit), maker.add)
    return maker.done()
  } finally {
    snapshot.close()
  }
}

/**
 * A town's stores in the order of their names, numbers as numbers ("Store 2" before "Store 10"),
 * ties by id: sorted on first use, as only the towns whose pages are asked for need it.
 */
export function storesOf(town: DirectoryTown): readonly TownStore[] {
  if (!town.sorted) {
    town.stores = byKey(town.stores, (s) => `${nameOrderKey(s.name)}\u0000${s.id}`)
    town.sorted = true
  }
  return town.stores
}

/** A locator's directory as made (or being made) for its written `version` (registry.writtenVersion). */
export type DirectoryAt = { version: string; directory: Promise<Directory> }

/** Directories kept: the last made (or being made) of each locator, for as long as its written version holds. */
const made = new WeakMap<IndexRegistry, Map<string, DirectoryAt>>()
/** At most this many locators' directories are kept per registry; the longest unused goes first. */
const KEPT = 16

/**
 * The locator's directory as of its last write: made once per write (requests meanwhile wait for
 * the same one), then kept. A page's ETag takes its `version`: a write that commits while it is
 * made is in the next one's, never under an ETag of the page without it.
 */
export function directoryOf(deps: PageDeps, locator: Locator): DirectoryAt {
  const version = deps.registry.writtenVersion(locator.id)
  let kept = made.get(deps.registry)
  if (kept === undefined) made.set(deps.registry, (kept = new Map()))
  const found = kept.get(locator.id)
  kept.delete(locator.id)
  if (found !== undefined && found.version === version) {
    kept.set(locator.id, found)
    return found
  }
  const entry = { version, directory: makeDirectory(deps.store, locator.id) }
  kept.set(locator.id, entry)
  // A failed read is not kept: the next request tries again.
  entry.directory.catch(() => {
    if (kept.get(locator.id) === entry) kept.delete(locator.id)
  })
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!)
  return entry
}
