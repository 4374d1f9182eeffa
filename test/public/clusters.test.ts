// GET /clusters and GET /clusters/{id}/leaves over HTTP: the fixture's locations in clusters and
// alone at every zoom, the filtered counts, a cluster's leaves as full locations, paged; the
// refusals, caching (ETag follows writes) and CORS of the other public routes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { expectError, type Fixture, fold, idsOf, makeFixture, naming, oracle } from './fixture'

const WORLD = 'bbox=-180,-90,180,90'
/** Every fixture location (Lyon to London): within 16 tiles up to zoom 9. */
const FRANCE = 'bbox=-1,45,5.5,52'

type Cluster = { id: string; lat: number; lng: number; count: number; expansion_zoom: number }
type Single = { id: string; lat: number; lng: number; name: string }

describe('GET /clusters', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  const clusters = async (query: string) => {
    const res = await f.get(f.url('/clusters', query))
    expect(res.status).toBe(200)
    return res.body.data as { clusters: Cluster[]; locations: Single[]; total: number }
  }
  /** Every leaf of a cluster, walking its pages. */
  const leaves = async (id: string, query = '') => {
    const ids: string[] = []
    let url: string | undefined = f.url(`/clusters/${id}/leaves`, `limit=3${query}`)
    while (url) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      ids.push(...idsOf(res))
      url = res.body.data.pagination.next
    }
    return ids
  }

  // Deeper zooms, in boxes a map shows, are the index's tests' (test/engine/clusters.test.ts).
  test('at zooms 0 to 9, every published location is in exactly one cluster or alone, and the counts add up', async () => {
    const published = f.locs.filter((l) => l.published).map((l) => l.id)
    let clustered = false
    for (let zoom = 0; zoom <= 9; zoom++) {
      const data = await clusters(`${zoom <= 4 ? WORLD : FRANCE}&zoom=${zoom}`)
      expect(data.total).toBe(published.length)
      const seen = data.locations.map((l) => l.id)
      for (const c of data.clusters) {
        expect(c.count).toBeGreaterThanOrEqual(2)
        expect(c.expansion_zoom).toBeGreaterThan(zoom)
        const ids = await leaves(c.id)
        expect(ids.length).toBe(c.count)
        seen.push(...ids)
        clustered = true
      }
      expect(seen.sort()).toEqual([...published].sort())
    }
    expect(clustered).toBe(true)
  })

  test('zoomed out, Paris is one cluster; from zoom 17 every location is alone, with its id, point and name', async () => {
    const far = await clusters(`${WORLD}&zoom=2`)
    const paris = far.clusters.find((c) => Math.abs(c.lat - 48.8) < 1 && Math.abs(c.lng - 2.4) < 1)
    expect(paris).toBeDefined()
    expect(paris!.count).toBeGreaterThan(10)
    const near = await clusters('bbox=2.34,48.87,2.37,48.89&zoom=17')
    expect(near.clusters).toEqual([])
    const gare = near.locations.find((l) => l.id === f.ids.gare)!
    const seed = f.locs.find((l) => l.id === f.ids.gare)!
    expect(gare).toEqual({ id: seed.id, lat: seed.lat, lng: seed.lng, name: seed.name })
  })

  test('filters apply before clustering: the counts are the filtered counts, and leaves keep the filters', async () => {
    for (const filter of ['&tags[]=repair', '&tags[]=rental&tags[]=delivery&tagLogic=any', '&search=velo']) {
      const want = (await f.get(f.url('/locations', `${WORLD}&limit=500${filter}`))).body.data.pagination.total
      expect(want).toBeGreaterThan(0)
      const data = await clusters(`${WORLD}&zoom=3${filter}`)
      expect(data.total).toBe(want)
      for (const c of data.clusters) expect((await leaves(c.id, filter)).length).toBe(c.count)
    }
    const repair = oracle(f.locs, { tags: ['repair'] }).map((h) => h.loc.id)
    const data = await clusters(`${FRANCE}&zoom=9&tags[]=repair`)
    const seen = data.locations.map((l) => l.id)
    for (const c of data.clusters) seen.push(...(await leaves(c.id, '&tags[]=repair')))
    expect(seen.sort()).toEqual(repair.sort())
  })

  test('a box holds the clusters whose centre, and the locations whose point, lies in it', async () => {
    const world = await clusters(`${FRANCE}&zoom=9`)
    const box = [2.2, 48.75, 2.5, 48.95]
    const inBox = (p: { lat: number; lng: number }) =>
      p.lng >= box[0]! && p.lng <= box[2]! && p.lat >= box[1]! && p.lat <= box[3]!
    const data = await clusters(`bbox=${box.join(',')}&zoom=9`)
    // Both by id, in every process alike.
    expect(world.clusters.map((c) => c.id)).toEqual(world.clusters.map((c) => c.id).sort())
    expect(world.locations.map((l) => l.id)).toEqual(world.locations.map((l) => l.id).sort())
    expect(data.clusters).toEqual(world.clusters.filter(inBox))
    expect(data.locations).toEqual(world.locations.filter(inBox))
    expect(data.clusters.length + data.locations.length).toBeGreaterThan(0)
    const meta = (await f.get(f.url('/clusters', `bbox=${box.join(',')}&zoom=9`))).body.meta
    expect(meta).toEqual({ query: { bbox: box, zoom: 9 } })
  })

  test('leaves are full locations by name, paged with next and prev', async () => {
    const data = await clusters(`${WORLD}&zoom=3`)
    const big = data.clusters.sort((a, b) => b.count - a.count)[0]!
    const first = await f.get(f.url(`/clusters/${big.id}/leaves`, 'limit=2'))
    expect(first.body.data.locations).toHaveLength(2)
    expect(first.body.data.locations[0]).toHaveProperty('address')
    expect(first.body.data.locations[0]).toHaveProperty('open_now')
    expect(first.body.data.locations[0]).not.toHaveProperty('distance')
    expect(first.body.data.pagination).toMatchObject({ offset: 0, limit: 2, total: big.count, hasMore: true })
    expect(first.body.meta).toEqual({ query: { cluster: big.id } })
    const second = await f.get(first.body.data.pagination.next)
    expect(second.body.data.pagination.prev).toBeDefined()
    const all = await leaves(big.id)
    const names = all.map((id) => fold(f.locs.find((l) => l.id === id)!.name))
    expect(idsOf(first)).toEqual(all.slice(0, 2))
    expect(idsOf(second)).toEqual(all.slice(2, 4))
    expect(names).toEqual([...names].sort())
    // Past the end, prev leads to the last two leaves, not to another empty page.
    const past = await f.get(f.url(`/clusters/${big.id}/leaves`, 'limit=2&offset=600'))
    expect(past.body.data.locations).toEqual([])
    expect(idsOf(await f.get(past.body.data.pagination.prev))).toEqual(all.slice(-2))
  })

  test('a write is in the next clusters answer, and the ETag follows it; 304 for a current ETag', async () => {
    const before = await f.get(f.url('/clusters', `${WORLD}&zoom=4`))
    const etag = before.headers.get('etag')!
    expect((await f.get(f.url('/clusters', `${WORLD}&zoom=4`), { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    )
    const created = await f.env.call('POST', '/admin/v1/locations', {
      body: { name: 'Vélos de Troyes', address: 'Troyes', coordinates: { lat: 48.2973, lng: 4.0744 } },
    })
    expect(created.status).toBe(201)
    const after = await f.get(f.url('/clusters', `${WORLD}&zoom=4`))
    expect(after.headers.get('etag')).not.toBe(etag)
    expect(after.body.data.total).toBe(before.body.data.total + 1)
    const alone = await clusters('bbox=4.06,48.29,4.09,48.31&zoom=17')
    expect(alone.locations.map((l) => l.id)).toContain(created.body.location.id)
    expect((await f.env.call('POST', `/admin/v1/locations/${created.body.location.id}/delete`)).status).toBe(200)
    expect((await clusters(`${WORLD}&zoom=4`)).total).toBe(before.body.data.total)
  })

  test('CORS as on the other public routes', async () => {
    const res = await f.get(f.url('/clusters', `${WORLD}&zoom=1`), { headers: { origin: 'https://shop.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    expect(res.headers.get('cache-control')).toContain('max-age')
  })

  test('refusals: no box or zoom, a bad one, a bad filter; a cluster id nobody gave', async () => {
    const refused = async (query: string, param: string) =>
      expectError(await f.get(f.url('/clusters', query)), 400, 'INVALID_PARAMETER', naming(param))
    await refused('zoom=3', 'bbox')
    await refused(WORLD, 'zoom')
    for (const zoom of ['21', '-1', '2.5', 'x']) await refused(`${WORLD}&zoom=${zoom}`, 'zoom')
    await refused('bbox=1,2,3&zoom=3', 'bbox')
    await refused('bbox=10,50,20,40&zoom=3', 'bbox')
    await refused(`${WORLD}&zoom=3&tagLogic=some`, 'tagLogic')
    await refused(`${WORLD}&zoom=3&open_now=maybe`, 'open_now')
    // A bad filter is told after what is missing, as on the other routes.
    await refused('zoom=3&open_now=maybe', 'bbox')
    await refused(`${WORLD}&open_now=maybe`, 'zoom')
    // Larger than a map shows: more than 16 tiles across (the world at zoom 5 is 32) or down.
    const tooLarge = await f.get(f.url('/clusters', `${WORLD}&zoom=5`))
    expectError(
      tooLarge,
      400,
      'INVALID_PARAMETER',
      'bbox is larger than a map shows at zoom 5: 32 tiles across or down, more than 16 (about 180° of longitude at this zoom). Send the box the map shows, or a lower zoom.',
    )
    await refused(`${FRANCE}&zoom=10`, 'bbox')
    await refused('bbox=179,-10,-179,10&zoom=12', 'bbox') // across the antimeridian: 2° wide, 20° tall
    expect((await f.get(f.url('/clusters', 'bbox=179,-1,-179,1&zoom=10'))).status).toBe(200)
    // A location alone at zoom 16 is no cluster, though its id reads as one.
    for (const id of ['3-loc_nobody', 'nonsense', `17-${f.ids.gare}`, `16-${f.ids.gare}`])
      expectError(await f.get(f.url(`/clusters/${id}/leaves`)), 404, 'CLUSTER_NOT_FOUND')
    expectError(await f.get(f.url('/clusters/%zz/leaves')), 404, 'CLUSTER_NOT_FOUND')
  })
})
