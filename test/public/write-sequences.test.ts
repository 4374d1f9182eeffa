// GET /locations through app.handle after random sequences of Management API writes (create,
// update, move, unpublish, delete, publish again) and settings changes (filter groups, priority
// rules by tag, custom field or ids), each answered at once, against a naive scan of what was
// written (in half the runs with the indexes' bounds small, so that their compactions, text
// rebuilds and JSON layouts come every few writes, let run at random points): its own haversine, its
// own folding, its own tag logic and order, its own search (search-oracle.ts: typos, word forms,
// town names, tag labels). Every answer is walked page by page through its `next`
// links to the end: the pages' concatenation is the whole ordered list, each page with the same
// total, hasMore and the links as the spec describes, every location's JSON as last written
// (name, coordinates, tag groups and labels of the filters now), and one page of limit=500 agrees.
import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { addCustomField, setFilters, setLocatorSettings, setPriorityRules } from '../../src/operator'
import { haversineKm, makeEnv, oracleWords as words, type TestEnv } from '../helpers'
import { ownWords, searched } from './search-oracle'

const KM_PER_MILE = 1.609344

/** As the Management API keeps tags: the first spelling of each (they match case-insensitively). */
const firstSpellings = (tags: string[]) =>
  tags.filter((t, i) => tags.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i)

type Rec = {
  id: string
  name: string
  address: string
  description: string
  tags: string[]
  tier: string
  lat: number
  lng: number
  published: boolean
  /** The words of its town's names, as the write stored them (the reverse lookup's). */
  town: string[]
}
type Group = { id: string; tags: { value: string; label: string }[] }
type Rule = { tag: string } | { ids: string[] } | { custom_field: 'tier'; value: string }

const TAGS = ['repair', 'Repair', 'rental', 'RENTAL', 'ski', 'outlet', 'Café', 'wifi']
const NAME_WORDS = [
  'Vélo',
  'VELO',
  'Café',
  'cafe',
  'Straße',
  'Øst',
  'Москва',
  'Αθήνα',
  'ＢＩＫＥ',
  'bike',
  'Bikes',
  'ﬁx',
  'Rue',
  'de',
  'Saint-Étienne',
  '75004',
  'Nord',
]
/** Tag labels' words: most in no name, some a typo, an ending or a prefix away from names' words. */
const LABEL_WORDS = [
  'Werkstatt',
  'Verleih',
  'Vélos',
  'Nordic',
  'Fixie',
  'Rent-a-Bike',
  'Bikes',
  'Café',
  'Skis',
  "L'Atelier",
]
/** Searched words a typo away from names', labels' or tags' words. */
const TYPO_WORDS = ['Bkie', 'Velp', 'Werkstat', 'Verlieh', 'Nrod', 'Cafw', 'Масква', 'Repiar']
/** Searched words with an ending: some found only by their stem ("skiing": ski, skis). */
const FORM_WORDS = ['Skiing', 'Fixing', 'Ateliers', 'Rentals']
/** Searched words of Paris's names or a typo away (the first two spots are in Paris). */
const TOWN_WORDS = ['Parsi', 'Lutèce', 'Vill']
const SEARCH_WORDS = [...NAME_WORDS, ...LABEL_WORDS, ...TYPO_WORDS, ...FORM_WORDS, ...TOWN_WORDS]
const SPOTS: [number, number][] = [
  [48.8566, 2.3522],
  [48.86, 2.36],
  [0, 179.9995],
  [0, -179.9995],
  [89.9999, 0],
  [89.9999, 180],
]
const spot = fc
  .tuple(fc.constantFrom(...SPOTS), fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }))
  .map(([[lat, lng], a, b]): [number, number] => {
    let x = lng + b * 0.0007
    if (x > 180) x -= 360
    if (x < -180) x += 360
    return [Math.max(-90, Math.min(90, lat + a * 0.0007)), x]
  })
const text = (min: number, max: number, from = NAME_WORDS) =>
  fc
    .array(fc.constantFrom(...from), { minLength: min, maxLength: max })
    .map((w) => w.join(', '.slice(0, 1 + (w.length % 2))))

