// Peer (a), SQLite alone (bun:sqlite): a (lat, lng) btree, haversine in SQL, tags in a side table,
// FTS5 for search.
import { Database, type Statement } from 'bun:sqlite'
import { nameKey } from '../../src/core/text'
import type { LocationRecord } from '../../src/store/locations'
import { PRIORITY } from '../synthetic'
import {
  type CountedRow,
  EARTH_RADIUS_KM,
  firstRow,
  latLngBox,
  type PeerAnswer,
  type PeerQuery,
  pageOf,
  tagGroups,
} from './query'

export const SQLITE_METHOD =
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
    const insert = db.prepare(
      'INSERT INTO locations (rid, id, name, address, description, lat, lng, name_sort, custom_fields, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const insertTag = db.prepare('INSERT OR IGNORE INTO location_tags (rid, tag) VALUES (?, ?)')
    const insertText = db.prepare('INSERT INTO locations_fts (rowid, text) VALUES (?, ?)')
    db.transaction(() => {
      records.forEach((r, i) => {
        const rid = i + 1
        insert.run(
          rid,
          r.id,
          r.name,
          r.address,
          r.description,
          r.lat,
          r.lng,
          nameKey(r.name),
          JSON.stringify(r.customFields),
          json.get(r.id)!,
        )
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
      if (q.tagLogic === 'any')
        conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag IN (${list(q.tags)}))`)
      else if (q.tagLogic === 'all')
        for (const t of q.tags)
          conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag = ${p(t)})`)
      else
        for (const g of tagGroups(q.tags))
          conds.push(`EXISTS (SELECT 1 FROM location_tags t WHERE t.rid = l.rid AND t.tag IN (${list(g)}))`)
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
      return {
        sql: `SELECT l.id, l.name, l.address, l.lat, l.lng, NULL AS distanceKm, l.json, (SELECT count(*) FROM locations l ${where}) AS total FROM locations l ${where} ORDER BY ${order} ${page()}`,
        params,
      }
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
