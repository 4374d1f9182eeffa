// The naive oracle, generators and fixtures shared by the oracle-*.test.ts files.

// The index answers every query exactly as a naive scan of the docs does, after any sequence of
// writes. The oracle below is written independently of the index, but for two things it shares:
// the distance formula (geokdbush's great-circle distance in km: it defines "distance") and the
// text folding (nameKey: the index is given docs whose name and text are folded already, as the
// registry gives them, and the oracle folds the query's words as the index must). nameKey itself
// is proven elsewhere: test/text.test.ts, and oracle-sequences.test.ts, whose oracle folds
// independently (oracleWords).
import { expect } from 'bun:test'
import fc from 'fast-check'
import { distance } from 'geokdbush'
import {
  LocatorIndex,
  type IndexDoc,
  type IndexQuery,
  type SortOrder,
  type TagLogic,
} from '../../src/engine/locator-index'
import { nameKey } from '../../src/core/text'
import { type Bbox, bboxAround, inBbox } from '../helpers'
import { parseDayHours } from '../../src/core/hours'
import { openState } from '../../src/core/opening'
import { ZoneClock } from '../../src/core/zone-clock'
import { type HoursTexts, hoursTextOn, type OpeningHours } from '../../src/engine/locator-index'
import { wordStem } from '../../src/engine/text/fuzzy-terms'
import { type Reading, readInTurn, typedOnlyTownWords, wordsMatch } from '../public/search-oracle'

export const CENTERS = [
  { lat: 48.8566, lng: 2.3522 },
  { lat: 40.7128, lng: -74.006 },
  { lat: -33.8688, lng: 151.2093 },
  { lat: 64.1466, lng: -21.9426 },
  { lat: 0.5, lng: 179.9 }, // near the antimeridian
  { lat: 89.7, lng: -120 }, // near the pole: longitude boxes wrap entirely
  { lat: -60, lng: -179.8 }, // high latitude at the antimeridian
  { lat: 51.5074, lng: -0.1278 }, // Greenwich: kd nodes that span longitude 0
]
export const WORDS = [
  'bike',
  'bikes',
  'biking',
  'café',
  'cafe',
  'zürich',
  'zurich',
  'main',
  'street',
  'saint',
  'sainte',
  'outdoor',
  'ski',
  'store',
  'repair',
  'rue',
  'de',
  'la',
  'mountains',
  'mountaineering',
]
/** Words of towns' names (IndexDoc.places): some a store's own words too, some a typo away from one only towns have. */
const PLACE_WORDS = [
  'xstore',
  'strete',
  'outdorf',
  'zurch',
  'bikes',
  'cafe',
  'montains',
  'repairs',
  'saintes',
  'mountain',
]
/** Words with an ending whose stem begins words of WORDS ("skiing": ski), for the searches neither as typed nor with typos find. */
export const FORMS = [
  'skiing',
  'stores',
  'biked',
  'cafes',
  'streets',
  'repairings',
  'saintes',
  'mountainings',
  'outdoors',
]
/** Words as typed with typos (and a few without any word near them), for the searches that find nothing as typed. */
export const TYPOS = [
  'stret',
  'repiar',
  'outdor',
  'biknig',
  'zurch',
  'saintt',
  'montians',
  'mountins',
  'stroe',
  'cafw',
  'repa',
  'mountainering',
  'mountian',
  'xqzv',
  'bikse',
  'bkies',
  'rpeairs',
]
export const TAGS = ['repairs', 'rentals', 'ski', 'bikes', 'outlet', 'flagship', 'wifi']
const GROUP: Record<string, string> = {
  repairs: 'services',
  rentals: 'services',
  ski: 'products',
  bikes: 'products',
  outlet: 'type',
  flagship: 'type',
}
export const groupOf = (t: string) => GROUP[t] ?? '_default'

/**
 * Opening hours in three zones: a plain week, split shifts with an unread Sunday, past midnight,
 * round the clock, dated exceptions, a week known one day only, and round the clock but a date.
 */
