// A town and its district as a visitor types them into the place search: beside a dash or a
// space ("Köln-Ehrenfeld", "Hamburg St Pauli", read at the gaps town-splits.ts gives) or after a
// comma ("Ehrenfeld, Köln"). The district where the data has it near the town, else the town.
import { nameKey } from '../../core/text'
import { townKey } from './place-alike'
import type { PlaceHit } from './place-hit'
import { type Within, withinOf } from './place-within'
import { CITY_POPULATION, DISTRICT_KM, DISTRICT_TOWN_POPULATION, distanceKm, METROPOLIS, SUBURB_KM } from './near'
import { goesOnAfter } from './saint-names'
import { cutShortOf } from './place-joins'
import { dashSplits, spaceSplits, type TownSplit } from './town-splits'

/** A town's district as a visitor writes it (inTown): the places found in it, and the towns it names. */
export type District = { districts: PlaceHit[]; towns: PlaceHit[] }

/** What the reading asks of the place search (PlaceSearch). */
export type DistrictSource = {
  /** Every name and code of a region, to its regions (PlaceParts.regionKeys). */
  regionKeys: Map<string, string[]>
  /** The places a key names in `within`, best first (PlaceSearch.named). */
  named: (key: string, within: Within | null, codes: boolean) => PlaceHit[]
  /** The places a key begins as typed in `within`, without typos (PlaceSearch.search). */
  search: (key: string, within: Within | null) => PlaceHit[]
  /** Whether a key, or it without its last word, is some place's whole name. */
  isName: (key: string) => boolean
  /** Whether a key is some place's whole name. */
  isWholeName: (key: string) => boolean
}

/**
 * A town, a dash and its district ("Köln-Ehrenfeld", "Stuttgart-Bad Cannstatt"), as a text
 * that names no place whole: the longest head before a dash that names a town (inTown). With
 * no such dash, so beside a space ("Köln Ehrenfeld", "Hamburg St Pauli"), the head at most
 * TOWN_WORDS words and naming the town by its own name or the one it is meant by.
 */
export function hyphened(s: DistrictSource, text: string, bySpace: boolean): District | null {
  const dashed = splitAt(s, dashSplits(text))
  return dashed !== null || !bySpace ? dashed : spaced(s, text)
}

/** A town, a space and its district ("New York Manhattan"), as hyphened() reads it with no dash. */
export const spaced = (s: DistrictSource, text: string): District | null => splitAt(s, spaceSplits(text))

/** The first of `splits` whose head names a town, and its district after it (hyphened). */
function splitAt(s: DistrictSource, splits: Iterable<TownSplit>): District | null {
  for (const { head, rest, spaced } of splits) {
    const [town, district] = [nameKey(head), nameKey(rest)]
    // A head that is no place's whole name (nor one and a region, "portland or") names no town:
    // a binary search, not a search with typos for each of a hundred dashes ("a-a-a-..."). Beside
    // a space, a whole name only: "hamburg st" of "Hamburg St Pauli" is searched for no typos.
    if (!(spaced ? s.isWholeName(town) : s.isName(town))) continue
    // Beside a space, a region's or country's name of words after the town narrows it, as
    // after a comma ("San Jose Costa Rica", "Wellington New Zealand"), or each word does
    // ("Portland Oregon USA"): those towns are meant.
    const regions = s.regionKeys
    const within = spaced ? (withinOf(regions, [rest], false) ?? withinOf(regions, rest.split(/\s+/), false)) : null
    const there = within === null ? [] : s.named(town, within, false).filter((t) => t.exact)
    if (there.length > 0) return { districts: there, towns: there }
    // Beside a space, a district begun by "St." or "Saint" takes a town named by its own name:
    // "Hamburg St Pauli", but not Mons by "Mont" for "Mont St Michel". By the name it is meant
    // by, a city of CITY_POPULATION only: "München Schwabing" is Munich, "Bad Godesberg" is
    // not Badou, Togo, which "Bad" also names.
    const first = district.split(' ')[0]!
    const saint = spaced && (goesOnAfter(first) || /^(saint|sainte|sankt)$/.test(first))
    const meant = (t: PlaceHit) => !saint && t.meant === true && t.weight >= CITY_POPULATION
    const byName = (t: PlaceHit) => t.main || nameKey(t.label).startsWith(`${town} `) || meant(t)
    // Beside a space, a place the district only begins lies within SUBURB_KM: "Amsterdam Noord"
    // is not Noordwijkerhout, 30 km off, nor "Köln E" Erftstadt. After a dash, a place of its
    // own name and fewer than CITY_POPULATION does: a village 25 to 30 km off bears the name of a
    // district the data lacks ("Frankfurt-Griesheim", "München-Moosach"); a city is one of a
    // pair ("Köln-Bonn").
    const split = spaced
      ? inTown(s, district, town, null, DISTRICT_TOWN_POPULATION, byName, SUBURB_KM)
      : inTown(s, district, town, null, DISTRICT_TOWN_POPULATION, undefined, DISTRICT_KM, SUBURB_KM)
    // A city after the town that is no district of it is meant as much, beside a dash as a
    // space: "Dallas-Fort Worth" shows both, as "Dallas Fort Worth" does.
    if (split !== null && split.districts.length === 0)
      return { ...split, towns: [...split.towns, ...beside(s, district, split.towns)] }
    if (split !== null) return split
  }
  return null
}

