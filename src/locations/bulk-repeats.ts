// Bulk upsert: warnings for rows that would make a store a second time (a file without store
// codes imported again, or codes that lost their leading zeros in a spreadsheet).
import { bareCode, nameKey } from '../core/text'
import { distanceKm } from '../geocode/embedded/near'
import type { Plan } from './bulk-check'
import { codeSaid, twinsOfCode } from './bulk-codes'
import type { AdminDeps } from './service'

/** A row without a store code repeats a stored location of its name this close to it (km). */
const SAME_PLACE_KM = 0.01
/** The grid stored points are kept in to find those near a row: a cell this many degrees a side. */
const CELL_DEG = 0.0001

/**
 * Warns each row that creates a location without an external_id when the locator has one of its
 * name at its address, or within SAME_PLACE_KM of its point, already: a file without store codes
 * imported twice makes every store twice. The stored locations of the rows' names only (by the
 * name index) into two maps, then a few lookups a row. The rows so warned, counted: bulkUpsert
 * says it of the whole request.
 */
export function noteRepeats(deps: AdminDeps, locatorId: string, plans: Plan[], going: Going): number {
  const creates = plans.filter((p) => p.target === null && !p.patch.externalId)
  if (creates.length === 0) return 0
  const key = (name: string, address: string) => `${nameKey(name)}\u0000${nameKey(address)}`
  const held = new Map<string, string>()
  // By name, then by cell: a number, so a row's lookups around its point make no strings.
  const near = new Map<string, Map<number, Held[]>>()
  const names = [...new Set(creates.map((p) => nameKey(p.patch.name ?? '')))]
  for (const r of deps.store.locations.ofNameKeys(locatorId, names)) {
    // A location the request's delete items delete is replaced, not repeated.
    if (going.deleted.has(r.id)) continue
    held.set(key(r.name, r.address), r.id)
    const name = nameKey(r.name)
    let cells = near.get(name)
    if (cells === undefined) near.set(name, (cells = new Map()))
    const at = cellOf(Math.floor(r.lat / CELL_DEG), Math.floor(r.lng / CELL_DEG))
    const list = cells.get(at)
    if (list === undefined) cells.set(at, [r])
    else list.push(r)
  }
  let repeats = 0
  for (const plan of creates) {
    const name = plan.patch.name ?? ''
    const id = held.get(key(name, plan.patch.address ?? ''))
    const cells = id === undefined && plan.patch.coordinates ? near.get(nameKey(name)) : undefined
    const close = cells === undefined ? null : nearest(cells, plan.patch.coordinates!)
    if (id === undefined && close === null) continue
    const said =
      id !== undefined
        ? `Location ${id} has this name and address`
        : `Location ${close!.id} has this name ${close!.metres} m from this row's point`
    // delete_missing removes it in this request: the row makes its store again, a new id without its code.
    const code = going.missing.get(id ?? close!.id)
    if (code !== undefined) {
      plan.warnings.push(
        `${said}, and is deleted, its external_id "${code}" in no row: if this row is that store, give it the external_id "${code}", and the store is updated in place, its id kept.`,
      )
      continue
    }
    repeats++
    plan.warnings.push(
      `${said}: if it is this row's store, this row makes a second one. Give each row its store code as external_id, and imports update the stores they match.`,
    )
  }
  return repeats
}

type Held = { id: string; lat: number; lng: number }

/** The most pairs of rows repeatedRowsNote names; the rest are counted. */
const PAIRS_NAMED = 10

/**
 * Warns each row that creates a location without an external_id when an earlier such row of the
 * request has its name and address (folded as nameKey folds them): the file makes that store
 * twice, on its first import too. The pairs so found, each the later row's key and the earlier's
 * ("line 5", "line 2"), for repeatedRowsNote.
 */
