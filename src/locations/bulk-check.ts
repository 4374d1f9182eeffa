// Bulk upsert, step 1: every item checked and matched to the location it updates, without the
// geocoder; the problems of all of them said at once.
import type { GeocodeResult } from '../geocode/geocoder'
import { samePoint } from '../store/location-compare'
import { type LocationRecord, replacedPointOf } from '../store/locations'
import { LOCATION_ID } from '../core/ids'
import { nextTurn, SLICE_MS } from '../core/slices'
import { quoted, trimStrings } from '../core/validation'
import type { BulkItem } from './bulk'
import { bareCode, isBlankCode } from '../core/text'
import {
  bareMatchWarning,
  blankCodeProblem,
  type Coded,
  codeSaid,
  codeHolders,
  everyOtherHolder,
  type Held,
  idAsCodeProblem,
  keptCodeWarning,
  keepsCode,
  twinsProblem,
} from './bulk-codes'
import { inColumn, type Problems, whoIs } from './bulk-problems'
import { joinedAsBefore } from './csv-address'
import { isRemoval, type Removal, readRemoval } from './bulk-removals'
import { LocationError } from './errors'
import { LOCATION_FIELDS } from './model'
import { type LocationPatch, normalizeLocationBody, pickLocationFields } from './normalize'
import { type KnownTown, pinned } from './town'
import type { AdminDeps } from './service'

/** What one checked item does: the location it updates (or none: it creates one) and its fields. */
export type Plan = {
  index: number
  line: number | undefined
  key: string
  /** The item's fields as sent (pickLocationFields makes them again where needed: no copy is kept a row). */
  raw: Record<string, unknown>
  patch: LocationPatch
  /** The location it updates; null: it creates one. */
  target: string | null
  /**
   * Its address is the target's as stored and it has no coordinates: not geocoded, so the point
   * stays (a pin moved by hand too). A sync of a list without coordinates keeps such pins.
   */
  keepsPoint: boolean
  /**
   * The target's geocoded point, sent back with another address: that address is geocoded
   * instead; if the geocoder cannot place it, the point stays, as a pin (keptAsPin in
   * bulk-geocode.ts). A CSV row's part columns make no difference: the bulk JSON of
   * examples/sync.ts carries none, and a file gives the same stores either way.
   */
  sentBack?: { lat: number; lng: number }
  /**
   * The target's point beside a sentBack: where it stays if the geocoder cannot place the new
   * address. sentBack itself, or the store's point when sentBack is the one its address replaced.
   */
  keptAt?: { lat: number; lng: number }
  /**
   * The point the target's address replaced (ReplacedPoint), sent again beside that address: a
   * file that still holds it, left aside (keepsPoint), not a pin.
   */
  stale?: { lat: number; lng: number }
  found: GeocodeResult | null
  /** The town its address names at its coordinates, looked up once for its checks and its write. */
  town?: KnownTown
  warnings: string[]
  /** BulkItem.wholeSpecialHours. */
  wholeSpecialHours: boolean
  /** BulkItem.hoursColumns and specialColumn: the columns its hours warnings name. */
  hoursColumns?: readonly (string | undefined)[]
  specialColumn?: string
}

/** Fields of a location's answer, not of a body: an export sent back has them, and they are skipped unsaid. */
const ANSWER_FIELDS = new Set(['id', 'hours_unread', 'geocoding', 'created_at', 'updated_at'])
const BODY_FIELDS = new Set<string>(LOCATION_FIELDS)

/** A warning naming the top-level fields that are not a location's (a misspelt "nmae"): they were not read. */
function ignoredFields(raw: Record<string, unknown>): string[] {
  // "delete": false is an item's own field (not a delete item), not a location's.
  const ignored = Object.keys(raw).filter((k) => !BODY_FIELDS.has(k) && !ANSWER_FIELDS.has(k) && k !== 'delete')
  if (ignored.length === 0) return []
  const named = ignored.slice(0, 5).map(quoted).join(', ')
  const more = ignored.length > 5 ? ` and ${ignored.length - 5} more` : ''
  const are = ignored.length === 1 ? 'is not a field' : 'are not fields'
  return [`${named}${more} ${are} of a location, so not read (the fields: docs/management-api.md, The location).`]
}

