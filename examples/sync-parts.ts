// How examples/sync.ts cuts a list into requests of the bulk route: in the list's order, but for
// the rows that renumber stores. The route checks codes unique in a request's final state, so a
// swap goes only within one request; a chain (A takes B's code, B takes C's) goes in parts too,
// its end first, as each part frees the codes the next one takes. A request's rows are named
// in messages as a person finds them in the file (rowsNamed).
import type { BulkDelete, BulkLocation } from 'storeloc/client'
import { bareCode } from '../src/core/text'
import type { BulkItem } from '../src/locations/bulk'

/** The bulk route's limit: the list is sent in requests of up to this many (STORELOC_SYNC_CHUNK sets fewer). */
export const CHUNK = 1000

/** The item a detail of a bulk answer names ("locations[3].name" is 3); NaN for none. */
export const itemAt = (detail: string) => Number(/^locations\[(\d+)\]/.exec(detail)?.[1])

/**
 * A store of the list; `wholeSpecialHours`: a CSV cell gave all its special hours (dates left out
 * are cleared); `notes`: what reading its row took otherwise than written (a postcode's lost zero).
 * `drop`: no row of the list but the delete item of a store it drops whose code a row takes.
 */
export type Row = {
  label: string
  location: BulkLocation | BulkDelete
  wholeSpecialHours: boolean
  notes: string[]
  drop?: boolean
  /** A delete item's store as messages name it: '"S9" (loc_...)', its code and id. */
  store?: string
  /**
   * Sent in dry runs only, after the rows: the delete item of a store an earlier request of the
   * chain renumbers, which frees its code in the dry run as that request will have in the real one.
   */
  dryOnly?: boolean
  /** A CSV row as read: its columns name its problems and warnings. */
  item?: BulkItem
  /** Its place among the list's rows: rows next to each other join in rowsNamed's runs, however many lines each spans. */
  place?: number
}

/** How many runs of places rowsNamed says before counting the rest: a request's name stays a line. */
const RUNS_SAID = 10

/**
 * The rows of the list among `rows` (not the deletes sent beside them) as a person finds them in
 * the file, in its order, runs joined: "lines 2-40, 45, 47-60", "locations[0-39, 45]", "[0-39]"
 * (a top-level JSON array); after ten runs, how many rows more. A run goes from its first row's
 * line to its last row's: rows of several lines (a quoted line break) next to each other in the
 * file join. Deletes alone are named by their stores: 'deleting "S9" (loc_...)'.
 */
export function rowsNamed(rows: Row[]): string {
  const listed = rows.filter((r) => !r.drop)
  if (listed.length === 0) return `deleting ${saidAndMore(rows.map((r) => r.store ?? r.label), rows.length - RUNS_SAID)}`
  const csv = listed.every((r) => /^line \d+$/.test(r.label))
  const json = listed.every((r) => /^(locations)?\[\d+\]$/.test(r.label))
  // Labels of no known form are named one by one, as many as the runs.
  if (!csv && !json) return saidAndMore(listed.map((r) => r.label), listed.length - RUNS_SAID)
  // Each row's line or index, and its place among the rows (without one, the number is).
  const number = (r: Row) => Number(/\d+/.exec(r.label)![0])
  const places = listed.map((r) => ({ n: number(r), place: r.place ?? number(r) })).toSorted((a, b) => a.n - b.n)
  const runs: { from: number; to: number; place: number; count: number }[] = []
  for (const { n, place } of places) {
    const last = runs.at(-1)
    if (last !== undefined && place === last.place + 1) Object.assign(last, { to: n, place, count: last.count + 1 })
    else runs.push({ from: n, to: n, place, count: 1 })
  }
  const said = runs.slice(0, RUNS_SAID).map(({ from, to }) => (from === to ? `${from}` : `${from}-${to}`))
  const more = places.length - runs.slice(0, RUNS_SAID).reduce((n, { count }) => n + count, 0)
  if (json) return `${listed[0]!.label.startsWith('locations') ? 'locations' : ''}[${saidAndMore(said, more)}]`
  return `${places.length === 1 ? 'line' : 'lines'} ${saidAndMore(said, more)}`
}

/** "a, b, c and 12 more": the first RUNS_SAID of `said`, and the count of the rest (none when `more` is not positive). */
const saidAndMore = (said: string[], more: number) =>
  `${said.slice(0, RUNS_SAID).join(', ')}${more > 0 ? ` and ${more} more` : ''}`

/** A store of the locator as the sync reads it: its id and code (null: none). */
export type Stored = { id: string; external_id: string | null }

/** The ids of the stores holding each code, by the code as compared (bareCode). */
export function holdersOf(stored: Stored[]): Map<string, string[]> {
  const holders = new Map<string, string[]>()
  for (const { id, external_id } of stored) {
    if (external_id === null) continue
    const code = bareCode(external_id)
    holders.set(code, [...(holders.get(code) ?? []), id])
  }
  return holders
}

