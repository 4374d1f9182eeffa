// Places as a visitor types them: towns by any of their names (exonyms too: "Cologne" finds Köln),
// postcodes, and regions, found by prefix in memory; countries by their whole name. The
// geocoder's names are read once from its data file in the order SQLite keeps them (UTF-8 byte
// order) into typed arrays (place-parts.ts), which the collector does not walk; the prefixes that
// begin many names keep a list of their most populous places, so a one-letter prefix costs no
// more than a whole name.
import { codePoints, nameKey } from '../../core/text'
import { countryCode } from '../countries'
import { oldNameSharers, otherName, shownOnce, shortWords, townKey } from './place-alike'
import { cutShort } from './place-begun'
import { codeAndTown, codeStart, districtCountries, ZIP_PLUS_FOUR } from './place-codes'
import { codeText, SortedKeys, Texts, utf8 } from './place-keys'
import { countryHit, type PlaceHit, regionHit, townHit, WHOLE_ONE_EDIT } from './place-hit'
import { CITY_ALIASES, COUNTRY_ALIASES } from './tables'
import { bestTowns, CANDIDATES, LISTED_FROM, labelIndex, type PlaceParts } from './place-parts'
import { BigOneOff } from './place-one-off'
import { ALTERNATE_OVER_MAIN, type TypoSource, typoTowns, WHOLE_FROM, WHOLE_MAIN_WEIGHT } from './place-typo-towns'
import { codeHits } from './place-code-hits'
import { joinInitials, type Within, withinOf } from './place-within'
import { districtsAsPostcodes } from './district-codes'
import { postcodeCountries, postcodePrefix } from './postcode-forms'
import { CONFIRM_KM, DASH, DISTRICT_KM, DISTRICT_TOWN_POPULATION, distanceKm } from './near'
import { beforeShortAtEnd, fortMountWritten, saintEndWritten, writtenOut } from './saint-names'
import { type AddressSource, addressPlaces, isAddressHead, townAtEnd } from './place-address-end'
import { joinedName } from './place-joins'
import { slashAsDash, stateBeforeCep, stateInCapitals } from './state-codes'
import { byLetters, type LettersSource, townAfterDistrict } from './place-letters'
import { lettersOnly } from './province-codes'
import { type DistrictSource, hyphened, inTown, placesNear, spaced } from './place-districts'

/** Texts of this many characters or more may find towns with a typo, when nothing matches as typed. */
const TYPOS_FROM = 4
/** A name found only by an alternate name it begins weighs its people divided by this. */
const ALTERNATE_SHARE = 10
/** An exact name of fewer people than this ranks with the names it begins, unless typed this long. */
const SMALL_EXACT = 10_000
const SMALL_EXACT_FROM = 6
/** Found as typed, places of fewer people than this may be a typo's: "Müchen" is a village's old name. */
const SMALL_PLACE = 50_000
/** Names looked at for one query narrowed by a region or country; past this, the prefix's best only. */
const KEEP_SCANNED = 20_000
/** Names looked at for one that goes on from another name a place is found by (search()). */
const NAMED_SCAN = 2000
/** Tiers from this on are of names found through two typos (typos()). */
const TWO_EDITS = 7
/** A dash alone between spaces ("Hotel Post - Frankfurt Oder"). */
const DASH_BETWEEN_SPACES = new RegExp(`\\s+[${DASH}]+\\s+`, 'u')

/** Brazil's towns and regions. */
const IN_BRAZIL: Within = { town: (c) => c === 'BR', country: (c) => c === 'BR', regions: false }

export class PlaceSearch {
  private readonly names: Texts
  private readonly nameKeys: SortedKeys
  private readonly spellings: Texts
  private readonly codes: SortedKeys
  private readonly codeLabel: Texts
  private readonly oneOffs: BigOneOff
  private readonly typoSource: TypoSource
  private readonly addressSource: AddressSource
  private readonly districtSource: DistrictSource
  private readonly lettersSource: LettersSource

