// An address placed by the names of the places it holds: the town, then a suburb or district
// of it named too.
import type { GeocodeResult } from '../geocoder'
import { nameKey } from '../../core/text'
import { clean, type Parsed, type Window } from './address-read'
import { shortWords } from './place-alike'
import {
  CITY_POPULATION,
  DISTRICT_KM,
  DISTRICT_TOWN_POPULATION,
  distanceKm,
  METROPOLIS,
  SHARED_NAME_POPULATION,
  SUBURB_KM,
} from './near'
import { cutShortOf, joinedName } from './place-joins'
import { fortMountWritten, saintWritten } from './saint-names'
import type { PlaceRow, Queries } from './resolve-data'
import { regionLabel } from './tables'

/** A town of at least TOWN_POPULATION named before a place this close is the town, the other its province ("Marbella, Málaga"). */
const PROVINCE_KM = 100
const TOWN_POPULATION = 5000
/** Refuse when a same-named place in another country has at least half the best one's weight: bare "Barcelona" (Spain 1.6M, Venezuela 0.8M) or "Salamanca" (Mexico 273k, Spain 156k). With the country added, both resolve. */
const AMBIGUITY_RATIO = 2
/**
 * A name several towns of note bear as another name weighs their people divided by this and by
 * their count, as the place search weighs it: below a town whose own name it is ("Saint Charles"
 * is Saint Charles, MO, not Denver, once St. Charles).
 */
const OLD_NAME_SHARE = 10

/** The most words a name is read in with a joining word put in: "Las Palmas Gran Canaria". */
const JOINED_WORDS = 4

type Candidate = { place: PlaceRow; window: Window }