/**
 * The location an item updates: by id, else by external_id; null to create. An id that is not the
 * locator's (an export of another locator, a location deleted since) gives way to the item's
 * external_id, which no other location can hold; without one it is refused.
 */
function targetOf(
  deps: AdminDeps,
  locatorId: string,
  raw: Record<string, unknown>,
  fields: Record<string, unknown>,
  byExternalId: (ext: string) => LocationRecord | null,
): LocationRecord | null | Error {
  const id = trimStrings(raw.id) // as the fields are: a pasted cell's blanks are no part of it
  const ext = fields.external_id
  const byExt = typeof ext === 'string' && ext !== ''
  if (id !== undefined && id !== null && id !== '') {
    const found = typeof id === 'string' ? deps.store.locations.get(locatorId, id) : null
    if (found !== null) return found
    if (typeof id !== 'string')
      return new Error(`The id field must be a location's id, a text (loc_...); got ${quoted(id)}.`)
    if (!byExt) {
      // A spreadsheet's own "ID" column holds the chain's codes, not this service's ids.
      const own = !LOCATION_ID.test(id)
        ? ' The id field (an "ID" column too) holds this service\'s ids, loc_...: for your own store codes, name the column external_id or "Store Code".'
        : ''
      return new Error(
        `id ${quoted(id)} is not a location of this locator. Leave the id out to create it, or give its external_id to match by.${own}`,
      )
    }
  }
  return byExt ? byExternalId(ext) : null
}

/** What step 1 keeps while it reads the items: what the earlier ones named, to tell the later ones. */
type Checking = {
  deps: AdminDeps
  locatorId: string
  problems: Problems
  definitions: ReturnType<AdminDeps['store']['customFields']['list']>
  plans: Plan[]
  removals: Removal[]
  /** Each location named, to the key of the first item naming it. */
  byTarget: Map<string, string>
  /** The locations of `byTarget` its item named by its store code alone, no id: the code as held. */
  byCodeAlone: Map<string, string>
  /** The keys of the delete items. */
  deletes: Set<string>
  /** Each store code given (as checkStoreCode keys it), to the key of the first item giving it. */
  byExternalId: Map<string, string>
  /** Each item's raw fields by its key: a row that repeats an earlier one whole is said to. */
  raws: Map<string, unknown>
  /** What a store code names (bulk-codes.ts). */
  holderOf: (ext: string, known?: LocationRecord | null) => Held
  /** Each location an item names with an external_id field: the code it ends with (null: none). */
  recoded: Map<string, string | null>
  /** The locations delete items delete. */
  removed: Set<string>
  /** Whether delete_missing deletes the coded locations no item names, before the items are written. */
  deleteMissing: boolean
  /** Store codes held by another location than the item's: a problem unless the request takes them from it. */
  taken: { key: string; who: string; ext: string; target: string | null; twins?: Coded[] }[]
}

/**
 * Step 1: every item checked and matched, without the geocoder; the problems of all of them. In
 * slices of SLICE_MS (its reads of the rows hold the loop), other requests answered between
 * them: the write's transaction checks again what another write may change meanwhile (apply()).
 */
export async function check(
  deps: AdminDeps,
  locatorId: string,
  items: BulkItem[],
  problems: Problems,
  deleteMissing: boolean,
): Promise<{ plans: Plan[]; removals: Removal[] }> {
  const c: Checking = {
    deps,
    locatorId,
    problems,
    definitions: deps.store.customFields.list(locatorId),
    plans: [],
    removals: [],
    byTarget: new Map(),
    byCodeAlone: new Map(),
    deletes: new Set(),
    byExternalId: new Map(),
    raws: new Map(),
    holderOf: codeHolders(deps.store, locatorId),
    recoded: new Map(),
    removed: new Set(),
    deleteMissing,
    taken: [],
  }
  let until = performance.now() + SLICE_MS
  for (let index = 0; index < items.length; index++) {
    checkItem(c, items[index]!, index)
    if (performance.now() < until || index + 1 === items.length) continue
    await nextTurn()
    until = performance.now() + SLICE_MS
  }
  checkTaken(c)
  return { plans: c.plans, removals: c.removals }
}