  constructor(private readonly parts: PlaceParts) {
    this.names = new Texts(parts.names)
    this.nameKeys = new SortedKeys(parts.nameKeys)
    this.spellings = new Texts(parts.spellings)
    this.codes = new SortedKeys(parts.codes)
    this.codeLabel = new Texts(parts.codeLabel)
    this.oneOffs = new BigOneOff(this.nameKeys, this.spellings, parts.population)
    // A region's name (not its code) may end an address as a town's does ("Unit 4 Ohio").
    const regionNames = new Set(parts.regions.map((r) => r.key))
    this.addressSource = { find: (t) => this.find(t, false), names: (k) => this.isName(k) || regionNames.has(k) }
    const { names, nameKeys, spellings } = this
    this.typoSource = { parts, names, nameKeys, spellings, bestOf: (from, to, depth) => this.bestOf(from, to, depth) }
    this.districtSource = {
      regionKeys: parts.regionKeys,
      named: (key, within, codes) => this.named(key, within, codes),
      search: (key, within) => this.search(key, within),
      isName: (key) => this.isName(key),
      isWholeName: (key) => this.isWholeName(key),
    }
    this.lettersSource = {
      regionKeys: parts.regionKeys,
      named: (key, within) => this.named(key, within, true),
      find: (text, bySpace) => this.find(text, bySpace),
      whole: (key) => this.search(key, null).filter((h) => h.exact && h.precision === 'city'),
      isWholeName: (key) => this.isWholeName(key),
      wordsBegin: (key, within) => this.search(`${key} `, within).some((h) => h.precision === 'city'),
    }
  }

  /**
   * The places whose name, postcode or region begins with `text` (folded as names are: case and
   * accents do not matter; the last word may be cut short), at most CANDIDATES: exact ones first,
   * then the most populous. Empty when the text has no letter or digit. Words after a comma name
   * the place's region or country ("Portland, OR", "Paris, Texas", "Köln, Germany"), and so may
   * a last word without one ("Portland OR") when the whole text is no place's name. A postcode
   * may end them ("San Francisco, CA 94103"); a town may stand there or before a dash, its
   * district beside it ("Soho, London", "Köln-Ehrenfeld"), or, `bySpace`, a space ("Köln
   * Ehrenfeld"): not in an address's last words (townAtEnd), where "Rivoli Paris" is no Rivoli.
   */
  find(typed: string, bySpace = true): PlaceHit[] {
    const initials = joinInitials(typed)
    // A Brazilian state's letters written small after a town of Brazil's name, or of none, read in capitals.
    const brazils = (key: string) => this.search(key, IN_BRAZIL).some((h) => h.exact) || !this.isWholeName(key)
    const capitals = stateInCapitals(initials, brazils)
    const written = stateBeforeCep(slashAsDash(capitals)).replace(ZIP_PLUS_FOUR, '$1')
    // A state's or province's letters ending it ("Fiesole (FI)") narrow the town before them.
    const lettered = byLetters(this.lettersSource, written, bySpace)
    if (lettered !== null) return lettered
    // A postcode after its country's vehicle code ("A-1130"), in that country only.
    const prefixed = postcodePrefix(written)
    if (prefixed !== null) return this.inCountry(prefixed.rest, prefixed.country, bySpace)
    // A district by its number or name ("Wien 13", "Paris 16e") as its postcode ("1130 Wien").
    const text = districtsAsPostcodes(written)
    // A city's everyday short name ("LA", "NYC") first, then what the letters begin as typed.
    // Own keys only: "constructor" is no city's alias.
    const key = nameKey(text)
    const alias = Object.hasOwn(CITY_ALIASES, key) ? CITY_ALIASES[key] : undefined
    const city = alias === undefined ? undefined : this.read(alias, bySpace)[0]
    // Its tier before every other's: no store near a town of that name lifts the town over it.
    if (city !== undefined)
      return [{ ...city, tier: -1 }, ...this.read(text, bySpace).filter((h) => h.label !== city.label)]
    // A region's code alone, in capitals ("TX", "NSW"): the region, then what the letters begin.
    const coded = /^\p{Lu}{2,3}$/u.test(text.trim()) ? (this.parts.regionCodes.get(key) ?? []) : []
    if (coded.length > 0) {
      const regions = coded.map((r) => regionHit(r, true, true))
      return [...regions, ...this.read(text, bySpace).filter((h) => !regions.some((r) => r.label === h.label))]
    }
    // Two capitals alone name a town only as its own name: "RN" is no Rennes (its other name).
    const hits = this.read(text, bySpace).filter((h) => !(lettersOnly(text) && h.exact && !h.main))
    // A label typed back finds its place first, as a page that shows one may send it again:
    // "New York, United States" is the state, though "New York" is the city.
    const labelled = labelIndex(text, key, hits)
    if (labelled >= 0) hits.unshift({ ...hits.splice(labelled, 1)[0]!, tier: -1 })
    // A street and number before the town, as an address writes it ("200 Main Street,
    // Springfield, IL 62701", "Unter den Linden 1, 10117 Berlin"): what follows names the place.
    const comma = text.indexOf(',')
    if (hits.length > 0) return hits
    // A dash alone between spaces parts a text that names nothing whole as a comma does, as
    // the resolver reads it: "Hotel Post - Frankfurt Oder" is "Hotel Post, Frankfurt Oder".
    // Where that names a place as typed: "Müller - Dortmund Hbf" begins no Mulleriyawa.
    const parted = comma < 0 ? text.replace(DASH_BETWEEN_SPACES, ', ') : text
    if (parted !== text) {
      const found = this.find(parted, bySpace)
      if (found.some((h) => h.tier <= 0)) return found
    }
    if (comma < 0) return townAtEnd(this.addressSource, text) ?? hits
    if (!isAddressHead(text.slice(0, comma))) return hits
    return addressPlaces(this.find(text.slice(comma + 1), bySpace))
  }

