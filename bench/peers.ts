// Peers: the same synthetic stores and the same public query strings as bench/query.ts, answered
// the way a simple implementation would, so our in-memory index can be reported as a ratio to them:
//   (a) SQLite alone (bun:sqlite): a (lat, lng) btree, haversine in SQL, tags in a side table,
//       FTS5 for search;
//   (b) PostGIS (Debian's postgresql + postgis, started on 127.0.0.1 by this bench): KNN
//       `ORDER BY geog <-> point` within `ST_DWithin`, tags as text[] with GIN, a tsvector for search.
//       Skipped, with a line saying why, when it cannot be installed or started.
//
//   bun bench/peers.ts [--size 100000] [--seed 42] [--runs 3] [--json <path>] [--quick] [--no-ours] [--explain]
//
// Each run (--runs, 3 by default, 1 with --quick) is a fresh process with its own query strings;
// the report gives each figure and each ratio as the median over runs with its min-max spread.
// runPeers(opts) is one run (what each run's process returns), for bench/query.ts to call in its
// run; peersReport gathers runs into what --json writes. See bench/README.md.
import { Database, type Statement } from 'bun:sqlite'
import { SQL } from 'bun'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { locationsBody } from '../src/api/public/answer'
import { presentContext, publicLocation, searchText } from '../src/indexes/present'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore, type Store } from '../src/store'
import type { LocationRecord } from '../src/store/locations'
import { nameKey } from '../src/core/text'
import { type QueryType, scenario, seedLocator, WARM_MS, WARM_QUERIES } from './scenario'
import { type Spread, spread } from './spread'
import { aptInstall, lastLine, type Provenance, provenance, provenanceLine, readOptions, run } from './system'
import { FILTER_GROUPS, PRIORITY, type SyntheticSet } from './synthetic'

// ---------------------------------------------------------------- types

export type PeerStat = {
  n: number
  median: number
  p99: number
  max: number
  meanHits: number
  /**
   * Ours on the queries this peer answered (its time budget may stop it short of the N ours
   * answers): what its ratio is taken against, the same query strings on both sides.
   */
  ours?: { n: number; median: number; p99: number }
}

export type PeerResult = {
  engine: string
  version: string
  method: string
  /** Rows loaded, indexes built, statistics gathered (ms). */
  loadMs: number
  /** µs per query, from the query string to the page's rows and the total in hand. meanHits: rows returned (at most the limit). */
  queries: Record<string, PeerStat>
}

export type PeerSkipped = { skipped: string }

/** What the sanity check compares of an answer: its ids in order, and its total. */
export type Compared = { ids: string[]; total: number }
const compared = (a: PeerAnswer): Compared => ({ ids: a.rows.map((r) => r.id), total: a.total })

export type SanityCheck = {
  /** Queries compared per type (the first timed query strings of each type). */
  perType: number
  /** Engines compared: "ours", "sqlite", "postgis" (those that ran). */
  engines: string[]
  /** Per type: how many of the compared queries gave the same ordered ids and the same total on every engine. */
  identical: Record<string, number>
  /** A few differing answers, for the report. */
  differences: { type: string; qs: string; ids: Record<string, Compared> }[]
}

export type PeersResult = {
  size: number
  seed: number
  run: number
  /** Query type key -> label (bench/scenario.ts). */
  labels: Record<string, string>
  /** Our in-process answer (the route's body path, as bench/query.ts times it); null with ours: false. */
  ours: { queries: Record<string, Omit<PeerStat, 'meanHits'> & { meanTotal: number }> } | null
  sqlite: PeerResult
  postgis: PeerResult | PeerSkipped
  sanity: SanityCheck
  /** 1-minute load average at the start and the end: above ~1 on 2 cores, other processes competed. */
  loadAverage: { start: number; end: number }
  /** The rounds each type's timed queries were cut into, the engines taking turns (measureTogether). */
  rounds: number
}

export type PeersOptions = {
  size: number
  seed: number
  run: number
  /** A short run: at most 200 timed queries and 1 s per type and engine. */
  quick?: boolean
  /** Also time our own answer to the same query strings (default true). */
  ours?: boolean
  /** Use this already seeded locator (and its synthetic set) instead of seeding a new store. */
  from?: { store: Store; locatorId: string; set: SyntheticSet }
  /** Log each peer's query plan for the first timed query of each type. */
  explain?: boolean
  /** Progress lines (default: stderr). */
  log?: (line: string) => void
}

// ---------------------------------------------------------------- the query strings, as a peer reads them

const KM_PER_MILE = 1.609344
const utf8 = new TextDecoder()
const EARTH_RADIUS_KM = 6371 // as geokdbush (ours)

type PeerQuery = {
  /** null: all=true. */
  center: { lat: number; lng: number } | null
  radiusKm: number
  limit: number
  offset: number
  /** Lowercased. */
  tags: string[]
  tagLogic: 'any' | 'all' | 'match'
  /** Search words, lowercased; the last is a prefix. */
  words: string[]
  sort: 'distance' | 'priority' | 'name'
}

export type PeerRow = { id: string; name: string; address: string; lat: number; lng: number; distanceKm: number | null; json: string }
/** A page of rows and the total of every match (the Query API's pagination.total). */
export type PeerAnswer = { rows: PeerRow[]; total: number }
/** A row as the peers' SQL gives it: the total in every row (a window count, or a count subquery). */
type CountedRow = PeerRow & { total: number }

/**
 * The page and its total from the rows a peer's SQL gave (limit + 1 at most: the extra row only
 * says there is a next page). null for an empty page past the first, whose total no row carries:
 * the peer asks again for one row from the start (firstRow).
 */
function pageOf(rows: CountedRow[], q: PeerQuery): PeerAnswer | null {
  if (rows.length === 0) return q.offset === 0 ? { rows, total: 0 } : null
  const total = Number(rows[0]!.total)
  if (rows.length > q.limit) rows.length = q.limit
  return { rows, total }
}

/** The query asking for its first row only (LIMIT 1 OFFSET 0), for the total. */
const firstRow = (q: PeerQuery): PeerQuery => ({ ...q, offset: 0, limit: 0 })

/** The public query string, parsed as a simple implementation would (the scenario's strings are valid). */
export function parseQuery(qs: string): PeerQuery {
  const p = new URLSearchParams(qs)
  const all = p.get('all') === 'true'
  const unit = p.get('unit') === 'km' ? 'km' : 'miles'
  const radius = Number(p.get('radius') ?? 25)
  const tagLogic = (p.get('tagLogic') ?? 'any') as PeerQuery['tagLogic']
  return {
    center: all ? null : { lat: Number(p.get('lat')), lng: Number(p.get('lng')) },
    radiusKm: unit === 'km' ? radius : radius * KM_PER_MILE,
    limit: Number(p.get('limit') ?? 20),
    offset: Number(p.get('offset') ?? 0),
    tags: p.getAll('tags[]').map((t) => t.trim().toLowerCase()).filter((t) => t !== ''),
    tagLogic,
    words: (p.get('search') ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''),
    sort: (p.get('sort') ?? (all ? 'name' : 'distance')) as PeerQuery['sort'],
  }
}

/** The locator's filter groups (a tag in none is in the default group, as ours: src/public/index.ts groupOf). */
const GROUP_OF = new Map<string, string>(Object.entries(FILTER_GROUPS).flatMap(([g, tags]) => tags.map((t) => [t.toLowerCase(), g] as [string, string])))

