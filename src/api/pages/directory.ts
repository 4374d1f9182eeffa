// A locator's store directory: its published stores by country and town, the town named as its
// stores' addresses most write it (told apart by region; spellings of one town joined), read from
// one snapshot a slice at a time and kept until the locator's next write. Store pages, the
// directory's pages and the sitemap share it.
import { regionIsCountry } from '../../core/directions'
import { slugOf } from '../../core/slug'
import { nameKey, nameOrderKey } from '../../core/text'
import type { Store } from '../../store'
import type { PlacedName } from '../../store/location-slicers'
import { regionSpellings } from '../../geocode/countries'
import type { Locator } from '../../store/locators'
import { eachSlice } from '../../store/snapshot'
import type { PageDeps } from './deps'
import { keptPerRegistry } from './kept'

/**
 * The slug of the place that holds the stores of no known country, or of no known town in theirs
 * (a point at sea, a town the data does not know, an address never placed). No country code or
 * slugOf makes it: they hold no "_".
 */
export const OTHER = '_other'

/**
 * A town's stores. `name`: as lists and titles show it, its region added when another town of its
 * country has its name ("Portland, ME"); `city` as its addresses write it ("Portland"); `region`:
 * the region its name shows; null for OTHER. `stores` as read: storesOf puts them in name order.
 */
export type DirectoryTown = {
  slug: string
  name: string | null
  city: string | null
  region: string | null
  stores: TownStore[]
  sorted: boolean
  /** The names (nameKey) two or more of its stores share: found on first use (hasNamesake). */
  sharedNames?: Set<string>
}
type TownStore = { id: string; name: string }

/**
 * A country's towns in name order, OTHER last; `code` is null for OTHER. `town`: by slug; `byKey`:
 * by townKey; `namesakes`: the towns of one name told apart by region, by the slug that name
 * alone makes (its page lists them); `spelt`: a town by the slug of another spelling its stores'
 * addresses write ("cologne" for Köln), where no town has that slug; `namesakesSpelt`: the slug
 * of namesakes' list by the one their name made with its umlauts folded ("muhlhausen").
 */
export type DirectoryCountry = {
  slug: string
  code: string | null
  count: number
  towns: DirectoryTown[]
  town: Map<string, DirectoryTown>
  byKey: Map<string, DirectoryTown>
  namesakes: Map<string, DirectoryTown[]>
  spelt: Map<string, DirectoryTown>
  namesakesSpelt: Map<string, string>
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

/** A town's slug: slugOf its name, spelt as German spells it out in a German-speaking country; OTHER for none, or one of no letter or digit. */
export const townSlug = (city: string | null | undefined, country?: string | null): string =>
  typeof city === 'string' && nameKey(city) !== '' ? placeSlug(city, country) : OTHER

/** The countries whose towns are written in German, where readers spell "München" "muenchen", not "munchen". */
const GERMAN = new Set(['DE', 'AT', 'CH', 'LI'])
const SPELT_OUT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ẞ: 'SS' }

/** slugOf a place's name, its umlauts and ß spelt out in a German-speaking country ("Köln" -> "koeln"). */
function placeSlug(name: string, country: string | null | undefined): string {
  if (!country || !GERMAN.has(country.toUpperCase())) return slugOf(name)
  return slugOf(name.normalize('NFC').replace(/[äöüßÄÖÜẞ]/g, (c) => SPELT_OUT[c]!))
}

/**
 * A region as towns are told apart by it: a US state, Canadian province or Australian state by
 * its code however written ("OR", "Oregon": "or"), another by its name folded; '' for none, and
 * for the country's own code or name ("MC", "Monaco" in Monaco: regionIsCountry).
 */
function regionKey(country: string | null | undefined, region: string | null | undefined): string {
  const key = typeof region === 'string' ? nameKey(region) : ''
  if (key === '' || typeof country !== 'string') return key
  const spellings = regionSpellings(country.toUpperCase(), region!)
  if (spellings.length === 0 && regionIsCountry(region!, country)) return ''
  return spellings.reduce((a, b) => (b.length < a.length || (b.length === a.length && b < a) ? b : a), key)
}

/** A town of a country as the directory keys it: its slug and region (OTHER alone for no town). */
export const townKey = (
  city: string | null | undefined,
  region: string | null | undefined,
  country?: string | null,
) => {
  const slug = townSlug(city, country)
  return slug === OTHER ? OTHER : `${slug}\u0000${regionKey(country, region)}`
}

/**
 * The town of the directory a store's address names, with its country: undefined when the
 * directory does not hold it (a store written since it was made).
 */
export function townOf(
  dir: Directory,
  address: { city?: string; region?: string; country?: string },
): { country: DirectoryCountry; town: DirectoryTown } | undefined {
  const country = dir.country.get(countrySlug(address.country))
  const town = country?.byKey.get(townKey(address.city, address.region, country.code))
  return town && { country: country!, town }
}

