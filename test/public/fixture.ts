// The Query API's test fixture: a real store and app (test/helpers.ts makeEnv) holding one locator
// with the Query API on, two filter groups, three custom fields, priority rules and 30 locations
// written through the Management API; plus an oracle (haversine, tag logic, search, sorts) that
// answers every GET /locations query the way the spec and shared/design.md describe it.
import { expect } from 'bun:test'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'
import { createApp } from '../../src/server/app'
import type { RateLimiter } from '../../src/api/public/guards'
import { addCustomField, setFilters, setLocatorSettings, setPriorityRules } from '../../src/operator'
import { type Bbox, haversineKm, inBbox, makeEnv, type TestEnv } from '../helpers'

export { haversineKm }

export const KM_PER_MILE = 1.609344
/** The fixture's search centre (Paris, Hôtel de Ville), lat/lng as the API takes them. */
export const CENTER = { lat: 48.8566, lng: 2.3522 }

export const FILTERS = [
  {
    id: 'services',
    name: 'Services',
    label: 'Filter by service',
    inline: true,
    tags: [
      { value: 'repair', label: 'Repair', color: '#d73a49' },
      { value: 'rental', label: 'Rental' },
      { value: 'delivery', label: 'Home delivery', color: '#0366d6', image: 'https://cdn.example.com/delivery.png' },
    ],
  },
  {
    id: 'brands',
    name: 'Brands',
    label: 'Brand',
    singleSelect: true,
    hideInLocationDetails: true,
    tags: [
      { value: 'Trek', label: 'Trek' },
      { value: 'Giant', label: 'Giant', color: '#123abc' },
      { value: 'Specialized', label: 'Specialized' },
    ],
  },
]

/** Lowercased tag value -> its filter group id; tags in no group belong to _default. */
export const GROUP_OF: Record<string, string> = Object.fromEntries(
  FILTERS.flatMap((g) => g.tags.map((t) => [t.value.toLowerCase(), g.id])),
)
export const groupOf = (tag: string) => GROUP_OF[tag.toLowerCase()] ?? '_default'

export const CUSTOM_FIELDS = [
  { id: 'note', name: 'Note', type: 'text' },
  { id: 'booking', name: 'Booking', type: 'button', label: 'Book now' },
  { id: 'partner', name: 'Partner', type: 'badge', label: 'Partner', color: '#1a7f37' },
] as const

export type Seed = {
  key: string
  name: string
  address: string
  /** Omitted: the address is geocoded (by the test geocoder's table). */
  lat?: number
  lng?: number
  tags?: string[]
  status?: string
  description?: string
  contact?: Record<string, string>
  social?: Record<string, string>
  hours?: Record<string, string>
  custom_fields?: Record<string, string>
  image_url?: string
}