  /** The places `text` names in `country` only, as what follows its vehicle code and a dash ("A-1130 Wien"). */
  private inCountry(text: string, country: string, bySpace: boolean): PlaceHit[] {
    const only = (c: string) => c === country
    const key = nameKey(districtsAsPostcodes(text))
    const hits = text.includes(',')
      ? this.find(text, bySpace)
      : this.named(key, { town: only, country: only, regions: false }, true)
    // A code alone names codes: not a village of an odd other name ("11").
    return hits.filter((h) => h.country === country && (h.byCode || !/^[\d\s]+$/.test(key)))
  }

  private read(text: string, bySpace: boolean): PlaceHit[] {
    const comma = text.indexOf(',')
    if (comma < 0) {
      const hits = this.named(nameKey(text), null, true)
      if (hits.some((h) => h.tier < WHOLE_ONE_EDIT)) return hits
      // A region's name and "State" ("Washington State"): the region, not the town so named.
      const state = this.stateNamed(nameKey(text))
      if (state !== null) return state
      // A town's name without the word that joins it to a river's ("Offenbach Main"): that name,
      // not a town and its district (Maintal).
      const joined = joinedName(
        nameKey(text),
        (k) => this.isWholeName(k),
        (k) => this.begins(k),
      )
      if (joined !== null) return this.named(joined, null, true)
      // A dash or space and "St." (or "Str.") typed last, naming nothing as typed, after a town of
      // districts by its own name or one its own goes on from ("Frankfurt": Frankfurt am Main), or
      // by the name it is meant by ("Wien St": Vienna, not Vientiane), begins a district's or
      // street's name: the town ("Hamburg-St.", "Frankfurt Str": not Caldwell, ID or Frankfort, IL
      // a typo off).
      // The town is looked up by name before the whole text before the dash is read: read whole,
      // each further "-St" would read the text again ("Hamburg-St-St-…": seconds).
      const before = beforeShortAtEnd(text)
      const key = before === null ? '' : nameKey(before)
      const own = (h: PlaceHit) => h.main || h.meant === true || nameKey(h.label).startsWith(`${key} `)
      const town = before === null ? [] : this.named(key, null, true)
      if (town.some((h) => h.exact && own(h) && h.precision === 'city' && h.weight >= DISTRICT_TOWN_POPULATION)) {
        // Unless the names it begins write "St." out: "Bourg St" is Bourg-Saint-Maurice begun.
        for (const written of saintEndWritten(nameKey(text))) {
          const begun = this.search(written, null)
          if (begun.some((h) => h.tier < WHOLE_ONE_EDIT)) return this.ranked(written, null, begun)
        }
        return this.find(before!, bySpace)
      }
      // Else a town and its district beside a dash or space, before the whole text's typos; but a
      // whole name one typo off before the town alone: "Stratford-upon-Avn" is not Stratford.
      const split = hyphened(this.districtSource, text, bySpace)
      if (split === null) return hits
      if (split.districts.length > 0) return split.districts
      return hits.some((h) => h.tier < TWO_EDITS) ? hits : split.towns
    }
    const head = nameKey(text.slice(0, comma))
    const pieces = text.slice(comma + 1).split(',')
    const within = withinOf(this.parts.regionKeys, pieces, true)
    if (within !== null) {
      const hits = this.named(head, within, true)
      if (hits.length > 0) return hits
      // A district before its town, beside a space ("Centro Madrid, ES"): the town.
      const town = townAfterDistrict(this.lettersSource, head, within)
      if (town.length > 0) return town
    }
    const coded = this.codeAfter(head, pieces)
    if (coded !== null) return coded
    // A town after the comma, and maybe its region or country: "Soho, London", "Ehrenfeld, Köln, DE".
    const townWithin = pieces.length > 1 ? withinOf(this.parts.regionKeys, pieces.slice(1), true) : null
    if (pieces.length === 1 || townWithin !== null) {
      const split = inTown(this.districtSource, head, nameKey(pieces[0]!), townWithin)
      if (split !== null && split.districts.length > 0) return split.districts
      // After a street's or unit's number, no district's name, find() reads what follows as an
      // address's last words without a comma are read (addressPlaces): "10 Main Street, Florida"
      // is the state, as "10 Main Street Florida" is; "10 Main Street, Washington" Washington, DC.
      if (split !== null) return isAddressHead(head) ? [] : split.towns
    }
    // A town and its district after the comma, beside a space ("Broadway, New York
    // Manhattan"): the place before the comma where the data has it near them, else the
    // district; not Broadway, Virginia.
    const after = pieces.length === 1 && within === null ? spaced(this.districtSource, pieces[0]!) : null
    if (after !== null && after.districts.length > 0) {
      const near = placesNear(this.districtSource, head, after.districts)
      return near.length > 0 ? near : isAddressHead(head) ? [] : after.districts
    }
    return within === null ? this.named(head, null, true) : []
  }