/** `items` in the order of their keys. */
const sortedBy = <T>(items: T[], key: (item: T) => string): T[] => {
  const keyed = items.map((item) => ({ item, k: key(item) }))
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
  return keyed.map((x) => x.item)
}

/**
 * A town's rows as read: its spellings and regions, by count, and its stores. `keys`: the
 * townKeys its rows were read under, `key` first (more than one when spellings were joined).
 */
type Group = {
  key: string
  keys: string[]
  names: Map<string, number>
  regions: Map<string, number>
  stores: TownStore[]
  /** The town names last joined by (PlacedName.townNames). */
  joined?: string
}

/** The most written of some spellings: "Saint-Denis" over a lone "Saint Denis" of the same slug. */
const mostWritten = (counts: Map<string, number>): string | null =>
  counts.size === 0 ? null : [...counts].reduce((a, b) => (b[1] > a[1] ? b : a))[0]

const count = (counts: Map<string, number>, text: string, n = 1) => counts.set(text, (counts.get(text) ?? 0) + n)

/** The townKey `key` was joined to, through the joins of its country ('key' itself when none). */
const rootOf = (joins: Map<string, string>, key: string): string => {
  let root = key
  for (let next = joins.get(root); next !== undefined; next = joins.get(root)) root = next
  return root
}

/** A country's groups with those `joins` joins made one: counts added, stores and keys together. */
function joined(groups: Iterable<Group>, joins: Map<string, string> | undefined): Group[] {
  if (joins === undefined) return [...groups]
  const byRoot = new Map<string, Group>()
  for (const g of groups) {
    const root = rootOf(joins, g.key)
    const into = byRoot.get(root)
    if (into === undefined) {
      byRoot.set(root, g)
      continue
    }
    into.keys.push(...g.keys)
    for (const [name, n] of g.names) count(into.names, name, n)
    for (const [region, n] of g.regions) count(into.regions, region, n)
    into.stores.push(...g.stores)
  }
  return [...byRoot.values()]
}

/** A directory made slice by slice: `add` each slice of rows, then `done`. */
function directoryMaker() {
  // country slug -> townKey -> its rows.
  const grouped = new Map<string, Map<string, Group>>()
  // Town keys by what they are made of: a few thousand towns among many more rows.
  const keys = new Map<string, Map<string | null, Map<string | null, string>>>()
  // country slug -> a town's names and region key -> the first townKey read with them. Another
  // townKey with the same is another spelling of that town ("Köln", "Cologne"): joined to it.
  const named = new Map<string, Map<string, string>>()
  // country slug -> townKey -> the townKey it is joined to (rootOf).
  const joins = new Map<string, Map<string, string>>()
  const join = (c: string, t: string, names: string) => {
    let byNames = named.get(c)
    if (byNames === undefined) named.set(c, (byNames = new Map()))
    const link = `${names}\u0000${t.slice(t.indexOf('\u0000') + 1)}`
    const first = byNames.get(link)
    if (first === undefined) byNames.set(link, t)
    if (first === undefined || first === t) return
    let country = joins.get(c)
    if (country === undefined) joins.set(c, (country = new Map()))
    const [a, b] = [rootOf(country, t), rootOf(country, first)]
    if (a !== b) country.set(a, b)
  }
  let total = 0
  const add = (rows: PlacedName[]) => {
    for (const row of rows) {
      const c = countrySlug(row.country)
      let cities = keys.get(c)
      if (cities === undefined) keys.set(c, (cities = new Map()))
      let regions = cities.get(row.city)
      if (regions === undefined) cities.set(row.city, (regions = new Map()))
      let t = regions.get(row.region)
      if (t === undefined) regions.set(row.region, (t = townKey(row.city, row.region, c === OTHER ? null : c)))
      let towns = grouped.get(c)
      if (towns === undefined) grouped.set(c, (towns = new Map()))
      let town = towns.get(t)
      if (town === undefined)
        towns.set(t, (town = { key: t, keys: [t], names: new Map(), regions: new Map(), stores: [] }))
      if (t !== OTHER && row.townNames && town.joined !== row.townNames) {
        town.joined = row.townNames // most rows of a town repeat its last row's names
        join(c, t, row.townNames)
      }
      if (t !== OTHER) count(town.names, row.city!)
      if (t !== OTHER && typeof row.region === 'string') count(town.regions, row.region)
      town.stores.push({ id: row.id, name: row.name })
      total++
    }
  }
  const done = (): Directory => {
    const countries = [...grouped].map(([slug, groups]) => countryOf(slug, joined(groups.values(), joins.get(slug))))
    const ordered = sortedBy(countries, (c) => (c.code === null ? '\uffff' : c.slug))
    return {
      countries: ordered,
      country: new Map(ordered.map((c) => [c.slug, c])),
      single: ordered.length === 1 ? ordered[0]! : null,
      count: total,
    }
  }
  return { add, done }
}