const week = (...days: string[]): HoursTexts => ({ week: days, special: new Map() })
const TEXTS: HoursTexts[] = [
  week('09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', 'closed'),
  week(...Array(5).fill('9-12, 14-19'), '10-16', 'by appointment'),
  week(...Array(7).fill('18:00-02:00')),
  week(...Array(7).fill('24 hours')),
  {
    week: [...Array(6).fill('8am-8pm'), 'closed'],
    special: new Map([
      ['2026-03-28', 'closed'],
      ['2026-03-30', '12:00-14:00'],
    ]),
  },
  week('', '', '08:00-20:00', '', '', '', ''),
  // Open across midnight into a date of other hours: the day's text changes while the state holds.
  { week: Array(7).fill('24 hours'), special: new Map([['2026-03-28', '00:00-20:00']]) },
]
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']
export const HOURS: OpeningHours[] = TEXTS.flatMap((texts) => {
  const schedule = {
    week: texts.week.map(parseDayHours),
    special: new Map([...texts.special].map(([date, text]) => [date, parseDayHours(text)])),
  }
  return ZONES.map((zone) => ({ schedule, texts, clock: new ZoneClock(zone) }))
})
/** The hours text of `t`'s local date, from Intl: the date's own, else its weekday's. */
export function oracleHoursText(hours: OpeningHours, t: number): string {
  const local = new Date(t).toLocaleString('en-US', { timeZone: hours.clock.zone, hour12: false })
  const date = new Date(`${local} UTC`)
  const iso = date.toISOString().slice(0, 10)
  return hours.texts.special.get(iso) ?? hours.texts.week[(date.getUTCDay() + 6) % 7]!
}
/** Instants every 3 h 7 min over four days around Europe's spring change (2026-03-29). */
export const INSTANTS = Array.from({ length: 32 }, (_, i) => Date.parse('2026-03-27T05:00:00Z') + i * 187 * 60_000)
/** openState of each (hours, instant), the reference: found once each. */
const openMemo = new Map<string, { open: boolean | null; next: number | null }>()
function oracleOpen(hours: OpeningHours, t: number) {
  const key = `${HOURS.indexOf(hours)}@${t}`
  let found = openMemo.get(key)
  if (found === undefined) {
    const { open, next } = openState(hours.schedule, hours.clock.zone, t)
    found = { open, next }
    openMemo.set(key, found)
  }
  return found
}
const SPELLINGS = [(t: string) => t, (t: string) => t.toUpperCase(), (t: string) => t[0]!.toUpperCase() + t.slice(1)]
const RAD = Math.PI / 180

/** The point km from (lng, lat) at a bearing (radians): the great-circle destination. */
export function destination(lng: number, lat: number, km: number, bearing: number) {
  const d = km / 6371.0088
  const f1 = lat * RAD
  const f2 = Math.asin(Math.sin(f1) * Math.cos(d) + Math.cos(f1) * Math.sin(d) * Math.cos(bearing))
  const l2 =
    lng * RAD + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(f1), Math.cos(d) - Math.sin(f1) * Math.sin(f2))
  const wrapped = ((((l2 / RAD + 180) % 360) + 360) % 360) - 180
  return { lat: f2 / RAD, lng: wrapped }
}

/** One spot on the antimeridian, written both ways (one meridian), 56 km from CENTERS[4]. */
const ON_ANTIMERIDIAN = [
  { lat: 0, lng: 180 },
  { lat: 0, lng: -180 },
]

/** The point dLat, dLng degrees from CENTERS[c], as valid coordinates (the API rejects a longitude outside -180..180). */
export function nearCentre({ c, dLat, dLng }: { c: number; dLat: number; dLng: number }) {
  const center = CENTERS[c]!
  let lng = center.lng + dLng
  if (lng > 180) lng -= 360
  if (lng < -180) lng += 360
  return { lat: Math.max(-90, Math.min(90, center.lat + dLat)), lng }
}

export const point = fc
  .record({
    c: fc.integer({ min: 0, max: CENTERS.length - 1 }),
    dLat: fc.double({ min: -0.6, max: 0.6, noNaN: true }),
    dLng: fc.double({ min: -0.6, max: 0.6, noNaN: true }),
  })
  .map(nearCentre)

