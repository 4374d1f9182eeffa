// Peer (b), PostGIS: Debian's postgresql and postgis, installed when missing and started on
// 127.0.0.1 by the bench; KNN `ORDER BY geog <-> point` within `ST_DWithin`, tags as text[] with
// GIN, a tsvector for search. Skipped, with the reason, when it cannot be installed or started.
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { SQL } from 'bun'
import { nameKey } from '../../src/core/text'
import type { LocationRecord } from '../../src/store/locations'
import { PRIORITY } from '../synthetic'
import { aptInstall, lastLine, run } from '../system'
import {
  type CountedRow,
  EARTH_RADIUS_KM,
  firstRow,
  type PeerAnswer,
  type PeerQuery,
  pageOf,
  parseQuery,
  tagGroups,
} from './query'
import type { TypeQueries } from './timing'
import type { PeerResult, PeerSkipped } from './types'

const POSTGIS_METHOD =
  'PostgreSQL + PostGIS from Debian, on 127.0.0.1 (TCP), initdb --locale=C, shared_buffers 256 MB, fsync off (load speed only); ' +
  'geography(Point, 4326) column with GIST; WHERE ST_DWithin(geog, point, r, false) (on the sphere, as ours) ORDER BY geog <-> point LIMIT limit+1 OFFSET offset (point and radius bound parameters); ' +
  'tags as text[] with GIN (any: &&, all: @>, match: && per filter group); search: a tsvector (simple configuration) over the text folded in the application, GIN, ' +
  "to_tsquery('w1 & w2:*'); priority: ORDER BY a CASE over the rules, then distance; all=true from a (name_sort, id) btree. " +
  'The total (pagination.total) as a window count(*) OVER () of the rows the WHERE keeps, or (all=true) a count subquery of the same WHERE; hasMore from an extra row. ' +
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
    if (!bindir)
      return {
        reason: `PostgreSQL is not installed: ${why ?? 'apt-get installed postgresql, and no postgres binary was found'}`,
      }
  }
  const major =
    /\/(\d+)\/bin$/.exec(bindir)?.[1] ??
    lastLine(run([join(bindir, 'postgres'), '--version']).out).replace(/^\D*(\d+).*$/, '$1')
  const sharedir = existsSync(join(bindir, 'pg_config'))
    ? run([join(bindir, 'pg_config'), '--sharedir']).out
    : `/usr/share/postgresql/${major}`
  const control = () =>
    existsSync(join(sharedir, 'extension', 'postgis.control')) ||
    existsSync(`/usr/share/postgresql/${major}/extension/postgis.control`)
  if (!control()) {
    const pkg = `postgresql-${major}-postgis-3`
    const why = apt(pkg)
    if (!control())
      return {
        reason: `the postgis extension is not installed for PostgreSQL ${major}: ${why ?? `apt-get installed ${pkg}, and no postgis.control was found`}`,
      }
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
async function startPostgres(
  bindir: string,
  register: (dir: string, stop: () => void) => void,
): Promise<PgServer | { reason: string }> {
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
  const init = run(
    [join(bindir, 'initdb'), '-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--locale=C'],
    asUser,
  )
  if (!init.ok) return { reason: `initdb failed: ${lastLine(init.out)}` }
  const port = await freePort()
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c shared_buffers=256MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  const logFile = join(dir, 'server.log')
  const start = run([pgCtl, '-D', data, '-o', opts, '-l', logFile, '-w', '-t', '60', 'start'], asUser)
  if (!start.ok)
    return {
      reason: `pg_ctl start failed: ${lastLine(existsSync(logFile) ? readFileSync(logFile, 'utf8') : start.out)}`,
    }
  const version = lastLine(run([join(bindir, 'postgres'), '--version']).out)
  return { dir, port, bindir, asUser, version }
}

/** COPY text format: backslash, tab, newline and carriage return escaped. */
const copyText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
const pgArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`

export class PostgisPeer {
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
    const writer = sql
      .unsafe(
        'COPY locations (rid, id, name, address, description, lat, lng, tags, custom_fields, name_sort, search_text, body) FROM STDIN',
      )
      .writable()
      .getWriter()
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
      return {
        sql: `SELECT id, name, address, lat, lng, NULL::float8 AS "distanceKm", body AS json, (SELECT count(*) FROM locations ${where}) AS total FROM locations ${where} ORDER BY ${order} ${page()}`,
        params,
      }
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
    const rows = await this.sql.unsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${sql}`,
      params,
    )
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  }

  async close(): Promise<void> {
    await this.sql.close({ timeout: 1 })
  }
}

export type PostgisContext = {
  explain: boolean
  log: (line: string) => void
  /** Cleanups registered here run at the end, on SIGINT/SIGTERM and at exit. */
  cleanups: Map<string, () => void>
}

/** A PostGIS query that failed (while timing: PostGIS is skipped, the others are timed again). */
export class PostgisFailed extends Error {}

export async function pgAnswer(pg: PostgisPeer, qs: string): Promise<PeerAnswer> {
  try {
    return await pg.answer(parseQuery(qs))
  } catch (e) {
    throw new PostgisFailed((e as Error).message)
  }
}

/** A started and loaded PostGIS: its peer, its result so far (no queries yet) and how to stop it. */
export type OpenPostgis = { pg: PostgisPeer; result: PeerResult; close: () => Promise<void> }

/** Install (if needed), start and load PostGIS; close() stops the server and removes its directory. */
export async function openPostgis(
  records: LocationRecord[],
  docs: Map<string, { json: string; text: string }>,
  queries: TypeQueries[],
  c: PostgisContext,
): Promise<OpenPostgis | PeerSkipped> {
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
    c.log(
      `PostGIS: ${server.version} started on 127.0.0.1:${server.port} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    )
    t = performance.now()
    await pg!.load(records, docs)
    const loadMs = performance.now() - t
    c.log(`PostGIS ${pg!.version}: loaded and indexed in ${(loadMs / 1000).toFixed(1)} s`)
    if (c.explain)
      for (const tq of queries)
        c.log(`PostGIS plan, ${tq.type.key} (${tq.timed[0]}):\n${await pg!.explain(parseQuery(tq.timed[0]!))}`)
    return {
      pg: pg!,
      result: {
        engine: 'PostgreSQL + PostGIS',
        version: `${server.version}, PostGIS ${pg!.version}`,
        method: POSTGIS_METHOD,
        loadMs,
        queries: {},
      },
      close,
    }
  } catch (e) {
    await close()
    throw e
  }
}
