// GET /places and near=: what a visitor types, as places (towns, postcodes, regions) from the
// geocoder's data (geocode/embedded/places.ts), ranked as it ranks them, with the locator's own
// locations breaking its ties: of two places it ranks alike, one found by its own name with a
// location within NEAR_KM comes first, then the one of more weight (PlaceHit.weight: its people),
// then the one nearer a location.
import type { LocatorIndex } from '../../engine/locator-index'
import { asTyped, type PlaceHit } from '../../geocode/embedded/place-hit'
import { type PlaceSource, PlacesWarming } from '../../geocode/embedded/place-source'
import type { PlaceSearch } from '../../geocode/embedded/places'
import {
  missingPostcodeCountries,
  postcodeCountriesLacking,
  postcodeCountriesWithGaps,
} from '../../geocode/embedded/postcode-forms'
import { type Lang, langOf, regionOf } from '../../core/languages'
import { asksOwnPosition } from '../../core/own-position'
import { MAX_SEARCH } from '../../core/limits'
import { countryLabel, regionName } from '../../geocode/countries'
import { shownLabel } from '../../geocode/embedded/place-parts'
import { pageName } from '../../geocode/embedded/city-names'
import { beforeShortAtEnd } from '../../geocode/embedded/saint-names'
import { codePoints, nameKey } from '../../core/text'
import { PublicError } from './errors'
import { storeCountries } from './store-countries'
import { integer, once, type Params } from './params'

/** The place search (geocode/embedded/places.ts); null: the service has no place data (GEOCODER=none). */
export type Places = PlaceSource | null

/** A location within this distance of a place makes it near the locator. */
const NEAR_KM = 50
/** A town a typo finds far from the locator's locations is shown from this many people (rankedPlaces). */
const FAR_TYPO_PEOPLE = 20_000
/** The places ranked again by nearness: the search's best. */
const RANKED = 24
const LIMIT = { fallback: 5, max: 20 }

/** `order`: where the search ranked it. */
export type RankedPlace = PlaceHit & { nearKm: number | null; order: number }

const NO_GROUP = () => ''

/**
 * The visitor's country lifts a place only when no place ranked alike weighs more than this many
 * times it: for an American, Manchester, NH (a quarter of Manchester's people), not Paris, TX (an
 * 86th of Paris's).
 */
const REGION_TIE = 5

/**
 * A place a text begins, of a country the locator has a location in, comes first unless a place
 * ranked alike weighs this many times it: a German locator's "Lüb" is Lübeck, not Lubbock, TX.
 */
const STORES_TIE = 20

/** A city three letters name whole outweighs every other place ranked this many times, to come first (rankedPlaces). */
const WHOLE_OVER = 3
/** A town three letters name whole, of a country of the page's language, comes first from this many people (rankedPlaces). */
const OWN_WHOLE_FROM = 10_000

/**
 * On a page in another language than English, a text of four characters or more that names a
 * city whole by another name is read whole and shown by it, though another of the city's names
 * goes on from it: a German page's "Prag" and "Brüssel" are Prag and Brüssel, not Prague ("Praga"
 * goes on from "Prag") and Brussels. Only far the biggest of those ranked (WHOLE_OVER), and not
 * where the text is also some place's own name: "Mila" is a town in Algeria too, so Milan cut short.
 */
function readWhole(ranked: RankedPlace[], lang: Lang, text: string): void {
  if (lang === 'en' || codePoints(text.trim()) < 4) return
  const whole = ranked.find((p) => p.exact && p.namedBegun !== undefined && p.precision === 'city')
  if (whole === undefined || ranked.some((o) => o.exact && o.main)) return
  if (ranked.every((o) => o === whole || WHOLE_OVER * o.weight < whole.weight))
    whole.namedAs = readAs(whole, lang, text)
}

/**
 * On a page in a language its countries speak (SPEAKING), four characters or more that name
 * whole, by any of its names, a town of theirs of OWN_WHOLE_FROM people or more find it first
 * (the most populous of theirs so named, or of those so named by their own name), unless a
 * country or region is so named, a town of another country so named has WHOLE_OVER times its
 * people, or a town so named has a location near it and it has none: a Spanish page's "Gerona"
 * is Girona, not Gerona (Philippines), and "Vitoria" Vitoria-Gasteiz, not Vitória (Brazil), by
 * names the data holds as other ones.
 */