/** Moves docs[n] (n modulo their number) to `to(move)`, or removes it (move null), in the index and in `truth` alike. */
export function moveOrRemove<M>(
  index: LocatorIndex,
  truth: Map<string, IndexDoc>,
  docs: IndexDoc[],
  changes: [number, M | null][],
  to: (move: M) => { lat: number; lng: number },
): void {
  for (const [n, move] of changes) {
    const doc = docs[n % docs.length]!
    if (move === null) {
      index.remove(doc.id)
      truth.delete(doc.id)
    } else {
      const moved = { ...doc, ...to(move) }
      index.upsert(moved)
      truth.set(doc.id, moved)
    }
  }
}

export const docArb = (id: string) =>
  fc
    .record({
      // Now and then on a centre itself: locations at one spot tie in distance, their order and pages by name, then id.
      p: fc.oneof(
        { weight: 6, arbitrary: point },
        { weight: 1, arbitrary: fc.constantFrom(...CENTERS, ...ON_ANTIMERIDIAN) },
      ),
      nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
      moreWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }),
      rare: fc.option(fc.integer({ min: 0, max: 40 }).map((i) => `rare${i}`)), // few docs share it: the word-first plan
      places: fc.option(fc.uniqueArray(fc.constantFrom(...PLACE_WORDS), { minLength: 1, maxLength: 3 }), { freq: 2 }),

      // Tags as sent: in any case (they match case-insensitively), now and then one twice in two spellings.
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 4 }).chain((tags) =>
        fc
          .tuple(
            fc.array(fc.constantFrom(...SPELLINGS), { minLength: tags.length, maxLength: tags.length }),
            fc.option(fc.constantFrom(...SPELLINGS), { freq: 4 }),
          )
          .map(([spell, twice]) => {
            const sent = tags.map((t, i) => spell[i]!(t))
            return twice !== null && tags.length > 0 ? [...sent, twice(tags[0]!)] : sent
          }),
      ),
      rank: fc.integer({ min: 0, max: 3 }),
      json: fc.option(fc.nat()), // opaque to the index: given back with each hit as kept now
      hours: fc.option(fc.constantFrom(...HOURS), { freq: 3 }),
    })
    .map(({ p, nameWords, moreWords, rare, places, tags, rank, json, hours }): IndexDoc => {
      const name = nameWords.join(' ')
      return {
        id,
        lat: p.lat,
        lng: p.lng,
        json,
        nameSort: nameKey(name),
        rank,
        tags,
        text: nameKey([name, ...moreWords, rare ?? '', ...tags].join(' ')),
        ...(places === null ? {} : { places: places.join(' ') }),
        hours,
      }
    })

type Op =
  | { kind: 'upsert'; n: number; doc: IndexDoc }
  | { kind: 'remove'; n: number }
  | { kind: 'setJson'; n: number; json: number | null }
  | { kind: 'upkeep' }
  | { kind: 'step' }
  | { kind: 'check' }
  | { kind: 'compact' }
  | { kind: 'advance'; t: number }
export const opArb: fc.Arbitrary<Op> = fc.integer({ min: 0, max: 60 }).chain((n) =>
  fc.oneof(
    { weight: 8, arbitrary: docArb(`loc_${n}`).map((doc): Op => ({ kind: 'upsert', n, doc })) },
    { weight: 2, arbitrary: fc.constant<Op>({ kind: 'remove', n }) },
    { weight: 1, arbitrary: fc.option(fc.nat()).map((json): Op => ({ kind: 'setJson', n, json })) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'upkeep' }) },
    { weight: 2, arbitrary: fc.constant<Op>({ kind: 'step' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'check' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'compact' }) }, // now, dropping one under way
    { weight: 1, arbitrary: fc.constantFrom(...INSTANTS).map((t): Op => ({ kind: 'advance', t })) },
  ),
)

/**
 * When the index's scheduled upkeep (compaction, the FlexSearch build) runs: at once, when an
 * 'upkeep' op says, or never. No answer may depend on it.
 */
export type Upkeep = 'now' | 'queued' | 'never'
export function upkeep(mode: Upkeep) {
  const tasks: (() => void)[] = []
  return {
    schedule: (task: () => void) => (mode === 'now' ? task() : mode === 'queued' ? tasks.push(task) : undefined),
    run: () => {
      while (tasks.length > 0) tasks.shift()!()
    },
    /** One queued task (a compaction goes in several). */
    step: () => tasks.shift()?.(),
  }
}

