// Clusters from the index: the same clusters as mapbox's supercluster makes of the same points in
// the same order; and after any writes, compaction steps and filters, every match of the query is
// in exactly one cluster or alone at each zoom, the counts add up, a cluster's leaves are its
// count and its centre their mean, and a box's answer is the world's answer within the box.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import Supercluster from 'supercluster'
import { type IndexDoc, type IndexQuery, LocatorIndex, MAX_ZOOM } from '../../src/engine/locator-index'
import { nameKey } from '../../src/core/text'
import { idHash } from '../../src/engine/clusters/build'
import { MAX_CLUSTER_ZOOM, SCALE } from '../../src/engine/clusters/levels'
import { useWorkerScript } from '../../src/engine/worker-jobs'
import { type Bbox, bboxAround, inBbox, taskQueue } from '../helpers'

const WORLD: Bbox = [-180, -90, 180, 90]
const SPOTS = [
  { lat: 48.8566, lng: 2.3522 },
  { lat: 40.7128, lng: -74.006 },
  { lat: -33.8688, lng: 151.2093 },
  { lat: 0.3, lng: 179.95 },
  { lat: 0.3, lng: -179.95 },
  { lat: 84.9, lng: 20 },
  { lat: 51.5074, lng: -0.1278 },
]
const TAGS = ['repair', 'rental', 'outlet']
const WORDS = ['bike', 'ski', 'store', 'cafe', 'repairs']

/**
 * How far apart two means of one cluster's points may lie, in degrees: the tree's (supercluster's:
 * each zoom's mean of the centres below, cut to whole units of 1 / SCALE) and a filtered answer's
 * (the mean of its matches, each point cut once) differ by under a unit a zoom.
 */
const CUT_SLACK = ((MAX_CLUSTER_ZOOM + 2) * 360) / SCALE