  /**
   * The regions `key` names with "State" after or "State of" before ("washington state", "state
   * of washington"): no town so named ("10 Main Street Washington State" is no Washington, DC).
   * Null when it names none so.
   */
  private stateNamed(key: string): PlaceHit[] | null {
    const m = /^(?:state of (.+)|(.+) state)$/.exec(key)
    const name = m?.[1] ?? m?.[2]
    const regions = name === undefined ? [] : this.parts.regions.filter((r) => r.key === name)
    if (regions.length === 0) return null
    return shownOnce(
      regions.map((r) => ({ ...regionHit(r, true), tier: -1 })),
      CANDIDATES,
    )
  }

  /** Whether `key`, or `key` without its last word, is some place's whole name. */
  private isName(key: string): boolean {
    const last = key.lastIndexOf(' ')
    return this.isWholeName(key) || (last > 0 && this.isWholeName(key.slice(0, last)))
  }

  /** Whether some place's name begins with `key`. */
  private begins(key: string): boolean {
    const [from, to] = this.nameKeys.range(utf8.encode(key))
    return to > from
  }

  /** Whether `key` is some place's whole name. */
  private isWholeName(key: string): boolean {
    const p = utf8.encode(key)
    const [from, to] = this.nameKeys.range(p)
    return to > from && this.nameKeys.equals(from, p)
  }

  /**
   * A postcode ending the words after a comma, after a region or alone: "San Francisco, CA 94103",
   * "Paris, 75011". Read as the postcode beside the town (codeWithTown), in that region: none
   * when the region has neither ("San Francisco, TX 94103"). Null when the text is not so written,
   * or, with no region, names nothing so.
   */
  private codeAfter(head: string, pieces: string[]): PlaceHit[] | null {
    const words = nameKey(pieces.at(-1)!).split(' ')
    const start = codeStart(words, 0)
    if (start === words.length) return null
    const regions = [...pieces.slice(0, -1), words.slice(0, start).join(' ')].filter((p) => nameKey(p) !== '')
    const within = regions.length === 0 ? null : withinOf(this.parts.regionKeys, regions, false)
    if (regions.length > 0 && within === null) return null
    const hits = this.named(`${head} ${words.slice(start).join(' ')}`, within, true)
    return hits.length > 0 || within !== null ? hits : null
  }