/**
 * An empty index of small bounds (leaves of 4, a delta bound of 4, compactions in steps of 16)
 * whose upkeep waits in `tasks`, and the truth beside it: `write` and `remove` change both.
 */
export function queuedIndex() {
  const tasks = upkeep('queued')
  const index = new LocatorIndex([], {
    schedule: tasks.schedule,
    nodeSize: 4,
    deltaMin: 4,
    compactionSlice: 16,
    textMinKeys: 0,
  })
  const truth = new Map<string, IndexDoc>()
  const write = (d: IndexDoc) => {
    index.upsert(d)
    truth.set(d.id, d)
  }
  const remove = (id: string) => {
    index.remove(id)
    truth.delete(id)
  }
  return { tasks, index, truth, write, remove }
}

/** A bbox around a point: up to a degree or so either side, a line (0), or every longitude. */
export const bboxArb = fc
  .record({
    around: point,
    dLng: fc.oneof(fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constantFrom(0, 180)),
    dLat: fc.oneof(fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constantFrom(0, 90)),
  })
  .map(({ around, dLng, dLat }) => bboxAround(around, dLng, dLat))

export const queryArb: fc.Arbitrary<IndexQuery> = fc
  .record({
    radius: fc.boolean(),
    // A bbox query (when radius): its distances from `center`.
    bbox: fc.option(bboxArb, { freq: 3 }),
    center: point,
    radiusKm: fc.oneof(fc.double({ min: 0.5, max: 120, noNaN: true }), fc.constant(1609.344)),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS, 'unknown-tag'), { maxLength: 3 }),
    tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
    search: fc.oneof(
      fc.constant(''),
      fc
        .array(
          fc.constantFrom(
            ...WORDS,
            'bi',
            'sai',
            'zu',
            'caf',
            'x',
            'STORE',
            'Café',
            '!!',
            'rare1',
            'rare23',
            'rare',
            'rare3',
            ...TYPOS,
            ...FORMS,
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((w) => w.join(' ')),
    ),
    sort: fc.constantFrom<SortOrder>('distance', 'name', 'priority'),
    // Now and then the API's largest offset (2^53 - 1), or its largest limit.
    offset: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 30 }) }, fc.constant(Number.MAX_SAFE_INTEGER)),
    limit: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 25 }) }, fc.constant(500)),
    openAt: fc.option(fc.constantFrom(...INSTANTS), { freq: 2 }),
  })
  .map((q) => ({
    center: q.radius ? q.center : null,
    radiusKm: q.radiusKm,
    bbox: q.radius ? q.bbox : null,
    tags: q.tags,
    tagLogic: q.tagLogic,
    groupOf,
    search: q.search,
    sort: q.radius ? q.sort : q.sort === 'distance' ? 'name' : q.sort,
    offset: q.offset,
    limit: q.limit,
    openAt: q.openAt,
  }))

/**
 * The naive answer: scan every doc; when nothing matches the words as typed, again with typos
 * allowed; when nothing matches that way either, by their forms (each word with an ending cut to
 * wordStem's stem, and taken as a prefix).
 */
export function oracle(docs: IndexDoc[], q: IndexQuery) {
  const words = nameKey(q.search)
    .split(' ')
    .filter((w) => w !== '')
  const typedOnly = () => {
    const own = new Set(docs.flatMap((doc) => doc.text.split(' ')))
    const all = new Set(docs.flatMap((doc) => `${doc.text} ${doc.places ?? ''}`.split(' ')).filter((t) => t !== ''))
    return typedOnlyTownWords(all, own, words)
  }
  const read = (reading: Reading) => oracleWith(docs, q, words, reading)
  return readInTurn(words, read, (r) => r.total > 0, typedOnly, wordStem)
}