type Op =
  | {
      kind: 'create'
      name: string
      address: string
      description: string
      tags: string[]
      tier: string
      at: [number, number]
      draft: boolean
    }
  | {
      kind: 'update'
      n: number
      name?: string
      tags?: string[]
      tier?: string
      at?: [number, number]
      description?: string
    }
  | { kind: 'status'; n: number; published: boolean }
  | { kind: 'delete'; n: number }
  | { kind: 'filters'; groups: Group[] }
  | { kind: 'rules'; rules: ({ tag: string } | { ids: number[] } | { tier: string })[] }
  | { kind: 'query'; q: Query }
  | { kind: 'idle' }

type Query = {
  all: boolean
  at: [number, number]
  radius: number
  unit: 'km' | 'miles'
  tags: string[]
  tagLogic: 'any' | 'all' | 'match'
  search: string
  sort: 'distance' | 'name' | 'priority'
  limit: number
}

/** Searched words, the last one cut short as a search box sends it while typed. */
const searchArb = fc
  .tuple(
    fc.integer({ min: 1, max: 2 }).chain((n) => text(n, n, SEARCH_WORDS)),
    fc.nat({ max: 3 }),
  )
  .map(([t, cut]) => (cut > 0 && t.length > cut ? t.slice(0, -cut) : t))

const queryArb: fc.Arbitrary<Query> = fc.record({
  all: fc.boolean(),
  at: spot,
  radius: fc.constantFrom(0.001, 0.5, 2, 25, 1000, 1000),
  unit: fc.constantFrom<'km' | 'miles'>('km', 'miles'),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
  tagLogic: fc.constantFrom<'any' | 'all' | 'match'>('any', 'all', 'match'),
  search: fc.oneof(fc.constant(''), fc.constant(' , '), searchArb),
  sort: fc.constantFrom<'distance' | 'name' | 'priority'>('distance', 'name', 'priority'),
  limit: fc.integer({ min: 1, max: 4 }),
})

/** A custom field's value: '' is none (and clears it on update). */
const TIERS = ['gold', 'silver', 'Gold', '']

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .record({
        name: text(1, 3),
        address: text(1, 3),
        description: text(0, 2),
        tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }),
        tier: fc.constantFrom(...TIERS),
        at: spot,
        draft: fc.boolean(),
      })
      .map((o): Op => ({ kind: 'create', ...o })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        n: fc.nat(),
        name: fc.option(text(1, 3), { nil: undefined }),
        tags: fc.option(fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }), { nil: undefined }),
        tier: fc.option(fc.constantFrom(...TIERS), { nil: undefined }),
        at: fc.option(spot, { nil: undefined }),
        description: fc.option(text(0, 2), { nil: undefined }),
      })
      .map((o): Op => ({ kind: 'update', ...o })),
  },
  {
    weight: 2,
    arbitrary: fc.record({ n: fc.nat(), published: fc.boolean() }).map((o): Op => ({ kind: 'status', ...o })),
  },
  { weight: 2, arbitrary: fc.nat().map((n): Op => ({ kind: 'delete', n })) },
  // Each tag value (lowercased) in one of two groups or in none, with a label of searched words.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(0, 1, 2), text(1, 2, LABEL_WORDS)), { minLength: 6, maxLength: 6 })
      .map(
        (where): Op => ({
          kind: 'filters',
          groups: ['g1', 'g2'].map((id, g) => ({
            id,
            tags: ['repair', 'rental', 'ski', 'outlet', 'café', 'wifi']
              .map((value, i) => ({ value, label: where[i]![1] }))
              .filter((_, i) => where[i]![0] === g),
          })),
        }),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom('REPAIR', 'ski', 'café', 'none').map((tag) => ({ tag })),
          fc.array(fc.nat(), { minLength: 1, maxLength: 3 }).map((ids) => ({ ids })),
          fc.constantFrom('gold', 'silver', 'Gold').map((tier) => ({ tier })),
        ),
        { maxLength: 3 },
      )
      .map((rules): Op => ({ kind: 'rules', rules })),
  },
  { weight: 5, arbitrary: queryArb.map((q): Op => ({ kind: 'query', q })) },
  // A search with no tags over a wide radius: what it finds is the words' alone.
  {
    weight: 4,
    arbitrary: fc
      .tuple(queryArb, searchArb)
      .map(([q, search]): Op => ({ kind: 'query', q: { ...q, tags: [], radius: 1000, search } })),
  },
  // Lets the indexes' scheduled upkeep run (a timer's turn): a compaction may be under way at the next query.
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'idle' }) },
)