/** The address placed by the names of places it holds, in `country` when one is known. */
export function byPlaceName(q: Queries, a: Parsed, country: string | null): GeocodeResult | null {
  const { parts, explicit, codeAlso, street, hints } = a
  // A hint with no admin1 ("Cornwall", "Andalucía") names only the country.
  const fits = (c: Candidate) =>
    hints.some((h) => h.country === c.place.country && (h.admin1 === '' || h.admin1 === c.place.admin1))
  let { candidates, districts } = candidatesOf(q, a, country, false)
  // A region named that no town found fits may fit a name's short words written out: "Ft Lee NJ"
  // is Fort Lee, NJ, though the data has "Ft Lee" only as Fort Lee, VA's other name.
  if (hints.length > 0 && !candidates.some(fits)) {
    const written = candidatesOf(q, a, country, true)
    if (written.candidates.some(fits)) ({ candidates, districts } = written)
  }
  if (candidates.length === 0) return null
  const regionWindow = (c: Candidate) =>
    hints.some((h) => h.whole && h.key === c.window.key && h.part === c.window.part)
  // A region's name that is a town's too is that town where no town named whole fits the region
  // and one named whole before it lies near it: "Newport News, Norfolk" is Virginia's, not
  // Newport, Wales, named by a word of it.
  const townNotRegion =
    !candidates.some((c) => c.window.whole && fits(c) && !regionWindow(c)) &&
    candidates.some((t) => regionWindow(t) && candidates.some((c) => townBefore(c, t)))
  // The last part is wholly a region's name ("..., New Jersey", "..., Norfolk"), named in place of
  // a country: a town found elsewhere is a namesake, not the address's (refused, as a named
  // country is never left). A code ("Berlin, DE") may still be read as a country, below.
  // So is a region's code in capitals that ends a one-part address ("St Marys NSW").
  const last = parts.length === 1 ? (parts[0]!.tokens.at(-1) ?? '') : ''
  const codeLast = /^\p{Lu}{2,3}$/u.test(last) && hints.some((h) => h.key === nameKey(last))
  if (
    explicit === null &&
    codeAlso === null &&
    ((parts.length > 1 && hints.some((h) => h.whole)) || codeLast) &&
    !candidates.some(fits) &&
    !townNotRegion
  )
    return null
  if (hints.length > 0 && candidates.some(fits) && !townNotRegion) {
    const narrowed = candidates.filter(fits)
    // A town named whole outside a region named by its letters (a country's too) is not left for
    // one in it named by some words of a part: "Vitoria-Gasteiz, ES" is not Vitória, Brazil.
    const byLetters = hints.every((h) => h.key.length === 2)
    if (
      byLetters &&
      !narrowed.some((c) => c.window.whole) &&
      candidates.some((c) => c.window.whole && !regionWindow(c))
    )
      return null
    // A window that is only the region's own name ("Texas" in "Paris, Texas") is not the town.
    const notRegion = narrowed.filter((c) => !regionWindow(c))
    candidates = notRegion.length > 0 ? notRegion : narrowed
  } else if (townNotRegion) {
    // The town is the one near the region's namesake: "Salem, Essex" is Salem, MA, not India's.
    candidates = candidates.filter((c) => candidates.some((t) => regionWindow(t) && townBefore(c, t)))
  } else if (codeAlso && explicit === null) {
    // "Berlin, DE" is not Delaware: read the code as a country instead.
    const code = q.countryOf(codeAlso.toLowerCase())
    const inCountry = candidates.filter((c) => c.place.country === code)
    if (inCountry.length > 0) candidates = inCountry
  }
  // The town: a part that is wholly a place name beats a word inside a longer part ("Torre de
  // Belém, Lisboa" is in Lisbon), then the most populous, so a county ("Bath, Somerset") is not
  // taken for the town.
  candidates.sort(
    (a, b) =>
      Number(b.window.whole) - Number(a.window.whole) ||
      b.place.weight - a.place.weight ||
      b.window.len - a.window.len ||
      b.window.part - a.window.part,
  )
  // A town by its own name with its district after its space or dash is read before a heavier
  // place named by the district's words alone, as the place search reads it: "Tampa St
  // Petersburg" is St. Petersburg, Florida, 26 km from Tampa, not Russia's.
  const first = candidates[0]!
  const paired = (c: Candidate) =>
    c.window.whole === first.window.whole && c.place.alt === 0 && districtAfter(c, districts)
  let best = districtAfter(first, districts) ? first : (candidates.find(paired) ?? first)
  // A town before a dash is its namesake of the country where the words after the dash are a
  // town's own name (DISTRICT_TOWN_POPULATION): "Lincoln-Kingston upon Hull" is no Lincoln, Nebraska.
  const namesAfter = (c: Candidate) =>
    districts.some(
      (d) =>
        d.window.after !== undefined &&
        d.place.alt === 0 &&
        d.place.population >= DISTRICT_TOWN_POPULATION &&
        after(d, c),
    )
  if (best.window.dashed && !namesAfter(best))
    best = candidates.find((c) => c.window === best.window && namesAfter(c)) ?? best
  // A town named whole before the town, the most populous of its name, that lies near a namesake
  // of the town tells the namesake where no town of its name lies near the town: "Sunderland,
  // Durham" is in County Durham (Sunderland lies 18 km from Durham, England), not Durham, NC;
  // "Cambridge, Boston" stays by Boston, MA, though Cambridge, England lies near Boston, England.
  const nearOwn = (t: Candidate) => candidates.some((c) => townBefore(c, t) && heaviest(c, candidates))
  // By its own name, or by another as a suburb of it (SUBURB_KM), as read below: Lambeth, also
  // named "Waterloo", keeps "Waterloo, London" in London; Waterlooville, 100 km off, would not.
  const suburb = (c: Candidate, t: Candidate) =>
    distanceKm(c.place.lat, c.place.lng, t.place.lat, t.place.lng) <= SUBURB_KM
  const nearAny = (t: Candidate) => candidates.some((c) => townBefore(c, t) && (c.place.alt === 0 || suburb(c, t)))
  if (!nearAny(best) && districtAfter(best, districts) === null)
    best = candidates.find((t) => t.window === best.window && nearOwn(t)) ?? best
  // Nothing tells the country and a namesake abroad is nearly as big ("Salamanca": Mexico or
  // Spain?): refuse rather than guess.
  if (country === null && !fits(best) && !nearOwn(best) && rivalAbroad(best, candidates, districts)) return null
  // A place named before it is more precise: a suburb of the town ("Bondi Beach, Sydney"), or a
  // town in a province named after its capital ("Marbella, Málaga").
  const town = best
  // The district after the town's dash or space ("Wien-Favoriten") is the most precise of all.
  const district = districtAfter(town, districts)
  if (district) best = district
  else if (besideCity(town, candidates, districts, a.windows)) return null
  const suburbs = candidates
    .filter(
      (c) => c.window.part < town.window.part && c.place.id !== town.place.id && c.place.country === town.place.country,
    )
    .filter((c) => {
      const km = distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng)
      // Farther, a town by its own name or its first words ("Halle" of Halle (Saale)):
      // Waterlooville, also "Waterloo", is no London's.
      const named = c.place.alt === 0 || nameKey(c.place.name).startsWith(`${c.window.key} `)
      const own = c.window.whole && named && c.place.population >= TOWN_POPULATION
      return km <= SUBURB_KM || (own && km <= PROVINCE_KM)
    })
    .sort(
      (a, b) =>
        b.window.part - a.window.part ||
        Number(b.window.whole) - Number(a.window.whole) ||
        b.window.len - a.window.len ||
        b.place.weight - a.place.weight,
    )
  if (!district && suburbs.length > 0) best = suburbs[0]!
  return {
    lat: best.place.lat,
    lng: best.place.lng,
    precision: 'city',
    source: 'embedded',
    parts: clean({
      street,
      city: best.place.name,
      region: regionLabel(best.place.country, best.place.admin1),
      country: best.place.country,
    }),
  }
}