export function noteRepeatedRows(plans: Plan[]): [later: string, earlier: string][] {
  const first = new Map<string, Plan>()
  const pairs: [string, string][] = []
  for (const plan of plans) {
    if (plan.target !== null || plan.patch.externalId) continue
    const key = `${nameKey(plan.patch.name ?? '')}\u0000${nameKey(plan.patch.address ?? '')}`
    const earlier = first.get(key)
    if (earlier === undefined) {
      first.set(key, plan)
      continue
    }
    pairs.push([plan.key, earlier.key])
    const csv = earlier.line !== undefined
    plan.warnings.push(
      csv
        ? `Line ${earlier.line} has this row's name and address too: if it is the same store, the file makes it twice. Give each row its store code as external_id.`
        : `Item ${earlier.key} has this location's name and address too: if it is the same store, the request makes it twice. Give each its store code as external_id.`,
    )
  }
  return pairs
}

/** What is said of a request whose rows to create (`creates` of them) repeat earlier ones (`pairs`: noteRepeatedRows). */
export function repeatedRowsNote(pairs: readonly [string, string][], creates: number, csv: boolean): string {
  const one = pairs.length === 1
  const rows = csv ? (one ? 'row' : 'rows') : one ? 'location' : 'locations'
  const named = pairs.slice(0, PAIRS_NAMED).map(([later, earlier]) => `${later} repeats ${earlier}`)
  if (pairs.length > PAIRS_NAMED) named.push(`and ${pairs.length - PAIRS_NAMED} more`)
  const of = csv ? 'an earlier row of the file' : 'an earlier one of the request'
  const what = csv ? 'the file' : 'the request'
  const same = one
    ? `if both are one store, ${what} makes it twice`
    : `where ${csv ? 'rows' : 'they'} are one store, ${what} makes it more than once`
  const fix = csv
    ? `Give each row its store code in an external_id column ("Store Code" is read as one), or delete the ${one ? 'row' : 'rows'} repeated.`
    : `Give each its store code as external_id, or leave out the ${one ? 'one' : 'ones'} repeated.`
  return `${pairs.length} ${rows} of ${creates} to create ${one ? 'has' : 'have'} the name and address of ${of} (${named.join('; ')}): ${same}. ${fix}`
}

/**
 * The locations a request deletes: by its delete items (`deleted`), and those delete_missing
 * removes (`missing`, each with its external_id).
 */
export type Going = { deleted: ReadonlySet<string>; missing: ReadonlyMap<string, string> }

/** A grid cell's key: its row and column, one number (both well within 2^21 cells of 0). */
const cellOf = (i: number, j: number) => i * 4_194_304 + j

/** The stored location of a row's name nearest `at` within SAME_PLACE_KM, looked for in the cells around it; null if none. */
function nearest(
  cells: ReadonlyMap<number, Held[]>,
  at: { lat: number; lng: number },
): { id: string; metres: number } | null {
  const i = Math.floor(at.lat / CELL_DEG)
  const j = Math.floor(at.lng / CELL_DEG)
  // A cell is narrower than it is tall away from the equator: as many more cells east and west.
  const wide = Math.min(60, Math.ceil(1 / Math.max(Math.cos((at.lat * Math.PI) / 180), 0.01)))
  let best: { id: string; metres: number } | null = null
  for (let di = -1; di <= 1; di++)
    for (let dj = -wide; dj <= wide; dj++)
      for (const r of cells.get(cellOf(i + di, j + dj)) ?? []) {
        const km = distanceKm(at.lat, at.lng, r.lat, r.lng)
        if (km <= SAME_PLACE_KM && (best === null || km * 1000 < best.metres))
          best = { id: r.id, metres: Math.round(km * 1000) }
      }
  return best
}

/**
 * What is said of a request whose `repeats` rows of `creates` to create repeat stored locations
 * (noteRepeats), in a CSV file's words or a JSON body's.
 */
export function repeatsNote(repeats: number, creates: number, locatorId: string, csv: boolean): string {
  const one = repeats === 1
  const rows = csv ? (one ? 'row' : 'rows') : one ? 'location' : 'locations'
  // Two stores of a chain in one mall share a name, an address, a point within metres: may, not do.
  const same = one ? 'if it is the same store' : 'if they are the same stores'
  const them = one ? 'it' : 'them'
  const fix = csv
    ? `${same}, a file without store codes makes ${them} a second time. Give each row its store code in an external_id column ("Store Code" is read as one), and imports update the stores they match.`
    : `${same}, locations sent without an external_id make ${them} a second time. Give each its store code as external_id, and later requests update the stores they match.`
  return `${repeats} ${rows} of ${creates} to create ${one ? 'has' : 'have'} ${OF_STORED}${locatorId} has, or its name and a point within ${SAME_PLACE_KM * 1000} m of it: ${fix}`
}