/**
 * Codes are unique in the request's final state, not item by item: a code another location holds
 * is free when an item gives that location another code, a delete item deletes it (two stores'
 * codes swapped), or delete_missing does (no item names it: a closed store's code given to another).
 */
function checkTaken(c: Checking): void {
  const dropped = (id: string) => c.deleteMissing && !c.byTarget.has(id)
  for (const { key, who, ext, target, twins } of c.taken) {
    // Its twins too: a store that keeps the code but for invisible characters keeps it taken.
    const holders = everyOtherHolder(c.deps.store, c.locatorId, ext, target)
    const keeps = holders.filter((h) => !dropped(h.id) && keepsCode(h.id, ext, c.recoded, c.removed))
    const [kept] = keeps
    if (kept === undefined) continue
    // Twins the request leaves as they are: which of them the row is, as its id would say.
    if (twins !== undefined && keeps.length === holders.length) {
      c.problems.add(key, who, 'external_id', twinsProblem(twins))
      continue
    }
    // Renumbered to the same code but for invisible characters, it keeps the code as a person reads it.
    const next = c.recoded.get(kept.id)
    const fix =
      typeof next === 'string'
        ? `The request gives that one ${codeSaid(next)}, the same code but for invisible characters: give it another.`
        : 'To give it this location, give that one another code in the same request.'
    c.problems.add(
      key,
      who,
      'external_id',
      `already the store code of location ${kept.id} (${JSON.stringify(kept.name)})${kept.externalId === ext ? '' : ' but for invisible characters'}; external ids are unique within a locator. ${fix}`,
    )
  }
}

const UNCONDITIONAL =
  'if_updated_at conditions a delete item ("delete": true) only; an update or a create is written whatever changed since. Leave it out of this item.'

/** One item checked: a delete item's removal, or an update's or a create's plan; else its problems. */
function checkItem(c: Checking, item: BulkItem, index: number) {
  const { raw, key, unread } = item
  c.raws.set(key, raw)
  const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw)
  const fields = isObject ? pickLocationFields(raw as Record<string, unknown>) : null
  const who = whoIs(key, fields)
  if (fields === null) return c.problems.add(key, who, null, 'each item must be an object of location fields.')
  if (isRemoval(raw as Record<string, unknown>)) {
    // A CSV delete row's problems are those of the cells naming its store (csv-row.ts removalRow).
    for (const { field, message } of unread ?? []) c.problems.add(key, who, field, message)
    if ((unread ?? []).length > 0) return
    return checkRemoval(c, item, who, index)
  }
  // Every problem of the item is said, not only its first (an id that names no location of
  // the locator aside, which leaves nothing to check it against): a file is mended in one pass.
  const before = c.problems.count
  for (const { field, message } of unread ?? []) c.problems.add(key, who, field, message)
  // A condition the write would not honour is refused, not warned of: the update would be made
  // over the change it guards against.
  const condition = (raw as Record<string, unknown>).if_updated_at
  if (condition !== undefined && condition !== null) c.problems.add(key, who, 'if_updated_at', UNCONDITIONAL)
  // A row read wrong as a whole holds its cells in other fields: their problems are no one's.
  if (unread?.some(({ field }) => field === null)) return
  const current = targetOf(
    c.deps,
    c.locatorId,
    raw as Record<string, unknown>,
    fields,
    (ext) => c.holderOf(ext).location,
  )
  if (current instanceof Error) return c.problems.add(key, who, 'id', current.message)
  const target = current?.id ?? null
  const sameAs = claimTarget(c, item, who, current, fields)
  const patch = patchOf(c, item, who, fields, target)
  // An external_id is matched against the others even when the item has other problems; not
  // when it matched the item to the same location as one before, which says it already.
  const ext = patch === null ? fields.external_id : patch.externalId
  if (target !== null && sameAs === undefined && ext !== undefined)
    c.recoded.set(target, typeof ext === 'string' && ext !== '' ? ext : null)
  const matchedByIt = sameAs !== undefined && current?.id !== trimStrings((raw as Record<string, unknown>).id)
  if (typeof ext === 'string' && ext !== '' && !matchedByIt) checkStoreCode(c, item, who, ext, target, sameAs, current)
  if (patch === null || c.problems.count > before) return
  c.plans.push(cleanCode(c, planOf(item, index, patch, target, current)))
}