/** For tagLogic=match: the query's tags, one list per filter group (OR within, AND across). */
function tagGroups(tags: string[]): string[][] {
  const groups = new Map<string, string[]>()
  for (const t of tags) {
    const g = GROUP_OF.get(t) ?? '_default'
    let list = groups.get(g)
    if (!list) groups.set(g, (list = []))
    list.push(t)
  }
  return [...groups.values()]
}

/** Boxes a simple implementation would put around the circle: one, or null (no longitude bound) across the antimeridian or near a pole. */
function latLngBox(lat: number, lng: number, km: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } | { minLat: number; maxLat: number; minLng: null; maxLng: null } {
  const dLat = (km / 111) * 1.01
  const minLat = Math.max(-90, lat - dLat)
  const maxLat = Math.min(90, lat + dLat)
  const edge = Math.max(Math.abs(minLat), Math.abs(maxLat))
  if (edge >= 89.9) return { minLat, maxLat, minLng: null, maxLng: null }
  const dLng = (km / (111 * Math.cos((edge * Math.PI) / 180))) * 1.01
  if (lng - dLng < -180 || lng + dLng > 180) return { minLat, maxLat, minLng: null, maxLng: null }
  return { minLat, maxLat, minLng: lng - dLng, maxLng: lng + dLng }
}

// ---------------------------------------------------------------- (a) SQLite alone

const SQLITE_METHOD =
  'bun:sqlite, WAL, cache_size 64 MB, mmap 256 MB, ANALYZE; one table with a (lat, lng) btree; the bounding box on the btree, haversine in SQL (SQLite math functions), ' +
  'ORDER BY distance LIMIT limit+1 OFFSET offset over (rowid, distance), then the page joined back for its columns (faster than one SELECT carrying every column through the sort); ' +
  'tags in a side table (rowid, tag) WITHOUT ROWID, one EXISTS per condition; search with FTS5 (unicode61, remove_diacritics 2; words quoted, the last as a prefix `"w"*`), ' +
  'tested per row of the box (`+rowid IN (SELECT rowid ... MATCH ...)`: driving from FTS5 was slower); sort=priority: a CASE over the rules in SQL, then distance; ' +
  'all=true from a (name_sort, id) index. The total (pagination.total) as a window count(*) OVER () within the circle, or (all=true) a count subquery of the same WHERE; ' +
  'hasMore from an extra row. Prepared statements, one per query shape, reused.'

export class SqlitePeer {
  readonly db: Database
  readonly version: string
  private statements = new Map<string, Statement<CountedRow, (string | number)[]>>()

  constructor(path: string) {
    this.db = new Database(path, { create: true, strict: true })
    this.db.exec('PRAGMA journal_mode = WAL')
    this.db.exec('PRAGMA synchronous = NORMAL')
    this.db.exec('PRAGMA cache_size = -65536')
    this.db.exec('PRAGMA mmap_size = 268435456')
    this.version = this.db.query<{ v: string }, []>('select sqlite_version() as v').get()!.v
    this.db.query('select sin(1), asin(1), radians(1), power(2, 2)').get() // the math functions must exist (SQLITE_ENABLE_MATH_FUNCTIONS)
  }