function homeFirst(ranked: RankedPlace[], lang: Lang, text: string): void {
  const speaking = SPEAKING[lang]
  if (speaking === undefined || codePoints(text.trim()) < 4) return
  // A country or region named whole by its own name stays before its towns: "Luxembourg".
  if (ranked.some((p) => p.exact && p.main && (p.precision === 'country' || p.precision === 'region'))) return
  const whole = ranked.filter((p) => p.exact && p.precision === 'city' && p.people !== undefined)
  let biggest: RankedPlace | undefined
  let own: RankedPlace | undefined
  for (const p of whole)
    if (speaking.includes(p.country)) {
      if (p.people! > (biggest?.people ?? 0)) biggest = p
      if (p.main && p.people! > (own?.people ?? 0)) own = p
    }
  // One whose own name was typed, unless one that bears it as another has WHOLE_OVER times its
  // people: "Guadalupe" is Guadalupe, not Gustavo A. Madero (Mexico City, once Guadalupe); "León"
  // is León de los Aldama (1.5 million), not León, Nicaragua.
  const home = own !== undefined && biggest!.people! < WHOLE_OVER * own.people! ? own : biggest
  if (home === undefined || home.people! < OWN_WHOLE_FROM) return
  if (whole.some((o) => !speaking.includes(o.country) && o.people! >= WHOLE_OVER * home.people!)) return
  // The locator's stores speak for its visitors over the page's language: a Spanish page's
  // "Valencia" is Spain's beside a store there, "Vitoria" Brazil's beside one in Vitória.
  if (home.nearKm === null && ranked.some((o) => o.exact && o.nearKm !== null)) return
  home.tier = Math.min(home.tier, -1)
}

/**
 * The name a city read whole by another name (PlaceHit.namedBegun) shows on a page in `lang`: the
 * page's language's own where known and other than typed ("Prag" on a French page is Prague, on
 * a Spanish one Praga), none when that is the data's; else the name typed.
 */
function readAs(place: RankedPlace, lang: Lang, text: string): string | undefined {
  const page = pageName(place.label, place.country, lang, text)
  if (page === undefined) return place.namedBegun
  return nameKey(page.name) === nameKey(place.label.slice(0, place.label.indexOf(','))) ? undefined : page.name
}

/** The countries whose people mostly read a page's language: where its visitors' own towns are. */
const SPEAKING: Partial<Record<Lang, string[]>> = {
  de: ['DE', 'AT', 'CH', 'LI', 'LU'],
  // France's overseas departments and territories are France: Saint-Denis, Réunion, is a French town.
  fr: ['FR', 'BE', 'CH', 'LU', 'MC', 'RE', 'GP', 'MQ', 'GF', 'YT', 'PM', 'NC', 'PF', 'WF', 'BL', 'MF'],
  it: ['IT', 'CH', 'SM'],
  nl: ['NL', 'BE'],
  es: [
    'ES',
    'MX',
    'AR',
    'CO',
    'CL',
    'PE',
    'VE',
    'EC',
    'BO',
    'PY',
    'UY',
    'CR',
    'PA',
    'GT',
    'HN',
    'SV',
    'NI',
    'CU',
    'DO',
  ],
}

/** A town of this many people after a thing's name and number is meant anywhere: "Gate 12 Berlin" (likelyAfterThing). */
const KNOWN_AFTER_THING = 1_000_000

/**
 * The countries an English page's visitors mostly live in, and the people a town of theirs needs
 * after a thing's name and number: English names many villages by common words ("Center, TX").
 */
const ENGLISH_SPEAKING = ['US', 'GB', 'IE', 'CA', 'AU', 'NZ']
const ENGLISH_AFTER_THING = 100_000

/**
 * Whether a town one word names after a thing's name and number (PlaceHit.afterThing) is meant:
 * by its own name, a city of KNOWN_AFTER_THING people, or one of OWN_WHOLE_FROM with a location
 * near it or of a country of the page's language ("Gate 12 Lübeck" on a German page); on an
 * English page one of ENGLISH_AFTER_THING of the region's country where English-speaking, else
 * of any such ("Route 1 Boston"). Not a village so named: "Terminal 5 Heathrow" is no Heathrow,
 * FL; "Covid 19 Test Center" no Center, TX.
 */
