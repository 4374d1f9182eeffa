// The index against a naive scan written apart from it: its own haversine, its own folding of text
// (NFKD, marks dropped, lowercased, the letters NFKD leaves whole spelt out), its own tag logic and
// order. Docs are made as the registry makes them (present.ts searchDoc: raw name, address,
// description and tags, with punctuation, accents, other scripts, fullwidth and ligature forms), so
// the path from raw text to the index's words is under test too. What it adds to the
// oracle-*.test.ts files: exact ties of distance (many locations on one spot, at the poles, on both
// sides of the antimeridian), radii from micrometres to the most (1000 miles), pages walked to the
// end and past it (their concatenation is the whole ordered list, every page with the same total),
// limit 500, priority rules changed on a loaded index (rankBy) between writes and compaction steps,
// locations deleted and published again, tags that differ only in case, and the labels the filters
// give tags (searched as the location's words; new labels build the index again, as the registry does).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import {
  LocatorIndex,
  type IndexDoc,
  type IndexQuery,
  type SortOrder,
  type TagLogic,
} from '../../src/engine/locator-index'
import { presentContext, searchDoc } from '../../src/indexes/present'
import type { FilterGroup } from '../../src/store/filters'
import {
  type Bbox,
  bboxAround,
  editDistances,
  haversineKm,
  inBbox,
  oracleWords as words,
  taskQueue,
  typosAllowed,
} from '../helpers'

// The oracle ----------------------------------------------------------------------------------------

type Rec = { id: string; name: string; address: string; description: string; tags: string[]; lat: number; lng: number }
type Rule = { tag: string } | { ids: string[] }
/** The filters' tags: a value (any case) and the label the filters show for it. */
type Label = { value: string; label: string }

function rankOf(r: Rec, rules: Rule[]): number {
  const i = rules.findIndex((rule) =>
    'tag' in rule ? r.tags.some((t) => t.toLowerCase() === rule.tag) : rule.ids.includes(r.id),
  )
  return i === -1 ? rules.length : i
}

/** Every match of `q`, in order, with its distance (km) for radius queries; none as typed: with typos allowed. */
function naive(recs: Rec[], rules: Rule[], labels: Label[], q: IndexQuery): { id: string; km: number | null }[] {
  const sought = words(q.search)
  const exact = naiveWith(recs, rules, labels, q, sought, false)
  if (exact.length > 0 || !sought.some((w) => typosAllowed(w) > 0)) return exact
  return naiveWith(recs, rules, labels, q, sought, true)
}

/** The labels the filters give r's tags, matched without case. One that spells out its value adds no other word. */
function labelsOf(r: Rec, labels: Label[]): string[] {
  return labels.filter((l) => r.tags.some((t) => t.toLowerCase() === l.value.toLowerCase())).map((l) => l.label)
}