  /**
   * The places `key` names in `within`; with none, a last word may name it ("portland or"). When
   * nothing is its exact name, a postcode and town in it may (`codes`: codeWithTown).
   */
  private named(key: string, within: Within | null, codes: boolean): PlaceHit[] {
    let hits = this.search(key, within)
    // "Mt Vernon" is every Mount Vernon, not only the one the data also names so (fortMountWritten):
    // the towns whose own name it is written out, found so. Not by an old name: "Ft La" is no
    // N'Djamena (once Fort-Lamy).
    const fortMount = fortMountWritten(key)
    if (fortMount !== null) {
      const written = this.search(fortMount, within).filter((h) => h.main)
      const own = new Set(written.map((h) => h.label))
      hits = [...written, ...hits.filter((h) => !own.has(h.label))]
    }
    if (hits.some((h) => h.exact)) return this.ranked(key, within, hits)
    // "St. Wendel" as the data writes it ("Sankt Wendel"), "Mont-St-A" as "Mont-Saint-A".
    const written = writtenOut(key, hits, (k) => this.search(k, within))
    if (written !== null) return this.ranked(written.key, within, written.found)
    const last = key.lastIndexOf(' ')
    if (within === null && last > 0) {
      const head = key.slice(0, last)
      const by = withinOf(this.parts.regionKeys, [key.slice(last + 1)], false)
      const narrowed = by === null ? [] : this.search(head, by)
      if (narrowed.some((h) => h.exact)) return this.ranked(head, by, narrowed)
      // "Ft Lee NJ" as the data writes it there: Fort Lee, NJ ("Ft Lee" is only Virginia's).
      const spelt = by === null ? null : writtenOut(head, [], (k) => this.search(k, by))
      if (spelt?.found.some((h) => h.exact)) return this.ranked(spelt.key, by, spelt.found)
    }
    const coded = codes ? this.codeWithTown(key, within) : []
    return coded.length > 0 ? shownOnce(coded, CANDIDATES) : this.ranked(key, within, hits)
  }

  /**
   * Whether `key` is looked for with typos beside `hits`, found as typed: when there are none; or
   * from WHOLE_FROM characters, when none is a main name as typed and each is a small place.
   * Not for a text with a digit: a postcode's ("SW1A" is not Swadlincote).
   */
  private wantsTypos(key: string, hits: PlaceHit[]): boolean {
    const n = codePoints(key)
    if (n < TYPOS_FROM || /\d/.test(key)) return false
    if (hits.length === 0) return true
    return n >= WHOLE_FROM && hits.every((h) => h.weight < SMALL_PLACE && !(h.exact && h.main) && !h.sharedOld)
  }