function likelyAfterThing(p: PlaceHit, { lang, region }: Asker, nearKm: (p: PlaceHit) => number | null): boolean {
  if (!p.main || p.people === undefined) return false
  if (p.people >= KNOWN_AFTER_THING) return true
  if (lang === 'en' && p.people >= ENGLISH_AFTER_THING) {
    const own = region !== null && ENGLISH_SPEAKING.includes(region) ? [region] : ENGLISH_SPEAKING
    if (own.includes(p.country)) return true
  }
  return p.people >= OWN_WHOLE_FROM && ((SPEAKING[lang] ?? []).includes(p.country) || nearKm(p) !== null)
}

/**
 * Whether a town one word names after a unit's word and number (PlaceHit.afterUnit) is meant:
 * named whole by its own name (or the one it is meant by), of OWN_WHOLE_FROM people or with a
 * location near it. "Unit 7 Leeds" is Leeds;
 * "Shop 3 Center" no Ózd, Hungary (by another name) nor Center, TX; "Shop 3 Centre" no
 * Centre-Val de Loire (by another name).
 */
function likelyAfterUnit(p: PlaceHit, nearKm: (p: PlaceHit) => number | null): boolean {
  if (!p.exact || !(p.main || p.meant === true)) return false
  if (p.precision !== 'city') return true
  return p.people !== undefined && (p.people >= OWN_WHOLE_FROM || nearKm(p) !== null)
}

/**
 * Whether a town found whole is so by its own name's first words (`key`: the text's, or the town's
 * before a dash or space and "St": beforeShortAtEnd): "Frankfurt" and "Frankfurt Ste" of Frankfurt
 * (Oder), not "Athens" of Lemont, IL.
 */
function namedByItsStart(p: PlaceHit, key: string): boolean {
  if (!p.exact || p.precision !== 'city') return false
  return nameKey(p.label.slice(0, p.label.indexOf(','))).startsWith(`${key} `)
}

/** A region's point is its towns' centre: a location this far from it makes it near the locator. */
const REGION_NEAR_KM = 300

/** The distance to the locator's nearest location near the place (NEAR_KM, REGION_NEAR_KM), or null. */
function nearestKm(index: LocatorIndex, at: PlaceHit): number | null {
  const radiusKm = at.precision === 'region' ? REGION_NEAR_KM : at.precision === 'country' ? at.reachKm! : NEAR_KM
  return nearestHits(index, at, radiusKm, 1)[0]?.distanceKm ?? null
}

/** The locator's locations within `radiusKm` of `at`, nearest first, at most `limit`. */
const nearestHits = (index: LocatorIndex, at: { lat: number; lng: number }, radiusKm: number, limit: number) =>
  index.query({
    center: { lat: at.lat, lng: at.lng },
    radiusKm,
    tags: [],
    tagLogic: 'any',
    groupOf: NO_GROUP,
    search: '',
    sort: 'distance',
    offset: 0,
    limit,
  }).hits

/** Locations looked at, nearest a country's centre, for whether the locator has one in it (storesIn). */
const COUNTRY_PROBES = 20

/**
 * Whether the locator has a location in one of `countries`: of those nearest its towns' centre and
 * within its reach, one the reverse lookup places in it (Munich's are near Austria's middle).
 */
function storesIn(index: LocatorIndex, places: PlaceSource, search: PlaceSearch, countries: string[]): boolean {
  for (const code of countries) {
    const at = search.country(code)
    if (at === null) continue
    for (const { key } of nearestHits(index, at, at.reachKm!, COUNTRY_PROBES)) {
      const { lat, lng } = index.pointAt(key)
      if (places.reverse().at(lat, lng)?.parts.country === code) return true
    }
  }
  return false
}

/** Two characters between spaces: fails by the third character, so a longer text costs little. */
const TWO_SPACED = /^\s*\S\S\s*$/

/**
 * Whether `code` is the page's own country's: its language's ("DE" on a German page) or its
 * region's ("CA" on en-CA). Both the ranking (ownCountryCode) and the labels (ownCodeSpelt) read
 * such a code as that country, so one is not read two ways on one page.
 */
const pageOwnCode = (code: string, { lang, region }: Asker): boolean => code === region || code === lang.toUpperCase()

/**
 * The country a text of two capitals (spaces aside) names first: the page's own (pageOwnCode). A
 * German page's "DE" is Deutschland, then Delaware; a de-AT page's "AT" Österreich, not Athen.
 * Null for any other text, found by its length first: nearly every text is longer, and allocates
 * nothing here.
 */