function naiveWith(
  recs: Rec[],
  rules: Rule[],
  labels: Label[],
  q: IndexQuery,
  sought: string[],
  typos: boolean,
): { id: string; km: number | null }[] {
  const rows: { r: Rec; km: number | null; name: string; rank: number }[] = []
  for (const r of recs) {
    const km = q.center ? haversineKm(q.center, r) : null
    if (q.bbox != null ? !inBbox(q.bbox as Bbox, r) : km !== null && km > q.radiusKm) continue
    const has = (t: string) => r.tags.some((own) => own.toLowerCase() === t)
    if (q.tags.length > 0) {
      if (q.tagLogic === 'any' && !q.tags.some(has)) continue
      if (q.tagLogic === 'all' && !q.tags.every(has)) continue
      if (q.tagLogic === 'match') {
        const groups = new Map<string, boolean>()
        for (const t of q.tags) groups.set(q.groupOf(t), (groups.get(q.groupOf(t)) ?? false) || has(t))
        if ([...groups.values()].includes(false)) continue
      }
    }
    if (sought.length > 0) {
      const raw = [r.name, r.address, r.description, ...r.tags, ...labelsOf(r, labels)].join(' ')
      // An apostrophe separates words, and is also read as not there ("Zoë's" is found by "zoes").
      const own = new Set([...words(raw), ...words(raw.replace(/['’`´]/g, ''))])
      const last = sought[sought.length - 1]!
      if (typos) {
        const near = (w: string, i: number) =>
          [...own].some((o) => editDistances(w, o)[i === sought.length - 1 ? 1 : 0] <= typosAllowed(w))
        if (!sought.every(near)) continue
      } else {
        if (!sought.slice(0, -1).every((w) => own.has(w))) continue
        if (![...own].some((w) => w.startsWith(last))) continue
      }
    }
    rows.push({ r, km, name: words(r.name).join(' '), rank: rankOf(r, rules) })
  }
  const byName = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0
  const byKm = (a: (typeof rows)[number], b: (typeof rows)[number]) => a.km! - b.km!
  rows.sort((a, b) => {
    if (q.sort === 'priority' && a.rank !== b.rank) return a.rank - b.rank
    if (q.center && q.sort !== 'name') return byKm(a, b) || byName(a, b)
    return byName(a, b)
  })
  return rows.map(({ r, km }) => ({ id: r.id, km }))
}

// Generators ----------------------------------------------------------------------------------------

// Spots that locations share exactly: ties of distance. At the poles every longitude is one point;
// lng 180 and -180 are one meridian.
const SPOTS: [number, number][] = [
  [48.8566, 2.3522],
  [48.8566, 2.3523],
  [48.857, 2.35],
  [0, 180],
  [0, -180],
  [0.001, 179.999],
  [0.001, -179.999],
  [90, 0],
  [90, 123.4],
  [89.999, -45],
  [-90, 10],
  [-89.9995, 170],
  [-33.8688, 151.2093],
  [64.1466, -21.9426],
]
const spot = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPOTS) },
  // Near a spot (metres to tens of km), kept in range.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SPOTS),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
      )
      .map(([[lat, lng], a, b]): [number, number] => {
        let x = lng + b
        if (x > 180) x -= 360
        if (x < -180) x += 360
        return [Math.max(-90, Math.min(90, lat + a)), x]
      }),
  },
)

// Words as people write them: accents precomposed and combining, other cases, other scripts,
// fullwidth and ligature forms, letters NFKD keeps whole, digits, superscripts.
const NAME_WORDS = [
  'Vélo',
  'Ve\u0301lo',
  'VELO',
  'velos',
  'Café',
  'CAFE',
  'café',
  'Straße',
  'STRASSE',
  'Æble',
  'Œuvre',
  'Øst',
  'Łódź',
  'Москва',
  'МОСКВА',
  'Αθήνα',
  'ΑΘΗΝΑ',
  '東京',
  'ＢＩＫＥ',
  'bike',
  'Bikes',
  'ﬁx',
  'fix',
  'İstanbul',
  'istanbul',
  'Rue',
  'de',
  'la',
  'Zoë\u2019s',
  "Zoe's",
  "d'Orsay",
  'orsay',
  '75004',
  'No²',
  'Saint-Étienne',
  'saint',
]
const PUNCT = [' ', ', ', ' - ', '/', ' (', ') ', ' & ', '.', ' · ']
const textArb = (min: number, max: number) =>
  fc
    .array(fc.tuple(fc.constantFrom(...NAME_WORDS), fc.constantFrom(...PUNCT)), { minLength: min, maxLength: max })
    .map((ws) => ws.map(([w, p], i) => (i === ws.length - 1 ? w : w + p)).join(''))
const TAGS = [
  'repair',
  'Repair',
  'REPAIR',
  'rental',
  'Rental',
  'ski',
  'SKI',
  'outlet',
  'Café',
  'café',
  'wifi',
  'ski-rental',
  'Bike_Fix',
]
const GROUPS_A: Record<string, string> = { repair: 'services', rental: 'services', ski: 'products', outlet: 'type' }
const GROUPS_B: Record<string, string> = { repair: 'x', rental: 'y', ski: 'x', café: 'y' }
const groupsOf = (g: Record<string, string>) => (t: string) => g[t] ?? '_default'

const recArb = (id: string) =>
  fc
    .record({
      at: spot,
      name: textArb(1, 3),
      address: textArb(0, 4),
      description: textArb(0, 2),
      // Now and then none; now and then one tag twice in two cases.
      tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 4 }),
    })
    .map(({ at: [lat, lng], ...rest }): Rec => ({ id, lat, lng, ...rest }))