/** What repeatsNote says and no other note of a request: the rows repeat a stored location. */
const OF_STORED = 'the name and address of a location '

/** Whether `notes` (a report's) hold repeatsNote's: it says that the rows make stored stores again. */
export const saysStoredRepeats = (notes: readonly string[] | undefined): boolean =>
  notes?.some((note) => note.includes(OF_STORED)) ?? false

/** The most leading zeros looked for before a new row's store code of digits. */
const ZEROS_LOOKED_FOR = 4
/** A store code of digits led by as many zeros: its digits after them. */
const ZERO_LED = new RegExp(`^0{1,${ZEROS_LOOKED_FOR}}([1-9]\\d{0,11})$`)

/**
 * The location holding `code` as written, else but for invisible characters (bareCode): its id
 * and code as stored; null if none. Indexed lookups.
 */
function holding(deps: AdminDeps, locatorId: string, code: string): { id: string; externalId: string } | null {
  const id = deps.store.locations.holderOf(locatorId, code)
  return id !== null ? { id, externalId: code } : (twinsOfCode(deps.store, locatorId, code)[0] ?? null)
}

/**
 * Warns each row that creates a location with a code of digits ("12") when the locator has that
 * code with leading zeros ("0012"): a sheet saved again in Excel lost them, and imported so it
 * makes every store a second time; and the other way round, when an earlier import lost them.
 * Codes are read as compared (bareCode): a zero-width space beside the digits is no part.
 * Indexed lookups, a few a row: no scan of the locator.
 */
export function noteLostZeros(deps: AdminDeps, locatorId: string, plans: Plan[]): void {
  for (const plan of plans) {
    const sent = plan.patch.externalId
    if (plan.target !== null && typeof sent === 'string') noteZerosDropped(deps, locatorId, plan, sent)
    if (plan.target !== null || typeof sent !== 'string') continue
    const code = bareCode(sent)
    const bare = ZERO_LED.exec(code)?.[1]
    const held = bare === undefined ? null : holding(deps, locatorId, bare)
    if (held !== null)
      plan.warnings.push(
        `Location ${held.id} has the external_id ${codeSaid(held.externalId)}: if this row is that store, an earlier import lost the code's leading zeros (Excel reads ${code} as ${bare}), and the row makes a second one. Give the row the code "${bare}", or that location the code "${code}".`,
      )
    if (!/^[1-9]\d{0,11}$/.test(code)) continue
    for (let zeros = 1; zeros <= ZEROS_LOOKED_FOR; zeros++) {
      const padded = `${'0'.repeat(zeros)}${code}`
      const found = holding(deps, locatorId, padded)
      if (found === null) continue
      plan.warnings.push(
        `Location ${found.id} has the external_id ${codeSaid(found.externalId)}: if this row is that store, its code lost its leading zeros (Excel reads ${padded} as ${code}), and the row makes a second one. Format the column as text and give the code as "${padded}".`,
      )
      break
    }
  }
}

/**
 * Warns a row that gives its location the code it has without its leading zeros ("0012" stored,
 * "12" sent): an export opened and saved again in Excel renumbers each store so.
 */
function noteZerosDropped(deps: AdminDeps, locatorId: string, plan: Plan, sent: string): void {
  const code = bareCode(sent)
  if (!/^[1-9]\d{0,11}$/.test(code)) return
  const stored = deps.store.locations.get(locatorId, plan.target!)?.externalId
  if (stored == null || ZERO_LED.exec(bareCode(stored))?.[1] !== code) return
  plan.warnings.push(
    `The external_id ${codeSaid(code)} replaces ${codeSaid(stored)}, the same code without its leading zeros: Excel drops them from a file it opens and saves again (it reads ${bareCode(stored)} as ${code}). If the code is not meant to change, format the column as text and give it as ${codeSaid(stored)}.`,
  )
}