  load(records: LocationRecord[], json: Map<string, string>): void {
    const db = this.db
    db.exec(`
      CREATE TABLE locations (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        description TEXT NOT NULL,
        lat REAL NOT NULL,
        lng REAL NOT NULL,
        name_sort TEXT NOT NULL,
        custom_fields TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE TABLE location_tags (rid INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (rid, tag)) WITHOUT ROWID;
      CREATE VIRTUAL TABLE locations_fts USING fts5(text, content='', tokenize='unicode61 remove_diacritics 2');
    `)
    const insert = db.prepare('INSERT INTO locations (rid, id, name, address, description, lat, lng, name_sort, custom_fields, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    const insertTag = db.prepare('INSERT OR IGNORE INTO location_tags (rid, tag) VALUES (?, ?)')
    const insertText = db.prepare('INSERT INTO locations_fts (rowid, text) VALUES (?, ?)')
    db.transaction(() => {
      records.forEach((r, i) => {
        const rid = i + 1
        insert.run(rid, r.id, r.name, r.address, r.description, r.lat, r.lng, nameKey(r.name), JSON.stringify(r.customFields), json.get(r.id)!)
        for (const t of r.tags) insertTag.run(rid, t.toLowerCase())
        insertText.run(rid, [r.name, r.address, r.description, ...r.tags].join(' '))
      })
    })()
    db.exec('CREATE INDEX locations_lat_lng ON locations (lat, lng)')
    db.exec('CREATE INDEX locations_name ON locations (name_sort, id)')
    db.exec('CREATE INDEX location_tags_tag ON location_tags (tag, rid)')
    db.exec('ANALYZE')
  }

  /** The SQL for a query's shape and its parameters. */
  private plan(q: PeerQuery): { sql: string; params: (string | number)[] } {
    const params: (string | number)[] = []
    const p = (v: string | number) => {
      params.push(v)
      return `?${params.length}`
    }
    const conds: string[] = []
    if (q.tags.length > 0) {
      const list = (tags: string[]) => tags.map(p).join(', ')
      if (q.tagLogic === 'any') conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag IN (${list(q.tags)}))`)
      else if (q.tagLogic === 'all') for (const t of q.tags) conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag = ${p(t)})`)
      else for (const g of tagGroups(q.tags)) conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag IN (${list(g)}))`)
    }
    if (q.words.length > 0) {
      const match = q.words.map((w, i) => `"${w}"${i === q.words.length - 1 ? '*' : ''}`).join(' ')
      // The unary + keeps SQLite from driving the query from FTS5 (every match in the world, then
      // each row by rowid): up to 7x slower at 100k than the bounding box with the match as a set test.
      conds.push(`+l.rid IN (SELECT rowid FROM locations_fts WHERE locations_fts MATCH ${p(match)})`)
    }
    const rank = () => {
      const arms = PRIORITY.map((rule, i) =>
        rule.tag !== undefined
          ? `WHEN EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag = ${p(rule.tag.toLowerCase())}) THEN ${i}`
          : `WHEN json_extract(l.custom_fields, ${p(`$.${rule.custom_field}`)}) = ${p(rule.value!)} THEN ${i}`,
      )
      return `CASE ${arms.join(' ')} ELSE ${PRIORITY.length} END`
    }
    const page = () => `LIMIT ${p(q.limit + 1)} OFFSET ${p(q.offset)}`
    if (!q.center) {
      const where = conds.length > 0 ? `WHERE ${conds.join(' AND ')}` : ''
      const order = q.sort === 'priority' ? `${rank()}, l.name_sort, l.id` : 'l.name_sort, l.id'
      // The total: a count of the same WHERE, evaluated once (an uncorrelated subquery).
      return { sql: `SELECT l.id, l.name, l.address, l.lat, l.lng, NULL AS distanceKm, l.json, (SELECT count(*) FROM locations l ${where}) AS total FROM locations l ${where} ORDER BY ${order} ${page()}`, params }
    }
    const { lat, lng } = q.center
    const la = p(lat)
    const ln = p(lng)
    const box = latLngBox(lat, lng, q.radiusKm)
    conds.unshift(`l.lat BETWEEN ${p(box.minLat)} AND ${p(box.maxLat)}`)
    if (box.minLng !== null) conds.splice(1, 0, `l.lng BETWEEN ${p(box.minLng)} AND ${p(box.maxLng)}`)
    const dist = `${2 * EARTH_RADIUS_KM} * asin(sqrt(power(sin(radians(l.lat - ${la}) / 2), 2) + cos(radians(${la})) * cos(radians(l.lat)) * power(sin(radians(l.lng - ${ln}) / 2), 2)))`
    const rankCol = q.sort === 'priority' ? `, ${rank()} AS rank` : ''
    const order = q.sort === 'priority' ? 'rank, d, rid' : 'd, rid'
    const r = p(q.radiusKm)
    const within = `FROM (SELECT l.rid AS rid, ${dist} AS d${rankCol} FROM locations l WHERE ${conds.join(' AND ')}) WHERE d <= ${r}`
    // The total: a window count over every row within the circle, in the same pass. A count
    // subquery scanning the box again was slower for 9 of the 12 radius query types (by up to
    // 72%) and within 8% for the other 3 (100k, up to 2000 queries a type, one run each).
    const inner = `SELECT rid, d${q.sort === 'priority' ? ', rank' : ''}, count(*) OVER () AS total ${within} ORDER BY ${order} ${page()}`
    return {
      sql: `SELECT l.id, l.name, l.address, l.lat, l.lng, c.d AS distanceKm, l.json, c.total AS total FROM (${inner}) c JOIN locations l ON l.rid = c.rid ORDER BY ${order.replace(/\b(rank|d|rid)\b/g, 'c.$1')}`,
      params,
    }
  }

  answer(q: PeerQuery): PeerAnswer {
    const { sql, params } = this.plan(q)
    let stmt = this.statements.get(sql)
    if (!stmt) this.statements.set(sql, (stmt = this.db.prepare<CountedRow, (string | number)[]>(sql)))
    return pageOf(stmt.all(...params), q) ?? { rows: [], total: this.answer(firstRow(q)).total }
  }

  explain(q: PeerQuery): string {
    const { sql, params } = this.plan(q)
    return this.db
      .prepare<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((r) => r.detail)
      .join('\n')
  }

  close(): void {
    for (const s of this.statements.values()) s.finalize()
    this.db.close()
  }
}

// ---------------------------------------------------------------- (b) PostGIS

const POSTGIS_METHOD =
  'PostgreSQL + PostGIS from Debian, on 127.0.0.1 (TCP), initdb --locale=C, shared_buffers 256 MB, fsync off (load speed only); ' +
  'geography(Point, 4326) column with GIST; WHERE ST_DWithin(geog, point, r, false) (on the sphere, as ours) ORDER BY geog <-> point LIMIT limit+1 OFFSET offset (point and radius bound parameters); ' +
  'tags as text[] with GIN (any: &&, all: @>, match: && per filter group); search: a tsvector (simple configuration) over the text folded in the application, GIN, ' +
  "to_tsquery('w1 & w2:*'); priority: ORDER BY a CASE over the rules, then distance; all=true from a (name_sort, id) btree. " +
  "The total (pagination.total) as a window count(*) OVER () of the rows the WHERE keeps, or (all=true) a count subquery of the same WHERE; hasMore from an extra row. " +
  "Bun's built-in SQL client, one connection, named prepared statements; time is the client's round trip."

/** The sphere PostGIS measures on with use_spheroid false: WGS 84's mean radius (2a + b) / 3, in metres. */
const PG_SPHERE_M = 6371008.7714

type PgServer = { dir: string; port: number; bindir: string; asUser: string | null; version: string }

/** The newest installed PostgreSQL server's bin directory (Debian layout first), or null. */
function findPgBindir(): string | null {
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0]) return join(root, versions[0], 'bin')
  }
  const postgres = Bun.which('postgres')
  return postgres ? resolve(postgres, '..') : null
}

/** PostgreSQL and PostGIS present, installing them with apt-get when missing and allowed. Returns the bin directory or the reason it failed. */
function ensurePostgis(log: (line: string) => void): { bindir: string } | { reason: string } {
  const apt = (pkg: string) => aptInstall([pkg], (line) => log(`PostGIS: ${line}`))
  let bindir = findPgBindir()
  if (!bindir) {
    const why = apt('postgresql')
    bindir = findPgBindir()
    if (!bindir) return { reason: `PostgreSQL is not installed: ${why ?? 'apt-get installed postgresql, and no postgres binary was found'}` }
  }
  const major = /\/(\d+)\/bin$/.exec(bindir)?.[1] ?? lastLine(run([join(bindir, 'postgres'), '--version']).out).replace(/^\D*(\d+).*$/, '$1')
  const sharedir = existsSync(join(bindir, 'pg_config')) ? run([join(bindir, 'pg_config'), '--sharedir']).out : `/usr/share/postgresql/${major}`
  const control = () => existsSync(join(sharedir, 'extension', 'postgis.control')) || existsSync(`/usr/share/postgresql/${major}/extension/postgis.control`)
  if (!control()) {
    const pkg = `postgresql-${major}-postgis-3`
    const why = apt(pkg)
    if (!control()) return { reason: `the postgis extension is not installed for PostgreSQL ${major}: ${why ?? `apt-get installed ${pkg}, and no postgis.control was found`}` }
  }
  return { bindir }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => ok(port))
    })
  })
}

/** initdb into a new temporary directory and start on 127.0.0.1 (as the postgres user when running as root). */
async function startPostgres(bindir: string, register: (dir: string, stop: () => void) => void): Promise<PgServer | { reason: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'storeloc-peers-pg-'))
  const data = join(dir, 'data')
  const pgCtl = join(bindir, 'pg_ctl')
  let asUser: string | null = null
  register(dir, () => {
    if (existsSync(join(data, 'postmaster.pid'))) run([pgCtl, '-D', data, '-m', 'immediate', '-w', 'stop'], asUser)
    rmSync(dir, { recursive: true, force: true })
  })
  if (process.getuid?.() === 0) {
    // PostgreSQL refuses to run as root: the server runs as the postgres user, in a directory it owns.
    const uid = run(['id', '-u', 'postgres'])
    const gid = run(['id', '-g', 'postgres'])
    if (!uid.ok || !gid.ok) return { reason: 'running as root and there is no postgres user to start the server as' }
    chownSync(dir, Number(uid.out), Number(gid.out))
    asUser = 'postgres'
  }
  const init = run([join(bindir, 'initdb'), '-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--locale=C'], asUser)
  if (!init.ok) return { reason: `initdb failed: ${lastLine(init.out)}` }
  const port = await freePort()
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c shared_buffers=256MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  const logFile = join(dir, 'server.log')
  const start = run([pgCtl, '-D', data, '-o', opts, '-l', logFile, '-w', '-t', '60', 'start'], asUser)
  if (!start.ok) return { reason: `pg_ctl start failed: ${lastLine(existsSync(logFile) ? readFileSync(logFile, 'utf8') : start.out)}` }
  const version = lastLine(run([join(bindir, 'postgres'), '--version']).out)
  return { dir, port, bindir, asUser, version }
}

/** COPY text format: backslash, tab, newline and carriage return escaped. */
const copyText = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
const pgArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`

