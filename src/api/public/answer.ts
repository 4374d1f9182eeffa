// The body of GET /locations: the index's hits assembled, as bytes, from each location's
// pre-serialized JSON, with pagination and meta written as JSON.stringify would write them.
import { isoWithOffset } from '../../core/opening'
import {
  hoursTextOn,
  type IndexHit,
  type KeyOpenState,
  OPEN,
  type OpeningHours,
  UNKNOWN,
} from '../../engine/locator-index'
import { changedMeanwhile } from '../../indexes/errors'
import { type Entry, tagWords } from '../../indexes/entry'
import type { IndexRegistry } from '../../indexes/registry'
import { DEFAULT_FILTER_GROUP } from '../../store/filters'
import type { Locator } from '../../store/locators'
import { PublicError } from './errors'
import { convert, isPlainQuery, parseLocationsRequest, queryParams } from './params'
import { askerOf, placeNamed, type Places } from './places'
import { beforeAndQuery } from './url'
import { countAnswer } from './young-garbage'

/**
 * Writes String(Math.round(x * 100) / 100) into `out` at `pos` (ASCII); returns the position after
 * it. Digits are written from integers, cheaper than formatting a fraction or making any number
 * text (PERF-036). The same text: below 1e10 a double is finer than a thousandth, so n / 100
 * prints as the digits of n, trailing zeros dropped. Beyond that (no distance on Earth), or for
 * x < 0, the fraction is formatted. At most 25 bytes.
 */
export function writeHundredths(out: Uint8Array, pos: number, x: number): number {
  const n = Math.round(x * 100)
  if (!(n >= 0 && n < 1e12)) return ascii(out, pos, String(n / 100))
  const cents = n % 100
  let whole = (n - cents) / 100
  let digits = 1
  for (let w = whole; w >= 10; w = Math.floor(w / 10)) digits++
  for (let i = pos + digits - 1; i >= pos; i--) {
    out[i] = 48 + (whole % 10)
    whole = Math.floor(whole / 10)
  }
  pos += digits
  if (cents !== 0) {
    out[pos++] = 46 // "."
    out[pos++] = 48 + Math.floor(cents / 10)
    if (cents % 10 !== 0) out[pos++] = 48 + (cents % 10)
  }
  return pos
}

/**
 * Writes a whole number from 0 to 2^53 - 1 (an offset, a limit, a total) as String() writes it:
 * below 1e10 as writeHundredths writes it (its digits); above, n * 100 may be no whole number
 * (offset 883048416149842 would come out as 883048416149841.9).
 */
function writeWhole(out: Uint8Array, pos: number, n: number): number {
  return n < 1e10 ? writeHundredths(out, pos, n) : ascii(out, pos, String(n))
}

/** Writes text known to be ASCII into `out` at `pos`; returns the position after it. */
export function ascii(out: Uint8Array, pos: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[pos + i] = text.charCodeAt(i)
  return pos + text.length
}

/**
 * Writes `from` into `out` at `pos`; returns the position after it. For the answer's constant
 * parts: faster than writing them from their text (PERF-007).
 */
function bytes(out: Uint8Array, pos: number, from: Uint8Array): number {
  for (let i = 0; i < from.length; i++) out[pos + i] = from[i]!
  return pos + from.length
}