/** The key of an earlier item naming the same location, said as the item's problem; else the location is the item's. */
function claimTarget(
  c: Checking,
  { key, raw }: BulkItem,
  who: string,
  current: LocationRecord | null,
  fields: Record<string, unknown>,
): string | undefined {
  const target = current?.id ?? null
  const sameAs = target === null ? undefined : c.byTarget.get(target)
  if (sameAs !== undefined)
    c.problems.add(key, who, null, repeated(c, sameAs, raw) ?? sameTarget(c, sameAs, current!, raw, fields))
  else if (target !== null) {
    c.byTarget.set(target, key)
    if (!hasId(raw) && current!.externalId !== null) c.byCodeAlone.set(target, current!.externalId)
  }
  return sameAs
}

const hasId = (raw: unknown) => {
  const id = trimStrings((raw as Record<string, unknown>).id)
  return id !== undefined && id !== null && id !== ''
}

/**
 * Why an item names the location `first` names, in words a person can act on: an item without an
 * id is matched by the code the location holds before the request, even when another item moves
 * it to a new code (a new store given a renumbered one's code).
 */
function sameTarget(
  c: Checking,
  first: string,
  location: LocationRecord,
  raw: unknown,
  fields: Record<string, unknown>,
): string {
  const { id, name } = location
  if (c.deletes.has(first))
    return `writes location ${id} (${JSON.stringify(name)}), which ${first} deletes: a request writes a location or deletes it, so give one of them.`
  const held = c.byCodeAlone.get(id)
  const moved = c.recoded.get(id)
  const ext = fields.external_id
  // This item moves the location that an earlier item without an id was matched to by its code.
  if (held !== undefined && hasId(raw) && typeof ext === 'string' && bareCode(ext) !== bareCode(held))
    return `${first} has no id, so its store code ${codeSaid(held)} matches it to location ${id} (${JSON.stringify(name)}), which this item moves to ${codeSaid(ext)}. ${newStoreAdvice(held, first, 'this item')}`
  // An earlier item moves the location whose code this one, without an id, is matched by.
  const code = location.externalId
  if (!hasId(raw) && typeof moved === 'string' && code !== null && bareCode(moved) !== bareCode(code))
    return `it has no id, so its store code ${codeSaid(code)} matches it to location ${id} (${JSON.stringify(name)}), which ${first} moves to ${codeSaid(moved)}. ${newStoreAdvice(code, 'this item', first)}`
  // Neither item has an id: both name the location by its code, given twice.
  if (!hasId(raw) && held !== undefined)
    return `the same store code as ${first}, which matches location ${id}; give each external_id once.`
  return `the same location (${id}) as ${first}; give each store once.`
}

/** What to do with an item without an id (`item`) meant as a new store with the code `moving` gives up. */
const newStoreAdvice = (code: string, item: string, moving: string) =>
  `Items without an id are matched by the codes held before the request: to create a new store with ${codeSaid(code)}, send ${item} in a later request (or import) than ${moving}; if it is that store, give the store once.`

/** "repeats line 51; ..." when the item is the one under `first` again, field for field (a line pasted twice); else null. */
function repeated(c: Checking, first: string, raw: unknown): string | null {
  return JSON.stringify(c.raws.get(first)) === JSON.stringify(raw) ? `repeats ${first}; give each store once.` : null
}

/** The item's fields as a create's or an update's patch; null, its problems said by the column that gave each field. */
function patchOf(
  c: Checking,
  { key, columns, addressLost }: BulkItem,
  who: string,
  fields: Record<string, unknown>,
  target: string | null,
): LocationPatch | null {
  try {
    return normalizeLocationBody(fields, target === null ? 'create' : 'update', c.definitions)
  } catch (e) {
    if (!(e instanceof LocationError)) throw e
    for (const [field, messages] of Object.entries(e.details ?? {}))
      for (const message of messages) {
        const said = inColumn(message, field, columns)
        // An address part Excel lost leaves the address out: the cell to mend is that part's.
        c.problems.add(key, who, field, field === 'address' && addressLost ? `${said} ${addressLost}` : said)
      }
    return null
  }
}