/** Whether `key` names a place by its own name cut short of the word that joins it on ("Aix" of Aix-en-Provence). */
const cutShort = (h: PlaceHit, key: string): boolean => !h.main && cutShortOf(townKey(h.label), key)

/** A search within the countries of `towns`; `regions` as Within's (true: no region itself found). */
function inCountriesOf(towns: PlaceHit[], regions: boolean): Within {
  const countries = new Set(towns.map((t) => t.country))
  return { town: (c) => countries.has(c), country: (c) => countries.has(c), regions }
}

/**
 * The cities (CITY_POPULATION) the words after a town and a space or dash name whole in its country, by
 * their own name or it cut short, none its district: "Marseille Aix" names Aix-en-Provence too,
 * 25 km off, which a visitor may mean as much as Marseille; "Stuttgart Vaihingen" no Vaihingen
 * an der Enz, a small town; "Viçosa Ceará" no Fortaleza, by a name it shares with its state.
 */
function beside(s: DistrictSource, key: string, towns: PlaceHit[]): PlaceHit[] {
  return s
    .named(key, inCountriesOf(towns, false), false)
    .filter(
      (h) =>
        h.exact &&
        h.precision === 'city' &&
        (h.people ?? 0) >= CITY_POPULATION &&
        (h.main || cutShort(h, key)) &&
        !towns.some((t) => t.label === h.label),
    )
}

/**
 * A district of a town: the towns `town` names exactly in `within`, and the places within
 * DISTRICT_KM of one of them whose name is `district` or whose main name begins with it (no
 * typos; within `begunKm`; by its own name and of fewer than CITY_POPULATION, within `smallKm`),
 * best first. The data holds few districts: the town then stands for them. Null when `town`
 * names no town of `people` or more exactly that `fits`.
 */
export function inTown(
  s: DistrictSource,
  district: string,
  town: string,
  within: Within | null,
  people = 0,
  fits: (t: PlaceHit) => boolean = () => true,
  begunKm = DISTRICT_KM,
  smallKm = DISTRICT_KM,
): District | null {
  const towns = s
    .named(town, within, false)
    .filter((t) => t.exact && t.precision === 'city' && t.weight >= people && fits(t))
  if (towns.length === 0) return null
  // A place the district names whole by another name its own goes on from with a joining word
  // is named cut short, and lies within SUBURB_KM of a town of fewer than METROPOLIS people:
  // "Stuttgart Vaihingen" is not Vaihingen an der Enz, 23 km off; "London Kingston" is Kingston
  // upon Thames. Without one the name is the town's own: "Amsterdam Almere" is Almere Stad.
  const reach = (h: PlaceHit, t: PlaceHit) => {
    if (!h.exact) return begunKm
    if (cutShort(h, district)) return t.weight < METROPOLIS ? Math.min(begunKm, SUBURB_KM) : DISTRICT_KM
    return (h.people ?? 0) < CITY_POPULATION ? smallKm : DISTRICT_KM
  }
  return { districts: placesNear(s, district, towns, reach), towns }
}

/**
 * The places `key` names whole or begins by its own name in the countries of `towns`, each
 * within `reach` of one of them (DISTRICT_KM unless told), best first.
 */
export function placesNear(
  s: DistrictSource,
  key: string,
  towns: PlaceHit[],
  reach: (h: PlaceHit, t: PlaceHit) => number = () => DISTRICT_KM,
): PlaceHit[] {
  return s
    .search(key, inCountriesOf(towns, true))
    .filter(
      (h) =>
        h.precision === 'city' &&
        (h.exact || h.main) &&
        towns.some((t) => distanceKm(t.lat, t.lng, h.lat, h.lng) <= reach(h, t)),
    )
    .sort((a, b) => a.tier - b.tier || b.weight - a.weight)
}