/**
 * The places the address's windows name, as candidates for its town and for a district after its
 * town's dash; `spelledOut`: with each window's short words written out too (placesNamed).
 */
function candidatesOf(
  q: Queries,
  a: Parsed,
  country: string | null,
  spelledOut: boolean,
): { candidates: Candidate[]; districts: Candidate[] } {
  const candidates: Candidate[] = []
  const districts: Candidate[] = []
  for (const w of a.windows) {
    const rows = placesNamed(q, w.key, country, spelledOut, w.opens === true)
    // A name several towns of note and of other names bear as another name is an old one they
    // shared ("Newtown": Tallahassee, Hartford, Macon...): each weighs a share of it, below the
    // towns it names. Not two towns of one name ("Datun": Datong, the city and the county).
    // A town's own name written or cut short is not one it shares ("St. Charles" of Saint
    // Charles, "Santa Cruz" of Santa Cruz de la Sierra), though other towns once bore it.
    const short = shortWords(w.key)
    // A town's own name written short is its name where it outnumbers the places whose name it is
    // as written: "St. Helier" is Saint Helier, Jersey, not the London district; "St. Louis" stays
    // St. Louis, MO, before Saint-Louis, Senegal.
    // A name written out ("Saint Louis") is not so read: it is St. Louis's, and Saint-Louis's own.
    const written = Math.max(0, ...rows.filter((r) => r.alt === 0).map((r) => r.weight))
    if (short === w.key)
      for (const r of rows)
        if (r.alt === 1 && r.population > written && shortWords(nameKey(r.name)) === short) r.weight = r.population
    const oldName = (r: PlaceRow) => {
      const own = shortWords(nameKey(r.name))
      return r.alt === 1 && own !== short && !own.startsWith(`${short} `)
    }
    const sharers = new Set(rows.filter((r) => oldName(r) && r.population >= SHARED_NAME_POPULATION).map((r) => r.name))
      .size
    if (sharers >= 2) for (const r of rows) if (oldName(r)) r.weight = r.population / (OLD_NAME_SHARE * sharers)
    for (const place of rows)
      if (w.district) districts.push({ place, window: w })
      else if (!w.dashed || place.population >= DISTRICT_TOWN_POPULATION) candidates.push({ place, window: w })
  }
  // Words after a town's dash that name a place are its name, and fewer of them name no town
  // alone: "Paulista" of "Taboão da Serra-Várzea Paulista" is no Paulista, Pernambuco.
  const named = districts.filter((d) => d.window.after !== undefined)
  // Nor do fewer of the words before it that name the town: "Rio Claro-Paulínia" is no Rio de Janeiro.
  const towns = candidates.filter((c) => c.window.dashed)
  const inNamed = ({ window: w }: Candidate) =>
    named.some(({ window: d }) => {
      const { from, to, words } = d.after!
      return d.part === w.part && from <= w.start && w.start + w.len <= to && w.len < words
    }) ||
    towns.some(
      ({ window: t }) => t.part === w.part && t.start <= w.start && w.start + w.len <= t.start + t.len && w.len < t.len,
    )
  // Nor a district: "Miami" of "Hollywood-Miami Gardens" is no district of Hollywood, Florida.
  const inNamedDistrict = ({ window: w }: Candidate) =>
    w.after === undefined &&
    named.some(({ window: d }) => d.part === w.part && d.start === w.start && d.town === w.town)
  return {
    candidates: named.length + towns.length === 0 ? candidates : candidates.filter((c) => !inNamed(c)),
    districts: named.length === 0 ? districts : districts.filter((d) => !inNamedDistrict(d)),
  }
}