// Labels in the filters: ones that only spell out the value, words of their own (some other
// locations' words too, some in no location), and ones a few letters away from a searched word.
const LABEL_WORDS = ['Werkstatt', 'Verleih', 'Réparation', 'Skiverleih', 'WLAN', 'Zoë’s Fix', 'Ski rental', 'Velo']
const spelledOut = (value: string) => {
  const spaced = value.replace(/[-_]/g, ' ')
  return [value, value.toLowerCase(), value.toUpperCase(), spaced, spaced[0]!.toUpperCase() + spaced.slice(1)]
}
const labelArb = (value: string) =>
  fc.oneof(fc.constantFrom(...spelledOut(value)), fc.constantFrom(...LABEL_WORDS), textArb(1, 2))
/** The filters' tags and labels: each value once, without case (the filters key them so). */
const labelsArb: fc.Arbitrary<Label[]> = fc.uniqueArray(
  fc.constantFrom(...TAGS).chain((value) => labelArb(value).map((label) => ({ value, label }))),
  { selector: (l) => l.value.toLowerCase(), maxLength: 6 },
)

const ruleArb: fc.Arbitrary<Rule> = fc.oneof(
  fc.constantFrom('repair', 'rental', 'ski', 'outlet', 'café', 'nobody-has-it').map((tag) => ({ tag })),
  fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 5 }).map((ns) => ({ ids: ns.map((n) => `loc_${n}`) })),
)

/** A bbox around a spot: edges through other spots' coordinates, both sides of the antimeridian, the poles. */
const bboxArb = fc
  .record({
    around: spot,
    dLng: fc.oneof(fc.constantFrom(0, 0.0001, 0.001, 0.3, 180), fc.double({ min: 0, max: 2, noNaN: true })),
    dLat: fc.oneof(fc.constantFrom(0, 0.0004, 0.001, 0.3, 90), fc.double({ min: 0, max: 2, noNaN: true })),
  })
  .map(({ around: [lat, lng], dLng, dLat }) => bboxAround({ lat, lng }, dLng, dLat))

const queryArb: fc.Arbitrary<IndexQuery> = fc
  .record({
    radius: fc.boolean(),
    // A bbox query (when radius): its distances from `center`.
    bbox: fc.option(bboxArb, { freq: 3 }),
    center: spot,
    radiusKm: fc.oneof(
      fc.constantFrom(1e-9, 1e-6, 0.001, 0.2, 5, 30, 200, 1609.344),
      fc.double({ min: 1e-6, max: 1609.344, noNaN: true }),
    ),
    // Now and then one tag twice (the API lowercases tags[] but keeps repeats).
    tags: fc.array(fc.constantFrom(...TAGS.map((t) => t.toLowerCase()), 'unknown'), { maxLength: 3 }),
    tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
    groups: fc.constantFrom(GROUPS_A, GROUPS_B),
    search: fc.oneof(
      { weight: 2, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constantFrom(' ', '!!', ' - ', ',', '’') },
      {
        weight: 5,
        arbitrary: fc
          .tuple(textArb(1, 2), fc.nat({ max: 4 }))
          .map(([t, cut]) => (cut > 0 && t.length > cut ? t.slice(0, -cut) : t)),
      },
    ),
    sort: fc.constantFrom<SortOrder>('distance', 'name', 'priority'),
  })
  .map((q) => ({
    center: q.radius ? { lat: q.center[0], lng: q.center[1] } : null,
    radiusKm: q.radiusKm,
    bbox: q.radius ? q.bbox : null,
    tags: q.tags,
    tagLogic: q.tagLogic,
    groupOf: groupsOf(q.groups),
    search: q.search,
    sort: q.radius ? (q.sort === 'name' ? 'distance' : q.sort) : q.sort === 'distance' ? 'name' : q.sort,
    offset: 0,
    limit: 500,
  }))

// Checks ----------------------------------------------------------------------------------------------