class PostgisPeer {
  readonly sql: SQL
  version = ''

  constructor(port: number) {
    this.sql = new SQL({ hostname: '127.0.0.1', port, username: 'bench', database: 'postgres', max: 1, prepare: true })
  }

  async load(records: LocationRecord[], docs: Map<string, { json: string; text: string }>): Promise<void> {
    const sql = this.sql
    await sql.unsafe('CREATE EXTENSION postgis').simple()
    const v = await sql.unsafe<{ v: string }[]>('SELECT postgis_lib_version() AS v')
    this.version = v[0]!.v
    await sql
      .unsafe(`
        CREATE TABLE locations (
          rid integer PRIMARY KEY,
          id text NOT NULL UNIQUE,
          name text NOT NULL,
          address text NOT NULL,
          description text NOT NULL,
          lat float8 NOT NULL,
          lng float8 NOT NULL,
          geog geography(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography) STORED,
          tags text[] NOT NULL,
          custom_fields jsonb NOT NULL,
          name_sort text NOT NULL,
          search_text text NOT NULL,
          search tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED,
          body text NOT NULL
        )`)
      .simple()
    const writer = sql.unsafe('COPY locations (rid, id, name, address, description, lat, lng, tags, custom_fields, name_sort, search_text, body) FROM STDIN').writable().getWriter()
    let chunk = ''
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!
      const d = docs.get(r.id)!
      chunk += `${i + 1}\t${copyText(r.id)}\t${copyText(r.name)}\t${copyText(r.address)}\t${copyText(r.description)}\t${r.lat}\t${r.lng}\t${copyText(pgArray(r.tags.map((t) => t.toLowerCase())))}\t${copyText(JSON.stringify(r.customFields))}\t${copyText(nameKey(r.name))}\t${copyText(d.text)}\t${copyText(d.json)}\n`
      if (chunk.length > 1 << 20) {
        await writer.write(chunk)
        chunk = ''
      }
    }
    if (chunk !== '') await writer.write(chunk)
    await writer.close()
    await sql
      .unsafe(`
        CREATE INDEX locations_geog ON locations USING gist (geog);
        CREATE INDEX locations_tags ON locations USING gin (tags);
        CREATE INDEX locations_search ON locations USING gin (search);
        CREATE INDEX locations_name ON locations (name_sort, id);`)
      .simple()
    await sql.unsafe('VACUUM ANALYZE locations').simple() // alone: VACUUM refuses to run in the implicit transaction of a multi-statement query
  }

  private plan(q: PeerQuery): { sql: string; params: (string | number)[] } {
    const params: (string | number)[] = []
    const p = (v: string | number, cast = '') => {
      params.push(v)
      return `$${params.length}${cast}`
    }
    const conds: string[] = []
    if (q.tags.length > 0) {
      if (q.tagLogic === 'any') conds.push(`tags && ${p(pgArray(q.tags), '::text[]')}`)
      else if (q.tagLogic === 'all') conds.push(`tags @> ${p(pgArray(q.tags), '::text[]')}`)
      else for (const g of tagGroups(q.tags)) conds.push(`tags && ${p(pgArray(g), '::text[]')}`)
    }
    if (q.words.length > 0) {
      const words = q.words.map((w) => nameKey(w)).filter((w) => w !== '')
      const tsquery = words.map((w, i) => `'${w}'${i === words.length - 1 ? ':*' : ''}`).join(' & ')
      conds.push(`search @@ to_tsquery('simple', ${p(tsquery)})`)
    }
    const rank = () => {
      const arms = PRIORITY.map((rule, i) =>
        rule.tag !== undefined
          ? `WHEN tags @> ARRAY[${p(rule.tag.toLowerCase(), '::text')}] THEN ${i}`
          : `WHEN custom_fields ->> ${p(rule.custom_field!, '::text')} = ${p(rule.value!, '::text')} THEN ${i}`,
      )
      return `CASE ${arms.join(' ')} ELSE ${PRIORITY.length} END`
    }
    const page = () => `LIMIT ${p(q.limit + 1, '::int')} OFFSET ${p(q.offset, '::int')}`
    if (!q.center) {
      const where = conds.length > 0 ? `WHERE ${conds.join(' AND ')}` : ''
      const order = q.sort === 'priority' ? `${rank()}, name_sort, id` : 'name_sort, id'
      // The total: a count of the same WHERE, evaluated once (an uncorrelated subquery).
      return { sql: `SELECT id, name, address, lat, lng, NULL::float8 AS "distanceKm", body AS json, (SELECT count(*) FROM locations ${where}) AS total FROM locations ${where} ORDER BY ${order} ${page()}`, params }
    }
    const la = p(q.center.lat, '::float8')
    const ln = p(q.center.lng, '::float8')
    const point = `ST_SetSRID(ST_MakePoint(${ln}, ${la}), 4326)::geography`
    // On PostGIS's sphere, as ours and SQLite measure (its spheroid moved a few points a query
    // across the circle's edge): the radius as the same central angle on its radius.
    conds.unshift(`ST_DWithin(geog, ${point}, ${p((q.radiusKm * PG_SPHERE_M) / EARTH_RADIUS_KM, '::float8')}, false)`)
    const order = q.sort === 'priority' ? `${rank()}, geog <-> ${point}` : `geog <-> ${point}`
    return {
      // The total: a window count over every row the WHERE keeps (computed before the LIMIT).
      sql: `SELECT id, name, address, lat, lng, (geog <-> ${point}) / 1000 AS "distanceKm", body AS json, count(*) OVER () AS total FROM locations WHERE ${conds.join(' AND ')} ORDER BY ${order} ${page()}`,
      params,
    }
  }

  async answer(q: PeerQuery): Promise<PeerAnswer> {
    const { sql, params } = this.plan(q)
    const rows = (await this.sql.unsafe<CountedRow[]>(sql, params)) as CountedRow[]
    return pageOf(rows, q) ?? { rows: [], total: (await this.answer(firstRow(q))).total }
  }

  async explain(q: PeerQuery): Promise<string> {
    const { sql, params } = this.plan(q)
    const rows = await this.sql.unsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${sql}`, params)
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  }

  async close(): Promise<void> {
    await this.sql.close({ timeout: 1 })
  }
}

// ---------------------------------------------------------------- timing

function stat(samples: number[], hits: number): PeerStat {
  const s = [...samples].sort((a, b) => a - b)
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!
  return { n: s.length, median: q(0.5), p99: q(0.99), max: s[s.length - 1]!, meanHits: hits / s.length }
}

type Budget = { n: number; warm: number; warmMs: number; budgetMs: number }

/** The query strings of one type: the warm-up ones, then the timed ones (as bench/query.ts draws them: WARM_QUERIES, then 2000). */
type TypeQueries = { type: QueryType; warm: string[]; timed: string[] }

/** One engine as the timing loop sees it: its budget, and its answer to a query string (the number of rows or the total it counts). */
type Timed = { budget: Budget; answer: (qs: string) => number | Promise<number> }

/** The parts each type's timed queries are cut into, the engines taking turns on each (measureTogether). */
const ROUNDS = 4

/** Warm-up: at most `warm` of the type's warm-up queries, stopping after `warmMs`. */
async function warmUp(queries: TypeQueries, e: Timed): Promise<void> {
  const t0 = performance.now()
  for (const qs of queries.warm.slice(0, e.budget.warm)) {
    const r = e.answer(qs)
    if (r instanceof Promise) await r
    if (performance.now() - t0 > e.budget.warmMs) break
  }
}

/**
 * Times the engines on one type's queries, taking turns. Each warms up, then the first `n` timed
 * queries are cut into `rounds` parts; in each round every engine answers its part, the order of
 * the engines turned by one each round, stopping after budgetMs / rounds (having timed at least
 * 50 / rounds). Timed one engine after the other, ours could be timed in one of this shared
 * machine's slow stretches, which come and go over minutes, and a peer in a fast one (or the
 * other way round), and their ratio moved with it.
 */
async function measureTogether(queries: TypeQueries, engines: Timed[], rounds: number, oursAt: number): Promise<PeerStat[]> {
  for (const e of engines) await warmUp(queries, e)
  const samples = engines.map(() => [] as number[])
  /** Per engine, the index of the query each sample timed. */
  const asked = engines.map(() => [] as number[])
  const hits = engines.map(() => 0)
  const least = Math.ceil(50 / rounds)
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < engines.length; j++) {
      const i = (j + round) % engines.length
      const { budget, answer } = engines[i]!
      const part = Math.ceil(Math.min(budget.n, queries.timed.length) / rounds)
      const to = Math.min(budget.n, queries.timed.length, (round + 1) * part)
      const t0 = performance.now()
      for (let k = round * part, taken = 1; k < to; k++, taken++) {
        const qs = queries.timed[k]!
        const s = performance.now()
        let r = answer(qs)
        if (r instanceof Promise) r = await r
        samples[i]!.push((performance.now() - s) * 1000)
        asked[i]!.push(k)
        hits[i]! += r
        if (taken >= least && performance.now() - t0 > budget.budgetMs / rounds) break
      }
    }
  }
  const oursByQuery = new Map<number, number>()
  if (oursAt >= 0) asked[oursAt]!.forEach((k, j) => oursByQuery.set(k, samples[oursAt]![j]!))
  return engines.map((_, i) => {
    const s = stat(samples[i]!, hits[i]!)
    if (oursAt < 0 || i === oursAt) return s
    const same = asked[i]!.map((k) => oursByQuery.get(k)).filter((us): us is number => us !== undefined)
    if (same.length === 0) return s
    const o = stat(same, 0)
    return { ...s, ours: { n: o.n, median: o.median, p99: o.p99 } }
  })
}

type PostgisContext = {
  explain: boolean
  log: (line: string) => void
  /** Cleanups registered here run at the end, on SIGINT/SIGTERM and at exit. */
  cleanups: Map<string, () => void>
}

/** A PostGIS query that failed (while timing: PostGIS is skipped, the others are timed again). */
class PostgisFailed extends Error {}

async function pgAnswer(pg: PostgisPeer, qs: string): Promise<PeerAnswer> {
  try {
    return await pg.answer(parseQuery(qs))
  } catch (e) {
    throw new PostgisFailed((e as Error).message)
  }
}

/** A started and loaded PostGIS: its peer, its result so far (no queries yet) and how to stop it. */
type OpenPostgis = { pg: PostgisPeer; result: PeerResult; close: () => Promise<void> }

/** Install (if needed), start and load PostGIS; close() stops the server and removes its directory. */
async function openPostgis(records: LocationRecord[], docs: Map<string, { json: string; text: string }>, queries: TypeQueries[], c: PostgisContext): Promise<OpenPostgis | PeerSkipped> {
  const found = ensurePostgis(c.log)
  if ('reason' in found) return { skipped: found.reason }
  let t = performance.now()
  const registered: string[] = []
  const server = await startPostgres(found.bindir, (dir, stop) => {
    registered.push(dir)
    c.cleanups.set(dir, stop)
  })
  const pg = 'reason' in server ? null : new PostgisPeer(server.port)
  const close = async () => {
    await pg?.close().catch(() => {})
    for (const dir of registered) {
      c.cleanups.get(dir)?.()
      c.cleanups.delete(dir)
    }
  }
  try {
    if ('reason' in server) {
      await close()
      return { skipped: server.reason }
    }
    c.log(`PostGIS: ${server.version} started on 127.0.0.1:${server.port} in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    t = performance.now()
    await pg!.load(records, docs)
    const loadMs = performance.now() - t
    c.log(`PostGIS ${pg!.version}: loaded and indexed in ${(loadMs / 1000).toFixed(1)} s`)
    if (c.explain) for (const tq of queries) c.log(`PostGIS plan, ${tq.type.key} (${tq.timed[0]}):\n${await pg!.explain(parseQuery(tq.timed[0]!))}`)
    return { pg: pg!, result: { engine: 'PostgreSQL + PostGIS', version: `${server.version}, PostGIS ${pg!.version}`, method: POSTGIS_METHOD, loadMs, queries: {} }, close }
  } catch (e) {
    await close()
    throw e
  }
}