  /** The places `key` begins as typed, in `within` (null: anywhere), each with its tier; in no order. */
  private search(key: string, within: Within | null): PlaceHit[] {
    if (key === '') return []
    const hits: PlaceHit[] = []
    const p = utf8.encode(key)
    const [from, to] = this.nameKeys.range(p)
    if (to > from) {
      // Row -> 3 a main name exact, 2 an alternate one, 1 a main name begins with the text, 0 an
      // alternate one only.
      const towns = new Map<number, number>()
      const named = new Map<number, string>()
      const keep = within === null ? null : this.keepOf(within)
      let longer = from
      for (; longer < to && this.nameKeys.equals(longer, p); longer++) {
        const [town, main] = [this.nameKeys.ref[longer]!, this.nameKeys.main[longer]!]
        if (keep !== null && !keep(town)) continue
        towns.set(town, 2 + main)
        if (main === 0) named.set(town, this.spellings.at(longer))
      }
      // A name that another of the town's goes on from is not shown: "Bruxel" (Bruxelles), "Mila"
      // (Milano) are likely typed only so far; kept as namedBegun, for a text read whole, unless
      // cut short (cutShort). Past NAMED_SCAN longer names, none is shown.
      // Town -> that name, every way written, and the indexes of its names that go on from it.
      const begun = new Map<number, [string, number[]]>()
      if (named.size > 0 && to - longer > NAMED_SCAN) named.clear()
      else if (named.size > 0)
        for (let i = longer; i < to; i++) {
          const town = this.nameKeys.ref[i]!
          if (named.has(town)) begun.set(town, [named.get(town)!, []])
          named.delete(town)
          begun.get(town)?.[1].push(i)
        }
      for (const i of this.bestOf(from, to, p.length, keep)) {
        const town = this.nameKeys.ref[i]!
        if (!towns.has(town)) towns.set(town, this.nameKeys.main[i]!)
      }
      for (const [town, match] of towns) {
        const hit = townHit(this.parts, this.names, town, match, named.get(town))
        const [spelt, on] = begun.get(town) ?? []
        if (otherName(spelt, hit.label) && !cutShort(this.nameKeys, this.spellings, spelt, on!)) hit.namedBegun = spelt
        hits.push(hit)
      }
    }
    const codes = /\d/.test(key) ? codeHits(this.parts, this.codes, this.codeLabel, key, within) : []
    for (const r of this.parts.regions)
      if (r.key.startsWith(key) && (within === null || (!within.regions && within.country(r.country))))
        hits.push(regionHit(r, r.key === key))
    // A region named so wins over its country's alias: "Scotland" is Scotland, not the UK.
    const country = within === null ? this.countryNamed(key) : null
    if (country !== null && !hits.some((h) => h.precision === 'region' && h.exact && h.country === country.country))
      hits.push(country)
    // Exact names first (main or alternate: "Cologne" is Köln), from four characters: "Lo" is more
    // likely London than Lo (Belgium); and of a hamlet only when long: "Barc" is Barcelona cut short.
    // A name its alternate one begins weighs a tenth: "Münch" is Munich, before Münchberg; one it
    // equals weighs whole ("New York" is the city, whose main name is New York City).
    const exactFirst = key.length >= 4
    const wholeName = codePoints(key) >= SMALL_EXACT_FROM
    const biggestOwn = Math.max(
      0,
      ...hits.filter((h) => h.exact && h.main && h.precision === 'city').map((h) => h.weight),
    )
    const biggestMain = Math.max(0, ...hits.filter((h) => h.main && h.precision === 'city').map((h) => h.weight))
    const short = shortWords(key)
    const own = (h: PlaceHit) => shortWords(townKey(h.label)) === short
    // Its own name's first words: what the town is called for short ("Santa Cruz" of Santa Cruz de la Sierra).
    const ownBegun = (h: PlaceHit) => shortWords(townKey(h.label)).startsWith(`${short} `)
    // A name several towns of note bear as another name is an old one they shared (oldNameSharers):
    // meant by none, each weighing a share of that tenth.
    const sharers = oldNameSharers(hits, (h) => own(h) || ownBegun(h))
    const shared = sharers >= 2 ? sharers : 1
    for (const h of hits) {
      const meant =
        h.exact && (own(h) || ((shared === 1 || ownBegun(h)) && h.weight > ALTERNATE_OVER_MAIN * biggestOwn))
      if (!h.main && !meant) {
        // Still the town meant, though weighing a tenth, when far the biggest the text begins a
        // name of: "Münch" is Munich (its own name an alternate one in the data), not Münchenstein.
        if (!h.exact && h.precision === 'city' && h.weight > ALTERNATE_OVER_MAIN * biggestMain) h.meant = true
        if (h.exact && shared > 1 && h.weight >= SMALL_PLACE) h.sharedOld = true
        h.weight /= ALTERNATE_SHARE * (h.exact ? shared : 1)
        // a small place's other name (York, NE's "New York") is not how it is shown
        delete h.named
        delete h.namedBegun
      } else if (!h.main) h.meant = true
      h.tier = exactFirst && h.exact && (wholeName || h.weight >= SMALL_EXACT) ? 0 : 2
    }
    // Another name shows only on the place it is mostly meant for: far the biggest of those the
    // text names whole (Beijing's "Peking", not Pöcking's; none of "New York"'s small towns).
    // So is it meant only there: a store near Pöcking does not lift it over Beijing for "Peking".
    const whole = hits.filter((h) => h.exact)
    for (const h of whole)
      if (whole.some((o) => o !== h && ALTERNATE_OVER_MAIN * o.weight >= h.weight)) {
        delete h.named
        delete h.namedBegun
        if (!own(h)) delete h.meant
      }
    for (const c of codes) c.tier = c.exact ? 0 : 2
    // A part of a town found only by another name that the text begins, within the town, is the
    // town's ("Londonska opshtina Brent", a borough of London, for "Lond"): the town is meant.
    const towns = hits.filter((h) => h.main && h.precision === 'city')
    const partOfTown = (h: PlaceHit) =>
      !h.main &&
      !h.exact &&
      towns.some((t) => t.weight > ALTERNATE_SHARE * h.weight && distanceKm(t.lat, t.lng, h.lat, h.lng) <= DISTRICT_KM)
    // A small town found only by another name the text begins, not meant by it, shows no reason
    // it is found: "Leip" is not Serpneve (Ukraine), once Leipzig. Kept where nothing else is.
    const oddlyNamed = (h: PlaceHit) => !h.main && !h.exact && !h.meant && (h.people ?? 0) < SMALL_PLACE
    const shown = hits.filter((h) => !partOfTown(h))
    const plain = shown.filter((h) => !oddlyNamed(h))
    return [...(plain.length > 0 ? plain : shown), ...codes]
  }