/**
 * The id of the stored store a row writes, found as the bulk route finds it: by id, else by its
 * code as compared (bareCode), so a store renumbered by its id, or whose code differs only by
 * invisible characters, is found. Undefined for a row making a new store.
 */
export function storeOfRow(stored: Stored[]): (r: Row) => string | undefined {
  const ids = new Set(stored.map((s) => s.id))
  const holders = holdersOf(stored)
  return (r) => {
    const id = typeof r.location.id === 'string' ? r.location.id.trim() : ''
    return ids.has(id) ? id : holders.get(bareCode(r.location.external_id as string))?.[0]
  }
}

/**
 * The stores the list drops whose codes its rows take (a closed store's code given to another),
 * each as a delete item: it goes in the request of the row taking its code, or in one before it,
 * as the bulk route frees a code only once deleted, and only while it is as `read` (each id's
 * updated_at). Rows are matched as the route matches them: by id, else by code.
 */
export function dropsTaken(rows: Row[], stored: Stored[], read?: ReadonlyMap<string, { updated_at: string }>): Row[] {
  const ids = new Set(stored.map((s) => s.id))
  const byCode = holdersOf(stored)
  const code = (r: Row) => bareCode(r.location.external_id as string)
  // A row's id as the route reads it (and storeOfRow): blanks around it aside.
  const idOf = (r: Row) => (typeof r.location.id === 'string' ? r.location.id.trim() : '')
  const own = (r: Row) => (ids.has(idOf(r)) ? idOf(r) : undefined)
  const named = new Set(rows.flatMap((r) => own(r) ?? byCode.get(code(r)) ?? []))
  const drops = new Map<string, Row>()
  for (const r of rows)
    for (const holder of own(r) === undefined ? [] : (byCode.get(code(r)) ?? []))
      if (!named.has(holder) && !drops.has(holder))
        drops.set(holder, deleteRow(holder, r.location.external_id as string, read?.get(holder)?.updated_at))
  return [...drops.values()]
}

/**
 * The delete item of the store `id` holding `code`, named as a request of deletes alone names its
 * stores (rowsNamed); with `updatedAt`, the store's as read, the service deletes it only while
 * no other write changed it (if_updated_at).
 */
export function deleteRow(id: string, code: string, updatedAt?: string): Row {
  const store = `${JSON.stringify(code)} (${id})`
  const location: BulkDelete = { id, delete: true, ...(updatedAt === undefined ? {} : { if_updated_at: updatedAt }) }
  return { label: `deleting ${store}`, location, wholeSpecialHours: false, notes: [], drop: true, store }
}

/** Joined sets of 0..n-1 (union-find). */
function joins(n: number) {
  const parent = Array.from({ length: n }, (_, i) => i)
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)))
  return { root, join: (a: number, b: number) => void (parent[root(a)] = root(b)) }
}

/** Each of `of`'s members (in order) under its key's first place. */
function groupBy(of: number[], key: (i: number) => number): number[][] {
  const groups = new Map<number, number[]>()
  for (const i of of) {
    const group = groups.get(key(i))
    if (group === undefined) groups.set(key(i), [i])
    else group.push(i)
  }
  return [...groups.values()]
}

/** What must go in one request: rows of the list (by place), then the dry runs' own delete items. */
type Unit = { rows: number[]; dryOnly: number[] }

/**
 * The list's rows and drops in requests of up to `size`, in the list's order, but for those that
 * renumber stores: a row that takes a code another store of the list holds goes in that store's
 * request or a later one. A group of rows linked so goes whole in one request when it fits, or
 * holds a ring (a swap; one larger than the route takes, CHUNK, is refused); a longer chain goes
 * in parts, its end first.
 */
export function parts(rows: Row[], stored: Stored[], size: number): Row[][] {
  const byId = new Map<string, number>()
  rows.forEach((r, i) => typeof r.location.id === 'string' && byId.set(r.location.id, i))
  const holders = holdersOf(stored)
  // next[i]: the rows of the stores holding the code row i takes, written with it or before it.
  const next = rows.map((r) =>
    r.drop
      ? []
      : (holders.get(bareCode(r.location.external_id as string)) ?? []).flatMap((holder) => {
          const other = byId.get(holder)
          return holder !== r.location.id && other !== undefined ? [other] : []
        }),
  )
  const linked = joins(rows.length)
  // A row without an id is matched by its code: with the row naming that code's holder by id, in
  // one request, the route answers it as the same store, not a row of its own in a later request.
  const glued = joins(rows.length)
  next.forEach((to, i) => {
    for (const j of to) {
      linked.join(i, j)
      if (typeof rows[i]!.location.id !== 'string') glued.join(i, j)
    }
  })
  const units = groupBy(
    rows.map((_, i) => i),
    linked.root,
  ).flatMap((group) => unitsOf(group, next, glued.root, size))
  for (const u of units) if (u.rows.length > CHUNK) throw new Error(tooLinked(u.rows.map((i) => rows[i]!)))
  const requests: Row[][] = []
  let open: Unit = { rows: [], dryOnly: [] }
  const close = () => {
    requests.push([...open.rows.map((i) => rows[i]!), ...open.dryOnly.map((i) => standIn(rows[i]!))])
    open = { rows: [], dryOnly: [] }
  }
  for (const u of units) {
    const rowsThen = open.rows.length + u.rows.length
    if (open.rows.length > 0 && (rowsThen > size || rowsThen + open.dryOnly.length + u.dryOnly.length > CHUNK)) close()
    open.rows.push(...u.rows)
    open.dryOnly.push(...u.dryOnly)
    if (open.rows.length >= size) close()
  }
  if (open.rows.length > 0) close()
  return requests
}

