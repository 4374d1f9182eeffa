// GET /locations filters and sorts: tags[] under tagLogic any / all / match (groups from the filter
// configuration, ungrouped tags in _default), keyword search, sort=priority in both modes and the
// sort combinations each mode refuses. Each answer is checked against hand-picked expectations and
// against the fixture's oracle.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { setPriorityRules } from '../../src/operator'
import {
  CENTER,
  expectError,
  idsOf,
  KM_PER_MILE,
  makeFixture,
  naming,
  oracle,
  type Fixture,
  type OracleQuery,
  type Res,
} from './fixture'

const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`
const RADIUS_KM = 25 * KM_PER_MILE

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

const keysOf = (res: Res) => idsOf(res).map((id) => f.locs.find((l) => l.id === id)?.key ?? id)
const tagQuery = (tags: string[]) => tags.map((t) => `tags[]=${encodeURIComponent(t)}`).join('&')
const all = (q: string) => f.get(f.url('/locations', `all=true&limit=500&${q}`))
const near = (q: string) => f.get(f.url('/locations', `${NEAR}&limit=500&${q}`))
const want = (q: OracleQuery) => oracle(f.locs, q).map((h) => h.loc.key)

describe('tags[] and tagLogic', () => {
  test('tagLogic defaults to any: a location with at least one of the tags', async () => {
    const res = await all(tagQuery(['vintage', 'delivery']))
    expect(res.status).toBe(200)
    expect(keysOf(res).sort()).toEqual([
      'bastille',
      'bikshop',
      'depot',
      'fast',
      'london',
      'orly',
      'orsay',
      'rouen',
      'velo',
    ])
    expect(keysOf(res)).toEqual(want({ tags: ['vintage', 'delivery'] }))
    const explicit = await all(`${tagQuery(['vintage', 'delivery'])}&tagLogic=any`)
    expect(idsOf(explicit)).toEqual(idsOf(res))
  })

  test('tagLogic=all: every listed tag', async () => {
    const res = await all(`${tagQuery(['repair', 'trek'])}&tagLogic=all`)
    expect(res.status).toBe(200)
    expect(keysOf(res)).toEqual(['velo'])
    const three = await all(`${tagQuery(['repair', 'delivery', 'giant'])}&tagLogic=all`)
    expect(keysOf(three)).toEqual(['depot'])
  })

  test('tagLogic=match: OR within a filter group, AND across groups', async () => {
    // (repair OR rental) AND trek
    const res = await all(`${tagQuery(['repair', 'rental', 'trek'])}&tagLogic=match`)
    expect(res.status).toBe(200)
    expect(keysOf(res)).toEqual(['eagle', 'velo'])
    // (delivery) AND (giant OR specialized)
    const two = await all(`${tagQuery(['delivery', 'giant', 'specialized'])}&tagLogic=match`)
    expect(keysOf(two)).toEqual(['depot', 'fast'])
    // the same tags under any and all give other answers
    expect(keysOf(await all(`${tagQuery(['repair', 'rental', 'trek'])}&tagLogic=all`))).toEqual([])
    expect(keysOf(await all(`${tagQuery(['repair', 'rental', 'trek'])}&tagLogic=any`)).length).toBeGreaterThan(10)
  })

  test('tagLogic=match: tags in no group form the _default group', async () => {
    // rental AND outlet (outlet is in no group)
    const res = await all(`${tagQuery(['rental', 'outlet'])}&tagLogic=match`)
    expect(keysOf(res)).toEqual(['fontainebleau'])
    // outlet OR vintage: both in _default, so OR
    const same = await all(`${tagQuery(['outlet', 'vintage'])}&tagLogic=match`)
    expect(keysOf(same).sort()).toEqual(['angstrom', 'fontainebleau', 'london', 'orsay', 'reims', 'velo', 'zoe'])
    // (repair) AND (trek) AND (vintage OR outlet)
    const three = await all(`${tagQuery(['repair', 'trek', 'vintage', 'outlet'])}&tagLogic=match`)
    expect(keysOf(three)).toEqual(['velo'])
  })

  test('tags match case-insensitively, whatever case the location or the filter configuration used', async () => {
    const lower = await all(tagQuery(['giant']))
    expect(keysOf(lower).sort()).toEqual(['depot', 'eclair', 'reims', 'versailles']) // stored as giant, GIANT, Giant, Giant
    for (const t of ['Giant', 'GIANT', 'gIaNt']) expect(idsOf(await all(tagQuery([t])))).toEqual(idsOf(lower))
    expect(keysOf(await all(`${tagQuery(['REPAIR', 'Trek'])}&tagLogic=all`))).toEqual(['velo'])
    expect(keysOf(await all(`${tagQuery(['Rental', 'OUTLET'])}&tagLogic=match`))).toEqual(['fontainebleau'])
  })

  test('tags[] are read trimmed, composed and lowercased, in plain query strings and encoded ones alike', async () => {
    const lower = await all(tagQuery(['giant']))
    expect(keysOf(lower).length).toBeGreaterThan(0)
    // Spaces and a tab around, capitals, and the raw tags[]= of a plain query string.
    for (const q of [tagQuery([' giant', 'giant ', '\tGIANT ']), 'tags[]=Giant', 'tags[]=GIANT&tags=giant'])
      expect(idsOf(await all(q))).toEqual(idsOf(lower))
    expect(keysOf(await all(`${tagQuery([' repair', 'TREK '])}&tagLogic=all`))).toEqual(['velo'])
    // Spaces alone are no tag: every location, as without tags[].
    expect(idsOf(await all(tagQuery(['  '])))).toEqual(idsOf(await all('')))
  })

  test("a tag nothing carries gives no results; a draft's tag finds nothing", async () => {
    const none = await all(tagQuery(['unicycle']))
    expect(none.status).toBe(200)
    expect(none.body.data).toEqual({ locations: [], pagination: { offset: 0, limit: 500, total: 0, hasMore: false } })
    expect(keysOf(await all(tagQuery(['draftonly'])))).toEqual([])
  })

  test('tags in radius queries: filtered, still nearest first', async () => {
    const res = await near(`${tagQuery(['repair', 'outlet'])}`)
    expect(res.status).toBe(200)
    expect(keysOf(res)).toEqual(want({ center: CENTER, radiusKm: RADIUS_KM, tags: ['repair', 'outlet'] }))
    expect(keysOf(res)).toEqual(['velo', 'orsay', 'zoe', 'bikesshop', 'angstrom', 'depot', 'emile', 'cergy'])
    expect(res.body.data.pagination.total).toBe(8)
  })

  test('every combination of a few tags and each logic agrees with the oracle, in both modes', async () => {
    const sets = [
      ['repair'],
      ['trek', 'giant'],
      ['rental', 'trek'],
      ['delivery', 'outlet', 'vintage'],
      ['repair', 'rental', 'giant', 'specialized'],
      ['Specialized', 'outlet'],
    ]
    for (const tags of sets) {
      for (const tagLogic of ['any', 'all', 'match'] as const) {
        const a = await all(`${tagQuery(tags)}&tagLogic=${tagLogic}`)
        expect({ tags, tagLogic, got: keysOf(a) }).toEqual({ tags, tagLogic, got: want({ tags, tagLogic }) })
        const r = await near(`${tagQuery(tags)}&tagLogic=${tagLogic}&radius=100&unit=km`)
        expect({ tags, tagLogic, got: keysOf(r) }).toEqual({
          tags,
          tagLogic,
          got: want({ center: CENTER, radiusKm: 100, tags, tagLogic }),
        })
      }
    }
  })

  test('up to 50 tags[] are accepted', async () => {
    const tags = ['repair', ...Array.from({ length: 49 }, (_, i) => `nothing${i}`)]
    const res = await all(tagQuery(tags))
    expect(res.status).toBe(200)
    expect(keysOf(res)).toEqual(want({ tags: ['repair'] }))
  })
})

describe('search', () => {
  const search = (s: string, q = 'all=true&limit=500') =>
    f.get(f.url('/locations', `${q}&search=${encodeURIComponent(s)}`))

  test('the last word is a prefix: "bik" finds every "bike…" word', async () => {
    const res = await search('bik')
    expect(res.status).toBe(200)
    expect(keysOf(res).sort()).toEqual(['beauvais', 'bikesshop', 'bikshop', 'eagle', 'lyon', 'orsay', 'velo'])
    expect(keysOf(res)).toEqual(want({ search: 'bik' }))
  })

  test('every word must match; all but the last must match a whole word', async () => {
    expect(keysOf(await search('bik shop'))).toEqual(['bikshop']) // "bik" whole, "shop" prefix of "Shopping"
    expect(keysOf(await search('bikes shop'))).toEqual(['bikesshop'])
    expect(keysOf(await search('shop bikes'))).toEqual(['bikesshop'])
    expect(keysOf(await search('bike stop'))).toEqual(['orsay'])
    // "bik" is no whole word of "Bike Stop"; as typed, nothing matches, and "stop" is one edit
    // from "shop": the typo-tolerant search finds "Bik Shop" (test/engine: the oracles).
    expect(keysOf(await search('bik stop'))).toEqual(['bikshop'])
    expect(keysOf(await search('bikes lumiere'))).toEqual(['lyon'])
    expect(keysOf(await search('bikes zzz'))).toEqual([])
  })

  test('typos: when nothing matches as typed, a word of 4+ characters may be one edit off, 8+ two, the last still a prefix', async () => {
    expect(keysOf(await search('versialles'))).toEqual(['versailles']) // two letters swapped: one edit
    expect(keysOf(await search('bkies lumeire'))).toEqual(['lyon']) // a swap in each, the last word's a prefix's
    expect(keysOf(await search('fontainbleau tral'))).toEqual(['fontainebleau']) // one missing; "tral" one from "trai"
    expect(keysOf(await search('chrtres vel'))).toEqual(['chartres']) // the last word a prefix, as typed
    expect(keysOf(await search('lumeirr'))).toEqual([]) // 7 characters, two edits from "lumiere": too many
    expect(keysOf(await search('rouem')).sort()).toEqual(['eagle', 'rouen']) // Rouen, and Rue de Rouen
    expect(keysOf(await search('rxn'))).toEqual([]) // under 4 characters: as typed only
    // Exact matches rank and count as without typos: "bikes" finds only what has it, not "bike" or "biked".
    const exact = await search('eagle')
    expect(keysOf(exact)).toEqual(['eagle'])
    expect(exact.body.data.pagination.total).toBe(1)
    // And in a radius query, with tags, nearest first.
    const near = await search('chartrse', 'lat=48.45&lng=1.49&radius=30&unit=km')
    expect(keysOf(near)).toEqual(['chartres'])
  })

  test('word forms: when typos find nothing either, a word ending in -s, -es, -ing or -ed is cut and taken as a prefix', async () => {
    // "rent": the tag rental, and Hôtel de Ville Rentals (tagged so too); "repair": the tag, and Émile Repairs.
    expect(keysOf(await search('renting')).sort()).toEqual(want({ tags: ['rental'] }).sort())
    expect(keysOf(await search('repairing')).sort()).toEqual(want({ tags: ['repair'] }).sort())
    expect(keysOf(await search('repairing wheels'))).toEqual(['emile']) // "wheel": its description's "Wheel truing"
    // Only then: "eagles" is one edit from "eagle", so typos answer, and word forms are not asked.
    expect(keysOf(await search('eagles'))).toEqual(['eagle'])
    expect(keysOf(await search('renting zzz'))).toEqual([])
  })

  test('case- and accent-insensitive, both ways', async () => {
    const velo = ['bastille', 'chartres', 'velo'] // Vélo Café Bikes, Bastille Vélos, Chartres Vélos
    for (const s of ['velo', 'VÉLO', 'Vélo', 'vElO']) expect(keysOf(await search(s)).sort()).toEqual(velo)
    for (const s of ['cafe', 'CAFÉ', 'velo cafe', 'vélo café bikes']) expect(keysOf(await search(s))).toEqual(['velo'])
    for (const s of ['angstrom', 'ÅNGSTRÖM', 'Ångström outlet']) expect(keysOf(await search(s))).toEqual(['angstrom'])
    expect(keysOf(await search('zoe'))).toEqual(['zoe'])
    expect(keysOf(await search('ZOËS GARAGE'))).toEqual(['zoe'])
    expect(keysOf(await search('eclair'))).toEqual(['eclair'])
    expect(keysOf(await search('Éclair'))).toEqual(['eclair'])
  })

  test('searches the address, the description and the tags too', async () => {
    expect(keysOf(await search('dunkerque'))).toEqual(['gare'])
    expect(keysOf(await search('rivoli'))).toEqual(['velo'])
    expect(keysOf(await search('75004')).sort()).toEqual(['hotel', 'marais', 'velo']) // the draft at 75004 stays hidden
    expect(keysOf(await search('ergonomic'))).toEqual(['emile'])
    expect(keysOf(await search('espresso'))).toEqual(['velo'])
    expect(keysOf(await search('truing saddles'))).toEqual(['emile'])
    expect(keysOf(await search('vintage')).sort()).toEqual(['london', 'orsay', 'velo'])
    expect(keysOf(await search('special')).sort()).toEqual(['angstrom', 'chartres', 'fast'])
    // words may come from different fields: name + tag, address + description
    expect(keysOf(await search('marais'))).toEqual(['marais'])
    expect(keysOf(await search('bikes vintage'))).toEqual(['velo'])
    expect(keysOf(await search('sceaux wheel'))).toEqual(['emile'])
  })

  test('drafts are never found', async () => {
    for (const s of ['hidden', 'secret workshop', 'unpublished', 'draftonly'])
      expect(keysOf(await search(s))).toEqual([])
  })

  test('search in a radius query: only matches within the radius, nearest first', async () => {
    const res = await search('bikes', `${NEAR}&limit=500`)
    expect(res.status).toBe(200)
    expect(keysOf(res)).toEqual(['velo', 'bikesshop', 'eagle'])
    expect(keysOf(res)).toEqual(want({ center: CENTER, radiusKm: RADIUS_KM, search: 'bikes' }))
    expect(res.body.data.pagination.total).toBe(3)
  })

  test('search and tags together', async () => {
    const res = await f.get(f.url('/locations', `all=true&search=bikes&${tagQuery(['repair'])}`))
    expect(keysOf(res).sort()).toEqual(['beauvais', 'bikesshop', 'lyon', 'velo'])
    expect(keysOf(res)).toEqual(want({ search: 'bikes', tags: ['repair'] }))
  })

  test('many searches agree with the oracle', async () => {
    for (const s of [
      'r',
      'ru',
      'rue de',
      'rue d',
      'paris',
      'cycles',
      'cycl',
      'place',
      'de la',
      'saint',
      'orly',
      'pédale',
      'pedales',
      'roues rouen',
      'bi',
      'ville rent',
    ]) {
      const res = await search(s)
      expect({ s, got: keysOf(res) }).toEqual({ s, got: want({ search: s }) })
    }
  })

  test('a search of 200 characters is accepted', async () => {
    const res = await search('b'.repeat(200))
    expect(res.status).toBe(200)
    expect(res.body.data.locations).toEqual([])
  })
})

describe('search beyond the Latin alphabet', () => {
  let g: Fixture
  beforeAll(async () => {
    g = await makeFixture()
    for (const name of ['東京サイクル', 'Москва Велосипеды', 'Αθήνα Ποδήλατα']) {
      const res = await g.env.call('POST', '/admin/v1/locations', {
        body: { name, address: '1 Somewhere', coordinates: { lat: 48.86, lng: 2.35 } },
      })
      expect(res.status).toBe(201)
    }
  })
  afterAll(() => g.env.close())
  const names = async (s: string) =>
    (
      (await g.get(g.url('/locations', `all=true&limit=500&search=${encodeURIComponent(s)}`))).body.data.locations as {
        name: string
      }[]
    ).map((l) => l.name)

  test('a name in another script is found by its words', async () => {
    expect(await names('東京')).toEqual(['東京サイクル'])
    expect(await names('москва')).toEqual(['Москва Велосипеды'])
    expect(await names('Велосипеды')).toEqual(['Москва Велосипеды'])
    expect(await names('αθήνα')).toEqual(['Αθήνα Ποδήλατα'])
  })

  test('a word that no location contains matches nothing, whatever its script', async () => {
    expect(await names('北京')).toEqual([])
    expect(await names('bikes 北京')).toEqual([])
    expect(await names('Київ')).toEqual([])
  })
})

describe('sort', () => {
  test('sort=priority with all=true: by rule rank, then by name', async () => {
    const res = await all('sort=priority')
    expect(res.status).toBe(200)
    // rank 0: the ids rule; 1: partner=gold; 2: tag OUTLET (matched case-insensitively); then the rest.
    expect(keysOf(res).slice(0, 8)).toEqual([
      'fast',
      'lyon',
      'bastille',
      'velo',
      'angstrom',
      'fontainebleau',
      'reims',
      'zoe',
    ])
    expect(keysOf(res)).toEqual(want({ sort: 'priority' }))
    expect(res.body.data.locations[0].distance).toBeUndefined()
    expect(res.body.meta?.query).toBeUndefined()
  })

  test('sort=priority in a radius query: by rule rank, then by distance', async () => {
    const res = await near('sort=priority')
    expect(res.status).toBe(200)
    // lyon is outside the radius; velo (0.47 km) before bastille (1.29 km)
    expect(keysOf(res).slice(0, 5)).toEqual(['fast', 'velo', 'bastille', 'zoe', 'angstrom'])
    expect(keysOf(res)).toEqual(want({ center: CENTER, radiusKm: RADIUS_KM, sort: 'priority' }))
    expect(res.body.data.locations.every((l: { distance?: unknown }) => l.distance !== undefined)).toBe(true)
    expect(res.body.meta.query).toEqual({ center: CENTER, radius: 25, unit: 'miles' })
  })

  test('sort=priority pages like any other order', async () => {
    const whole = want({ sort: 'priority' })
    const page = await f.get(f.url('/locations', 'all=true&sort=priority&limit=3&offset=3'))
    expect(keysOf(page)).toEqual(whole.slice(3, 6))
    expect(new URL(page.body.data.pagination.next).searchParams.get('sort')).toBe('priority')
  })

  test('sort=priority with tags and search', async () => {
    const res = await all(`sort=priority&${tagQuery(['delivery', 'outlet'])}`)
    expect(keysOf(res)).toEqual(want({ sort: 'priority', tags: ['delivery', 'outlet'] }))
    expect(keysOf(res).slice(0, 2)).toEqual(['fast', 'bastille'])
  })

  test('changed priority rules apply to the very next query', async () => {
    setPriorityRules(f.env.store, f.env.locatorId, [{ tag: 'vintage' }])
    try {
      const res = await all('sort=priority')
      expect(keysOf(res).slice(0, 3)).toEqual(['london', 'orsay', 'velo']) // "Downing Street Cycles", "Musée…", "Vélo…"
      expect(keysOf(res).slice(3)).toEqual(want({}).filter((k) => !['london', 'orsay', 'velo'].includes(k)))
    } finally {
      setPriorityRules(f.env.store, f.env.locatorId, [
        { ids: [f.ids.fast!, f.ids.lyon!] },
        { custom_field: 'partner', value: 'gold' },
        { tag: 'OUTLET' },
      ])
    }
    expect(keysOf(await all('sort=priority')).slice(0, 2)).toEqual(['fast', 'lyon'])
  })

  test('sort=distance is the radius default; sort=name is the all=true default', async () => {
    const d = await near('sort=distance')
    expect(d.status).toBe(200)
    expect(idsOf(d)).toEqual(idsOf(await near('')))
    const n = await all('sort=name')
    expect(n.status).toBe(200)
    expect(idsOf(n)).toEqual(idsOf(await all('')))
  })

  test('sort=name in a radius query is 400 INVALID_PARAMETER naming sort', async () => {
    expectError(await near('sort=name'), 400, 'INVALID_PARAMETER', naming('sort'))
  })

  test('sort=distance with all=true is 400 INVALID_PARAMETER naming sort', async () => {
    expectError(await all('sort=distance'), 400, 'INVALID_PARAMETER', naming('sort'))
  })
})
