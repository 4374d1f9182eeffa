// A place the place search finds, as it gives it: where, how shown, and what ranks it.
import { countryLabel } from '../countries'
import { otherName } from './place-alike'
import { codeText, type Texts } from './place-keys'
import { type CountryPlace, type PlaceParts, placeLabel, type Region } from './place-parts'

export type PlacePrecision = 'city' | 'postcode' | 'region' | 'country'

/**
 * A place found: where it is, how it is shown, and what ranks it (exact: a name or code equal to
 * the text; main: matched by its main name, not only by an alternate one; tier: how find() ranks
 * those two, 0 best, -1 the place whose label the text is (labelIndex); weight: what ranks it
 * within its tier: a town's or region's people, ten times them for a whole main name found through
 * a typo, 0 for a postcode).
 */
export type PlaceHit = {
  tier: number
  label: string
  lat: number
  lng: number
  country: string
  precision: PlacePrecision
  weight: number
  exact: boolean
  main: boolean
  /** A region's or country's reach: how far from its point most of its people live (Region.reachKm). */
  reachKm?: number
  /** Found by its postcode (whole when `exact`, else one the text begins). */
  byCode?: true
  /** The other name the text equals, every way it is written ("München|Munchen" of Munich): shownLabel() shows it. */
  named?: string
  /**
   * Found by another name that the text means it by, as by its own: "Cologne" of Köln, far the
   * biggest town so named; or "Münch" of Munich (the data's name), far the biggest so begun.
   */
  meant?: true
  /**
   * The other name the place is meant by though not named as typed, every way it is written: the
   * name a typo is off ("Wien" of "Wein", "München|Munchen" of "Müchen"), or a whole one another of
   * its names goes on from ("Rom" of Rome, set where the text is read whole). A page in another
   * language than English shows it, as it would the name typed; an English one the data's (Vienna).
   */
  namedAs?: string
  /** A whole other name the text equals that another of the place's names goes on from ("Prag": Prague, "Praga"): namedAs where read whole. */
  namedBegun?: string
  /** An old name several towns of note share, this one of SMALL_PLACE people or more: weighing little, no small place's (wantsTypos). */
  sharedOld?: true
  /** Shown only where the locator has a location near it: a big city four letters name a typo off ("Wein": Wien). */
  nearOnly?: true
  /**
   * Named by one word after a name and a number, no street before them ("Gate 12 Berlin"): more
   * often a thing's name than an address, so shown only where the asker makes the town likely.
   */
  afterThing?: true
  /**
   * Named by one word after a unit's word and number, no street before them ("Unit 7 Leeds"): an
   * address, though the word may be one of the place's ("Shop 3 Center"), so a village so named
   * is not shown.
   */
  afterUnit?: true
  /** A town's people, whatever its weight (a name other than its own weighs a share of them). */
  people?: number
}

/**
 * A region weighs its people divided by this against a town: a big town of its name is more often
 * meant ("New York" is the city), a village is not ("California").
 */
const REGION_SHARE = 4
/** The tier of a whole name found through one typo (typos()); the tiers below it are of names as typed. */
export const WHOLE_ONE_EDIT = 4
/** Whether a hit was found as typed (its whole name, or its beginning), not through a typo. */
export const asTyped = (hit: PlaceHit): boolean => hit.tier < WHOLE_ONE_EDIT

/** Country `code` as a hit, named whole. */
export function countryHit(code: string, c: CountryPlace): PlaceHit {
  const { lat, lng, population, reachKm } = c
  const label = countryLabel(code)
  return {
    label,
    lat,
    lng,
    country: code,
    precision: 'country',
    weight: population / REGION_SHARE,
    exact: true,
    main: true,
    tier: 0,
    reachKm,
  }
}

/** Region `r` as a hit; `exact`: named whole, by `r`'s own name (shown as typed) or by its code (not). */
export function regionHit(r: Region, exact: boolean, byCode = false): PlaceHit {
  return {
    label: r.label,
    lat: r.lat,
    lng: r.lng,
    country: r.country,
    precision: 'region',
    weight: r.population / REGION_SHARE,
    exact,
    main: true,
    tier: 0,
    reachKm: r.reachKm,
    ...(exact && !byCode && otherName(r.spelling, r.label) ? { named: r.spelling } : {}),
  }
}

/** Town `row` as a hit; `match`: how the text names it (PlaceSearch.search: 3 a main name whole, 2 another name whole, 1 a main name begun, 0 another one begun). */
export function townHit(parts: PlaceParts, names: Texts, row: number, match: number, named?: string): PlaceHit {
  const { lat, lng, population, admins, admin1 } = parts
  const country = codeText(parts.country[row]!)
  const name = names.at(row)
  const hit: PlaceHit = {
    label: placeLabel(name, country, admins[admin1[row]!]!),
    lat: lat[row]!,
    lng: lng[row]!,
    country,
    precision: 'city',
    weight: population[row]!,
    people: population[row]!,
    exact: match >= 2,
    main: match === 3 || match === 1,
    tier: 0,
  }
  if (otherName(named, name)) hit.named = named
  return hit
}

/** Postcode `row` as a hit; `exact`: the text is its whole code. */
export function postcodeHit(parts: PlaceParts, codeLabel: Texts, row: number, exact: boolean): PlaceHit {
  return {
    label: codeLabel.at(row),
    lat: parts.codeLat[row]!,
    lng: parts.codeLng[row]!,
    country: codeText(parts.codeCountry[row]!),
    precision: parts.codePrecision[row] === 1 ? 'postcode' : 'city',
    weight: 0,
    exact,
    main: true,
    tier: 0,
    byCode: true,
  }
}