/**
 * A group of linked rows as what goes in one request: itself whole when it fits in `size` or
 * holds a ring; else a chain's parts of up to `size`, its end first, each with the delete items
 * that free, in its dry run, the codes the earlier parts free. Rows `glued` go in one part.
 */
function unitsOf(group: number[], next: number[][], glued: (i: number) => number, size: number): Unit[] {
  if (group.length <= size) return [{ rows: group, dryOnly: [] }]
  // Blocks of glued rows, ordered so that each comes after those holding the codes it takes.
  const blocks = groupBy(group, glued)
  const blockOf = new Map(blocks.flatMap((b, n) => b.map((i) => [i, n] as const)))
  const waits = blocks.map((b) => new Set(b.flatMap((i) => next[i]!.map((j) => blockOf.get(j)!))))
  blocks.forEach((_, n) => waits[n]!.delete(n))
  const waiting = blocks.map(() => [] as number[])
  waits.forEach((on, n) => {
    for (const m of on) waiting[m]!.push(n)
  })
  const order = blocks.flatMap((_, n) => (waits[n]!.size === 0 ? [n] : []))
  for (let k = 0; k < order.length; k++)
    for (const n of waiting[order[k]!]!) if (waits[n]!.delete(order[k]!) && waits[n]!.size === 0) order.push(n)
  // Not every block ordered: a ring, which no order writes code by code.
  if (order.length < blocks.length) return [{ rows: group, dryOnly: [] }]
  const units: Unit[] = []
  const partOf = new Map<number, number>()
  let part: number[] = []
  const close = () => {
    units.push({ rows: part.sort((a, b) => a - b), dryOnly: [] })
    part = []
  }
  for (const n of order) {
    const block = blocks[n]!
    if (part.length > 0 && part.length + block.length > Math.min(size, CHUNK - 1)) close()
    for (const i of block) partOf.set(i, units.length)
    part.push(...block)
  }
  close()
  // Each part's dry run deletes the stores of earlier parts whose codes it takes.
  for (const [i, at] of partOf)
    for (const j of next[i]!) if (partOf.get(j)! < at && !units[at]!.dryOnly.includes(j)) units[at]!.dryOnly.push(j)
  return units
}

/** A row's store deleted, in a dry run, as an earlier request of its chain frees its code. */
function standIn(row: Row): Row {
  const id = row.location.id as string
  return {
    label: `the store ${id}, whose code an earlier request frees`,
    location: { id, delete: true },
    wholeSpecialHours: false,
    notes: [],
    drop: true,
    dryOnly: true,
  }
}

/** The refusal of a ring of renumberings that no request can hold whole. */
function tooLinked(group: Row[]): string {
  const named = group.slice(0, 5).map((r) => r.label)
  return `${group.length} rows take one another's store codes in a ring (${named.join(', ')} and ${group.length - named.length} more), and one request takes at most ${CHUNK} rows: a ring (a swap) goes through only within one request, as no order frees each code before it is taken. Renumber them in two syncs (first to codes no store holds, then to the new ones), or import the list with the CLI, \`storeloc locations import LOCATOR_ID --file FILE --delete-missing\`, which takes any number in one transaction. Nothing was written.`
}

/**
 * A bulk item's special_hours change only the dates it names: those a CSV cell left out are sent
 * as "" (cleared). A row's store is the one the route matches: by id, else by code, so a store
 * renumbered to another's code has its own dates cleared, not the other's.
 */
export function clearLeftOut(
  rows: Row[],
  storeOf: (r: Row) => string | undefined,
  specialOf: Map<string, Record<string, string>>,
): void {
  for (const r of rows) {
    if (!r.wholeSpecialHours) continue
    const store = storeOf(r)
    const had = store === undefined ? undefined : specialOf.get(store)
    if (had === undefined) continue
    const sent = ((r.location as BulkLocation).special_hours ??= {})
    for (const date of Object.keys(had)) if (!Object.hasOwn(sent, date)) sent[date] = ''
  }
}