export const SEEDS: Seed[] = [
  {
    key: 'velo',
    name: 'Vélo Café Bikes',
    address: '12 Rue de Rivoli, 75004 Paris',
    lat: 48.86,
    lng: 2.356,
    tags: ['repair', 'trek', 'vintage'],
    description: 'Coffee, espresso and city bikes.',
    contact: { phone: '+33 1 23 45 67 89', email: 'hello@velo.example', website: 'https://velo.example' },
    social: {
      instagram: 'https://instagram.com/velo_cafe/',
      facebook: 'https://www.facebook.com/velocafe',
      twitter: 'https://x.com/@velocafe',
    },
    hours: { monday: '09:00-18:00', tuesday: '09:00-18:00', saturday: '10:00-16:00', sunday: 'closed' },
    custom_fields: { partner: 'gold', booking: 'https://book.example.com/velo', note: 'Ring twice' },
    image_url: 'https://img.example.com/velo.jpg',
  },
  {
    key: 'eclair',
    name: 'Éclair Cycles',
    address: '5 Rue Lafayette, 75009 Paris',
    lat: 48.875,
    lng: 2.34,
    tags: ['rental', 'GIANT'],
  },
  {
    key: 'bikshop',
    name: 'Le Bik Shopping',
    address: '30 Avenue Daumesnil, 75012 Paris',
    lat: 48.83,
    lng: 2.38,
    tags: ['delivery'],
  },
  {
    key: 'bikesshop',
    name: 'Bikes Shop Nord',
    address: '2 Rue du Landy, 93200 Saint-Denis',
    lat: 48.92,
    lng: 2.355,
    tags: ['repair', 'rental'],
  },
  {
    key: 'zoe',
    name: "Zoë's Garage",
    address: '8 Rue de Vaugirard, 92130 Issy',
    lat: 48.81,
    lng: 2.29,
    tags: ['outlet'],
    custom_fields: { partner: 'silver', note: 'Back entrance' },
    social: { facebook: 'https://facebook.com/zoesgarage' },
  },
  {
    key: 'angstrom',
    name: 'Ångström Outlet',
    address: '1 Rue de Paris, 93100 Montreuil',
    lat: 48.94,
    lng: 2.41,
    tags: ['outlet', 'Specialized'],
  },
  {
    key: 'depot',
    name: 'Dépôt Central',
    address: '3 Avenue de Fontainebleau, 94270 Le Kremlin-Bicêtre',
    lat: 48.75,
    lng: 2.45,
    tags: ['repair', 'delivery', 'giant'],
  },
  {
    key: 'eagle',
    name: 'Eagle Bikes',
    address: '7 Rue de Rouen, 92700 Colombes',
    lat: 48.97,
    lng: 2.2,
    tags: ['trek', 'rental'],
  },
  {
    key: 'emile',
    name: 'Émile Repairs',
    address: '14 Rue Houdan, 92330 Sceaux',
    lat: 48.72,
    lng: 2.25,
    tags: ['repair'],
    description: 'Wheel truing and ergonomic saddles.',
  },
  {
    key: 'fast',
    name: 'Fast Wheels',
    address: '9 Rue de Roissy, 93290 Tremblay',
    lat: 49,
    lng: 2.5,
    tags: ['delivery', 'specialized'],
  },
  { key: 'gare', name: 'Gare du Nord Cycles', address: '18 Rue de Dunkerque, 75010 Paris', lat: 48.8809, lng: 2.3553 },
  {
    key: 'hotel',
    name: 'Hôtel de Ville Rentals',
    address: 'Place de l’Hôtel de Ville, 75004 Paris',
    lat: 48.8565,
    lng: 2.3525,
    tags: ['rental'],
  },
  {
    key: 'orsay',
    name: 'Musée Orsay Bike Stop',
    address: '1 Rue de la Légion d’Honneur, 75007 Paris',
    lat: 48.86,
    lng: 2.3266,
    tags: ['repair', 'vintage'],
  },
  {
    key: 'bastille',
    name: 'Bastille Vélos',
    address: '4 Place de la Bastille, 75011 Paris',
    lat: 48.8532,
    lng: 2.3691,
    tags: ['Trek', 'delivery'],
    custom_fields: { partner: 'gold' },
  },
  { key: 'marais', name: 'Marais Spokes', address: '22 Rue des Rosiers, 75004 Paris', lat: 48.859, lng: 2.362 },
  {
    key: 'versailles',
    name: 'Versailles Royal Cycles',
    address: '3 Rue de la Paroisse, 78000 Versailles',
    lat: 48.8049,
    lng: 2.1204,
    tags: ['rental', 'Giant'],
  },
  {
    key: 'orly',
    name: 'Aéroport Orly Rides',
    address: 'Orly Sud, 94390 Paray-Vieille-Poste',
    lat: 48.7262,
    lng: 2.3652,
    tags: ['delivery', 'Trek'],
  },
  {
    key: 'cergy',
    name: 'Cergy Pédale',
    address: '2 Rue de l’Abondance, 95000 Cergy',
    lat: 49.0364,
    lng: 2.0761,
    tags: ['repair'],
  },
  {
    key: 'meaux',
    name: 'Meaux Cycles',
    address: '10 Rue du Grand Cerf, 77100 Meaux',
    lat: 48.9601,
    lng: 2.8788,
    tags: ['rental'],
  },
  {
    key: 'fontainebleau',
    name: 'Fontainebleau Trail Center',
    address: '1 Rue Grande, 77300 Fontainebleau',
    lat: 48.4047,
    lng: 2.7016,
    tags: ['rental', 'outlet'],
  },
  {
    key: 'beauvais',
    name: 'Beauvais Bikes',
    address: '5 Rue de la Madeleine, 60000 Beauvais',
    lat: 49.4295,
    lng: 2.0807,
    tags: ['repair'],
  },
  {
    key: 'chartres',
    name: 'Chartres Vélos',
    address: '12 Rue du Bois Merrain, 28000 Chartres',
    lat: 48.4439,
    lng: 1.489,
    tags: ['specialized'],
  },
  {
    key: 'rouen',
    name: 'Rouen Roues',
    address: '40 Rue du Gros Horloge, 76000 Rouen',
    lat: 49.4431,
    lng: 1.0993,
    tags: ['delivery'],
  },
  {
    key: 'orleans',
    name: 'Orléans Pédales',
    address: '3 Rue Jeanne d’Arc, 45000 Orléans',
    lat: 47.903,
    lng: 1.9093,
    tags: ['trek'],
  },
  {
    key: 'reims',
    name: 'Reims Randonnée',
    address: '6 Place Drouet d’Erlon, 51100 Reims',
    lat: 49.2583,
    lng: 4.0317,
    tags: ['Giant', 'outlet'],
  },
  {
    key: 'lyon',
    name: 'Lyon Lumière Bikes',
    address: '10 Rue de la République, 69002 Lyon',
    lat: 45.764,
    lng: 4.8357,
    tags: ['repair'],
  },
  // No coordinates: geocoded by the test geocoder, which also parses the address parts.
  { key: 'london', name: 'Downing Street Cycles', address: '10 Downing Street, London SW1A 2AA', tags: ['vintage'] },
  // Drafts (one through the "hidden" alias), the first right at the centre and with a tag nothing published has.
  {
    key: 'hidden',
    name: 'Hidden Draft Bikes',
    address: '1 Place de l’Hôtel de Ville, 75004 Paris',
    lat: 48.857,
    lng: 2.353,
    tags: ['repair', 'draftonly'],
    status: 'draft',
  },
  {
    key: 'workshop',
    name: 'Secret Workshop',
    address: '2 Rue du Temple, 75004 Paris',
    lat: 48.87,
    lng: 2.37,
    tags: ['outlet'],
    status: 'hidden',
  },
  {
    key: 'unpub',
    name: 'Unpublished Depot',
    address: '9 Rue de Clichy, 75009 Paris',
    lat: 48.9,
    lng: 2.3,
    tags: ['rental'],
    status: 'draft',
  },
]