function ownCountryCode(text: string, asker: Asker): string | null {
  const code = text.length === 2 ? text : text.length > 2 && TWO_SPACED.test(text) ? text.trim() : null
  return code !== null && pageOwnCode(code, asker) ? code : null
}

/** The places `text` names, best first, at most `limit`. */
export function rankedPlaces(
  places: Places,
  index: LocatorIndex,
  text: string,
  limit: number,
  { lang, region, tags }: Asker = { lang: 'en', region: null },
): RankedPlace[] {
  if (places === null) throw new PublicError('PLACES_UNAVAILABLE')
  let search: ReturnType<PlaceSource>
  try {
    search = places()
  } catch (e) {
    // Read at the start, in a worker thread: asked for within its second, a moment later.
    if (e instanceof PlacesWarming) throw new PublicError('UNAVAILABLE', e.message, { 'retry-after': '1' })
    throw e
  }
  // "near me" names no place, though typos would make it one (Néa Mesimvría).
  if (asksOwnPosition(text)) return []
  const own = ownCodeCountries(text, lang, region)
  // Another country's postcode stays where the locator has a location near it: its stores speak
  // for its visitors over the page's language ("2000" on a Sydney locator's German page).
  const foreign = (p: PlaceHit) => own !== null && p.byCode && !own.countries.includes(p.country)
  // Each place's nearness asked of the index once: a foreign code's is read to keep it, then to rank it.
  const near = new Map<PlaceHit, number | null>()
  const nearKm = (p: PlaceHit): number | null => {
    let km = near.get(p)
    if (km === undefined) near.set(p, (km = nearestKm(index, p)))
    return km
  }
  // A region that says where the visitor is outweighs the stores: "2000" in Switzerland is
  // Neuchâtel's, whatever the locator's stores near Sydney. So do stores in one of the page's own
  // countries whose code the data lacks: a German page's "3000" for stores in Bern and Melbourne
  // may be Bern's. Where the data has it, it comes first: Wien's 1010, then Sydney's.
  const codeLacking = own === null ? [] : postcodeCountriesLacking(text)
  const lacking = own === null ? [] : own.countries.filter((c) => codeLacking.includes(c))
  let ownStores: boolean | undefined
  const ownStoresIn = () => (ownStores ??= storesIn(index, places, search, lacking))
  let countries: Set<string> | undefined
  const countriesOf = () => (countries ??= storeCountries(index, places))
  // A town only a typo finds, under FAR_TYPO_PEOPLE, far from the locator's locations and of none
  // of their countries, is a word mistaken for it: a German locator's "Werkstatt" is no Wernstadt
  // (Verneřice, Czechia). A town of note so found is meant: "Venedg" is Venice (51,298 people).
  // So is any place only a typo finds for a tag's value or label: "Verleih" is no Werneuchen.
  const tagTyped = tags?.has(nameKey(text)) === true
  const farTypo = (p: PlaceHit) => {
    if (asTyped(p)) return false
    if (tagTyped) return true
    if ((p.people ?? p.weight) >= FAR_TYPO_PEOPLE) return false
    const countries = countriesOf()
    return countries.size > 0 && !countries.has(p.country) && nearKm(p) === null
  }
  // A big city four letters name a typo off stays only beside a store (PlaceHit.nearOnly).
  const dropped = (p: PlaceHit) =>
    (p.nearOnly === true && nearKm(p) === null) ||
    (p.afterThing === true && !likelyAfterThing(p, { lang, region }, nearKm)) ||
    (p.afterUnit === true && !likelyAfterUnit(p, nearKm)) ||
    (foreign(p) && (own!.told || nearKm(p) === null || ownStoresIn())) ||
    farTypo(p)
  const ranked = search
    .find(text)
    .filter((p) => !dropped(p))
    .slice(0, RANKED)
    .map((p, order) => ({ ...p, order, nearKm: nearKm(p) }))
  const code = ownCountryCode(text, { lang, region })
  const pageCountry = code === null ? null : search.country(code)
  if (pageCountry !== null) ranked.unshift({ ...pageCountry, tier: -2, order: -1, nearKm: nearKm(pageCountry) })
  // A town four characters or more name whole by its own name, with a location near it, ranks
  // with the names typed whole however few live there: a Sydney locator's "Bondi" is Bondi
  // (9,891 people), not Bondy, France, by its other name "Bondi".
  if (codePoints(text.trim()) >= 4)
    for (const p of ranked)
      if (p.exact && p.main && p.precision === 'city' && p.nearKm !== null) p.tier = Math.min(p.tier, 0)
  // On a page in another language than English, three letters that name a city whole are more
  // often its name there than a name begun: a German page's "Rom" is Rome, before Romford by a
  // store in London; in English the beginning it is. Only far the biggest of those ranked: "Bar"
  // is Barcelona begun, not Bar (Montenegro).
  if (lang !== 'en' && codePoints(text.trim()) === 3) {
    const whole = ranked.find((p) => p.exact && (p.main || p.meant === true) && p.precision === 'city')
    if (whole !== undefined && ranked.every((o) => o === whole || WHOLE_OVER * o.weight < whole.weight)) {
      whole.tier = Math.min(whole.tier, 0)
      // Not where the data's name begins so too ("Rom": Rome; "Lim": Lima): that may be what
      // the page's language writes.
      if (whole.namedBegun !== undefined && !nameKey(whole.label).startsWith(nameKey(text)))
        whole.namedAs = readAs(whole, lang, text)
    }
    // So is a town's own name of a country of the page's language, unless a place of those
    // countries ranked has WHOLE_OVER times its people: a German page's "Aue" is Aue, not Oviedo
    // by another name begun (nor Auerbach); a French page's "Gap" is Gap, not Gapan. Not a
    // village's ("Bex"), nor beside Victoria de Durango ("Vic" on a Spanish page).
    const speaking = SPEAKING[lang] ?? []
    const local = ranked.filter((p) => speaking.includes(p.country))
    const home = local.find((p) => p.exact && p.main && p.precision === 'city' && p.weight >= OWN_WHOLE_FROM)
    if (home !== undefined && local.every((o) => o === home || o.weight < WHOLE_OVER * home.weight))
      home.tier = Math.min(home.tier, 0)
  }
  readWhole(ranked, lang, text)
  homeFirst(ranked, lang, text)
  // A city the text begins the page's language's name of shows by it: "Mün" on a German page.
  if (lang !== 'en')
    for (const p of ranked) {
      const page =
        p.precision === 'city' && p.named === undefined && p.namedAs === undefined
          ? pageName(p.label, p.country, lang, text)
          : undefined
      if (page?.begun) p.namedAs = page.name
    }
  const seq = codeSequence(ranked)
  // Nearness, or the visitor's country, lifts a place found by its own name or its first words
  // ("Frankfurt": Frankfurt (Oder)), or by the other name the text means it by ("Cologne": Köln),
  // not one that only holds the text among its old names: "Athens" is not Lemont, IL (once
  // Athens) for a store near Chicago. Lifted alike, a British visitor's "Brighton" is the larger,
  // Sussex's. The country only breaks near-ties (REGION_TIE): the locator's stores speak for its
  // visitors, a browser's language less so.
  const heaviest = new Map<number, number>()
  for (const p of ranked) heaviest.set(p.tier, Math.max(heaviest.get(p.tier) ?? 0, p.weight))
  const startKey = nameKey(beforeShortAtEnd(text) ?? text)
  // Each place's lift read once, not per comparison.
  const lifted = new Set(
    ranked.filter(
      (p) =>
        (p.main || p.meant === true || namedByItsStart(p, startKey)) &&
        (p.nearKm !== null || (p.country === region && REGION_TIE * p.weight >= heaviest.get(p.tier)!)),
    ),
  )
  // Then, of the names the text only begins (a whole name or a postcode means its own place), one
  // in a country of the locator's locations: where its visitors search.
  const home = new Set(
    ranked.filter(
      (p) => !p.exact && !p.byCode && STORES_TIE * p.weight >= heaviest.get(p.tier)! && countriesOf().has(p.country),
    ),
  )
  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      // The page's own countries' code before another's its stores keep: "1010" on a German
      // page is Wien's, then Sydney's, however many more people Sydney has.
      Number(foreign(a)) - Number(foreign(b)) ||
      Number(!lifted.has(a)) - Number(!lifted.has(b)) ||
      Number(!home.has(a)) - Number(!home.has(b)) ||
      b.weight - a.weight ||
      // A country's towns of one postcode as the search ranks them, the most populous first,
      // whichever has a store nearer ("75016": Paris 16e, then Boulogne-Billancourt).
      (a.byCode && b.byCode && a.country === b.country ? seq(a) - seq(b) : 0) ||
      (a.nearKm ?? 0) - (b.nearKm ?? 0) ||
      // Else as the search ranks them: the code's most populous town of any country first
      // ("75015": Paris, not Bretten, Germany), then by country.
      (a.byCode && b.byCode ? seq(a) - seq(b) : 0) ||
      (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  )
  return ranked.slice(0, limit)
}

