// The index answers every query exactly as a naive scan of the docs does, after any sequence of
// writes. The oracle below is written independently of the index, but for two things it shares:
// the distance formula (geokdbush's great-circle distance in km: it defines "distance") and the
// text folding (nameKey: the index is given docs whose name and text are folded already, as the
// registry gives them, and the oracle folds the query's words as the index must). nameKey itself
// is proven elsewhere: test/text.test.ts, and oracle-sequences.test.ts, whose oracle folds
// independently (oracleWords).
import { describe, expect, test } from 'bun:test'
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
import { type Bbox, bboxAround, editDistances, inBbox, typosAllowed } from '../helpers'
import { parseDayHours } from '../../src/core/hours'
import { openState } from '../../src/core/opening'
import { ZoneClock } from '../../src/core/zone-clock'
import { type HoursTexts, hoursTextOn, type OpeningHours } from '../../src/engine/locator-index'

const CENTERS = [
  { lat: 48.8566, lng: 2.3522 },
  { lat: 40.7128, lng: -74.006 },
  { lat: -33.8688, lng: 151.2093 },
  { lat: 64.1466, lng: -21.9426 },
  { lat: 0.5, lng: 179.9 }, // near the antimeridian
  { lat: 89.7, lng: -120 }, // near the pole: longitude boxes wrap entirely
  { lat: -60, lng: -179.8 }, // high latitude at the antimeridian
  { lat: 51.5074, lng: -0.1278 }, // Greenwich: kd nodes that span longitude 0
]
const WORDS = [
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
/** Words as typed with typos (and a few without any word near them), for the searches that find nothing as typed. */
const TYPOS = [
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
]
const TAGS = ['repairs', 'rentals', 'ski', 'bikes', 'outlet', 'flagship', 'wifi']
const GROUP: Record<string, string> = {
  repairs: 'services',
  rentals: 'services',
  ski: 'products',
  bikes: 'products',
  outlet: 'type',
  flagship: 'type',
}
const groupOf = (t: string) => GROUP[t] ?? '_default'

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
const HOURS: OpeningHours[] = TEXTS.flatMap((texts) => {
  const schedule = {
    week: texts.week.map(parseDayHours),
    special: new Map([...texts.special].map(([date, text]) => [date, parseDayHours(text)])),
  }
  return ZONES.map((zone) => ({ schedule, texts, clock: new ZoneClock(zone) }))
})
/** The hours text of `t`'s local date, from Intl: the date's own, else its weekday's. */
function oracleHoursText(hours: OpeningHours, t: number): string {
  const local = new Date(t).toLocaleString('en-US', { timeZone: hours.clock.zone, hour12: false })
  const date = new Date(`${local} UTC`)
  const iso = date.toISOString().slice(0, 10)
  return hours.texts.special.get(iso) ?? hours.texts.week[(date.getUTCDay() + 6) % 7]!
}
/** Instants every 3 h 7 min over four days around Europe's spring change (2026-03-29). */
const INSTANTS = Array.from({ length: 32 }, (_, i) => Date.parse('2026-03-27T05:00:00Z') + i * 187 * 60_000)
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
function destination(lng: number, lat: number, km: number, bearing: number) {
  const d = km / 6371.0088
  const f1 = lat * RAD
  const f2 = Math.asin(Math.sin(f1) * Math.cos(d) + Math.cos(f1) * Math.sin(d) * Math.cos(bearing))
  const l2 =
    lng * RAD + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(f1), Math.cos(d) - Math.sin(f1) * Math.sin(f2))
  const wrapped = ((((l2 / RAD + 180) % 360) + 360) % 360) - 180
  return { lat: f2 / RAD, lng: wrapped }
}

/** The point dLat, dLng degrees from CENTERS[c], as valid coordinates (the API rejects a longitude outside -180..180). */
function nearCentre({ c, dLat, dLng }: { c: number; dLat: number; dLng: number }) {
  const center = CENTERS[c]!
  let lng = center.lng + dLng
  if (lng > 180) lng -= 360
  if (lng < -180) lng += 360
  return { lat: Math.max(-90, Math.min(90, center.lat + dLat)), lng }
}

const point = fc
  .record({
    c: fc.integer({ min: 0, max: CENTERS.length - 1 }),
    dLat: fc.double({ min: -0.6, max: 0.6, noNaN: true }),
    dLng: fc.double({ min: -0.6, max: 0.6, noNaN: true }),
  })
  .map(nearCentre)