/** Where the geocoded seed lands (test/helpers.ts KNOWN_ADDRESSES). */
export const LONDON = { lat: 51.5034, lng: -0.1276 }

/** Rank order: the ids rule, then partner=gold, then the (case-differing) outlet tag. */
export const priorityRules = (ids: Record<string, string>) => [
  { ids: [ids.fast!, ids.lyon!] },
  { custom_field: 'partner', value: 'gold' },
  { tag: 'OUTLET' },
]

/** One fixture location as the oracle sees it. */
export type Loc = {
  id: string
  key: string
  name: string
  lat: number
  lng: number
  tags: string[]
  text: string
  published: boolean
  rank: number
}

/** "Zoë's Garage" -> "zoes garage": lowercase, accents and apostrophes dropped, other non-alphanumerics as spaces. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

export type Fixture = {
  env: TestEnv
  token: string
  /** Seed key -> location id. */
  ids: Record<string, string>
  /** Every fixture location (drafts too), kept in step by the helpers below. */
  locs: Loc[]
  /** A Request URL on the fixture's token: url('/locations', 'lat=..') */
  url: (path: string, query?: string) => string
  /** GET through the env's app (or another app built on the same store). */
  get: (pathOrUrl: string, opts?: { headers?: Record<string, string>; app?: AnyApp }) => Promise<Res>
}