/** The context the registry presents with: the labels in one filter group. */
const contextOf = (labels: Label[]) => {
  const group: FilterGroup = {
    id: 'services',
    name: 'Services',
    label: 'Services',
    singleSelect: false,
    inline: false,
    hidden: false,
    hideInLocationDetails: false,
    tags: labels.map(({ value, label }) => ({ value, label })),
  }
  return presentContext([group], [], [])
}

const docOf = (r: Rec, rules: Rule[], ctx: ReturnType<typeof contextOf>): IndexDoc => ({
  ...searchDoc(
    {
      id: r.id,
      name: r.name,
      address: r.address,
      description: r.description,
      tags: r.tags,
      lat: r.lat,
      lng: r.lng,
      customFields: {},
      hours: {},
      specialHours: {},
      timezone: null,
    } as never,
    ctx,
  ),
  rank: rankOf(r, rules),
})

/** The whole answer (limit 500) and every page of `pageSize` walked to one past the end agree with the naive scan. */
function agree(
  index: LocatorIndex,
  recs: Rec[],
  rules: Rule[],
  labels: Label[],
  q: IndexQuery,
  pageSize: number,
): void {
  const want = naive(recs, rules, labels, q)
  const all = index.query({ ...q, offset: 0, limit: 500 })
  const label = JSON.stringify({ q: { ...q, groupOf: undefined } })
  expect({ label, total: all.total }).toEqual({ label, total: want.length })
  expect({ label, ids: all.hits.map((h) => index.entryAt(h.key).id) }).toEqual({
    label,
    ids: want.slice(0, 500).map((w) => w.id),
  })
  all.hits.forEach((h, i) => {
    if (want[i]!.km === null) expect(h.distanceKm).toBeNull()
    else expect(Math.abs(h.distanceKm! - want[i]!.km!)).toBeLessThan(1e-9)
  })
  const walked: string[] = []
  for (let offset = 0; offset <= want.length; offset += pageSize) {
    const page = index.query({ ...q, offset, limit: pageSize })
    expect(page.total).toBe(want.length)
    expect(page.hits.length).toBe(Math.max(0, Math.min(pageSize, want.length - offset)))
    walked.push(...page.hits.map((h) => index.entryAt(h.key).id))
  }
  expect(walked).toEqual(want.map((w) => w.id))
  // Far past the end: nothing, the same total.
  expect(index.query({ ...q, offset: want.length + 1 + pageSize, limit: pageSize })).toEqual({
    total: want.length,
    hits: [],
  })
}

type Op =
  | { kind: 'upsert'; rec: Rec }
  | { kind: 'move'; n: number; at: [number, number] }
  | { kind: 'remove'; n: number }
  | { kind: 'republish'; n: number }
  | { kind: 'rules'; rules: Rule[] }
  | { kind: 'labels'; labels: Label[] }
  | { kind: 'step' }
  | { kind: 'upkeep' }
  | { kind: 'compact' }
  | { kind: 'query'; q: IndexQuery; pageSize: number }

const N = 40
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .integer({ min: 0, max: N - 1 })
      .chain((n) => recArb(`loc_${n}`))
      .map((rec): Op => ({ kind: 'upsert', rec })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ n: fc.integer({ min: 0, max: N - 1 }), at: spot })
      .map(({ n, at }): Op => ({ kind: 'move', n, at })),
  },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: N - 1 }).map((n): Op => ({ kind: 'remove', n })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: N - 1 }).map((n): Op => ({ kind: 'republish', n })) },
  { weight: 1, arbitrary: fc.array(ruleArb, { maxLength: 3 }).map((rules): Op => ({ kind: 'rules', rules })) },
  { weight: 1, arbitrary: labelsArb.map((labels): Op => ({ kind: 'labels', labels })) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'step' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'upkeep' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'compact' }) },
  {
    weight: 2,
    arbitrary: fc
      .record({ q: queryArb, pageSize: fc.integer({ min: 1, max: 7 }) })
      .map(({ q, pageSize }): Op => ({ kind: 'query', ...{ q, pageSize } })),
  },
)