/**
 * Postcodes as the search ranks them (whole code first, a code's towns the most populous first),
 * but of codes the text only begins, each code's first town before any code's second: "7501" is
 * Paris's 75010 to 75014, not 75010's Paris then five Italian villages of 75010.
 */
function codeSequence(ranked: RankedPlace[]): (p: RankedPlace) => number {
  const seen = new Map<string, number>()
  const seq = new Map<RankedPlace, number>()
  for (const p of ranked) {
    if (!p.byCode) continue
    const code = /^[^\s,]+/.exec(p.label)![0]
    const nth = seen.get(code) ?? 0
    seen.set(code, nth + 1)
    seq.set(p, p.exact ? p.order : RANKED * (1 + nth) + p.order)
  }
  return (p) => seq.get(p) ?? p.order
}

/**
 * The countries whose postcodes the data lacks, all or some, by the language of the page asking:
 * where its visitors live. A German page's "8001" is Zürich's, not Sydney's.
 */
const CODES_LACKING: Partial<Record<Lang, string[]>> = {
  de: ['AT', 'CH'],
  fr: ['BE', 'CH', 'LU'],
  nl: ['NL', 'BE'],
  it: ['CH'],
}

/**
 * The countries whose postcodes alone `text` may be, when it may be a postcode of the page's
 * visitors' countries whose postcodes the data lacks, all or some; else null. The region's
 * country, when the code may be its: "1200" for a visitor in Switzerland is Geneva's, not
 * Vienna's. Else the region's and its language's (CODES_LACKING): "1010" on a German page is
 * Vienna's, not Sydney's; "8001" Zürich's, which the data lacks. told: the region named them.
 */