/**
 * Whether `c` is a town named whole in a part before `town`'s, by other words ("Washington,
 * Washington" names no town before Washington), of its country and near it (PROVINCE_KM).
 */
const townBefore = (c: Candidate, town: Candidate): boolean =>
  c.window.whole &&
  c.window.key !== town.window.key &&
  c.window.part < town.window.part &&
  c.place.country === town.place.country &&
  c.place.population >= TOWN_POPULATION &&
  distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng) <= PROVINCE_KM

/** Whether no place its window names outweighs `c`'s. */
const heaviest = (c: Candidate, candidates: Candidate[]): boolean =>
  !candidates.some((o) => o.window === c.window && o.place.weight > c.place.weight)

/**
 * The places `key` names, in `country` when one is known; when none, with "St." or "Ste." first
 * written out, as the data has most such names: "St. Wendel" is Sankt Wendel, "St. Ingbert"
 * Sankt Ingbert (not Stiring-Wendel by its other name "Wendel"); "Ft." and "Mt." written out
 * too where it names some ("Mt Vernon"); else, `joins` (a window that begins a run of names),
 * with a joining word put in (joinedName). `written`: every short word written out too, whether
 * or not the key as written names some place.
 */
function placesNamed(q: Queries, key: string, country: string | null, written: boolean, joins: boolean): PlaceRow[] {
  const named = (k: string) => (country ? q.qPlacesIn.all(k, country) : q.qPlaces.all(k))
  const rows = named(key)
  const add = (k: string) => {
    const ids = new Set(rows.map((r) => r.id))
    for (const r of named(k)) if (!ids.has(r.id) && ids.add(r.id)) rows.push(r)
  }
  if (written) {
    for (const k of saintWritten(key)) add(k)
    return rows
  }
  // "Mt Vernon" is every Mount Vernon, not only the one the data also names so (fortMountWritten).
  const fortMount = fortMountWritten(key)
  if (rows.length > 0 && fortMount !== null) add(fortMount)
  if (rows.length > 0) return rows
  for (const written of saintWritten(key)) {
    const found = named(written)
    if (found.length > 0) return found
  }
  // A town's name without the word that joins it to a river's, or with another ("Stratford
  // Avon", "Kingston on Thames"), as the place search reads it (place-joins.ts); its words
  // before the join a name of their own, as the data holds such names cut short ("Stratford").
  const joined = joins ? joinedKey(q, key) : null
  return joined === null ? rows : named(joined)
}

/**
 * The name `key` writes with its joining word left out or another in its place (joinedName),
 * its words before the join a name of their own; null when none, or it has more than
 * JOINED_WORDS words.
 */
export function joinedKey(q: Queries, key: string): string | null {
  const words = key.split(' ').length
  const head = (k: string) => q.named(k.trimEnd()) && q.begins(k)
  return words > 1 && words <= JOINED_WORDS ? joinedName(key, q.named, head) : null
}

/**
 * Whether a namesake of `town` in another country is nearly as big (AMBIGUITY_RATIO). A district
 * after the town tells its country, unless a namesake has one so named after it too, the one
 * pair nearly as big as the other: "Cambridge Boston" is Massachusetts's, "Newcastle-Gateshead"
 * either England's or New South Wales's.
 */