describe('LocatorIndex against an independent naive scan', () => {
  test('writes (new, moved, deleted, published again), new priority rules and compaction steps interleaved with queries, on an index built at once or loaded in slices: totals, order and every page agree', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: N - 1 }).chain((n) => recArb(`loc_${n}`)),
          { maxLength: 30, size: 'max' },
        ),
        fc.array(ruleArb, { maxLength: 3 }),
        labelsArb,
        fc.array(opArb, { maxLength: 200, size: 'max' }),
        fc.constantFrom(2, 5, 64),
        fc.boolean(),
        (initial, rules0, labels0, ops, nodeSize, loaded) => {
          let rules = rules0
          let labels = labels0
          let ctx = contextOf(labels)
          const live = new Map<string, Rec>()
          const gone = new Map<string, Rec>() // deleted (or unpublished): published again as it was
          for (const r of initial) live.set(r.id, r)
          const tasks = taskQueue()
          const small = nodeSize === 64 ? undefined : nodeSize - 1
          const options = {
            schedule: tasks.schedule,
            nodeSize,
            nameChunk: small,
            nameSortSlice: small,
            deltaMin: 3,
            compactionSlice: small,
            textGarbageMin: 4,
            // With leaves of 5, no FlexSearch until a compaction finds 6 live locations.
            textMinKeys: nodeSize === 5 ? 6 : 0,
            byRankMin: 0,
          }
          const build = () => {
            const docs = [...live.values()].map((r) => docOf(r, rules, ctx))
            const built = loaded ? LocatorIndex.loading(options) : new LocatorIndex(docs, options)
            if (loaded) {
              // As a background build loads it (src/indexes/rebuild.ts): docs, then its tasks until it says done.
              let done = false
              for (const doc of docs) built.load(doc)
              built.finishLoad(() => void (done = true))
              while (!done) tasks.runOne()
              expect(built.loading).toBe(false)
            }
            return built
          }
          let index = build()
          const write = (r: Rec) => {
            live.set(r.id, r)
            gone.delete(r.id)
            index.upsert(docOf(r, rules, ctx))
          }
          for (const op of ops) {
            if (op.kind === 'upsert') write(op.rec)
            else if (op.kind === 'move') {
              const r = live.get(`loc_${op.n}`)
              if (r) write({ ...r, lat: op.at[0], lng: op.at[1] })
            } else if (op.kind === 'remove') {
              const r = live.get(`loc_${op.n}`)
              if (r) gone.set(r.id, r)
              live.delete(`loc_${op.n}`)
              index.remove(`loc_${op.n}`)
            } else if (op.kind === 'republish') {
              const r = gone.get(`loc_${op.n}`)
              if (r) write(r)
            } else if (op.kind === 'rules') {
              rules = op.rules
              index.rankBy(rules)
            } else if (op.kind === 'labels') {
              // New labels change the locations' words: the registry builds the index again.
              labels = op.labels
              ctx = contextOf(labels)
              index = build()
            } else if (op.kind === 'step') tasks.runOne()
            else if (op.kind === 'upkeep') tasks.runAll()
            else if (op.kind === 'compact') index.compact()
            else agree(index, [...live.values()], rules, labels, op.q, op.pageSize)
          }
          expect(index.size).toBe(live.size)
          const q: IndexQuery = {
            center: null,
            radiusKm: 0,
            tags: [],
            tagLogic: 'any',
            groupOf: groupsOf(GROUPS_A),
            search: '',
            sort: 'priority',
            offset: 0,
            limit: 500,
          }
          agree(index, [...live.values()], rules, labels, q, 3)
        },
      ),
      { numRuns: 400, seed: 20260301 },
    )
  })

  test('a fresh build of many locations on few spots (exact ties of distance, the poles, the antimeridian): every query, every page', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { maxLength: 600, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => recArb(`loc_${i}`)))),
        fc.array(ruleArb, { maxLength: 3 }),
        labelsArb,
        fc.array(fc.tuple(queryArb, fc.integer({ min: 1, max: 60 })), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(4, 64),
        (recs, rules, labels, queries, nodeSize) => {
          const ctx = contextOf(labels)
          const index = new LocatorIndex(
            recs.map((r) => docOf(r, rules, ctx)),
            { schedule: () => {}, nodeSize },
          )
          for (const [q, pageSize] of queries) agree(index, recs, rules, labels, q, pageSize)
        },
      ),
      { numRuns: 100, seed: 4242 },
    )
  })
})