  /**
   * A postcode and its town (codeAndTown): the postcode where the town confirms it, its place's
   * name beginning with the town as typed or a town of that name within CONFIRM_KM; else, when
   * the postcode has a known shape, the town as typed, in the countries whose postcodes look so
   * when any of them has it ("1010 Wien": no data for Austria's postcodes, and Vienna); else,
   * beside a postal district's shape, the town as typed in the district's country ("London W1").
   */
  private codeWithTown(key: string, within: Within | null): PlaceHit[] {
    // Of a whole postcode's shape ("1012 JW": Dutch), only a code beside its town's name begun
    // ("1130 Wi": 1130 Wien), not a town near the code or one as typed.
    const wholly = postcodeCountries(key).length > 0
    for (const { code, town } of codeAndTown(key)) {
      const towns = this.named(town, within, false)
      const confirmed: PlaceHit[] = []
      // The town as typed, and the names of the towns it names exactly ("sydney nsw": sydney).
      const compact = code.replace(/\s+/g, '')
      const names = [town, ...towns.filter((t) => t.exact).map((t) => townKey(t.label))]
      for (const c of codeHits(this.parts, this.codes, this.codeLabel, code, within)) {
        if (!c.exact) continue
        // The town's whole name first ("75001 Paris" before "75001 Paris 1er Arrondissement").
        const label = townKey(c.label)
        c.tier = names.some((n) => label === `${compact} ${n}`)
          ? 0
          : names.some((n) => label.startsWith(`${compact} ${n}`))
            ? 1
            : towns.some((t) => t.exact && distanceKm(t.lat, t.lng, c.lat, c.lng) <= CONFIRM_KM)
              ? 2
              : -1
        if (c.tier >= 0 && !(wholly && c.tier === 2)) confirmed.push(c)
      }
      if (confirmed.length > 0) return confirmed.sort((a, b) => a.tier - b.tier)
      if (towns.length === 0 || wholly) continue
      // Else the town, found as typed, beside what looks like a postcode: not "5th Avenue" or
      // "Route 66", whose words are no postcode and no town.
      const countries = postcodeCountries(code)
      const typed = towns.filter((t) => t.tier < WHOLE_ONE_EDIT)
      const fitting = typed.filter((t) => countries.includes(t.country))
      if (countries.length > 0 && typed.length > 0) return fitting.length > 0 ? fitting : typed
      // A postal district: its town, in its country only ("London W1", "Dublin 2", "Paris 11e").
      const districts = districtCountries(code)
      const inCountry = typed.filter((t) => districts.includes(t.country))
      if (inCountry.length > 0) return inCountry
    }
    return []
  }