function oracleWith(docs: IndexDoc[], q: IndexQuery, words: string[], reading: Reading) {
  const rows: { doc: IndexDoc; distanceKm: number | null }[] = []
  const ownWords = new Set(docs.flatMap((doc) => doc.text.split(' ')))
  for (const sent of docs) {
    const doc = { ...sent, tags: sent.tags.map((t) => t.toLowerCase()) }
    const d = q.center ? distance(q.center.lng, q.center.lat, doc.lng, doc.lat) : null
    if (q.bbox != null ? !inBbox(q.bbox as Bbox, doc) : d !== null && d > q.radiusKm) continue
    if (q.openAt != null && !(doc.hours && oracleOpen(doc.hours, q.openAt).open === true)) continue
    if (q.tags.length > 0) {
      if (q.tagLogic === 'any' && !q.tags.some((t) => doc.tags.includes(t))) continue
      if (q.tagLogic === 'all' && !q.tags.every((t) => doc.tags.includes(t))) continue
      if (q.tagLogic === 'match') {
        const groups = [...new Set(q.tags.map(q.groupOf))]
        if (!groups.every((g) => q.tags.some((t) => q.groupOf(t) === g && doc.tags.includes(t)))) continue
      }
    }
    const tokens = `${doc.text} ${doc.places ?? ''}`.split(' ').filter((t) => t !== '')
    if (!wordsMatch(tokens, words, reading, ownWords, wordStem)) continue
    rows.push({ doc, distanceKm: d })
  }
  const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  rows.sort((a, b) => {
    if (q.sort === 'priority' && a.doc.rank !== b.doc.rank) return a.doc.rank - b.doc.rank
    if (q.sort !== 'name' && q.center && a.distanceKm !== b.distanceKm) return a.distanceKm! - b.distanceKm!
    return cmpStr(a.doc.nameSort, b.doc.nameSort) || cmpStr(a.doc.id, b.doc.id)
  })
  return {
    total: rows.length,
    ids: rows.slice(q.offset, q.offset + q.limit).map((r) => [r.doc.id, r.distanceKm, r.doc.json]),
    // Each open location's next change (an open hit's state is open), and its hours that day.
    next:
      q.openAt == null
        ? []
        : rows.slice(q.offset, q.offset + q.limit).map((r) => oracleOpen(r.doc.hours!, q.openAt!).next ?? NaN),
    today:
      q.openAt == null
        ? []
        : rows.slice(q.offset, q.offset + q.limit).map((r) => oracleHoursText(r.doc.hours!, q.openAt!)),
  }
}

/** Each tag the docs carry, lowercased, with the spelling most docs have (of equals, the first in code unit order). */
export function spellingsOracle(docs: IndexDoc[]) {
  const uses = new Map<string, Map<string, number>>()
  for (const doc of docs) {
    for (const t of new Set(doc.tags)) {
      const spelt = uses.get(t.toLowerCase()) ?? new Map<string, number>()
      uses.set(t.toLowerCase(), spelt.set(t, (spelt.get(t) ?? 0) + 1))
    }
  }
  const best = (spelt: Map<string, number>) => [...spelt].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))[0]![0]
  return [...uses].map(([tag, spelt]) => ({ tag, spelt: best(spelt) })).sort((a, b) => (a.tag < b.tag ? -1 : 1))
}

export const spellings = (index: LocatorIndex) => index.tagSpellings().sort((a, b) => (a.tag < b.tag ? -1 : 1))

export const answer = (index: LocatorIndex, q: IndexQuery) => {
  const r = index.query(q)
  return {
    total: r.total,
    ids: r.hits.map((h) => [index.entryAt(h.key).id, h.distanceKm, h.json]),
    next: q.openAt == null ? [] : r.hits.map((h) => index.openState(h.key).next),
    // Kept per key until its state is found again: stale if that is not done by local midnight.
    today: q.openAt == null ? [] : r.hits.map((h) => index.openMade(h.key, (s, hours) => hoursTextOn(hours!, s.at))),
  }
}

/** entriesInSpaceOrder() holds every live location once, as its current entry. */
export function inSpaceOrderOnce(index: LocatorIndex, truth: Map<string, IndexDoc>): void {
  const entries = index.entriesInSpaceOrder()
  expect(entries.map((e) => e.id).sort()).toEqual([...truth.keys()].sort())
  for (const e of entries) expect(index.get(e.id)).toBe(e)
}