export type AnyApp = { handle: (request: Request) => Response | Promise<Response> }
export type Res = { status: number; headers: Headers; text: string; body: any }

export async function send(app: AnyApp, url: string, init: RequestInit = {}): Promise<Res> {
  const res = await app.handle(new Request(url, init))
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, headers: res.headers, text, body }
}

function rankOf(seed: Seed, id: string, ids: Record<string, string>): number {
  if (id === ids.fast || id === ids.lyon) return 0
  if (seed.custom_fields?.partner === 'gold') return 1
  if ((seed.tags ?? []).some((t) => t.toLowerCase() === 'outlet')) return 2
  return 3
}

/** The instant the fixture's apps answer at: Monday 2026-06-15, 10:00 in Paris (CEST). */
export const FIXTURE_NOW = Date.parse('2026-06-15T08:00:00Z')

export async function makeFixture(): Promise<Fixture> {
  const env = makeEnv({ indexUpkeep: { now: () => FIXTURE_NOW } })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  setFilters(env.store, env.locatorId, FILTERS)
  for (const f of CUSTOM_FIELDS) addCustomField(env.store, env.locatorId, { ...f })
  const ids: Record<string, string> = {}
  for (const seed of SEEDS) {
    const { key, lat, lng, ...rest } = seed
    const body: Record<string, unknown> = { ...rest }
    if (lat !== undefined && lng !== undefined) body.coordinates = { lat, lng }
    const res = await env.call('POST', '/admin/v1/locations', { body })
    if (res.status !== 201) throw new Error(`fixture: creating ${key} gave ${res.status} ${JSON.stringify(res.body)}`)
    ids[key] = res.body.location.id
  }
  setPriorityRules(env.store, env.locatorId, priorityRules(ids))
  const locs: Loc[] = SEEDS.map((s) => ({
    id: ids[s.key]!,
    key: s.key,
    name: s.name,
    lat: s.lat ?? LONDON.lat,
    lng: s.lng ?? LONDON.lng,
    tags: (s.tags ?? []).map((t) => t.toLowerCase()),
    // The row's town names are searched too (src/locations/town.ts; test/admin/town.test.ts checks them).
    text: fold(
      [
        s.name,
        s.address,
        s.description ?? '',
        ...(s.tags ?? []),
        env.store.locations.get(env.locatorId, ids[s.key]!)!.townNames ?? '',
      ].join(' '),
    ),
    published: s.status === undefined,
    rank: rankOf(s, ids[s.key]!, ids),
  }))
  const token = env.store.locators.get(env.locatorId)!.publicToken
  const url = (path: string, query = '') => `http://localhost/public/v1/${token}${path}${query ? `?${query}` : ''}`
  return {
    env,
    token,
    ids,
    locs,
    url,
    get: (pathOrUrl, opts = {}) =>
      send(opts.app ?? env.app, pathOrUrl.startsWith('http') ? pathOrUrl : url(pathOrUrl), {
        headers: opts.headers ?? {},
      }),
  }
}

/** Another app on the fixture's store (optionally with PUBLIC_BASE_URL, a rate limiter of its own, limits per client, or the Query API's fast path off). */
export function appOn(
  env: TestEnv,
  extra: {
    publicBaseUrl?: string
    limiter?: RateLimiter
    publicFastPath?: boolean
    clients?: {
      clientRateLimit?: number
      pageRateLimit?: number
      trustedProxies?: string[]
      clientLimiter?: RateLimiter
      pageLimiter?: RateLimiter
    }
  } = {},
) {
  return createApp({
    store: env.store,
    geocoder: env.geocoder,
    config: {
      maxBodyBytes: 256 * 1024,
      logRequests: false,
      ...(extra.publicBaseUrl ? { publicBaseUrl: extra.publicBaseUrl } : {}),
      ...extra.clients,
    },
    limiter: extra.limiter,
    clientLimiter: extra.clients?.clientLimiter,
    pageLimiter: extra.clients?.pageLimiter,
    log: () => {},
    publicFastPath: extra.publicFastPath,
    indexUpkeep: { now: () => FIXTURE_NOW },
    places: placeSearchAt(DEFAULT_GEODATA_PATH),
  })
}