// ---------------------------------------------------------------- the run

const N = 2000

export async function runPeers(opts: PeersOptions): Promise<PeersResult> {
  const log = opts.log ?? ((line: string) => console.error(line))
  const loadStart = loadavg()[0]!
  const budget: Budget = opts.quick ? { n: 200, warm: 20, warmMs: 300, budgetMs: 1000 } : { n: N, warm: WARM_QUERIES, warmMs: WARM_MS, budgetMs: 6000 }
  const oursBudget: Budget = opts.quick ? budget : { ...budget, budgetMs: 4000 } // as bench/query.ts
  const cleanups = new Map<string, () => void>()
  const cleanupAll = () => {
    for (const [key, fn] of [...cleanups].reverse()) {
      cleanups.delete(key)
      try {
        fn()
      } catch {
        // best effort: the next one still runs
      }
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupAll()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('exit', cleanupAll)
  try {
    // The data: our store seeded with the synthetic set (or the caller's), read back so every engine has the same ids.
    let store: Store
    let locatorId: string
    let set: SyntheticSet
    if (opts.from) {
      ;({ store, locatorId, set } = opts.from)
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'storeloc-peers-'))
      cleanups.set(dir, () => rmSync(dir, { recursive: true, force: true }))
      store = openStore(join(dir, 'ours.sqlite'))
      cleanups.set(`${dir}:store`, () => store.close())
      const t = performance.now()
      ;({ locatorId, set } = seedLocator(store, opts.size, opts.seed))
      log(`seeded ${opts.size.toLocaleString('en')} stores in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    }
    const records = store.locations.all(locatorId).filter((r) => r.status === 'published')
    const ctx = presentContext(store.filters.list(locatorId), store.customFields.list(locatorId), store.priority.list(locatorId))
    // Each location's public JSON (what the peers store and fetch, as ours keeps it) and its
    // searchable text, folded as ours folds it: the words of searchText, as nameKey writes them
    // (searchText leaves ASCII punctuation in; PostgreSQL's parser would read "a.b" as a host).
    const docs = new Map(records.map((r) => [r.id, { json: JSON.stringify(publicLocation(r, ctx)), text: nameKey(searchText([r.name, r.address, r.description, ...r.tags])) }] as const))

    // The query strings, drawn exactly as bench/query.ts draws them for this (seed, run).
    const { types } = scenario(set, opts.seed, opts.run)
    const queries: TypeQueries[] = types.map((type) => ({ type, warm: Array.from({ length: WARM_QUERIES }, type.gen), timed: Array.from({ length: N }, type.gen) }))
    const SANITY = 20
    const answers = new Map<string, Map<string, Compared[]>>() // engine -> type -> ids and total per compared query

    // Every engine is made ready first (ours built and its JSON filled, the peers loaded and
    // indexed), then timed type by type, taking turns (measureTogether).
    type Engine = Timed & { name: string; log: string; compare: (qs: string) => Compared | Promise<Compared>; done: (type: string, s: PeerStat) => void }
    const timed: Engine[] = []

    // Ours: the GET /:token/locations body path, as bench/query.ts times it.
    let ours: PeersResult['ours'] = null
    if (opts.ours !== false) {
      const t = performance.now()
      const registry = new IndexRegistry(store)
      const entry = registry.entry(locatorId) as unknown as { jsonReady?: boolean }
      log(`ours: index built in ${((performance.now() - t) / 1000).toFixed(1)} s`)
      // The registry may fill each location's public JSON in background tasks after the build
      // (entry.jsonReady); queries meanwhile build it on demand and run 3-6x slower. The peers are
      // timed loaded, indexed and analysed, so ours is timed once that is done too.
      const t1 = performance.now()
      while (entry.jsonReady === false && performance.now() - t1 < 120_000) await Bun.sleep(20)
      if (entry.jsonReady !== undefined) log(`ours: public JSON filled in the background ${((performance.now() - t1) / 1000).toFixed(1)} s later`)
      const locator = store.locators.get(locatorId)!
      const base = `http://bench.local/public/v1/${locator.publicToken ?? 'token'}/locations?`
      const body = (qs: string) => locationsBody(registry, locator, base + qs)
      const out: NonNullable<PeersResult['ours']>['queries'] = {}
      ours = { queries: out }
      timed.push({
        name: 'ours',
        log: 'ours',
        budget: oursBudget,
        // The answer's total (every match) is what ours counts; rows returned are not counted in the timed loop.
        answer: (qs) => {
          registry.sync()
          return body(qs).total
        },
        compare: (qs) => {
          const { data } = JSON.parse(utf8.decode(body(qs).body)) as { data: { locations: { id: string }[]; pagination: { total: number } } }
          return { ids: data.locations.map((l) => l.id), total: data.pagination.total }
        },
        done: (type, { meanHits, ...rest }) => {
          out[type] = { ...rest, meanTotal: meanHits }
        },
      })
    }

    // (a) SQLite alone.
    const sqliteDir = mkdtempSync(join(tmpdir(), 'storeloc-peers-sqlite-'))
    cleanups.set(sqliteDir, () => rmSync(sqliteDir, { recursive: true, force: true }))
    const lite = new SqlitePeer(join(sqliteDir, 'peer.sqlite'))
    cleanups.set(`${sqliteDir}:db`, () => lite.close())
    const t = performance.now()
    const jsonById = new Map([...docs].map(([id, d]) => [id, d.json] as const))
    lite.load(records, jsonById)
    const sqliteLoadMs = performance.now() - t
    log(`SQLite ${lite.version}: loaded and indexed in ${(sqliteLoadMs / 1000).toFixed(1)} s`)
    if (opts.explain) for (const tq of queries) log(`SQLite plan, ${tq.type.key} (${tq.timed[0]}):\n${lite.explain(parseQuery(tq.timed[0]!))}`)
    const sqlite: PeerResult = { engine: 'SQLite (bun:sqlite)', version: lite.version, method: SQLITE_METHOD, loadMs: sqliteLoadMs, queries: {} }
    timed.push({
      name: 'sqlite',
      log: 'SQLite',
      budget,
      answer: (qs) => lite.answer(parseQuery(qs)).rows.length,
      compare: (qs) => compared(lite.answer(parseQuery(qs))),
      done: (type, s) => {
        sqlite.queries[type] = s
      },
    })

    // (b) PostGIS: any failure (install, start, load, a query) skips it with the reason.
    let postgis: PeerResult | PeerSkipped
    let open: OpenPostgis | null = null
    try {
      const opened = await openPostgis(records, docs, queries, { explain: opts.explain === true, log, cleanups })
      if ('skipped' in opened) postgis = opened
      else {
        open = opened
        postgis = opened.result
        const { pg, result } = opened
        timed.push({
          name: 'postgis',
          log: 'PostGIS',
          budget,
          answer: async (qs) => (await pgAnswer(pg, qs)).rows.length,
          compare: async (qs) => compared(await pgAnswer(pg, qs)),
          done: (type, s) => {
            result.queries[type] = s
          },
        })
      }
    } catch (e) {
      postgis = { skipped: `failed: ${(e as Error).message}` }
    }

    const rounds = opts.quick ? 2 : ROUNDS
    const timeAll = async () => {
      Bun.gc(true)
      for (const tq of queries) {
        const stats = await measureTogether(tq, timed, rounds, timed.findIndex((e) => e.name === 'ours'))
        for (const [i, e] of timed.entries()) {
          const s = stats[i]!
          e.done(tq.type.key, s)
          log(`${e.log} ${tq.type.key}: ${fmtUs(s.median)} median, ${fmtUs(s.p99)} p99 (N ${s.n})`)
          const ids: Compared[] = []
          for (const qs of tq.timed.slice(0, SANITY)) ids.push(await e.compare(qs))
          answers.set(e.name, (answers.get(e.name) ?? new Map()).set(tq.type.key, ids))
        }
      }
    }
    try {
      await timeAll()
    } catch (e) {
      // A PostGIS query failed: skipped with the reason, and the others timed again without it.
      if (!(e instanceof PostgisFailed) || open === null) throw e
      postgis = { skipped: `failed: ${(e as Error).message}` }
      timed.splice(timed.findIndex((x) => x.name === 'postgis'), 1)
      answers.clear()
      await open.close()
      open = null
      await timeAll()
    }
    await open?.close()
    if ('skipped' in postgis) log(`PostGIS: skipped (${postgis.skipped})`)
    for (const key of [`${sqliteDir}:db`, sqliteDir]) {
      cleanups.get(key)!()
      cleanups.delete(key)
    }

    // Sanity: the same ordered ids and the same total from every engine, on the first timed queries of each type.
    const engines = [...answers.keys()]
    const sanity: SanityCheck = { perType: SANITY, engines, identical: {}, differences: [] }
    for (const tq of queries) {
      let same = 0
      for (let i = 0; i < SANITY; i++) {
        const ids = Object.fromEntries(engines.map((e) => [e, answers.get(e)!.get(tq.type.key)![i]!]))
        const first = JSON.stringify(ids[engines[0]!])
        if (engines.every((e) => JSON.stringify(ids[e]) === first)) same++
        else if (sanity.differences.length < 5) sanity.differences.push({ type: tq.type.key, qs: tq.timed[i]!, ids })
      }
      sanity.identical[tq.type.key] = same
    }
    const labels = Object.fromEntries(types.map((x) => [x.key, x.label]))
    return { size: opts.size, seed: opts.seed, run: opts.run, labels, ours, sqlite, postgis, sanity, loadAverage: { start: loadStart, end: loadavg()[0]! }, rounds }
  } finally {
    cleanupAll()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', cleanupAll)
  }
}

// ---------------------------------------------------------------- runs and their spread

/** One engine's figures for one query type across runs (µs). mean: rows returned for a peer, the total for ours. */
export type EngineSpread = { n: number[]; median: Spread; p99: Spread; max: Spread; mean: Spread }

/** What --json writes: what was measured where, the spread across runs, and every run's own result. */
export type PeersReport = Provenance & {
  benchmark: 'peers'
  versions: { bun: string; sqlite: string; postgis: string | null }
  options: { size: number; seed: number; runs: number; quick: boolean; ours: boolean }
  labels: Record<string, string>
  /** Engine ("ours", "sqlite", "postgis": those that ran in some run) -> query type -> figures across the runs it ran in. */
  engines: Record<string, Record<string, EngineSpread>>
  /** Peer -> query type -> the peer's median ÷ ours and p99 ÷ ours, taken per run (runs where both ran). */
  ratios: Record<string, Record<string, { median: Spread; p99: Spread }>>
  /** Query type -> compared queries whose ids (in order) and total were the same on every engine, of those compared, over all runs. */
  sameAnswers: Record<string, { same: number; of: number }>
  /** The first differing answers, with their run. */
  differences: (SanityCheck['differences'][number] & { run: number })[]
  /** Runs in which PostGIS did not run, and why. */
  postgisSkipped: { run: number; reason: string }[]
  runs: PeersResult[]
}

const ENGINE_NAMES: Record<string, string> = { ours: 'ours', sqlite: 'SQLite', postgis: 'PostGIS' }

export function peersReport(prov: Provenance, options: PeersReport['options'], runs: PeersResult[]): PeersReport {
  const first = runs[0]!
  const ran = (r: PeersResult): PeerResult | null => ('skipped' in r.postgis ? null : r.postgis)
  const perEngine: Record<string, (r: PeersResult) => Record<string, { n: number; median: number; p99: number; max: number; mean: number; ours?: PeerStat['ours'] }> | null> = {
    ours: (r) => (r.ours ? Object.fromEntries(Object.entries(r.ours.queries).map(([k, q]) => [k, { ...q, mean: q.meanTotal }])) : null),
    sqlite: (r) => Object.fromEntries(Object.entries(r.sqlite.queries).map(([k, q]) => [k, { ...q, mean: q.meanHits }])),
    postgis: (r) => {
      const pg = ran(r)
      return pg ? Object.fromEntries(Object.entries(pg.queries).map(([k, q]) => [k, { ...q, mean: q.meanHits }])) : null
    },
  }
  const keys = Object.keys(first.labels)
  const engines: PeersReport['engines'] = {}
  const ratios: PeersReport['ratios'] = {}
  for (const [name, of] of Object.entries(perEngine)) {
    const each = runs.map(of)
    const present = each.filter((x): x is NonNullable<typeof x> => x !== null)
    if (present.length === 0) continue
    engines[name] = Object.fromEntries(
      keys.map((k) => {
        const qs = present.map((x) => x[k]!)
        return [k, { n: qs.map((q) => q.n), median: spread(qs.map((q) => q.median)), p99: spread(qs.map((q) => q.p99)), max: spread(qs.map((q) => q.max)), mean: spread(qs.map((q) => q.mean)) }]
      }),
    )
    if (name === 'ours') continue
    const ours = runs.map(perEngine.ours!)
    const pairs = each.map((x, i) => [x, ours[i]] as const).filter((p): p is [NonNullable<(typeof p)[0]>, NonNullable<(typeof p)[1]>] => p[0] !== null && p[1] !== null)
    if (pairs.length > 0) {
      // Against ours on the same queries where the record has them (the peer's budget may have stopped it short).
      ratios[name] = Object.fromEntries(
        keys.map((k) => [k, { median: spread(pairs.map(([x, o]) => x[k]!.median / (x[k]!.ours?.median ?? o[k]!.median))), p99: spread(pairs.map(([x, o]) => x[k]!.p99 / (x[k]!.ours?.p99 ?? o[k]!.p99))) }]),
      )
    }
  }
  const sameAnswers: PeersReport['sameAnswers'] = {}
  for (const k of keys) {
    const compared = runs.filter((r) => r.sanity.engines.length >= 2)
    sameAnswers[k] = { same: compared.reduce((a, r) => a + (r.sanity.identical[k] ?? 0), 0), of: compared.reduce((a, r) => a + r.sanity.perType, 0) }
  }
  return {
    benchmark: 'peers',
    ...prov,
    versions: { bun: Bun.version, sqlite: first.sqlite.version, postgis: runs.map(ran).find((x) => x !== null)?.version ?? null },
    options,
    labels: first.labels,
    engines,
    ratios,
    sameAnswers,
    differences: runs.flatMap((r) => r.sanity.differences.map((d) => ({ ...d, run: r.run }))).slice(0, 5),
    postgisSkipped: runs.flatMap((r) => ('skipped' in r.postgis ? [{ run: r.run, reason: r.postgis.skipped }] : [])),
    runs,
  }
}

// ---------------------------------------------------------------- report

function fmtUs(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(us >= 10_000 ? 0 : 1)} ms`
  return `${us.toFixed(us >= 100 ? 0 : 1)} µs`
}

const TARGET_RATIO: Record<string, number> = { sqlite: 20, postgis: 10 }

export function peersMarkdown(r: PeersReport): string {
  const runs = r.runs.length
  const md: string[] = []
  const pg = r.engines.postgis ? r.runs.map((x) => x.postgis).find((x): x is PeerResult => !('skipped' in x))! : null
  const loads = (f: (x: PeersResult) => number) => spread(r.runs.map(f))
  const secs = (s: Spread) => `${(s.median / 1000).toFixed(1)} s${runs > 1 ? ` (${(s.min / 1000).toFixed(1)}–${(s.max / 1000).toFixed(1)})` : ''}`
  md.push(`## Peers at ${r.options.size.toLocaleString('en')} locations (seed ${r.options.seed}, ${runs} run${runs > 1 ? 's' : ''})`, '')
  md.push(`- **SQLite alone** (${r.versions.sqlite}; loaded and indexed in ${secs(loads((x) => x.sqlite.loadMs))}): ${r.runs[0]!.sqlite.method}`)
  if (pg) md.push(`- **PostGIS** (${pg.version}; loaded and indexed in ${secs(spread(r.runs.flatMap((x) => ('skipped' in x.postgis ? [] : [x.postgis.loadMs]))))}): ${pg.method}`)
  for (const s of r.postgisSkipped) md.push(`- PostGIS: skipped${runs > 1 ? ` in run ${s.run}` : ''} (${s.reason})`)
  if (r.engines.ours) md.push('- **Ours**: the GET /locations body path in process (sync, parse, index query with totals, the answer written as the bytes sent), as bench/query.ts times it.')
  md.push(`- Each run is a fresh process (data seeded, every engine loaded and indexed), with its own query strings (bench/scenario.ts, run 1 to ${runs}, as bench/query.ts draws them). Timed type by type, the engines taking turns: each warmed up, then the type's timed queries cut into ${r.runs[0]!.rounds} parts, every engine answering its part in each round, their order turned by one each round.`)
  md.push(`- 1-minute load average at each run's start and end: ${r.runs.map((x) => `${x.loadAverage.start.toFixed(2)} → ${x.loadAverage.end.toFixed(2)}`).join(', ')} (this bench keeps about one core busy: well above 1, other processes competed).`)
  md.push(
    `- Times per query in µs from the query string to the page's rows and the total in hand (ours: to the answer's bytes); medians of the runs' medians${runs > 1 ? ' (min–max across runs)' : ''}, p99 and max likewise. Ratio = peer median ÷ our median over the same query strings (those the peer answered within its time budget), taken per run, then the median over runs${runs > 1 ? ' (min–max)' : ''}, and the p99 ratio; targets: SQLite ≥ ${TARGET_RATIO.sqlite}×, PostGIS ≥ ${TARGET_RATIO.postgis}× slower than ours. "Same answers": of the first ${r.runs[0]!.sanity.perType} timed queries of each type in each run, those for which every engine gave the same ids in the same order and the same total.`,
    '',
  )
  const peers = ['sqlite', 'postgis'].filter((e) => r.engines[e])
  const head = ['Query', 'N/run']
  if (r.engines.ours) head.push('ours median', 'ours p99')
  for (const e of peers) {
    head.push(`${ENGINE_NAMES[e]} median`, 'p99', 'max')
    if (r.ratios[e]) head.push(`${ENGINE_NAMES[e]} ÷ ours`)
  }
  head.push('rows (mean)')
  if (r.engines.ours) head.push('ours total (mean)')
  head.push('same answers')
  md.push(`| ${head.join(' | ')} |`, `|---|${head.slice(1).map(() => '---:').join('|')}|`)
  const withSpread = (s: Spread, f: (x: number) => string) => `${f(s.median)}${runs > 1 && s.runs.length > 1 ? ` (${f(s.min)}–${f(s.max)})` : ''}`
  const x = (v: number) => `${v.toFixed(v >= 10 ? 0 : v >= 1 ? 1 : 2)}×`
  for (const k of Object.keys(r.labels)) {
    const ns = Object.values(r.engines).flatMap((e) => e[k]!.n)
    const cells = [r.labels[k]!, `${Math.min(...ns)}${Math.min(...ns) !== Math.max(...ns) ? `–${Math.max(...ns)}` : ''}`]
    if (r.engines.ours) cells.push(withSpread(r.engines.ours[k]!.median, fmtUs), fmtUs(r.engines.ours[k]!.p99.median))
    for (const e of peers) {
      const q = r.engines[e]![k]!
      cells.push(withSpread(q.median, fmtUs), fmtUs(q.p99.median), fmtUs(q.max.median))
      const ratio = r.ratios[e]?.[k]
      if (ratio) cells.push(`${withSpread(ratio.median, x)}, p99 ${x(ratio.p99.median)}${ratio.median.median >= TARGET_RATIO[e]! ? '' : ' **MISS**'}`)
    }
    cells.push(r.engines.sqlite![k]!.mean.median.toFixed(1))
    if (r.engines.ours) cells.push(r.engines.ours[k]!.mean.median.toFixed(0))
    const same = r.sameAnswers[k]!
    cells.push(same.of === 0 ? '—' : same.same === same.of ? `${same.same} of ${same.of}` : `**${same.same} of ${same.of}: answers differ**`)
    md.push(`| ${cells.join(' | ')} |`)
  }
  md.push('')
  const engines = [...new Set(r.runs.flatMap((x) => x.sanity.engines))].map((e) => ENGINE_NAMES[e] ?? e)
  if (engines.length < 2) {
    md.push('Same answers: only one engine ran, nothing to compare.', '')
    return md.join('\n')
  }
  const same = Object.values(r.sameAnswers).reduce((a, b) => a + b.same, 0)
  const of = Object.values(r.sameAnswers).reduce((a, b) => a + b.of, 0)
  md.push(`Same answers: ${engines.join(' = ')}: the same ids in the same order, and the same total, for ${same} of ${of} compared queries.${same === of ? '' : ' **Some differ: the ratios of those types compare different work.**'}`)
  for (const d of r.differences) {
    md.push(`- run ${d.run}, ${d.type} \`${d.qs}\`: ${Object.entries(d.ids).map(([e, { ids, total }]) => `${ENGINE_NAMES[e] ?? e} ${ids.length} of ${total} [${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}]`).join('; ')}`)
  }
  md.push('')
  return md.join('\n')
}