function rivalAbroad(town: Candidate, candidates: Candidate[], districts: Candidate[]): boolean {
  const own = districtAfter(town, districts)
  const near = (a: Candidate, b: Candidate) => a.place.weight * AMBIGUITY_RATIO >= b.place.weight
  return candidates.some((c) => {
    const w = c.window
    if (c.place.country === town.place.country || w.whole !== town.window.whole || w.key !== town.window.key)
      return false
    if (own === null) return near(c, town)
    const other = districtAfter(c, districts)
    return other !== null && (near(c, town) || near(other, own))
  })
}

/**
 * The heaviest place named after the town's own dash or space within districtReach of it;
 * beside a space, of a town of DISTRICT_TOWN_POPULATION, as the place search reads one
 * (place-districts.ts).
 */
function districtAfter(town: Candidate, districts: Candidate[]): Candidate | null {
  let best: Candidate | null = null
  for (const c of districts) {
    if (!after(c, town)) continue
    if (!town.window.dashed && town.place.population < DISTRICT_TOWN_POPULATION) continue
    if (distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng) > districtReach(c, town)) continue
    if (best === null || c.place.weight > best.place.weight) best = c
  }
  return best
}

/** Whether `c` is another place of the town's country, named after the town's own dash or space. */
function after({ place, window: w }: Candidate, town: Candidate): boolean {
  const t = town.window
  return (
    w.town === t.key &&
    w.part === t.part &&
    w.start === t.start &&
    place.country === town.place.country &&
    place.id !== town.place.id
  )
}

/**
 * How far from its town a place named after it may lie and be its district, as the place search
 * reads one (place-districts.ts inTown): DISTRICT_KM ("Köln Bonn" is Bonn, 24 km off), SUBURB_KM
 * by a name cut short of its join beside a town of fewer than METROPOLIS ("Stuttgart Vaihingen"
 * is no Vaihingen an der Enz, 23 km off; "London Kingston" is Kingston upon Thames), and after a
 * dash for a place of fewer than CITY_POPULATION ("Frankfurt-Griesheim" is no Griesheim, 29 km off).
 */
const districtReach = (c: Candidate, town: Candidate): number =>
  cutShort(c)
    ? town.place.population < METROPOLIS
      ? SUBURB_KM
      : DISTRICT_KM
    : town.window.dashed && c.place.population < CITY_POPULATION
      ? SUBURB_KM
      : DISTRICT_KM

/**
 * Whether the town's words and the words beside it are all its part names, and those name a
 * city (CITY_POPULATION) of its country and no place that could be its district: "Marseille
 * Aix" may be Aix-en-Provence, 25 km off, as much as Marseille, so neither is guessed (the
 * place search shows both); "Hollywood Los Angeles" is no Hollywood, Florida. A district lies
 * within DISTRICT_KM, or SUBURB_KM when named by a name cut short of its join ("Aix" of
 * Aix-en-Provence), as the place search reads one (place-districts.ts).
 */
function besideCity(town: Candidate, candidates: Candidate[], districts: Candidate[], windows: Window[]): boolean {
  const t = town.window
  const spaced = candidates.filter(
    ({ place, window: w }) =>
      w.part === t.part &&
      !w.district &&
      !w.dashed &&
      place.country === town.place.country &&
      place.id !== town.place.id &&
      (w.start === t.start + t.len || t.start === w.start + w.len) &&
      windows.some(
        (o) => o.part === t.part && o.whole && o.start === Math.min(w.start, t.start) && o.len === w.len + t.len,
      ),
  )
  // After the town's dash, as after its space: "Dallas-Fort Worth" as "Dallas Fort Worth".
  const dashed = t.dashed
    ? districts.filter(
        (c) => after(c, town) && windows.some((o) => o.part === t.part && o.whole && o.start === t.start),
      )
    : []
  const beside = [...spaced, ...dashed]
  const far = (c: Candidate) =>
    distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng) > districtReach(c, town)
  // By its own name or it cut short: "Maranhão", a state's name, is no São Luís of it.
  const own = (c: Candidate) => c.place.alt === 0 || cutShort(c)
  return beside.some((c) => c.place.population >= CITY_POPULATION && own(c) && far(c)) && beside.every(far)
}

/** Whether a place is named by its own name cut short of the word that joins it on ("Aix" of Aix-en-Provence). */
const cutShort = ({ place, window: w }: Candidate): boolean => place.alt === 1 && cutShortOf(nameKey(place.name), w.key)