function ownCodeCountries(
  text: string,
  lang: Lang,
  region: string | null,
): { countries: string[]; told: boolean } | null {
  const gaps = postcodeCountriesWithGaps(text)
  if (region !== null && gaps.includes(region)) return { countries: [region], told: true }
  const visitors = [...(region === null ? [] : [region]), ...(CODES_LACKING[lang] ?? [])]
  return gaps.some((c) => visitors.includes(c)) ? { countries: visitors, told: false } : null
}

/**
 * The labels of the first `count` places ranked, in `lang`: a place the text names by another
 * name shows it ("Londres, United Kingdom"), and on a page not in English so does one the text
 * means by another name not typed so (PlaceHit.namedAs: "Wein" is "Wien, Österreich", not
 * "Vienna, Österreich"); unless a place ranked shows that label by its own name ("Datun" of
 * Datong, beside the town Datun): then its own. Every place ranked counts, not only those asked
 * for, so a place's label does not hang on `limit`.
 */
function shownLabels(ranked: PlaceHit[], typed: string, asker: Asker, count: number): string[] {
  const { lang } = asker
  const own = (place: PlaceHit) => labelIn(place.label, place.country, asker)
  const nameOf = (place: PlaceHit) => place.named ?? (lang === 'en' ? undefined : place.namedAs)
  const shown = ranked.slice(0, count)
  if (shown.every((place) => nameOf(place) === undefined)) return shown.map(own)
  const owns = ranked.map(own)
  return shown.map((place, i) => {
    const name = nameOf(place)
    if (name === undefined) return owns[i]!
    const named = labelIn(shownLabel({ label: place.label, named: name }, typed), place.country, asker)
    return owns.includes(named) ? owns[i]! : named
  })
}

/** A point to 5 decimals (about a metre), as the towns' are: a region's or country's centre is a mean. */
const round5 = (x: number) => Math.round(x * 1e5) / 1e5

/** `tags`: the locator's tags' values and labels (nameKey), words a visitor types for a place only by mistake. */
export type Asker = { lang: Lang; region: string | null; tags?: ReadonlySet<string> }

/**
 * What a request's `lang` says of its visitor: the language of labels (English when none or
 * another), and the country of its region ("en-GB": GB), whose places come first among alike.
 */
export function askerOf(params: Params, tags?: ReadonlySet<string>): Asker {
  const tag = once(params, 'lang')
  return { lang: langOf(tag) ?? 'en', region: regionOf(tag), tags }
}