// The oracle ----------------------------------------------------------------------------------------

export type OracleQuery = {
  center?: { lat: number; lng: number }
  radiusKm?: number
  /** A bbox query: the locations in it (center: where distances are measured from). */
  bbox?: Bbox
  tags?: string[]
  tagLogic?: 'any' | 'all' | 'match'
  search?: string
  sort?: 'distance' | 'name' | 'priority'
}

export function tagsMatch(locTags: string[], tags: string[], logic: 'any' | 'all' | 'match'): boolean {
  const want = tags.map((t) => t.toLowerCase())
  if (want.length === 0) return true
  if (logic === 'any') return want.some((t) => locTags.includes(t))
  if (logic === 'all') return want.every((t) => locTags.includes(t))
  const byGroup = new Map<string, string[]>()
  for (const t of want) byGroup.set(groupOf(t), [...(byGroup.get(groupOf(t)) ?? []), t])
  return [...byGroup.values()].every((group) => group.some((t) => locTags.includes(t)))
}

/** Every word whole, except the last, which may be a prefix of a word. */
export function searchMatches(text: string, search: string): boolean {
  const words = fold(search)
    .split(' ')
    .filter((w) => w !== '')
  if (words.length === 0) return true
  const tokens = text.split(' ')
  return words.every((w, i) => (i === words.length - 1 ? tokens.some((t) => t.startsWith(w)) : tokens.includes(w)))
}

/** Folded names, each run of digits as a number of 200 digits (a name's most): numbers compare as numbers. */
const sortable = (name: string) => fold(name).replace(/[0-9]+/g, (d) => d.replace(/^0+/, '').padStart(200, '0'))
const byName = (a: Loc, b: Loc) => {
  const [x, y] = [sortable(a.name), sortable(b.name)]
  return x < y ? -1 : x > y ? 1 : 0
}

/** The published locations a query should return, in order, with their distances in km (radius queries). */
export function oracle(locs: Loc[], q: OracleQuery): { loc: Loc; km: number | null }[] {
  const hits = locs
    .filter((l) => l.published)
    .filter((l) => tagsMatch(l.tags, q.tags ?? [], q.tagLogic ?? 'any'))
    .filter((l) => searchMatches(l.text, q.search ?? ''))
    .map((loc) => ({ loc, km: q.center ? haversineKm(q.center, loc) : null }))
    .filter((h) => (q.bbox ? inBbox(q.bbox, h.loc) : h.km === null || h.km <= q.radiusKm!))
  const sort = q.sort ?? (q.center ? 'distance' : 'name')
  const byDistance = (a: { km: number | null }, b: { km: number | null }) => a.km! - b.km!
  hits.sort((a, b) => {
    if (sort === 'priority' && a.loc.rank !== b.loc.rank) return a.loc.rank - b.loc.rank
    return q.center && sort !== 'name' ? byDistance(a, b) || byName(a.loc, b.loc) : byName(a.loc, b.loc)
  })
  return hits
}

// Assertions ----------------------------------------------------------------------------------------

/** The documented error body, status and Cache-Control: no-store; `message` as given (a string or a matcher). */
export function expectError(res: Res, status: number, code: string, message: unknown = expect.any(String)) {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { success: false, error: { code, message, docs: `http://localhost/docs#${code}` } },
  })
  expect(typeof res.body.error.message).toBe('string')
  expect(res.body.error.message.length).toBeGreaterThan(0)
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.headers.get('content-type')).toContain('application/json')
}

/** A message naming `param` as a word. */
export const naming = (param: string) =>
  expect.stringMatching(new RegExp(`(^|[^A-Za-z])${param.replace(/[[\]]/g, '\\$&')}([^A-Za-z]|$)`))

export const idsOf = (res: Res): string[] => res.body.data.locations.map((l: { id: string }) => l.id)

/** A fake secret key of the right shape (sk_ + 38 base62), never stored. */
export const FAKE_SECRET = 'sk_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9'