  /**
   * `hits`, found as typed for `key` in `within`, with the typos it wants (wantsTypos): the best
   * first, at most CANDIDATES.
   */
  private ranked(key: string, within: Within | null, hits: PlaceHit[]): PlaceHit[] {
    // Four letters a big city's whole name one typo off, beside what they begin, none whole: the
    // city, for a locator with a store near it only ("Wein" is Wien; "Pair" no store's Cairo).
    if (codePoints(key) === TYPOS_FROM && hits.length > 0 && !hits.some((h) => h.exact)) {
      const had = new Set(hits.map((h) => h.label))
      const keep = within === null ? null : this.keepOf(within)
      for (const t of this.bigOneOff(key)) if (!had.has(t.label) && (keep === null || keep(t.town))) hits.push(t.hit)
    } else if (this.wantsTypos(key, hits)) {
      // Beside alternate names as typed, a whole name one letter off ranks with them by its people,
      // an alternate one weighing a tenth as they do: "Müchen" is München (Munich), not the village
      // (Mutzschen) that has it as an alternate name; "Firen" is Florence (Firenze begun), not Düren.
      const had = new Set(hits.map((h) => h.label))
      const tier = hits.some((h) => h.tier === 0) ? 0 : 2
      const typed = hits.length > 0
      for (const t of typoTowns(this.typoSource, key, within === null ? null : this.keepOf(within))) {
        if (had.has(t.label)) continue
        const whole = typed && t.tier === WHOLE_ONE_EDIT
        const weight = t.main ? t.weight / WHOLE_MAIN_WEIGHT : t.weight / ALTERNATE_SHARE
        hits.push(whole ? { ...t, tier, weight } : t)
      }
    }
    hits.sort((a, b) => a.tier - b.tier || b.weight - a.weight)
    return shownOnce(hits, CANDIDATES)
  }

  /**
   * The towns of BIG_TYPO people or more whose whole name is `key` with a letter changed or two
   * neighbours swapped (as long as it: "Kom", Qom, is no typo of "Kolm"), each meant and shown
   * only beside a location near it (PlaceHit.nearOnly), weighing as a whole name found so does.
   */
  private bigOneOff(key: string): { town: number; label: string; hit: PlaceHit }[] {
    return [...this.oneOffs.towns(key)].map(([town, { main, spelt }]) => {
      const hit = townHit(this.parts, this.names, town, 2 + main)
      if (main === 0 && otherName(spelt, hit.label)) hit.namedAs = spelt
      hit.weight = main === 1 ? hit.weight : hit.weight / ALTERNATE_SHARE
      hit.tier = 2
      hit.exact = false
      hit.meant = true
      hit.nearOnly = true
      return { town, label: hit.label, hit }
    })
  }

  /** Whether a town (by row) is in the region or country `within` names. */
  private keepOf(within: Within): (town: number) => boolean {
    const { country, admins, admin1 } = this.parts
    return (town) => within.town(codeText(country[town]!), admins[admin1[town]!]!)
  }

  /**
   * The best towns (bestTowns) of the name keys from..to, which begin with the same `depth` bytes:
   * the prefix's list when it keeps one, else found now; only those `keep` keeps, when given.
   */
  private bestOf(from: number, to: number, depth: number, keep: ((town: number) => boolean) | null = null): Int32Array {
    if (keep !== null) {
      // A short prefix's own list, narrowed; a longer one's names, all looked at.
      if (to - from > KEEP_SCANNED) return this.bestOf(from, to, depth).filter((i) => keep(this.nameKeys.ref[i]!))
      return bestTowns(this.nameKeys, this.parts.population, this.parts.spellings.start, from, to, CANDIDATES, keep)
    }
    if (to - from > LISTED_FROM) {
      const start = this.nameKeys.start[from]!
      const listed = this.parts.listed.get(this.nameKeys.bytes.toString('latin1', start, start + depth))
      if (listed !== undefined) return listed
    }
    return bestTowns(this.nameKeys, this.parts.population, this.parts.spellings.start, from, to, CANDIDATES)
  }

  /** Country `code` (alpha-2) as a place, at its towns' centre with its reach; null when the data has no town of it. */
  country(code: string): PlaceHit | null {
    const c = this.parts.countries.get(code)
    return c === undefined ? null : countryHit(code, c)
  }

  /**
   * The country `key` names whole: by a name of four characters or more ("Germany", "Deutschland"),
   * or an everyday alias ("USA", "UK"); not by a code, which begins too many towns' names ("De").
   */
  private countryNamed(key: string): PlaceHit | null {
    const code = codePoints(key) >= 4 || Object.hasOwn(COUNTRY_ALIASES, key) ? countryCode(key) : null
    const c = code === null ? undefined : this.parts.countries.get(code)
    if (c === undefined) return null
    return countryHit(code!, c)
  }
}