/** Why near= found nothing, when the text is no postcode of a country the data lacks and no question of position. */
export const NO_PLACE = 'names no town, postcode, region or country'

/** PLACE_NOT_FOUND's message: the text sent, and why it names no place. */
export const noPlace = (text: string, why: string) =>
  `near ${JSON.stringify(text)} ${why}. GET /places suggests places as a visitor types.`

/** The place near= names: the best of rankedPlaces, its label in the asker's language. Throws PLACE_NOT_FOUND. */
export function placeNamed(
  places: Places,
  index: LocatorIndex,
  text: string,
  asker: Asker,
): { lat: number; lng: number; label: string; reachKm?: number } {
  // A postcode the text only begins is no answer to a text sent whole: "1012" (Amsterdam) is not
  // 10120 (Spain), "E1" (London) not E1A (Canada); and digits alone name a place whole, or none
  // ("10" is no town whose name a typo away begins so).
  const digits = /^[\d\s-]+$/.test(text)
  const ranked = rankedPlaces(places, index, text, RANKED, asker)
  const at = ranked.findIndex((p) => p.exact || (!p.byCode && !digits))
  const best = ranked[at]
  if (best === undefined) {
    const missing = missingPostcodeCountries(text).map((c) => countryLabel(c))
    const lacking = postcodeCountriesLacking(text).map((c) => countryLabel(c))
    const why = asksOwnPosition(text)
      ? "asks for the visitor's own position, which only their browser knows: send lat and lng from it instead"
      : missing.length > 0
        ? `looks like a postcode of ${missing.join(' or ')}, whose postcodes the place data does not have: send a town instead`
        : lacking.length > 0
          ? `is no postcode the place data has; it may be one of ${lacking.join(', ')}, whose postcodes it does not have: send a town instead`
          : NO_PLACE
    throw new PublicError('PLACE_NOT_FOUND', noPlace(text, why))
  }
  const { lat, lng, reachKm } = best
  return { lat: round5(lat), lng: round5(lng), label: shownLabels(ranked, text, asker, at + 1)[at]!, reachKm }
}

/**
 * `label` with its country named in the page's language ("London, Vereinigtes Königreich"): the
 * towns' names are the data's own, mostly as their country writes them, or the other name typed
 * ("München").
 */
function labelIn(label: string, country: string, asker: Asker): string {
  const english = countryLabel(country)
  if ((asker.lang === 'en' && asker.region === null) || !label.endsWith(english)) return label
  return ownCodeSpelt(label.slice(0, -english.length), country, asker) + countryLabel(country, asker.lang)
}

/** A label's region's code, before its country ("Newark, DE, "). */
const REGION_CODE = /, ([A-Z]{2}), $/

/**
 * A label's region written as the code of the page's own country (pageOwnCode: "Newark, DE, "
 * on a German page, "San Jose, CA, " on en-CA) spelt out ("Newark, Delaware, "); any other as it is.
 */
function ownCodeSpelt(label: string, country: string, asker: Asker): string {
  const code = REGION_CODE.exec(label)?.[1]
  if (code === undefined || country === code || !pageOwnCode(code, asker)) return label
  const name = regionName(country, code)
  return name === null ? label : `${label.slice(0, -`, ${code}, `.length)}, ${name}, `
}

/** GET /places's answer for its parameters. */
export function placesAnswer(places: Places, index: LocatorIndex, params: Params, tags?: ReadonlySet<string>): unknown {
  const q = once(params, 'q') ?? ''
  if (q.trim() === '')
    throw new PublicError('INVALID_PARAMETER', 'q is required: the text the visitor typed, such as "Lond" or "10115".')
  if (q.length > MAX_SEARCH && codePoints(q) > MAX_SEARCH)
    throw new PublicError('INVALID_PARAMETER', `q may be at most ${MAX_SEARCH} characters; got ${codePoints(q)}.`)
  const limit = integer(params, 'limit', LIMIT.fallback, 1, LIMIT.max)
  const asker = askerOf(params, tags)
  const ranked = rankedPlaces(places, index, q, RANKED, asker)
  const labels = shownLabels(ranked, q, asker, limit)
  return {
    success: true,
    data: {
      places: ranked.slice(0, limit).map((place, i) => ({
        label: labels[i]!,
        lat: round5(place.lat),
        lng: round5(place.lng),
        country: place.country,
        precision: place.precision,
      })),
    },
  }
}