/**
 * A country of the directory from its towns' rows. A town keeps the slug of its name unless
 * another town of the country has that name too: then each of a region takes its region's after
 * it ("portland-or", "portland-me"; one of no region keeps "portland"), and is named with it.
 */
function countryOf(slug: string, groups: Group[]): DirectoryCountry {
  const code = slug === OTHER ? null : slug.toUpperCase()
  const bySlug = new Map<string, Group[]>()
  for (const g of groups) {
    const s = g.key === OTHER ? OTHER : townSlug(mostWritten(g.names), code)
    bySlug.set(s, [...(bySlug.get(s) ?? []), g])
  }
  const taken = new Set(bySlug.keys())
  const towns: DirectoryTown[] = []
  const byKey = new Map<string, DirectoryTown>()
  const namesakes = new Map<string, DirectoryTown[]>()
  // The slugs of a town's other spellings, null for one two towns write.
  const spellings = new Map<string, DirectoryTown | null>()
  const namesakesSpelt = new Map<string, string>()
  let stores = 0
  for (const [s, same] of bySlug) {
    const told = same.length > 1
    const made = sortedBy(same, (g) => g.key).map((g) => {
      stores += g.stores.length
      const city = mostWritten(g.names)
      const region = told ? mostWritten(new Map([...g.regions].filter(([r]) => regionKey(code, r) !== ''))) : null
      let own = s
      if (region !== null) {
        own = `${s}-${placeSlug(region, code)}`
        for (let n = 2; taken.has(own); n++) own = `${s}-${placeSlug(region, code)}-${n}`
        taken.add(own)
      }
      const town = {
        slug: own,
        name: region === null ? city : `${city}, ${region}`,
        city,
        region,
        stores: g.stores,
        sorted: false,
      }
      const spell = (slug: string) => spellings.set(slug, spellings.has(slug) ? null : town)
      for (const key of g.keys) {
        byKey.set(key, town)
        const spelt = key.slice(0, key.indexOf('\u0000'))
        if (spelt !== s) spell(spelt)
      }
      // Its slug with the umlauts folded away, as German towns had it before: links to it lead here.
      const folded = townSlug(city)
      if (folded !== s) spell(folded)
      const foldedOwn = region === null ? folded : `${folded}-${slugOf(region)}`
      if (foldedOwn !== own && foldedOwn !== folded) spell(foldedOwn)
      return town
    })
    towns.push(...made)
    if (told && made.every((t) => t.region !== null)) {
      namesakes.set(s, made)
      const folded = townSlug(made[0]!.city)
      if (folded !== s) namesakesSpelt.set(folded, s)
    }
  }
  const ordered = sortedBy(towns, (t) => (t.name === null ? '\uffff' : `${nameOrderKey(t.name)}\u0000${t.slug}`))
  const town = new Map(ordered.map((t) => [t.slug, t]))
  const spelt = new Map<string, DirectoryTown>()
  for (const [s, t] of spellings) if (t !== null && !town.has(s) && !namesakes.has(s)) spelt.set(s, t)
  return { slug, code, count: stores, towns: ordered, town, byKey, namesakes, spelt, namesakesSpelt }
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
    town.stores = sortedBy(town.stores, (s) => `${nameOrderKey(s.name)}\u0000${s.id}`)
    town.sorted = true
  }
  return town.stores
}

/** Whether two or more stores of the town have the name `name` has (as nameKey folds names). */
export function hasNamesake(town: DirectoryTown, name: string): boolean {
  if (town.sharedNames === undefined) {
    const seen = new Set<string>()
    town.sharedNames = new Set()
    for (const s of town.stores) {
      const key = nameKey(s.name)
      if (seen.has(key)) town.sharedNames.add(key)
      else seen.add(key)
    }
  }
  return town.sharedNames.has(nameKey(name))
}

/** A locator's directory as made (or being made) for its written `version` (registry.writtenVersion). */
export type DirectoryAt = { version: string; directory: Promise<Directory> }

/**
 * Directories kept per registry: the last made (or being made) of each locator, for as long as its
 * written version holds, a million stores in all (about 170 bytes a store). A directory weighs
 * its stores, and its own maps about as much as 10 more.
 */
const kept = keptPerRegistry<Directory>(1_000_000, (d) => d.count + 10)

/**
 * The locator's directory as of its last write: made once per write (requests meanwhile wait for
 * the same one), then kept. A page's ETag takes its `version`: a write that commits while it is
 * made is in the next one's, never under an ETag of the page without it.
 */
export function directoryOf(deps: PageDeps, locator: Locator): DirectoryAt {
  const version = deps.registry.writtenVersion(locator.id)
  return {
    version,
    directory: kept(deps.registry).get(locator.id, version, () => makeDirectory(deps.store, locator.id)),
  }
}