/** Moves docs[n] (n modulo their number) to `to(move)`, or removes it (move null), in the index and in `truth` alike. */
function moveOrRemove<M>(
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

const docArb = (id: string) =>
  fc
    .record({
      p: point,
      nameWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
      moreWords: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }),
      rare: fc.option(fc.integer({ min: 0, max: 40 }).map((i) => `rare${i}`)), // few docs share it: the word-first plan

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
    .map(({ p, nameWords, moreWords, rare, tags, rank, json, hours }): IndexDoc => {
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
const opArb: fc.Arbitrary<Op> = fc.integer({ min: 0, max: 60 }).chain((n) =>
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
type Upkeep = 'now' | 'queued' | 'never'
function upkeep(mode: Upkeep) {
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
function queuedIndex() {
  const tasks = upkeep('queued')
  const index = new LocatorIndex([], { schedule: tasks.schedule, nodeSize: 4, deltaMin: 4, compactionSlice: 16 })
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
const bboxArb = fc
  .record({
    around: point,
    dLng: fc.oneof(fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constantFrom(0, 180)),
    dLat: fc.oneof(fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constantFrom(0, 90)),
  })
  .map(({ around, dLng, dLat }) => bboxAround(around, dLng, dLat))

const queryArb: fc.Arbitrary<IndexQuery> = fc
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
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((w) => w.join(' ')),
    ),
    sort: fc.constantFrom<SortOrder>('distance', 'name', 'priority'),
    offset: fc.integer({ min: 0, max: 30 }),
    limit: fc.integer({ min: 1, max: 25 }),
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

/** The naive answer: scan every doc; when nothing matches the words as typed, again with typos allowed. */
function oracle(docs: IndexDoc[], q: IndexQuery) {
  const words = nameKey(q.search)
    .split(' ')
    .filter((w) => w !== '')
  const exact = oracleWith(docs, q, words, false)
  if (exact.total > 0 || !words.some((w) => typosAllowed(w) > 0)) return exact
  return oracleWith(docs, q, words, true)
}

function oracleWith(docs: IndexDoc[], q: IndexQuery, words: string[], typos: boolean) {
  const rows: { doc: IndexDoc; distanceKm: number | null }[] = []
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
    if (words.length > 0 && !typos) {
      const tokens = doc.text.split(' ')
      const last = words[words.length - 1]!
      if (!words.slice(0, -1).every((w) => tokens.includes(w))) continue
      if (!tokens.some((t) => t.startsWith(last))) continue
    }
    if (typos) {
      const tokens = doc.text.split(' ').filter((t) => t !== '')
      const near = (w: string, last: boolean) =>
        tokens.some((t) => editDistances(w, t)[last ? 1 : 0] <= typosAllowed(w))
      if (!words.every((w, i) => near(w, i === words.length - 1))) continue
    }
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
function spellingsOracle(docs: IndexDoc[]) {
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

const spellings = (index: LocatorIndex) => index.tagSpellings().sort((a, b) => (a.tag < b.tag ? -1 : 1))

const answer = (index: LocatorIndex, q: IndexQuery) => {
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
function inSpaceOrderOnce(index: LocatorIndex, truth: Map<string, IndexDoc>): void {
  const entries = index.entriesInSpaceOrder()
  expect(entries.map((e) => e.id).sort()).toEqual([...truth.keys()].sort())
  for (const e of entries) expect(index.get(e.id)).toBe(e)
}

describe('LocatorIndex agrees with a naive scan', () => {
  test('after random writes (enough to compact the base, often while a compaction is under way), for random queries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Upkeep>('now', 'queued', 'never'),
        fc.constantFrom(2, 5, 64),
        fc.array(opArb, { maxLength: 400, size: 'max' }),
        fc.array(queryArb, { minLength: 1, maxLength: 8 }),
        (mode, nodeSize, ops, queries) => {
          const tasks = upkeep(mode)
          // FlexSearch rebuilt often; small kd leaves make deep trees of few points, small chunks of
          // the name order split and empty; a small delta compacts often, in steps of a few positions
          // (queued: one step per 'step' op, with writes and queries between them).
          const small = nodeSize === 64 ? undefined : nodeSize - 1
          const index = new LocatorIndex([], {
            schedule: tasks.schedule,
            textGarbageMin: 8,
            nodeSize,
            nameChunk: small,
            deltaMin: 4,
            compactionSlice: small,
          })
          const truth = new Map<string, IndexDoc>()
          for (const op of ops) {
            if (op.kind === 'upkeep') tasks.run()
            else if (op.kind === 'step') tasks.step()
            else if (op.kind === 'advance') index.openAt(op.t)
            else if (op.kind === 'compact') index.compact()
            else if (op.kind === 'check') {
              expect(answer(index, queries[0]!)).toEqual(oracle([...truth.values()], queries[0]!))
              expect(spellings(index)).toEqual(spellingsOracle([...truth.values()]))
              inSpaceOrderOnce(index, truth)
            } else if (op.kind === 'upsert') {
              const before = index.get(op.doc.id)
              index.upsert(op.doc)
              truth.set(op.doc.id, op.doc)
              // The replaced entry's JSON place is no longer its id's, nor settable through it.
              if (before !== null) {
                expect(index.json(before)).toBeNull()
                expect(index.setJson(before, 7)).toBe(false)
              }
              expect(index.json(index.get(op.doc.id)!)).toBe(op.doc.json)
            } else if (op.kind === 'setJson') {
              const doc = index.get(`loc_${op.n}`)
              if (doc !== null) {
                expect(index.setJson(doc, op.json)).toBe(true)
                truth.set(doc.id, { ...truth.get(doc.id)!, json: op.json })
              }
            } else {
              index.remove(`loc_${op.n}`)
              truth.delete(`loc_${op.n}`)
            }
          }
          expect(index.size).toBe(truth.size)
          for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          expect(spellings(index)).toEqual(spellingsOracle([...truth.values()]))
          inSpaceOrderOnce(index, truth)
        },
      ),
      { numRuns: 150 },
    )
  })

  test('built in one go from many docs, then queried', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Upkeep>('now', 'never'),
        fc.constantFrom(2, 5, 64),
        fc
          .array(fc.nat(), { minLength: 0, maxLength: 700, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(queryArb, { minLength: 1, maxLength: 5 }),
        (mode, nodeSize, docs, queries) => {
          const index = new LocatorIndex(docs, {
            schedule: upkeep(mode).schedule,
            nodeSize,
            nameChunk: nodeSize === 64 ? undefined : nodeSize - 1,
          })
          for (const q of queries) expect(answer(index, q)).toEqual(oracle(docs, q))
        },
      ),
      { numRuns: 40 },
    )
  })

  test('typos over common words (in base columns, not FlexSearch) with locations written since the base: the delta counts too', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { minLength: 300, maxLength: 600, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(fc.tuple(fc.nat(), docArb('x')), { minLength: 1, maxLength: 40 }),
        fc.array(queryArb, { minLength: 1, maxLength: 6 }),
        (sent, writes, queries) => {
          // A word two locations in three have: too common for FlexSearch, a base column of its own.
          const common = (d: IndexDoc, i: number) => (i % 3 === 0 ? d : { ...d, text: `${d.text} mountains` })
          const docs = sent.map(common)
          // Few candidates make a heap; more, matches marked and the name order walked.
          const index = new LocatorIndex(docs, {
            schedule: upkeep('now').schedule,
            fuzzyHeapMax: queries.length % 2 === 0 ? 50 : 2000,
          })
          const truth = new Map(docs.map((d) => [d.id, d]))
          // Rewritten after the build: in the delta, and in no base column.
          for (const [n, doc] of writes) {
            // A word new since the base ("mountainz": no column), two edits from "mountins".
            const written = { ...common(doc, n), id: docs[n % docs.length]!.id, text: `${doc.text} mountainz` }
            index.upsert(written)
            truth.set(written.id, written)
          }
          expect(index.stats().delta).toBeGreaterThan(0)
          for (const q of queries) {
            const typo = { ...q, search: `${q.limit % 2 === 0 ? 'mountins' : 'montains'} ${q.search}`.trim() }
            expect(answer(index, typo)).toEqual(oracle([...truth.values()], typo))
          }
        },
      ),
      { numRuns: 25 },
    )
  })

  test('dense points, radius queries (nearest first or by priority rank, with or without tags): whole kd nodes counted and skipped, full heaps, with dead points, agree', () => {
    // Points within a few km of a centre and radii that hold most of them: kd nodes lie wholly
    // inside the circle (counted from their size less their dead points) and, with a small limit,
    // most are never read. Moves and removes after the build leave dead points in the base.
    const near = fc.record({
      c: fc.integer({ min: 0, max: CENTERS.length - 1 }),
      dLat: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      dLng: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
    })
    const at = nearCentre
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CENTERS.length - 1 }),
        fc.array(
          fc.tuple(
            near,
            fc.constantFrom(...WORDS),
            fc.integer({ min: 0, max: 2 }),
            fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
          ),
          { minLength: 1, maxLength: 300, size: 'max' },
        ),
        fc.array(fc.tuple(fc.nat(), fc.option(near)), { maxLength: 60 }),
        fc.array(
          fc.record({
            p: near,
            radiusKm: fc.double({ min: 0.5, max: 30, noNaN: true }),
            onPoint: fc.option(fc.nat()),
            limit: fc.integer({ min: 1, max: 5 }),
            offset: fc.integer({ min: 0, max: 3 }),
            sort: fc.constantFrom<SortOrder>('distance', 'priority'),
            tags: fc.oneof(
              fc.constant<string[]>([]),
              fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }),
            ),
            tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.constantFrom(2, 3, 8),
        (c, points, changes, queries, nodeSize) => {
          const docs = points.map(([p, word, rank, tags], i): IndexDoc => {
            const { lat, lng } = at({ ...p, c })
            return { id: `loc_${i}`, lat, lng, json: null, nameSort: word, rank, tags, text: word }
          })
          const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize, byRankMin: c % 2 === 0 ? 0 : undefined })
          const truth = new Map(docs.map((d) => [d.id, d]))
          moveOrRemove(index, truth, docs, changes, (move) => at({ ...move, c }))
          const live = [...truth.values()]
          for (const { p, radiusKm, onPoint, limit, offset, sort, tags, tagLogic } of queries) {
            const center = at({ ...p, c })
            // Sometimes the circle passes exactly through a point: it is inside (distance <= radius).
            const through = onPoint === null || live.length === 0 ? null : live[onPoint % live.length]!
            const radius = through === null ? radiusKm : distance(center.lng, center.lat, through.lng, through.lat)
            const q: IndexQuery = { center, radiusKm: radius, tags, tagLogic, groupOf, search: '', sort, offset, limit }
            expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  test('radius queries by priority alone, before and after moves, a compaction and new priority rules (rankBy): the best ranked found best first agree', () => {
    // sort=priority within a circle, no tags or words: kd nodes are opened best rank first, each
    // node's best rank kept until the base or the ranks change. Ranked points are few, so a stale
    // rank per node (not made again after a compaction or rankBy) would skip them.
    const near = fc.record({
      dLat: fc.double({ min: -0.08, max: 0.08, noNaN: true }),
      dLng: fc.double({ min: -0.08, max: 0.08, noNaN: true }),
    })
    const ruleArb = fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 })
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CENTERS.length - 1 }),
        fc.array(
          fc.tuple(near, fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }), fc.integer({ min: 0, max: 9 })),
          { minLength: 1, maxLength: 300, size: 'max' },
        ),
        fc.array(fc.tuple(fc.nat(), fc.option(near)), { maxLength: 30 }),
        fc.array(
          fc.record({
            p: near,
            radiusKm: fc.double({ min: 0.5, max: 15, noNaN: true }),
            limit: fc.integer({ min: 1, max: 6 }),
            offset: fc.integer({ min: 0, max: 3 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        ruleArb,
        fc.constantFrom(2, 4, 16),
        fc.boolean(),
        (c, points, changes, queries, rules, nodeSize, upkeepNow) => {
          const at = (p: { dLat: number; dLng: number }) => nearCentre({ ...p, c })
          // One point in ten ranked 0, the rest 1: the ranked ones decide most pages.
          const docs = points.map(
            ([p, tags, r], i): IndexDoc => ({
              id: `loc_${i}`,
              ...at(p),
              json: null,
              nameSort: `n${i % 7}`,
              rank: r === 0 ? 0 : 1,
              tags,
              text: 'x',
            }),
          )
          // Upkeep never, or at once: what the queries made is then made again within compact() and rankBy().
          const index = new LocatorIndex(docs, {
            schedule: upkeepNow ? (task) => task() : () => {},
            nodeSize,
            byRankMin: 0,
          })
          const truth = new Map(docs.map((d) => [d.id, d]))
          const ask = () => {
            for (const { p, radiusKm, limit, offset } of queries) {
              const q: IndexQuery = {
                center: at(p),
                radiusKm,
                tags: [],
                tagLogic: 'any',
                groupOf,
                search: '',
                sort: 'priority',
                offset,
                limit,
              }
              expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
            }
          }
          ask()
          // Moves and removes leave dead points in the base (and its ranks per node as they were),
          // then a compaction builds another tree: its nodes' ranks are made again.
          moveOrRemove(index, truth, docs, changes, at)
          ask()
          index.compact()
          ask()
          // New rules: a location's rank is its first rule's tag it has, else the number of rules.
          index.rankBy(rules.map((tag) => ({ tag })))
          for (const [id, doc] of truth) {
            // biome-ignore lint/complexity/useIndexOf: the test is on the location's tags, not a value equal to the rule
            const first = rules.findIndex((tag) => doc.tags.some((t) => t.toLowerCase() === tag))
            truth.set(id, { ...doc, rank: first === -1 ? rules.length : first })
          }
          ask()
        },
      ),
      { numRuns: 150 },
    )
  })

  test('many distinct tags: bitsets widen while a base exists, and tag queries agree', () => {
    const tagArb = fc.uniqueArray(
      fc.integer({ min: 0, max: 99 }).map((i) => `t${i}`),
      { maxLength: 4 },
    )
    const docs = (n: number, from: number) =>
      fc.array(fc.tuple(point, tagArb), { minLength: n, maxLength: n }).map((xs) =>
        xs.map(
          ([p, tags], i): IndexDoc => ({
            id: `loc_${from + i}`,
            lat: p.lat,
            lng: p.lng,
            json: null,
            nameSort: `n${from + i}`,
            rank: 0,
            tags,
            text: 'x',
          }),
        ),
      )
    fc.assert(
      fc.property(
        docs(40, 0),
        docs(40, 40),
        fc.array(
          fc.record({
            p: point,
            tags: fc.uniqueArray(
              fc.integer({ min: 0, max: 99 }).map((i) => `t${i}`),
              { minLength: 1, maxLength: 3 },
            ),
            tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (first, later, queries) => {
          // New tags widen the bitsets while a base exists and while compactions are under way (one
          // scheduled step per write); queries before and after the upkeep catches up.
          const tasks = upkeep('queued')
          const index = new LocatorIndex(first, {
            schedule: tasks.schedule,
            nodeSize: 4,
            deltaMin: 4,
            compactionSlice: 3,
          })
          for (const doc of later) {
            index.upsert(doc)
            tasks.step()
          }
          const all = [...first, ...later]
          for (const drained of [false, true]) {
            if (drained) tasks.run()
            for (const { p, tags, tagLogic } of queries) {
              const q: IndexQuery = {
                center: p,
                radiusKm: 200,
                tags,
                tagLogic,
                groupOf: (t) => (Number(t.slice(1)) % 2 === 0 ? 'even' : 'odd'),
                search: '',
                sort: 'distance',
                offset: 0,
                limit: 10,
              }
              expect(answer(index, q)).toEqual(oracle(all, q))
            }
          }
        },
      ),
      { numRuns: 100 },
    )
  })

  test('exactly 32 tags (one 32-bit word per bitset, the sign bit in use): tag queries agree', () => {
    // The first doc carries every tag, so t31 takes bit 31; groups of three make match plans of 1-3 groups.
    const every = Array.from({ length: 32 }, (_, i) => `t${i}`)
    const tagArb = fc.uniqueArray(fc.constantFrom(...every), { maxLength: 5 })
    const docs = fc.array(fc.tuple(point, tagArb), { minLength: 60, maxLength: 60 }).map((xs) =>
      xs.map(
        ([p, tags], i): IndexDoc => ({
          id: `loc_${i}`,
          lat: p.lat,
          lng: p.lng,
          json: null,
          nameSort: `n${i}`,
          rank: 0,
          tags: i === 0 ? every : tags,
          text: 'x',
        }),
      ),
    )
    const query = fc.record({
      p: point,
      tags: fc.uniqueArray(fc.constantFrom('t31', 't30', 't0', 't1', 't2', ...every), { minLength: 1, maxLength: 4 }),
      tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
    })
    fc.assert(
      fc.property(docs, fc.array(query, { minLength: 1, maxLength: 6 }), (all, queries) => {
        const index = new LocatorIndex(all, { schedule: () => {}, nodeSize: 4 })
        for (const { p, tags, tagLogic } of queries) {
          const q: IndexQuery = {
            center: p,
            radiusKm: 200,
            tags,
            tagLogic,
            groupOf: (t) => `g${Number(t.slice(1)) % 3}`,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 10,
          }
          expect(answer(index, q)).toEqual(oracle(all, q))
          expect(answer(index, { ...q, center: null, sort: 'name' })).toEqual(
            oracle(all, { ...q, center: null, sort: 'name' }),
          )
        }
      }),
      { numRuns: 100 },
    )
  })

  test('kd nodes counted whole from their tag columns, and leaves across the edge counted by chord, leave out their dead points', () => {
    // 400 tagged points along 44 km of a meridian, circles of 15-25 km round one end: the nearest
    // fills the heap (limit 1), so the nodes wholly inside beyond it are counted from their
    // columns (with tags) and the leaves across the circle's edge by their chords alone (without).
    // Every third point then moves away (dead in the base, alive in the delta, outside the
    // circle) or is removed.
    const { lat, lng } = CENTERS[0]!
    const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + i * 0.001,
      lng: lng + (i % 7) * 0.0003,
      json: null,
      nameSort: `n${i}`,
      rank: 0,
      tags: i % 2 === 0 ? ['bikes'] : ['ski', 'bikes'],
      text: 'x',
    }))
    const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize: 4 })
    const truth = new Map(docs.map((d) => [d.id, d]))
    for (let i = 0; i < docs.length; i += 3) {
      const doc = docs[i]!
      if (i % 2 === 0) {
        index.remove(doc.id)
        truth.delete(doc.id)
      } else {
        const moved = { ...doc, lat: lat - 1 }
        index.upsert(moved)
        truth.set(doc.id, moved)
      }
    }
    for (let radiusKm = 15; radiusKm < 25; radiusKm += 0.37) {
      for (const tags of [[], ['bikes'], ['ski'], ['ski', 'bikes']]) {
        for (const tagLogic of ['any', 'all', 'match'] as const) {
          const q: IndexQuery = {
            center: { lat, lng },
            radiusKm,
            tags,
            tagLogic,
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 1,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
        }
      }
    }
  })

  test.each([4, 16])(
    'kd nodes counted whole from their tag columns, without dead points: any tag of a group, every group, one to three groups (leaves of %i)',
    (nodeSize) => {
      // 1200 points along 66 km of a meridian, none dead, tagged by their position's residues, so
      // the columns of a run differ word by word; circles round one end: the nearest fill the heap,
      // and the runs wholly inside beyond it are counted from their columns alone, column by column
      // over a run's words (groups of one, two or three columns; runs starting and ending inside a word).
      const { lat, lng } = CENTERS[0]!
      const tagsOf = (i: number) => TAGS.filter((_, k) => (i * (k + 3) + (i >> (k + 1))) % (k + 2) === 0)
      const docs: IndexDoc[] = Array.from({ length: 1200 }, (_, i) => ({
        id: `loc_${i}`,
        lat: lat + i * 0.0005,
        lng: lng + (i % 5) * 0.0002,
        json: null,
        nameSort: `n${i}`,
        rank: 0,
        tags: tagsOf(i),
        text: 'x',
      }))
      const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize })
      const queries: [string[], TagLogic][] = [
        [['repairs'], 'any'],
        [['repairs', 'ski', 'outlet'], 'any'], // one group of three columns
        [['repairs', 'rentals', 'ski'], 'match'], // services (two) and products (one)
        [['ski', 'bikes', 'repairs', 'rentals'], 'match'], // two groups of two
        [['repairs', 'rentals', 'ski', 'bikes', 'outlet'], 'match'], // three groups
        [['rentals', 'wifi'], 'all'], // two groups of one
        [['repairs', 'ski', 'wifi'], 'all'],
      ]
      for (let radiusKm = 20; radiusKm < 60; radiusKm += 3.7) {
        for (const [tags, tagLogic] of queries) {
          for (const limit of [1, 3]) {
            const q: IndexQuery = {
              center: { lat, lng },
              radiusKm,
              tags,
              tagLogic,
              groupOf,
              search: '',
              sort: 'distance',
              offset: 0,
              limit,
            }
            const truth = oracle(docs, q)
            expect(truth.total).toBeGreaterThan(limit)
            expect(answer(index, q)).toEqual(truth)
          }
        }
      }
    },
  )

  test.each([4, 64])(
    'points moved while a compaction is under way are dead in the new base: leaves across the edge, counted by chord, leave them out (leaves of %i)',
    (nodeSize) => {
      // As above, but the points move between the compaction's steps, 2 a step through all of
      // them: those moved after the snapshot are dead in the new base (alive in the delta, outside
      // the circle), and those moved after their position was filled keep their old place in it.
      const { lat, lng } = CENTERS[0]!
      const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
        id: `loc_${i}`,
        lat: lat + i * 0.001,
        lng: lng + (i % 7) * 0.0003,
        json: null,
        nameSort: `n${i}`,
        rank: 0,
        tags: [],
        text: 'x',
      }))
      const tasks = upkeep('queued')
      const index = new LocatorIndex(docs, { schedule: tasks.schedule, nodeSize, deltaMin: 4, compactionSlice: 16 })
      tasks.run()
      const truth = new Map(docs.map((d) => [d.id, d]))
      const move = (i: number) => {
        const moved = { ...docs[i]!, lat: lat - 1 - i * 1e-4 }
        index.upsert(moved)
        truth.set(moved.id, moved)
      }
      const sweep = () => {
        for (let radiusKm = 15; radiusKm < 25; radiusKm += 1.37) {
          const q: IndexQuery = {
            center: { lat, lng },
            radiusKm,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 1,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
        }
      }
      // Past the delta's bound (a tenth of the base): a compaction is scheduled.
      for (let i = 355; i < 400; i++) move(i)
      expect(index.compacting).toBe(true)
      let next = 1
      while (index.compacting) {
        tasks.step()
        for (let k = 0; k < 2 && next < 355; k++, next += 3) move(next)
        sweep()
      }
      expect(next).toBeGreaterThan(30)
      sweep()
    },
  )

  test('what priority and name-rank pages made from the base is made again after a compaction, in its upkeep, before a query asks; nothing else is', () => {
    const { lat, lng } = CENTERS[0]!
    // 400 locations, their names in the reverse of their places, every tenth with the word "late"
    // (its matches begin names late in the order: the page is chosen by name rank), ranks 0-3.
    const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + (i % 20) * 0.002,
      lng: lng + Math.floor(i / 20) * 0.002,
      json: null,
      nameSort: `n${String(999 - i).padStart(3, '0')}`,
      rank: i % 4,
      tags: [],
      text: i % 10 === 3 ? 'x late' : 'x',
    }))
    const queries: IndexQuery[] = [
      {
        center: { lat, lng },
        radiusKm: 50,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 0,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 3,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: 'late',
        sort: 'name',
        offset: 2,
        limit: 5,
      },
    ]
    const compacted = (ask: boolean) => {
      const tasks = upkeep('queued')
      const index = new LocatorIndex(docs, {
        schedule: tasks.schedule,
        nodeSize: 4,
        deltaMin: 4,
        compactionSlice: 16,
        nameChunk: 8,
        byRankMin: 0,
      })
      tasks.run()
      const truth = new Map(docs.map((d) => [d.id, d]))
      if (ask) for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
      const before = index.stats().ranksMade
      for (let i = 0; i < 60; i++) {
        const moved = { ...docs[i * 5]!, lat: lat + 0.05 + i * 0.001 }
        index.upsert(moved)
        truth.set(moved.id, moved)
      }
      expect(index.compacting).toBe(true)
      tasks.run()
      expect(index.compacting).toBe(false)
      return { index, tasks, truth, before, after: index.stats().ranksMade }
    }
    const asked = compacted(true)
    expect(asked.before).toEqual({ nodes: true, columns: true, names: true })
    expect(asked.after).toEqual({ nodes: true, columns: true, names: true })
    for (const q of queries) expect(answer(asked.index, q)).toEqual(oracle([...asked.truth.values()], q))
    // New priority rules: the ranks' own are dropped, and made again by the upkeep, for the new ranks.
    const first = new Set(['loc_7', 'loc_210', 'loc_399'])
    asked.index.rankBy([{ ids: first }])
    for (const [id, doc] of asked.truth) asked.truth.set(id, { ...doc, rank: first.has(id) ? 0 : 1 })
    expect(asked.index.stats().ranksMade).toEqual({ nodes: false, columns: false, names: true })
    asked.tasks.run()
    expect(asked.index.stats().ranksMade).toEqual({ nodes: true, columns: true, names: true })
    for (const q of queries) expect(answer(asked.index, q)).toEqual(oracle([...asked.truth.values()], q))
    const idle = compacted(false)
    expect(idle.before).toEqual({ nodes: false, columns: false, names: false })
    expect(idle.after).toEqual({ nodes: false, columns: false, names: false })
  })

  test("settle() compacts changes below the delta's bound once asked, from deltaMin changes (moved, added or removed), never two at once; the answers stay the oracle's", () => {
    const { lat, lng } = CENTERS[0]!
    const docs: IndexDoc[] = Array.from({ length: 200 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + (i % 20) * 0.002,
      lng: lng + Math.floor(i / 20) * 0.002,
      json: null,
      nameSort: `n${String(i).padStart(3, '0')}`,
      rank: i % 3,
      tags: i % 2 === 0 ? ['bikes'] : ['ski'],
      text: 'x',
    }))
    const tasks = upkeep('queued')
    // The bound is a tenth of the base (20): 7 changes stay in the delta until settle() is asked.
    const index = new LocatorIndex(docs, { schedule: tasks.schedule, nodeSize: 4, deltaMin: 8, compactionSlice: 16 })
    tasks.run()
    const truth = new Map(docs.map((d) => [d.id, d]))
    const queries: IndexQuery[] = [
      {
        center: null,
        radiusKm: 0,
        tags: ['bikes'],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'name',
        offset: 3,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: ['ski'],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 0,
        limit: 7,
      },
      {
        center: { lat, lng },
        radiusKm: 2,
        tags: ['bikes'],
        tagLogic: 'all',
        groupOf,
        search: '',
        sort: 'distance',
        offset: 0,
        limit: 4,
      },
    ]
    const check = () => {
      for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    }
    const settled = () => {
      expect(index.settle()).toBe(true)
      expect(index.compacting).toBe(true)
      expect(index.settle()).toBe(false) // one at a time
      tasks.run()
      expect(index.compacting).toBe(false)
      expect(index.stats()).toMatchObject({ base: truth.size, delta: 0 })
      expect(index.settle()).toBe(false) // nothing left to fold in
      check()
    }
    expect(index.settle()).toBe(false) // no change yet
    // 3 moved (each in the delta and dead in the base), 1 added: 7 changes, one short.
    for (const i of [0, 5, 10]) {
      const moved = { ...docs[i]!, lat: lat + 0.05 + i * 0.001, tags: ['ski'] }
      index.upsert(moved)
      truth.set(moved.id, moved)
    }
    const added: IndexDoc = { ...docs[1]!, id: 'loc_new', nameSort: 'n000a', tags: ['bikes'] }
    index.upsert(added)
    truth.set(added.id, added)
    expect(index.settle()).toBe(false)
    expect(index.compacting).toBe(false)
    check()
    index.remove('loc_2')
    truth.delete('loc_2')
    settled()
    // Removals alone (dead in the base, nothing in the delta) count too.
    for (let i = 20; i < 36; i += 2) {
      index.remove(`loc_${i}`)
      truth.delete(`loc_${i}`)
    }
    settled()
  })

  test('a circle smaller than a millimetre: no kd node counts as wholly inside (found by the dense property)', () => {
    // 38 points on one spot and one a hair west of it; the circle is centred a little further
    // west and passes through the hair-west point, so the 38 lie just outside it.
    const { lat, lng } = CENTERS[0]!
    const docs: IndexDoc[] = Array.from({ length: 39 }, (_, i) => ({
      id: `loc_${i}`,
      lat,
      lng: i === 17 ? lng - 2.2204460492503136e-16 : lng,
      json: null,
      nameSort: 'bike',
      rank: 0,
      tags: [],
      text: 'bike',
    }))
    const center = { lat, lng: lng - 1.9317880628477724e-14 }
    const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize: 2 })
    for (const through of [docs[17]!, docs[0]!]) {
      const q: IndexQuery = {
        center,
        radiusKm: distance(center.lng, center.lat, through.lng, through.lat),
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'distance',
        offset: 0,
        limit: 1,
      }
      expect(answer(index, q)).toEqual(oracle(docs, q))
    }
  })

  test('points a hair either side of the circle (metres to nanometres): in or out as the haversine decides', () => {
    const offsetKm = fc.constantFrom(-2e-3, -1e-3, -3e-4, -1e-5, -1e-6, -1e-9, 0, 1e-9, 1e-6, 1e-5, 3e-4, 1e-3, 2e-3)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CENTERS.length - 1 }),
        fc.double({ min: 0.05, max: 60, noNaN: true }),
        fc.array(fc.tuple(offsetKm, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true })), {
          minLength: 1,
          maxLength: 120,
        }),
        fc.integer({ min: 0, max: 200 }),
        fc.constantFrom(2, 8, 64),
        fc.integer({ min: 1, max: 30 }),
        (c, radiusKm, rim, inside, nodeSize, limit) => {
          const center = CENTERS[c]!
          // Points on the rim, and enough well inside for whole kd nodes to be counted.
          const points = [
            ...rim.map(([off, bearing]) => destination(center.lng, center.lat, radiusKm + off, bearing)),
            ...Array.from({ length: inside }, (_, i) =>
              destination(center.lng, center.lat, (radiusKm * (i % 97)) / 100, i),
            ),
          ]
          const docs = points.map(
            ({ lat, lng }, i): IndexDoc => ({
              id: `loc_${i}`,
              lat,
              lng,
              json: null,
              nameSort: `n${i}`,
              rank: 0,
              tags: [],
              text: 'x',
            }),
          )
          const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize })
          const q: IndexQuery = {
            center,
            radiusKm,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit,
          }
          expect(answer(index, q)).toEqual(oracle(docs, q))
        },
      ),
      { numRuns: 300 },
    )
  })
  test('term columns: common words decided by their columns, a prefix partly in the base, words made during a build, gone and back', () => {
    // 240 points round Paris. "store" is in 4 locations of 5, "common" in every other and "coral"
    // in every third: each gets a column. "comet" is in 2 (no column), so the prefix "com" is partly in columns.
    // Then, while a compaction is under way: "comfy" is made (a term newer than the build's
    // scan), every "comet" is rewritten without it (its df falls to 0), and one comes back in
    // the delta; a by-distance query at each step, paged, agrees with the naive scan.
    const { lat, lng } = CENTERS[0]!
    const doc = (i: number, words: string[]): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 16) * 0.004,
      lng: lng + Math.floor(i / 16) * 0.004,
      json: null,
      nameSort: `n${i}`,
      rank: i % 3,
      tags: [],
      text: [...(i % 5 === 0 ? [] : ['store']), ...words].join(' '),
    })
    const wordsOf = (i: number) => [
      ...(i % 2 === 0 ? ['common'] : []),
      ...(i % 3 === 0 ? ['coral'] : []),
      ...(i === 5 || i === 77 ? ['comet'] : []),
    ]
    const { tasks, index, truth, write } = queuedIndex()
    for (let i = 0; i < 240; i++) write(doc(i, wordsOf(i)))
    index.compact()
    const check = () => {
      for (const search of [
        'common',
        'com',
        'cor',
        'coral com',
        'common comet',
        'comfy',
        'comf',
        'store co',
        'common coral c',
      ]) {
        for (const [radiusKm, offset] of [
          [1.5, 0],
          [4, 7],
          [40, 0],
          [40, 100],
        ] as const) {
          for (const sort of ['distance', 'priority'] as const) {
            const q: IndexQuery = {
              center: { lat: lat + 0.03, lng: lng + 0.03 },
              radiusKm,
              tags: [],
              tagLogic: 'any',
              groupOf,
              search,
              sort,
              offset,
              limit: 5,
            }
            expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
        }
      }
    }
    check()
    // Enough writes to pass the delta's bound (a tenth of the base): a compaction is scheduled.
    for (let i = 100; i < 130; i++) write(doc(i, [...wordsOf(i), 'coral']))
    expect(index.compacting).toBe(true)
    tasks.step()
    write(doc(200, ['comfy', 'common']))
    check()
    tasks.step()
    write(doc(5, wordsOf(4)))
    write(doc(77, wordsOf(76)))
    check()
    tasks.step()
    write(doc(77, ['comet']))
    check()
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
    write(doc(77, wordsOf(76)))
    index.compact()
    check()
  })

  test('prefix columns: prefixes typed letter by letter, begun by many rare terms (postcodes) or by a rare one beside common ones, before, during and after a compaction', () => {
    // 320 points round Paris, each with a postcode of its own ("10000" + i: rare, no term
    // column), "store" in 4 of 5 and "stoves" in every other (columns), "stockholm" in one, then
    // two (too rare for a column: under 1 in 128). So "1", "10", "100" and "s", "st", "sto" get
    // prefix columns: "1..." begins hundreds of terms, "sto" one without a column. Then, while a compaction is
    // under way, postcodes made after its tables ("19999"), locations rewritten without theirs
    // or with another's, and one removed; every query, by distance, by priority and all=true by
    // name, paged, agrees with the naive scan.
    const { lat, lng } = CENTERS[0]!
    const doc = (i: number, extra: string[] = [], code = String(10000 + i)): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 16) * 0.004,
      lng: lng + Math.floor(i / 16) * 0.004,
      json: null,
      nameSort: `n${i}`,
      rank: i % 3,
      tags: [],
      text: [
        code,
        ...(i % 5 === 0 ? [] : ['store']),
        ...(i % 2 === 0 ? ['stoves'] : []),
        ...(i === 160 ? ['stockholm'] : []),
        ...extra,
      ].join(' '),
    })
    const { tasks, index, truth, write, remove } = queuedIndex()
    for (let i = 0; i < 320; i++) write(doc(i))
    index.compact()
    const check = () => {
      for (const search of [
        '1',
        '10',
        '100',
        '1001',
        '1999',
        's',
        'st',
        'sto',
        'stoc',
        'store 1',
        'stoves st',
        '10000 s',
      ]) {
        for (const [center, radiusKm, offset] of [
          [{ lat: lat + 0.03, lng: lng + 0.03 }, 1.5, 0],
          [{ lat: lat + 0.03, lng: lng + 0.03 }, 40, 7],
          [null, 0, 0],
          [null, 0, 150],
        ] as const) {
          for (const sort of ['distance', 'priority', 'name'] as const) {
            if (sort === 'distance' && center === null) continue
            // limit 0 (the index's own callers; the API asks for 1 or more): the total alone.
            for (const limit of [5, 0]) {
              const q: IndexQuery = {
                center,
                radiusKm,
                tags: [],
                tagLogic: 'any',
                groupOf,
                search,
                sort,
                offset,
                limit,
              }
              expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
            }
          }
        }
      }
    }
    check()
    // Enough writes to pass the delta's bound: a compaction is scheduled.
    for (let i = 100; i < 140; i++) write(doc(i, ['stoves']))
    write(doc(101, ['stockholm'])) // in the delta
    expect(index.compacting).toBe(true)
    tasks.step()
    write(doc(7, [], '19999')) // a postcode newer than the build's tables
    check()
    tasks.step()
    write(doc(8, [], 'none')) // no postcode now
    write(doc(9, [], '10010')) // another's
    remove('loc_10')
    check()
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
    write(doc(8))
    index.compact()
    check()
    // Another compaction, a location written with a postcode new to the vocabulary after each of
    // its steps (the sorted terms scanned for prefix columns a few at a time meanwhile).
    for (let i = 140; i < 180; i++) write(doc(i, ['stoves']))
    expect(index.compacting).toBe(true)
    for (let i = 0; i < 30; i++) {
      tasks.step()
      write(doc(200 + i, [], String(15000 + i)))
      if (i % 3 === 0) check()
    }
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
  })

  test("a prefix that begins two words of the same locations, led by its words' postings: each location counted once, with all=true (the walked page and the page by name rank) and within a circle", () => {
    // 3000 locations; "sal" begins "salem" and "salon" of 8 of them and "salty" of 5 more (21
    // words: fewer than 1 in 128 locations, so no prefix column), so FlexSearch's postings of the
    // three words lead, each of the 8 in two of them. A page ending at most 2 in marks those
    // candidates and walks the name order, or ranks them (the 8 are last in it); then 3 more are
    // written (the delta).
    const { lat, lng } = CENTERS[1]!
    const doc = (i: number, words: string): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 50) * 0.01,
      lng: lng + Math.floor(i / 50) * 0.01,
      json: null,
      nameSort: `${i % 375 === 0 ? 'z' : 'a'}${i}`,
      rank: i % 3,
      tags: [],
      text: words,
    })
    const wordsOf = (i: number) =>
      i % 375 === 0 ? 'salem salon store' : i % 600 === 7 ? 'salty store' : i % 2 === 0 ? 'main street store' : 'store'
    const docs = Array.from({ length: 3000 }, (_, i) => doc(i, wordsOf(i)))
    const truth = new Map(docs.map((d) => [d.id, d] as const))
    const index = new LocatorIndex(docs, { schedule: upkeep('now').schedule })
    expect(index.textIndexReady).toBe(true)
    const check = () => {
      for (const sort of ['name', 'priority'] as const) {
        for (const [offset, limit] of [
          [0, 1],
          [1, 1],
          [0, 2],
          [12, 1],
          [11, 2],
          [0, 40],
        ] as const) {
          const q: IndexQuery = {
            center: null,
            radiusKm: 0,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: 'sal',
            sort,
            offset,
            limit,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          // Within a circle holding them all, the postings lead too, each key offered once.
          const near: IndexQuery = {
            ...q,
            center: { lat: lat + 0.2, lng: lng + 0.3 },
            radiusKm: 200,
            sort: sort === 'name' ? 'distance' : sort,
          }
          expect(answer(index, near)).toEqual(oracle([...truth.values()], near))
        }
      }
    }
    check()
    for (const i of [3001, 3002, 17]) {
      const d = doc(i, 'salem salon')
      index.upsert(d)
      truth.set(d.id, d)
    }
    check()
  })

  test('leaves across the edge counted by chord: clusters metres inside or outside the circle, some points dead', () => {
    // A point at the centre fills the heap (limit 1) at once, so every leaf across the edge is
    // counted by its chords where they decide: tight clusters of points, each 2-10 m inside or
    // outside the circle (beyond the chords' slack), or a millimetre from it (decided exactly).
    // Leaving a removed point's xyz in place fails it.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CENTERS.length - 1 }),
        fc.double({ min: 0.5, max: 60, noNaN: true }),
        fc.array(
          fc.tuple(
            fc.constantFrom(-1e-2, -5e-3, -2e-3, -1e-6, 1e-6, 2e-3, 5e-3, 1e-2),
            fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
          ),
          { minLength: 2, maxLength: 12 },
        ),
        fc.constantFrom(16, 64),
        fc.integer({ min: 0, max: 9 }),
        (c, radiusKm, clusters, nodeSize, deadEvery) => {
          const center = CENTERS[c]!
          const points = [
            center,
            ...clusters.flatMap(([off, bearing]) =>
              Array.from({ length: 24 }, (_, j) =>
                destination(center.lng, center.lat, radiusKm + off, bearing + j * 1e-8),
              ),
            ),
          ]
          const docs = points.map(
            ({ lat, lng }, i): IndexDoc => ({
              id: `loc_${i}`,
              lat,
              lng,
              json: null,
              nameSort: `n${i}`,
              rank: 0,
              tags: [],
              text: 'x',
            }),
          )
          const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize })
          const truth = new Map(docs.map((d) => [d.id, d]))
          for (let i = 1; deadEvery > 0 && i < docs.length; i += deadEvery + 1) {
            index.remove(docs[i]!.id)
            truth.delete(docs[i]!.id)
          }
          const q: IndexQuery = {
            center,
            radiusKm,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 1,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
        },
      ),
      { numRuns: 300 },
    )
  })

  test("a key's hours of the day, kept with its state, follow its local date as time goes on", () => {
    // Every 37 minutes over the four days, forward only: a state found the day before is then kept.
    const steps = Array.from({ length: 160 }, (_, i) => INSTANTS[0]! + i * 37 * 60_000)
    fc.assert(
      fc.property(
        fc.subarray(steps, { minLength: 1 }),
        fc.uniqueArray(fc.nat(HOURS.length - 1), { minLength: 1 }),
        (at, picked) => {
          const docs = picked.map(
            (h, n): IndexDoc => ({
              id: `loc_${n}`,
              lat: 0,
              lng: 0,
              json: null,
              nameSort: `s${n}`,
              name: `s${n}`,
              rank: 0,
              tags: [],
              text: `s${n}`,
              hours: HOURS[h]!,
            }),
          )
          const index = new LocatorIndex(docs)
          for (const t of at) {
            index.openAt(t)
            for (const doc of docs) {
              const key = index.keyOf(index.get(doc.id)!)
              const today = index.openMade(key, (state, hours) => hoursTextOn(hours!, state.at))
              expect(today).toBe(oracleHoursText(doc.hours!, t))
            }
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  test('an empty index answers every query with nothing', () => {
    fc.assert(
      fc.property(queryArb, (q) =>
        expect(answer(new LocatorIndex(), q)).toEqual({ total: 0, ids: [], next: [], today: [] }),
      ),
      { numRuns: 50 },
    )
  })
})

describe('compaction with its KDBush sorted in a worker thread', () => {
  test('writes between its steps and while the worker sorts: answers agree with a naive scan throughout', async () => {
    const docs = fc.sample(fc.tuple(...Array.from({ length: 300 }, (_, i) => docArb(`loc_${i}`))), {
      numRuns: 1,
      seed: 7,
    })[0]!
    const truth = new Map(docs.map((d) => [d.id, d]))
    // The delta's bound is 30 (a tenth of the base); a step scans 80 keys or fills 20 positions.
    const index = new LocatorIndex(docs, { kdWorkerMin: 1, compactionSlice: 20, deltaMin: 8 })
    const moves = fc.sample(fc.tuple(fc.integer({ min: 0, max: 299 }), docArb('x')), { numRuns: 200, seed: 11 })
    const queries = fc.sample(queryArb, { numRuns: 12, seed: 5 })
    const agree = () => {
      for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    }
    const write = ([i, d]: [number, IndexDoc]) => {
      const doc = { ...d, id: `loc_${i}` }
      index.upsert(doc)
      truth.set(doc.id, doc)
      if (i % 5 === 0) {
        index.remove(doc.id)
        truth.delete(doc.id)
      }
      return doc.id
    }
    let next = 0
    while (!index.compacting) write(moves[next++]!)
    // One write per turn of the event loop: some land between the scan's and fill's steps, some
    // while the worker sorts; the answers are checked as they go.
    const during = new Set<string>()
    for (let turn = 0; turn < 40; turn++) {
      during.add(write(moves[next++]!))
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (turn % 8 === 0) agree()
    }
    for (let waited = 0; index.compacting && waited < 5000; waited += 5) await Bun.sleep(5)
    expect(index.stats().compacting).toBe(false)
    expect(index.stats().kdSortedInWorker).toBeGreaterThan(0)
    // What is left in the delta was written after the last compaction began.
    expect(index.stats().delta).toBeLessThanOrEqual(during.size)
    agree()
  })
  // The tables are made in a step of their own while the worker sorts; whichever of the two ends
  // last goes on, and only it: one line of steps, whatever the order.
  test.each([
    ['before', true],
    ['after', false],
  ] as const)(
    'the worker answering %s the tables are made: the compaction goes on in one line of steps, to its end',
    async (_, answerFirst) => {
      const docs = fc.sample(fc.tuple(...Array.from({ length: 300 }, (_, i) => docArb(`loc_${i}`))), {
        numRuns: 1,
        seed: 3,
      })[0]!
      const truth = new Map(docs.map((d) => [d.id, d]))
      const queue: (() => void)[] = []
      // Slices larger than the index: the first step scans every key, the second asks for the KDBush.
      const index = new LocatorIndex(docs, {
        schedule: (task) => queue.push(task),
        kdWorkerMin: 1,
        compactionSlice: 1000,
        deltaMin: 8,
      })
      while (queue.length > 0) queue.shift()!() // the build's own upkeep
      const moves = fc.sample(fc.tuple(fc.integer({ min: 0, max: 299 }), docArb('x')), { numRuns: 100, seed: 13 })
      for (let next = 0; !index.compacting; next++) {
        const doc = { ...moves[next]![1], id: `loc_${moves[next]![0]}` }
        index.upsert(doc)
        truth.set(doc.id, doc)
      }
      /** The tasks queued when the worker's answer came: 1 (the tables' step, not run yet) or 0 (it had run). */
      let queuedAtAnswer = -1
      const answered = () => index.stats().kdSortedInWorker > 0
      const waitForAnswer = async (ms: number) => {
        const queued = queue.length
        for (let waited = 0; !answered() && waited < ms; waited += 5) await Bun.sleep(5)
        if (answered() && queuedAtAnswer === -1) queuedAtAnswer = queued
      }
      for (let tasks = 0; index.compacting && tasks < 1000; tasks++) {
        // Never two lines of steps: at most one task waits at any time.
        expect(queue.length).toBeLessThanOrEqual(1)
        if (queue.length === 0)
          await waitForAnswer(5000) // the tables are made: only the worker's answer goes on
        else {
          queue.shift()!()
          if (answerFirst && tasks === 1) await waitForAnswer(5000) // the KDBush was asked for: its answer first
        }
      }
      expect(index.stats().compacting).toBe(false)
      expect(queue.length).toBe(0)
      expect(queuedAtAnswer).toBe(answerFirst ? 1 : 0)
      for (const q of fc.sample(queryArb, { numRuns: 12, seed: 5 }))
        expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    },
  )
})