/** Text JSON.stringify would only put in quotes: printable ASCII without `"` or `\`. */
const PLAIN_JSON_TEXT = /^[ !#-[\]-~]*$/

const HAS_OFFSET = /(?:^|&)offset=/
const EMPTY_BRACKETS = /\[\]/g

/** The last origin and path found to be plain JSON text (a locator's answers share theirs): tested once. */
let plainAt = ''

/**
 * The previous page's offset: the `limit` results before this page, or, past the end, the last
 * `limit` there are (another empty page would lead nowhere).
 */
export const prevOffset = (offset: number, limit: number, total: number): number =>
  Math.max(0, Math.min(offset, total) - limit)

/**
 * An answer's pagination links, for its URL as beforeAndQuery cuts it (`at`: origin, path and "?";
 * `query`: the query string; `plain`: whether it is, as isPlainQuery says): for each `to`, the
 * URL with its offset parameter set to `to`, as URLSearchParams writes it, as a JSON string
 * (JSON.stringify's text). For a plain query string,
 * that is the same string, its brackets encoded, with "&offset=<to>" added, or with its first
 * offset pair's value replaced and any later ones dropped (URLSearchParams.set): the text around
 * the number is made once for both links (test/public/query-string.test.ts checks the two agree).
 * Made per link (URL getters, the pattern, the split and the JSON test twice), next and prev
 * would be a large share of an all=true answer (PERF-009).
 */
export function pageLinks(at: string, query: string, plain = isPlainQuery(query)): (to: number) => string {
  if (!plain) {
    return (to) => {
      const q = new URLSearchParams(`?${query}`) // a leading "?" of the query is its own
      q.set('offset', String(to))
      return JSON.stringify(`${at}${q}`)
    }
  }
  let search = query
  if (search.includes('[') || search.includes(']')) {
    // "[]" (tags[]) first, in one pattern, cheaper than two replaceAll calls (PERF-029). Any
    // other bracket after.
    search = search.replace(EMPTY_BRACKETS, '%5B%5D')
    if (search.includes('[') || search.includes(']')) search = search.replaceAll('[', '%5B').replaceAll(']', '%5D')
  }
  if (search.includes(',')) search = search.replaceAll(',', '%2C') // bbox=

  // The link is head, the number, tail.
  let head = `${at}${search}&offset=`
  let tail = ''
  const found = HAS_OFFSET.exec(search)
  if (found !== null) {
    const pair = found.index + (search.charCodeAt(found.index) === 0x26 ? 1 : 0) // "&"
    const end = search.indexOf('&', pair)
    head = `${at}${search.slice(0, pair)}offset=`
    tail = end === -1 ? '' : search.slice(end)
    if (HAS_OFFSET.test(tail))
      tail = tail
        .split('&')
        .filter((p) => p !== '' && !p.startsWith('offset='))
        .map((p) => `&${p}`)
        .join('')
  }
  // A plain query string is plain JSON text: only the origin and path are left to test.
  if (at !== plainAt) {
    if (!PLAIN_JSON_TEXT.test(at)) return (to) => JSON.stringify(`${head}${to}${tail}`)
    plainAt = at
  }
  return (to) => `"${head}${to}${tail}"`
}

/**
 * The body of GET /locations for a full public URL, as UTF-8: the index's answer assembled from
 * pre-serialized fragments (the benchmark calls this too). Throws PublicError for bad parameters.
 * The body is written in the registry's answer buffer: valid until the next answer is made. A
 * Response or a Blob made from it copies it; anything that keeps it otherwise must copy it.
 */
export function locationsBody(
  registry: IndexRegistry,
  locator: Locator,
  href: string,
  places: Places = null,
): { body: Uint8Array; total: number } {
  countAnswer()
  for (let attempt = 1; ; attempt++) {
    const answer = locationsAnswer(registry, locator, href, places)
    if (answer !== null) return answer
    // A location's row vanished between the sync and its JSON (another process's write): again, synced.
    if (attempt === 3) throw changedMeanwhile()
    registry.sync()
  }
}

const NO_HOURS = Buffer.from(',"open_now":null,"next_change":null,"hours_today":null')
/**
 * The texts openText made, by state, instant, zone and the day's hours: the locations of a zone
 * share a few (they open and close at the same hours), so one Buffer each, not one per location,
 * which the collector would walk at every collection.
 */
const openTexts = new Map<string, Buffer>()
/** The open texts of the answer being made, by hit: reused by every answer (one is made at a time). */
const opens: Buffer[] = []

/**
 * A location's open state as the text its JSON ends with (before its distance): open_now,
 * next_change in the location's own offset then, and hours_today, the hours text of its local
 * date. Kept per location until its state is found again (LocatorIndex.openMade), which is by
 * the end of its local day.
 */
export function openText({ state, next, at }: KeyOpenState, hours: OpeningHours | null): Buffer {
  if (hours === null) return NO_HOURS
  let today = ''
  try {
    today = hoursTextOn(hours, at)
  } catch {
    // A zone this runtime's Intl does not know (a row written otherwise): its day is not known.
  }
  const key = `${state} ${next} ${hours.clock.zone}\n${today}`
  let text = openTexts.get(key)
  if (text === undefined) {
    if (openTexts.size >= 10_000) openTexts.clear()
    const change =
      state === UNKNOWN || Number.isNaN(next) ? 'null' : `"${isoWithOffset(next, hours.clock.offsetAt(next))}"`
    const open = state === UNKNOWN ? 'null' : String(state === OPEN)
    const day = today === '' ? 'null' : JSON.stringify(today)
    text = Buffer.from(`,"open_now":${open},"next_change":${change},"hours_today":${day}`)
    openTexts.set(key, text)
  }
  return text
}

/**
 * A hit's location JSON with its open state, closed, no distance (GET /clusters/{id}/leaves); null
 * if its row vanished meanwhile. The index's open states must be brought to now first (openAt).
 */
export function locationJson(
  registry: IndexRegistry,
  locator: Locator,
  entry: Entry,
  hit: IndexHit,
): Uint8Array | null {
  const slot = hit.json ?? registry.json(locator.id, entry, entry.index.entryAt(hit.key), null)
  if (slot === null) return null
  const open = entry.index.openMade(hit.key, openText)
  const out = new Uint8Array(entry.arena.size(slot) + open.length + 1)
  out[bytes(out, entry.arena.copy(slot, out, 0), open)] = 0x7d // "}"
  return out
}

/** The body of GET /locations/{id}: the location's JSON with its open state. Throws LOCATION_NOT_FOUND. */
export function locationBody(registry: IndexRegistry, locator: Locator, id: string | undefined): Uint8Array {
  const entry = registry.entry(locator.id)
  const doc = typeof id === 'string' ? entry.index.get(id) : null
  const slot = doc ? registry.json(locator.id, entry, doc) : null
  if (slot === null) {
    // Elysia gives no id for a path segment that is not valid percent-encoded UTF-8 ("%zz").
    const what =
      typeof id !== 'string'
        ? 'The location ID in the path is not valid percent-encoded UTF-8.'
        : `Location ${JSON.stringify(id)} was not found.`
    throw new PublicError('LOCATION_NOT_FOUND', what)
  }
  entry.index.openAt(registry.now())
  const open = entry.index.openMade(entry.index.keyOf(doc!), openText)
  const body = new Uint8Array(LOCATION_HEAD.length + entry.arena.size(slot) + open.length + 3)
  const end = bytes(body, entry.arena.copy(slot, body, bytes(body, 0, LOCATION_HEAD)), open)
  ascii(body, end, '}}}')
  return body
}

const LOCATION_HEAD = Buffer.from('{"success":true,"data":{"location":')
const LOCATIONS_HEAD = Buffer.from('{"success":true,"data":{"locations":[')
const DISTANCE = Buffer.from(',"distance":{"value":')
const UNIT_CLOSE = { km: Buffer.from(',"unit":"km"}}'), miles: Buffer.from(',"unit":"miles"}}') } as const
/** The most bytes a location's JSON is followed by, besides its open state: ",", the distance and the closing braces. */
const AFTER_LOCATION = 1 + DISTANCE.length + 25 + UNIT_CLOSE.miles.length
// The answer's end: pagination, then meta (its numbers and links between these bytes).
const PAGINATION_OFFSET = Buffer.from('],"pagination":{"offset":')
const PAGINATION_LIMIT = Buffer.from(',"limit":')
const PAGINATION_TOTAL = Buffer.from(',"total":')
const HAS_MORE = { true: Buffer.from(',"hasMore":true'), false: Buffer.from(',"hasMore":false') } as const
const NEXT = Buffer.from(',"next":')
const PREV = Buffer.from(',"prev":')
const META_LAT = Buffer.from('}},"meta":{"query":{"center":{"lat":')
/** A bbox query's meta begins with its box, then its centre: META_BBOX, the box's JSON, META_BBOX_LAT. */
const META_BBOX = Buffer.from('}},"meta":{"query":{"bbox":')
const META_BBOX_LAT = Buffer.from(',"center":{"lat":')
const META_LNG = Buffer.from(',"lng":')
const META_LABEL = Buffer.from(',"label":')
const META_RADIUS = Buffer.from('},"radius":')
const META_UNIT_CLOSE = { km: Buffer.from(',"unit":"km"}}}'), miles: Buffer.from(',"unit":"miles"}}}') } as const
const META_NONE = Buffer.from('}},"meta":{}}')
/** The most bytes of the answer's end besides its links and the centre's and radius's text: its constant parts and 3 integers. */
const TRAILER_BYTES =
  PAGINATION_OFFSET.length +
  PAGINATION_LIMIT.length +
  PAGINATION_TOTAL.length +
  3 * 25 +
  HAS_MORE.false.length +
  NEXT.length +
  PREV.length +
  Math.max(META_LAT.length, META_BBOX.length + META_BBOX_LAT.length) +
  META_LNG.length +
  META_RADIUS.length +
  META_UNIT_CLOSE.miles.length

function locationsAnswer(
  registry: IndexRegistry,
  locator: Locator,
  href: string,
  places: Places,
): { body: Uint8Array; total: number } | null {
  const entry = registry.entry(locator.id)
  const groupOf = (tag: string) => entry.ctx.groupOfTag.get(tag)?.group.id ?? DEFAULT_FILTER_GROUP
  const [at, search] = beforeAndQuery(href)
  const params = queryParams(search)
  const now = registry.now()
  const req = parseLocationsRequest(params, locator, groupOf, now, (text) =>
    placeNamed(places, entry.index, text, askerOf(params, tagWords(entry))),
  )
  const { total, hits } = entry.index.query(req.query)
  const { arena, index } = entry
  index.openAt(now)

  // Pagination and meta written as JSON.stringify writes them (numbers: finite, so as String()
  // writes them; the links quoted and escaped as it would), without making objects to stringify,
  // and as bytes, not as a string to encode, which is slower (PERF-018).
  const { offset, limit, center } = req.query
  const more = offset + limit < total
  // queryParams read a query string that is not plain with URLSearchParams: it is not tested twice.
  const link = more || offset > 0 ? pageLinks(at, search, !(params instanceof URLSearchParams)) : null
  const next = more ? link!(offset + limit) : ''
  const prev = offset > 0 ? link!(prevOffset(offset, limit, total)) : ''
  const lat = center ? String(center.lat) : ''
  const lng = center ? String(center.lng) : ''
  // A bbox query's meta has its box where a radius query's has its radius.
  const radius = req.bbox !== null ? '' : center ? String(req.radius) : ''
  const box = req.bbox === null ? '' : `[${req.bbox.join(',')}]`
  const label = req.label === null ? '' : JSON.stringify(req.label)

  // Written once, in a buffer with room for the most the answer can take, and sent as far as written.
  const slots: number[] = new Array(hits.length)
  // At most 3 bytes of UTF-8 per UTF-16 unit: room enough without counting them.
  let room =
    LOCATIONS_HEAD.length +
    TRAILER_BYTES +
    3 * (next.length + prev.length + label.length) +
    META_LABEL.length +
    lat.length +
    lng.length +
    radius.length +
    box.length
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i]!
    const slot = hit.json ?? registry.json(locator.id, entry, entry.index.entryAt(hit.key), null)
    if (slot === null) return null
    slots[i] = slot
    opens[i] = index.openMade(hit.key, openText)
    room += arena.size(slot) + opens[i]!.length + AFTER_LOCATION
  }
  const body = registry.answerBuffer(room)
  const unitClose = UNIT_CLOSE[req.unit]
  let pos = bytes(body, 0, LOCATIONS_HEAD)
  for (let i = 0; i < hits.length; i++) {
    if (i > 0) body[pos++] = 0x2c // ","
    pos = arena.copy(slots[i]!, body, pos)
    pos += opens[i]!.copy(body, pos)
    // The JSON is kept open (no closing "}"): open now, then the distance, go last, inside.
    const km = hits[i]!.distanceKm
    if (km === null)
      body[pos++] = 0x7d // "}"
    else pos = bytes(body, writeHundredths(body, bytes(body, pos, DISTANCE), convert(km, 'km', req.unit)), unitClose)
  }
  pos = writeWhole(body, bytes(body, pos, PAGINATION_OFFSET), offset)
  pos = writeWhole(body, bytes(body, pos, PAGINATION_LIMIT), limit)
  pos = writeWhole(body, bytes(body, pos, PAGINATION_TOTAL), total)
  pos = bytes(body, pos, more ? HAS_MORE.true : HAS_MORE.false)
  if (more) {
    pos = bytes(body, pos, NEXT)
    pos += body.write(next, pos)
  }
  if (offset > 0) {
    pos = bytes(body, pos, PREV)
    pos += body.write(prev, pos)
  }
  if (center) {
    if (box === '') pos = ascii(body, bytes(body, pos, META_LAT), lat)
    else pos = ascii(body, bytes(body, ascii(body, bytes(body, pos, META_BBOX), box), META_BBOX_LAT), lat)
    pos = ascii(body, bytes(body, pos, META_LNG), lng)
    if (label !== '') {
      pos = bytes(body, pos, META_LABEL)
      pos += body.write(label, pos)
    }
    if (box === '') pos = ascii(body, bytes(body, pos, META_RADIUS), radius)
    else body[pos++] = 0x7d // "}": the centre's
    pos = bytes(body, pos, META_UNIT_CLOSE[req.unit])
  } else pos = bytes(body, pos, META_NONE)
  return { body: body.subarray(0, pos), total }
}