/**
 * The item's store code against those of the items before it and the stored ones. An item
 * repeated whole (id and external_id) is said once, as the same location as the first.
 */
function checkStoreCode(
  c: Checking,
  { key, columns, unread, raw }: BulkItem,
  who: string,
  ext: string,
  target: string | null,
  sameAs: string | undefined,
  current: LocationRecord | null,
): void {
  const held = c.holderOf(ext, current)
  const { location: holder, bare, twins } = held
  // A code a location holds as written is told apart as written: twins stored already (an
  // export of them sent back) are two codes. Any other is compared bare.
  const codeKey = holder !== null && !bare ? ext : bareCode(ext)
  const first = c.byExternalId.get(codeKey)
  // A CSV "ID" column read as codes says its cells that are ids already (csv-id-column.ts).
  const said = unread?.some((u) => u.field === 'external_id') ?? false
  const asId = said ? null : idAsCodeProblem(c.deps, c.locatorId, ext, held, target, columns !== undefined)
  if (first !== undefined && first !== sameAs)
    c.problems.add(
      key,
      who,
      'external_id',
      repeated(c, first, raw) ?? `the same store code as ${first}; give each external_id once.`,
    )
  else if (holder !== null && holder.id !== target) c.taken.push({ key, who, ext, target })
  else if (twins.length > 1 && !twins.some((t) => t.id === target)) c.taken.push({ key, who, ext, target, twins })
  else if (holder === null && isBlankCode(ext))
    c.problems.add(key, who, 'external_id', inColumn(blankCodeProblem(ext), 'external_id', columns))
  else if (asId !== null) c.problems.add(key, who, 'external_id', inColumn(asId, 'external_id', columns))
  if (first === undefined) c.byExternalId.set(codeKey, key)
}

/**
 * An item updating the location that holds its store code but for invisible characters writes
 * the code without them, the stored one so cleaned, and is told so. One of twins stored already,
 * named by its id, keeps its code as stored: written as sent, it would be the others' too.
 */
function cleanCode(c: Checking, plan: Plan): Plan {
  const ext = plan.patch.externalId
  if (typeof ext !== 'string' || ext === '' || plan.target === null) return plan
  const { location, bare, twins } = c.holderOf(ext)
  const own = twins.length > 1 ? twins.find((t) => t.id === plan.target) : undefined
  if (own !== undefined) {
    plan.patch = { ...plan.patch, externalId: own.externalId }
    plan.warnings.push(keptCodeWarning(ext, own, twins))
    return plan
  }
  if (!bare || location?.id !== plan.target) return plan
  plan.patch = { ...plan.patch, externalId: bareCode(ext) }
  plan.warnings.push(bareMatchWarning(ext, location))
  return plan
}

/** A checked item's plan: the location it updates (null: it creates one) and what it writes there. */
function planOf(
  item: BulkItem,
  index: number,
  patch: LocationPatch,
  target: string | null,
  current: LocationRecord | null,
): Plan {
  const raw = item.raw as Record<string, unknown>
  // A row joined as before is the stored address: imported again, it neither rewrites nor moves it.
  if (
    patch.address !== undefined &&
    current !== null &&
    joinedAsBefore(current.address, item.formerAddress, item.postcode)
  )
    patch = { ...patch, address: current.address }
  const back = pointSentBack(patch, current)
  const [sentBack, stale] = [back === 'sentBack', back === 'stale'].map((is) => (is ? patch.coordinates : undefined))
  if (back !== null) {
    const { coordinates: _, ...rest } = patch
    patch = rest
  }
  const keepsPoint = !patch.coordinates && patch.address !== undefined && patch.address === current?.address
  return {
    index,
    line: item.line,
    key: item.key,
    raw,
    // The row's own parts go with the coordinates it sends: no geocoder reads its address then.
    patch: patch.coordinates && item.parts ? { ...patch, addressParts: item.parts } : patch,
    target,
    keepsPoint,
    ...(sentBack !== undefined && current !== null && { sentBack, keptAt: { lat: current.lat, lng: current.lng } }),
    ...(stale !== undefined && { stale }),
    found: null,
    warnings: [...(item.notes ?? []), ...ignoredFields(raw), ...(stale === undefined ? [] : [STALE_POINT])],
    wholeSpecialHours: item.wholeSpecialHours ?? false,
    hoursColumns: item.hoursColumns,
    specialColumn: item.specialColumn,
  }
}