/** Web Mercator, written apart from the index's. */
const mercX = (lng: number) => lng / 360 + 0.5
function mercY(lat: number) {
  const sin = Math.sin((lat * Math.PI) / 180)
  return Math.min(1, Math.max(0, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI))
}
const latOfY = (y: number) => (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90

/** A point up to `spread` degrees from a spot, in range; now and then on the spot itself (ties). */
const pointArb = (spread: number) =>
  fc
    .record({
      spot: fc.constantFrom(...SPOTS),
      dLat: fc.oneof(fc.constant(0), fc.double({ min: -spread, max: spread, noNaN: true })),
      dLng: fc.oneof(fc.constant(0), fc.double({ min: -spread, max: spread, noNaN: true })),
    })
    .map(({ spot, dLat, dLng }) => {
      let lng = spot.lng + dLng
      if (lng > 180) lng -= 360
      if (lng < -180) lng += 360
      return { lat: Math.max(-85, Math.min(85, spot.lat + dLat)), lng }
    })

const docArb = (id: string, spread: number) =>
  fc
    .record({
      p: pointArb(spread),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
    })
    .map(
      ({ p, tags, words }): IndexDoc => ({
        id,
        lat: p.lat,
        lng: p.lng,
        json: null,
        nameSort: nameKey(words.join(' ')),
        name: words.join(' '),
        rank: 0,
        tags,
        text: nameKey([...words, ...tags].join(' ')),
      }),
    )

const query = (bbox: Bbox, tags: string[] = [], search = ''): IndexQuery => ({
  center: { lat: 0, lng: 0 },
  radiusKm: 0,
  bbox,
  tags,
  tagLogic: 'any',
  groupOf: () => '_default',
  search,
  sort: 'name',
  offset: 0,
  limit: 500,
})

/** A clusters answer as sets: clusters by id with count and centre, singles by id. */
function answerOf(index: LocatorIndex, q: IndexQuery, zoom: number) {
  const r = index.clusters(q, zoom)!
  expect(r).not.toBeNull()
  const singles = r.singles.map((k) => index.entryAt(k).id).sort()
  const clusters = [...r.clusters].sort((a, b) => (a.id < b.id ? -1 : 1))
  expect(r.total).toBe(singles.length + clusters.reduce((n, c) => n + c.count, 0))
  return { singles, clusters, total: r.total }
}

/** Every invariant of one zoom's world answer, and of a box's answer against it. */
function checkZoom(
  index: LocatorIndex,
  where: (id: string) => { lat: number; lng: number },
  q: IndexQuery,
  zoom: number,
  box: Bbox,
) {
  const matching = index
    .query({ ...q, bbox: WORLD, limit: 100_000 })
    .hits.map((h) => index.entryAt(h.key).id)
    .sort()
  const world = answerOf(index, { ...q, bbox: WORLD }, zoom)
  expect(world.total).toBe(matching.length)
  const seen = new Set(world.singles)
  for (const c of world.clusters) {
    expect(c.count).toBeGreaterThanOrEqual(2)
    expect(zoom).toBeLessThanOrEqual(16)
    expect(c.expansionZoom).toBeGreaterThan(zoom)
    const page = index.clusterLeaves(q, c.id)!
    const leaves = page.hits.map((h) => index.entryAt(h.key).id)
    expect(page.total).toBe(c.count)
    expect(leaves.length).toBe(c.count)
    // Its centre is the mean of its leaves, in Web Mercator.
    const points = leaves.map(where)
    const mx = points.reduce((s, p) => s + mercX(p.lng), 0) / points.length
    const my = points.reduce((s, p) => s + mercY(p.lat), 0) / points.length
    expect(Math.abs(c.lng - (mx - 0.5) * 360)).toBeLessThan(CUT_SLACK)
    expect(Math.abs(c.lat - latOfY(my))).toBeLessThan(CUT_SLACK)
    for (const id of leaves) {
      expect(seen.has(id)).toBe(false)
      seen.add(id)
    }
  }
  expect([...seen].sort()).toEqual(matching)
  // A box's answer: the world's clusters whose centre, and singles whose point, it holds.
  const inBox = answerOf(index, { ...q, bbox: box }, zoom)
  expect(inBox.clusters).toEqual(world.clusters.filter((c) => inBbox(box, c)))
  expect(inBox.singles).toEqual(world.singles.filter((id) => inBbox(box, where(id))))
}

describe('clusters', () => {
  test('the same clusters as supercluster makes of the same points in the same order, at every zoom', () => {
    fc.assert(
      fc.property(
        fc
          .array(docArb('', 3), { minLength: 1, maxLength: 400, size: 'max' })
          .map((docs) => docs.map((doc, i) => ({ ...doc, id: `loc_${i}` }))),
        (docs) => {
          // Every doc has the tag "all": asked with it, the matches are visited one by one
          // (clustersIn); asked with no filter, the zoom's items as built answer (levelClusters).
          const index = new LocatorIndex(docs.map((d) => ({ ...d, tags: [...d.tags, 'all'] })))
          // supercluster takes its points in input order: the index's order, by Web Mercator x, y
          // (as supercluster keeps them: whole numbers of 2^-30), then the id's hash.
          const kept = (c: number) => Math.trunc((c - 0.5) * 2 ** 30)
          const ordered = [...docs].sort(
            (a, b) =>
              kept(mercX(a.lng)) - kept(mercX(b.lng)) ||
              kept(mercY(a.lat)) - kept(mercY(b.lat)) ||
              idHash(a.id) - idHash(b.id),
          )
          const sc = new Supercluster({ radius: 40, extent: 512, minZoom: 0, maxZoom: 16, minPoints: 2 }).load(
            ordered.map((d) => ({
              type: 'Feature' as const,
              properties: { id: d.id },
              geometry: { type: 'Point' as const, coordinates: [d.lng, d.lat] },
            })),
          )
          for (let zoom = 0; zoom <= MAX_ZOOM; zoom++)
            for (const tags of [[], ['all']]) {
              const ours = answerOf(index, query(WORLD, tags), zoom)
              const theirs = sc.getClusters([-180, -90, 180, 90], zoom)
              // Each of ours is one of theirs: the same count and expansion zoom, the same centre
              // but for their sums' last bits; with the filter, the mean of the matches (CUT_SLACK).
              const slack = tags.length === 0 ? 1e-6 : CUT_SLACK
              const theirClusters = theirs
                .filter((f) => f.properties.cluster)
                .map((f) => ({
                  expansion: sc.getClusterExpansionZoom(f.properties.cluster_id),
                  count: f.properties.point_count,
                  lng: f.geometry.coordinates[0]!,
                  lat: f.geometry.coordinates[1]!,
                }))
              expect(ours.clusters.length).toBe(theirClusters.length)
              for (const c of ours.clusters) {
                const i = theirClusters.findIndex(
                  (t) => t.count === c.count && Math.abs(t.lng - c.lng) < slack && Math.abs(t.lat - c.lat) < slack,
                )
                expect(i).toBeGreaterThanOrEqual(0)
                expect(c.expansionZoom).toBe(theirClusters[i]!.expansion)
                theirClusters.splice(i, 1)
              }
              const theirSingles = theirs.filter((f) => !f.properties.cluster).map((f) => f.properties.id as string)
              expect(ours.singles).toEqual(theirSingles.sort())
            }
        },
      ),
      { numRuns: 30 },
    )
  }, 60_000)

  test('after writes, moves, deletes and compaction steps, with filters: every match in one cluster or alone, counts and leaves agree, a box is the world within it', () => {
    type Op = { kind: 'put'; doc: IndexDoc } | { kind: 'remove'; n: number } | { kind: 'step' } | { kind: 'ask' }
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.nat(300).chain((n) => docArb(`loc_${n}`, 1).map((doc): Op => ({ kind: 'put', doc }))),
      },
      { weight: 2, arbitrary: fc.nat(300).map((n): Op => ({ kind: 'remove', n })) },
      { weight: 2, arbitrary: fc.constant<Op>({ kind: 'step' }) },
      { weight: 1, arbitrary: fc.constant<Op>({ kind: 'ask' }) },
    )
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 150, size: 'max' }),
        fc.array(
          fc.record({
            zoom: fc.integer({ min: 0, max: MAX_ZOOM }),
            tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 2 }),
            search: fc.constantFrom('', 'bike', 'ski sto', 'repairs', 'bkie', 'zzz', 'skiing'),
            box: fc.record({
              around: pointArb(2),
              dLng: fc.double({ min: 0, max: 3, noNaN: true }),
              dLat: fc.double({ min: 0, max: 3, noNaN: true }),
            }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (ops, asks) => {
          const tasks = taskQueue()
          const index = new LocatorIndex([], {
            schedule: tasks.schedule,
            nodeSize: 4,
            deltaMin: 4,
            compactionSlice: 16,
          })
          const truth = new Map<string, IndexDoc>()
          for (const op of ops) {
            if (op.kind === 'put') {
              index.upsert(op.doc)
              truth.set(op.doc.id, op.doc)
            } else if (op.kind === 'remove') {
              index.remove(`loc_${op.n}`)
              truth.delete(`loc_${op.n}`)
            } else if (op.kind === 'step') tasks.runOne()
            else index.clusters(query(WORLD), 3) // the tree is built at the first ask, and kept from then on
          }
          for (const ask of asks) {
            const box = bboxAround(ask.box.around, ask.box.dLng, ask.box.dLat)
            checkZoom(index, (id) => truth.get(id)!, query(WORLD, ask.tags, ask.search), ask.zoom, box)
          }
        },
      ),
      { numRuns: 150 },
    )
  }, 60_000)

  /** An index whose first cluster tree is built in the background, and the answer it gives once built. */
  async function builtLater(docs: IndexDoc[]) {
    const index = new LocatorIndex(docs, { clusterNowMax: 0 })
    expect(index.clusters(query(WORLD), 5)).toBeNull()
    expect(index.clusterLeaves(query(WORLD), '5-loc_0')).toBeNull()
    for (let i = 0; i < 500 && index.clusters(query(WORLD), 5) === null; i++) await Bun.sleep(10)
    return index.clusters(query(WORLD), 5)
  }

  const many = Array.from({ length: 600 }, (_, i): IndexDoc => {
    const spot = SPOTS[i % SPOTS.length]!
    return {
      id: `loc_${i}`,
      lat: spot.lat + ((i * 7919) % 1000) / 2000,
      lng: spot.lng + ((i * 104729) % 1000) / 5000,
      json: null,
      nameSort: 'store',
      rank: 0,
      tags: [],
      text: 'store',
    }
  })

  test('a cluster whose first location was edited, moved or deleted since the build keeps its leaves', () => {
    const docs = many.slice(0, 300)
    const truth = new Map(docs.map((d) => [d.id, d]))
    const index = new LocatorIndex(docs)
    const before = answerOf(index, query(WORLD), 5).clusters
    const [edited, moved, deleted] = before.map((c) => c.id.slice(2))
    const edit = { ...truth.get(edited!)!, name: 'renamed', nameSort: 'renamed' }
    const move = { ...truth.get(moved!)!, lat: truth.get(moved!)!.lat + 0.001 }
    index.upsert(edit)
    index.upsert(move)
    index.remove(deleted!)
    truth.set(edit.id, edit)
    truth.set(move.id, move)
    truth.delete(deleted!)
    const after = answerOf(index, query(WORLD), 5).clusters.map((c) => c.id)
    for (const seed of [edited, moved, deleted]) expect(after).toContain(`5-${seed}`)
    // Each cluster's leaves, its count, its centre; every match in one cluster.
    checkZoom(index, (id) => truth.get(id)!, query(WORLD), 5, [0, 45, 5, 52])
    expect(index.clusterLeaves(query(WORLD), `5-loc_nobody`)).toBeUndefined()
  })

  test('a large index builds its first tree in the worker thread: no answer until then, then the same answer as one built at once', async () => {
    const now = new LocatorIndex(many).clusters(query(WORLD), 5)
    expect(await builtLater(many)).toEqual(now)
  })

  test('writes between the slices of a background build: each location answered where it is now, once', async () => {
    const tasks = taskQueue()
    const docs = many.slice(0, 400)
    const truth = new Map(docs.map((d) => [d.id, d]))
    const index = new LocatorIndex(docs, { clusterNowMax: 0, clusterReadSlice: 16, schedule: tasks.schedule })
    expect(index.clusters(query(WORLD), 5)).toBeNull() // the build starts: its read runs in the tasks
    for (let round = 0; round < 40; round++) {
      tasks.runOne()
      const old = truth.get(`loc_${(round * 37) % 400}`)
      if (old !== undefined) {
        const moved = { ...old, lat: old.lat + 0.02, lng: old.lng - 0.03 }
        index.upsert(moved)
        truth.set(moved.id, moved)
      }
      index.remove(`loc_${(round * 53 + 11) % 400}`)
      truth.delete(`loc_${(round * 53 + 11) % 400}`)
      const added = { ...many[400 + round]! }
      index.upsert(added)
      truth.set(added.id, added)
    }
    for (let i = 0; i < 500 && index.clusters(query(WORLD), 5) === null; i++) {
      tasks.runAll()
      await Bun.sleep(10)
    }
    expect(index.clusters(query(WORLD), 5)).not.toBeNull()
    for (const zoom of [1, 5, 9, 14]) checkZoom(index, (id) => truth.get(id)!, query(WORLD), zoom, [-5, 40, 10, 55])
  })

  test('a free key taken while a background build reads the points: every location it read still counted', async () => {
    const tasks = taskQueue()
    const docs = many.slice(0, 200)
    const truth = new Map(docs.map((d) => [d.id, d]))
    const index = new LocatorIndex(docs, { clusterNowMax: 0, clusterReadSlice: 16, schedule: tasks.schedule })
    // Freed keys, low in key order: the build starts with fewer live keys than there are slots.
    for (let n = 10; n < 20; n++) {
      index.remove(`loc_${n}`)
      truth.delete(`loc_${n}`)
    }
    expect(index.clusters(query(WORLD), 5)).toBeNull()
    // New locations take the freed keys before the read reaches them.
    for (let n = 0; n < 10; n++) {
      const added = { ...many[300 + n]! }
      index.upsert(added)
      truth.set(added.id, added)
    }
    for (let i = 0; i < 500 && index.clusters(query(WORLD), 5) === null; i++) {
      tasks.runAll()
      await Bun.sleep(10)
    }
    for (const zoom of [1, 5, 9, 14]) checkZoom(index, (id) => truth.get(id)!, query(WORLD), zoom, [-5, 40, 10, 55])
  })

  test('a worker that answers nonsense or fails: the tree is built here, the same', async () => {
    const now = new LocatorIndex(many).clusters(query(WORLD), 5)
    try {
      for (const name of ['stray.ts', 'throws.ts']) {
        useWorkerScript(new URL(`./kd-workers/${name}`, import.meta.url).href)
        expect(await builtLater(many)).toEqual(now)
      }
    } finally {
      useWorkerScript(new URL('../../src/engine/worker-thread.ts', import.meta.url).href)
    }
  })
})