/** The oracle: every published match of `q`, in order, with its distance in km (radius queries). */
function naive(recs: Rec[], groups: Group[], rules: Rule[], q: Query): { rec: Rec; km: number | null }[] {
  const groupOf = (t: string) => filterTag(groups, t)?.group ?? '_default'
  const radiusKm = q.unit === 'km' ? q.radius : q.radius * KM_PER_MILE
  const want = q.tags.map((t) => t.toLowerCase())
  const rankOf = (r: Rec) => {
    const i = rules.findIndex((rule) =>
      'tag' in rule
        ? r.tags.some((t) => t.toLowerCase() === rule.tag.toLowerCase())
        : 'ids' in rule
          ? rule.ids.includes(r.id)
          : r.tier === rule.value,
    )
    return i === -1 ? rules.length : i
  }
  const live = recs.filter((r) => r.published)
  const rows = live
    .map((rec) => ({ rec, km: q.all ? null : haversineKm({ lat: q.at[0], lng: q.at[1] }, rec) }))
    .filter(({ km }) => km === null || km <= radiusKm)
    .filter(({ rec }) => {
      const has = (t: string) => rec.tags.some((own) => own.toLowerCase() === t)
      if (want.length === 0 || q.tagLogic === 'any') return want.length === 0 || want.some(has)
      if (q.tagLogic === 'all') return want.every(has)
      return [...new Set(want.map(groupOf))].every((g) => want.some((t) => groupOf(t) === g && has(t)))
    })
  // Its own words: name, address, description, tags by value and by their label in the filters now.
  const wordsOf = (rec: Rec) => ({
    own: ownWords([
      rec.name,
      rec.address,
      rec.description,
      ...rec.tags,
      ...rec.tags.map((t) => filterTag(groups, t)?.label ?? ''),
    ]),
    town: rec.town,
  })
  const kept = new Set(
    searched(
      live,
      rows.map(({ rec }) => rec),
      wordsOf,
      q.search,
    ),
  )
  const found = rows.filter(({ rec }) => kept.has(rec))
  const name = (r: Rec) => words(r.name).join(' ')
  const byName = (a: Rec, b: Rec) =>
    name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
  found.sort((a, b) => {
    if (q.sort === 'priority' && rankOf(a.rec) !== rankOf(b.rec)) return rankOf(a.rec) - rankOf(b.rec)
    return q.all ? byName(a.rec, b.rec) : a.km! - b.km! || byName(a.rec, b.rec)
  })
  return found
}

/** The group and label the filters give tag `t` (matched case-insensitively); undefined when in none. */
function filterTag(groups: Group[], t: string): { group: string; label: string } | undefined {
  for (const g of groups) {
    const tag = g.tags.find((u) => u.value === t.toLowerCase())
    if (tag !== undefined) return { group: g.id, label: tag.label }
  }
  return undefined
}

type Model = { recs: Map<string, Rec>; order: string[]; groups: Group[]; rules: Rule[] }

function queryString(q: Query): string {
  const p = new URLSearchParams()
  if (q.all) p.set('all', 'true')
  else {
    p.set('lat', String(q.at[0]))
    p.set('lng', String(q.at[1]))
    p.set('radius', String(q.radius))
    p.set('unit', q.unit)
  }
  for (const t of q.tags) p.append('tags[]', t)
  if (q.tags.length > 0) p.set('tagLogic', q.tagLogic)
  if (q.search !== '') p.set('search', q.search)
  p.set('sort', q.all ? (q.sort === 'distance' ? 'name' : q.sort) : q.sort === 'name' ? 'distance' : q.sort)
  p.set('limit', String(q.limit))
  return p.toString()
}