/** The problem of a delete item naming what (`named`) an earlier item, `first`, names: deleted twice, or written and deleted. */
function deletedTwice(c: Checking, first: string, named: string): string {
  return c.deletes.has(first)
    ? `deletes ${named}, as ${first} does; give each delete once.`
    : `deletes ${named}, which ${first} writes: a request writes a location or deletes it, so give one of them.`
}

/** A delete item matched as an update is; no other item may name its location or store code. */
function checkRemoval(c: Checking, { raw, key, line, columns }: BulkItem, who: string, index: number) {
  const lookup = {
    byId: (id: string) => c.deps.store.locations.get(c.locatorId, id),
    byExternalId: (ext: string) => c.holderOf(ext).location,
  }
  const read = readRemoval(raw as Record<string, unknown>, lookup)
  if (Array.isArray(read)) {
    for (const [field, message] of read) c.problems.add(key, who, field, message)
    return
  }
  const twins = read.target === null && read.sentExternalId !== null ? c.holderOf(read.sentExternalId).twins : []
  if (twins.length > 1) return c.problems.add(key, who, 'external_id', twinsProblem(twins))
  if (read.target === null && read.sentId === null && read.sentExternalId !== null) {
    const held = c.holderOf(read.sentExternalId)
    const asId = idAsCodeProblem(c.deps, c.locatorId, read.sentExternalId, held, undefined, columns !== undefined)
    if (asId !== null) return c.problems.add(key, who, 'external_id', inColumn(asId, 'external_id', columns))
  }
  const target = read.target?.id ?? null
  // An id no location has is still one location's name: sent twice, it is a list's repeated line.
  const named = target ?? read.sentId
  const sameAs = named === null ? undefined : c.byTarget.get(named)
  if (sameAs !== undefined) return c.problems.add(key, who, null, deletedTwice(c, sameAs, `location ${named}`))
  c.deletes.add(key)
  if (named !== null) c.byTarget.set(named, key)
  if (target !== null) c.removed.add(target)
  // A location deleted lets go of its code: another item may take it (checkTaken), and one that
  // names it by the code names the same location, said above. A code of no location is the item's.
  const ext = target === null && read.sentExternalId !== null ? bareCode(read.sentExternalId) : null
  if (ext !== null) {
    const first = c.byExternalId.get(ext)
    if (first !== undefined)
      return c.problems.add(
        key,
        who,
        'external_id',
        deletedTwice(c, first, `store code ${codeSaid(read.sentExternalId!)}`),
      )
    c.byExternalId.set(ext, key)
  }
  const { sentId, sentExternalId, ifUpdatedAt } = read
  c.removals.push({ index, line, key, target, sentId, sentExternalId, ifUpdatedAt })
}

/** Said of a row whose point is the one its address replaced (Plan.stale). */
const STALE_POINT =
  "The coordinates sent are its former address's point, replaced when its address changed: the location stays at its address's point. Write its coordinates in their place, or leave them out."

/**
 * How `patch` reads a point it sends back: 'sentBack' for `current`'s point as its geocoder placed
 * it (an export's row) or the point its address replaced (ReplacedPoint: a file from before that
 * address), with another address: the old address's point, not one the sender chose; 'stale'
 * for the replaced point beside the address stored. null for any other: a pin.
 */
function pointSentBack(patch: LocationPatch, current: LocationRecord | null): 'sentBack' | 'stale' | null {
  const at = patch.coordinates
  if (!at || current === null || patch.address === undefined) return null
  const replaced = replacedPointOf(current)
  const isReplaced = replaced !== null && samePoint(at, replaced)
  if (patch.address === current.address) return isReplaced ? 'stale' : null
  if (pinned(current)) return null
  return isReplaced || samePoint(at, current) ? 'sentBack' : null
}