// ---------------------------------------------------------------- CLI

type Cli = { size: number; seed: number; runs: number; json: string | null; quick: boolean; ours: boolean; explain: boolean; childRun: number | null }

function parseArgs(argv: string[]): Cli {
  const quick = argv.includes('--quick')
  const o: Cli = { size: 100_000, seed: 42, runs: quick ? 1 : 3, json: null, quick, ours: true, explain: false, childRun: null }
  const usage = 'usage: bun bench/peers.ts [--size 100000] [--seed 42] [--runs 3] [--json <path>] [--quick] [--no-ours] [--explain]'
  readOptions(argv, usage, (a, v) => {
    if (a === '--size') o.size = Number(v().replace(/_/g, ''))
    else if (a === '--seed') o.seed = Number(v())
    else if (a === '--runs') o.runs = Number(v())
    else if (a === '--json') o.json = resolve(v())
    else if (a === '--quick') return true
    else if (a === '--no-ours') o.ours = false
    else if (a === '--explain') o.explain = true
    else if (a === '--child-run') o.childRun = Number(v())
    else return false
    return true
  })
  if (!Number.isInteger(o.size) || o.size < 1000) throw new Error('--size: a whole number >= 1000')
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error('--runs: a whole number >= 1')
  return o
}

if (import.meta.main) {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.childRun !== null) {
    // One run, in its own process (clean heap, cold JIT), as bench/query.ts runs each: its result goes to the parent on stdout.
    const r = await runPeers({ size: o.size, seed: o.seed, run: o.childRun, quick: o.quick, ours: o.ours, explain: o.explain })
    process.stdout.write(`\n@@RESULT ${JSON.stringify(r)}\n`)
  } else {
    const started = performance.now()
    const prov = provenance(new Date())
    const runs: PeersResult[] = []
    for (let run = 1; run <= o.runs; run++) {
      const t = performance.now()
      const flags = [...(o.quick ? ['--quick'] : []), ...(o.ours ? [] : ['--no-ours']), ...(o.explain ? ['--explain'] : [])]
      const proc = Bun.spawn([process.execPath, import.meta.path, '--child-run', String(run), '--size', String(o.size), '--seed', String(o.seed), ...flags], { stdout: 'pipe', stderr: 'inherit' })
      const text = await new Response(proc.stdout).text()
      if ((await proc.exited) !== 0) throw new Error(`peers run ${run} failed`)
      const line = text.split('\n').find((l) => l.startsWith('@@RESULT '))
      if (!line) throw new Error(`peers run ${run}: no result`)
      runs.push(JSON.parse(line.slice(9)))
      console.error(`peers run ${run}: ${((performance.now() - t) / 1000).toFixed(0)} s`)
    }
    const report = peersReport(prov, { size: o.size, seed: o.seed, runs: o.runs, quick: o.quick, ours: o.ours }, runs)
    console.log(`# Peers benchmark\n\n${provenanceLine(prov)} · bun ${report.versions.bun}${o.quick ? ' · --quick' : ''}\n`)
    console.log(peersMarkdown(report))
    if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`)
    console.error(`peers: ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
}