async function get(env: TestEnv, url: string) {
  const res = await env.app.handle(new Request(url))
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

/** Walks every page of `q` through its next links and checks each against the oracle. */
async function check(env: TestEnv, token: string, m: Model, q: Query): Promise<void> {
  const sort = q.all ? (q.sort === 'distance' ? 'name' : q.sort) : q.sort === 'name' ? 'distance' : q.sort
  const want = naive([...m.recs.values()], m.groups, m.rules, { ...q, sort })
  const base = `http://localhost/public/v1/${token}/locations?${queryString(q)}`
  const label = `${base} after ${m.order.length} locations`
  const seen: any[] = []
  let url: string | undefined = base
  for (let page = 0; url !== undefined; page++) {
    const body = await get(env, url)
    const p = body.data.pagination
    expect({ label, total: p.total, offset: p.offset, limit: p.limit }).toEqual({
      label,
      total: want.length,
      offset: page * q.limit,
      limit: q.limit,
    })
    expect(p.hasMore).toBe(p.offset + q.limit < want.length)
    expect(p.prev === undefined).toBe(page === 0)
    expect(body.data.locations.length).toBe(Math.max(0, Math.min(q.limit, want.length - p.offset)))
    seen.push(...body.data.locations)
    url = p.next
    if (url !== undefined) expect(new URL(url).searchParams.get('offset')).toBe(String(p.offset + q.limit))
    expect(page).toBeLessThan(100)
  }
  expect({ label, ids: seen.map((l) => l.id) }).toEqual({ label, ids: want.map((w) => w.rec.id) })
  // Each location as last written, its distance in the unit, its tags grouped and labelled by the
  // filters now (a tag in no group by its value alone).
  seen.forEach((loc, i) => {
    const { rec, km } = want[i]!
    expect({ id: loc.id, name: loc.name, lat: loc.coordinates.lat, lng: loc.coordinates.lng }).toEqual({
      id: rec.id,
      name: rec.name,
      lat: rec.lat,
      lng: rec.lng,
    })
    const groups: Record<string, string[]> = {}
    for (const t of rec.tags) {
      const tag = filterTag(m.groups, t)
      ;(groups[tag?.group ?? '_default'] ??= []).push(`${t.toLowerCase()} ${tag?.label ?? ''}`)
    }
    const shown = Object.fromEntries(
      Object.entries(loc.tags as Record<string, { items: { value: string; label: string }[] }>).map(([g, v]) => [
        g,
        v.items.map((it) => `${it.value.toLowerCase()} ${g === '_default' ? '' : it.label}`),
      ]),
    )
    expect(shown).toEqual(groups)
    if (km === null) expect(loc.distance).toBeUndefined()
    else {
      expect(loc.distance.unit).toBe(q.unit)
      expect(Math.abs(loc.distance.value - (q.unit === 'km' ? km : km / KM_PER_MILE))).toBeLessThanOrEqual(0.005 + 1e-9)
    }
  })
  // One page of 500 is the same list; an offset past the end an empty page with the same total.
  const whole = await get(env, base.replace(/limit=\d+/, 'limit=500'))
  expect(whole.data.locations.map((l: { id: string }) => l.id)).toEqual(want.map((w) => w.rec.id))
  const past = await get(env, `${base}&offset=${want.length + 3}`)
  expect({
    n: past.data.locations.length,
    total: past.data.pagination.total,
    hasMore: past.data.pagination.hasMore,
  }).toEqual({ n: 0, total: want.length, hasMore: false })
}

const envs: TestEnv[] = []
afterAll(() => envs.forEach((e) => e.close()))

/** Bounds small enough that a few writes reach each kind of index upkeep (and sort=priority alone is found best first, byRank, however few the points). */
const SMALL_UPKEEP = {
  index: { deltaMin: 3, nodeSize: 4, compactionSlice: 5, nameChunk: 4, textGarbageMin: 4, byRankMin: 0 },
  reorderMinBytes: 512,
}

async function run(ops: Op[], small: boolean): Promise<void> {
  const env = makeEnv(small ? { indexUpkeep: SMALL_UPKEEP } : {})
  envs.push(env)
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  addCustomField(env.store, env.locatorId, { id: 'tier', name: 'Tier', type: 'text' })
  const token = env.store.locators.get(env.locatorId)!.publicToken!
  const m: Model = { recs: new Map(), order: [], groups: [], rules: [] }
  // The town's names the write found for its point: the oracle's input, as the location's fields are.
  const townOf = (id: string) => words(env.store.locations.get(env.locatorId, id)?.townNames ?? '')
  const pick = (n: number) => (m.order.length === 0 ? undefined : m.order[n % m.order.length])
  const applyFilters = (groups: Group[]) => {
    setFilters(
      env.store,
      env.locatorId,
      groups.map((g) => ({ id: g.id, name: g.id, label: g.id, tags: g.tags })),
    )
    m.groups = groups
  }
  applyFilters([
    {
      id: 'g1',
      tags: [
        { value: 'repair', label: 'Werkstatt' },
        { value: 'rental', label: 'Rent-a-Bike' },
      ],
    },
    { id: 'g2', tags: [{ value: 'ski', label: 'Ski' }] },
  ])
  for (const op of ops) {
    if (op.kind === 'create') {
      const body = {
        name: op.name,
        address: op.address,
        description: op.description,
        tags: op.tags,
        custom_fields: { tier: op.tier },
        coordinates: { lat: op.at[0], lng: op.at[1] },
        status: op.draft ? 'draft' : 'published',
      }
      const res = await env.call('POST', '/admin/v1/locations', { body })
      expect(res.status).toBe(201)
      const id = res.body.location.id as string
      m.recs.set(id, {
        id,
        name: op.name,
        address: op.address,
        description: op.description,
        tags: firstSpellings(op.tags),
        tier: op.tier,
        lat: op.at[0],
        lng: op.at[1],
        published: !op.draft,
        town: townOf(id),
      })
      m.order.push(id)
    } else if (op.kind === 'update' || op.kind === 'status' || op.kind === 'delete') {
      const id = pick(op.n)
      if (id === undefined) continue
      const rec = m.recs.get(id)
      if (op.kind === 'delete') {
        const res = await env.call('POST', `/admin/v1/locations/${id}/delete`)
        expect(res.status).toBe(rec ? 200 : 404)
        m.recs.delete(id)
        continue
      }
      if (!rec) continue
      const body: Record<string, unknown> = {}
      if (op.kind === 'status') {
        body.status = op.published ? 'published' : 'draft'
        rec.published = op.published
      } else {
        if (op.name !== undefined) body.name = rec.name = op.name
        if (op.tags !== undefined) {
          body.tags = op.tags
          rec.tags = firstSpellings(op.tags)
        }
        if (op.description !== undefined) body.description = rec.description = op.description
        if (op.tier !== undefined) {
          body.custom_fields = { tier: op.tier }
          rec.tier = op.tier
        }
        if (op.at !== undefined) {
          body.coordinates = { lat: op.at[0], lng: op.at[1] }
          ;[rec.lat, rec.lng] = op.at
        }
        if (Object.keys(body).length === 0) body.description = rec.description
      }
      const res = await env.call('POST', `/admin/v1/locations/${id}`, { body })
      expect(res.status).toBe(200)
      rec.town = townOf(id)
    } else if (op.kind === 'filters') applyFilters(op.groups)
    else if (op.kind === 'rules') {
      const rules = op.rules
        .map(
          (r): Rule =>
            'tag' in r
              ? r
              : 'tier' in r
                ? { custom_field: 'tier', value: r.tier }
                : { ids: [...new Set(r.ids.map((n) => pick(n)).filter((id): id is string => id !== undefined))] },
        )
        .filter((r) => !('ids' in r) || r.ids.length > 0)
      setPriorityRules(env.store, env.locatorId, rules)
      m.rules = rules
    } else if (op.kind === 'idle') await Bun.sleep(1)
    else await check(env, token, m, op.q)
  }
  await check(env, token, m, {
    all: true,
    at: [0, 0],
    radius: 1,
    unit: 'km',
    tags: [],
    tagLogic: 'any',
    search: '',
    sort: 'priority',
    limit: 4,
  })
}

describe('GET /locations after random sequences of writes and settings changes', () => {
  test('totals, order, every page through next, and each location as last written agree with a naive scan', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 50, size: 'max' }), fc.boolean(), (ops, small) =>
        run(ops, small),
      ),
      { numRuns: 120, seed: 77 },
    )
  }, 180_000)
})
