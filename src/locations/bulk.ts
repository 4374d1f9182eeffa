// Bulk upsert: many locations of one locator, each matched by id, else by external_id, else
// created; all or nothing. A dry run answers what a real run would do and writes nothing.
import type { GeocodeResult } from '../geocode/geocoder'
import { changedFields } from '../store/location-compare'
import type { Geocoding, LocationRecord } from '../store/locations'
import { LOCATION_ID } from '../core/ids'
import { nextTurn, SLICE_MS } from '../core/slices'
import { nameKey } from '../core/text'
import { quoted, trimStrings } from '../core/validation'
import { inColumn, inColumns, Problems, whoIs } from './bulk-problems'
import { withPaddedPostcodes } from './bulk-postcodes'
import { LocationError } from './errors'
import { LOCATION_FIELDS } from './model'
import { type LocationPatch, normalizeLocationBody, pickLocationFields } from './normalize'
import { type HoursRead, hoursReadOnce, unreadHoursWarnings } from './opening'
import {
  addressPointWarnings,
  placementWarnings,
  pointWarnings,
  type PostcodeMemo,
  postcodeWarnings,
  type RowPlace,
} from './placement'
import { newLocationRecord } from './record'
import { type KnownTown, withKnownTown } from './town'
import { type AdminDeps, applyPatch, checkCustomFieldsAgain, geocode, locatorWrite, townsOf } from './service'
import type { ReverseLookup } from '../geocode/embedded/reverse'

/** The most locations one request of the Management API may carry (the CLI sends any number). */
export const BULK_MAX_ITEMS = 1000

/** One location sent: `raw` an object of location fields (with `id` or `external_id` to match). */
export type BulkItem = RowPlace & {
  raw: unknown
  /** The key its problems are reported under: "locations[3]", "line 7". */
  key: string
  /** The line its row starts on (a CSV row): its result carries it. */
  line?: number
  /** What reading it found wrong before `raw` was made (a CSV cell), by field: reported with the rest. */
  unread?: { field: string; message: string }[]
  /** What reading it read otherwise than written (a CSV cell), to say in its result's warnings. */
  notes?: string[]
  /** Said after the refusal of its address when that cannot be placed (a CSV row's garbled cells). */
  unplaced?: string
  /** Its special_hours are all the location's: the dates it has but `raw` does not are cleared. */
  wholeSpecialHours?: boolean
  /** Field paths to the file's column headers (a CSV row): problems name the column the person wrote. */
  columns?: ReadonlyMap<string, string>
}

export type BulkProgress = { stage: 'checked' | 'geocoded' | 'written'; done: number; total: number }

export type BulkOptions = {
  dryRun?: boolean
  /** Also delete the locator's locations whose external id no item has (those without one stay). */
  deleteMissing?: boolean
  /** The most locations deleteMissing may delete; more refuses the whole request. null: no limit. */
  maxDelete?: number | null
  onProgress?: (progress: BulkProgress) => void
  /** How refusals name the options and what was sent; the API's by default. */
  words?: BulkWords
}

/** The words refusals use for the delete options and what was sent: the API's, or the CLI's. */
export type BulkWords = { deleteMissing: string; maxDelete: string; sent: string }

export const API_WORDS: BulkWords = { deleteMissing: 'delete_missing', maxDelete: 'max_delete', sent: 'the request' }

export type BulkAction = 'created' | 'updated' | 'unchanged' | 'deleted'

export type BulkResult = {
  /** The item's position in the request; null for a location deleted as missing. */
  index: number | null
  /** The line of the item's row, when it was a CSV row. */
  line?: number
  /** null for a location a dry run would create. */
  id: string | null
  external_id: string | null
  /** A deleted location's name: no item of the request names it. */
  name?: string
  action: BulkAction
  /** An update's fields that change ("name", "coordinates", "hours.monday"); only with `updated`. */
  changes?: string[]
  /** What geocoding gave the item's address; null when it was not geocoded (coordinates sent, no address). */
  geocoding: Geocoding | null
  warnings: string[]
}

export type BulkReport = {
  dry_run: boolean
  created: number
  updated: number
  unchanged: number
  deleted: number
  results: BulkResult[]
}

type Plan = {
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
  found: GeocodeResult | null
  /** The town its address names at its coordinates, looked up once for its checks and its write. */
  town?: KnownTown
  warnings: string[]
  /** BulkItem.wholeSpecialHours. */
  wholeSpecialHours: boolean
}

/** Fields of a location's answer, not of a body: an export sent back has them, and they are skipped unsaid. */
const ANSWER_FIELDS = new Set(['id', 'hours_unread', 'geocoding', 'created_at', 'updated_at'])
const BODY_FIELDS = new Set<string>(LOCATION_FIELDS)

/** A warning naming the top-level fields that are not a location's (a misspelt "nmae"): they were not read. */
function ignoredFields(raw: Record<string, unknown>): string[] {
  const ignored = Object.keys(raw).filter((k) => !BODY_FIELDS.has(k) && !ANSWER_FIELDS.has(k))
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

/**
 * Step 1: every item checked and matched, without the geocoder; the problems of all of them. In
 * slices of SLICE_MS (its reads of the rows hold the loop), other requests answered between
 * them: the write's transaction checks again what another write may change meanwhile (apply()).
 */
async function check(deps: AdminDeps, locatorId: string, items: BulkItem[], problems: Problems): Promise<Plan[]> {
  const definitions = deps.store.customFields.list(locatorId)
  const plans: Plan[] = []
  const byTarget = new Map<string, string>()
  const byExternalId = new Map<string, string>()
  // The location holding an external id, asked once a row: its match and its check ask the same.
  let asked: { ext: string; holder: LocationRecord | null } | null = null
  const holderOf = (ext: string) => {
    if (asked?.ext !== ext) asked = { ext, holder: deps.store.locations.byExternalId(locatorId, ext) }
    return asked.holder
  }
  const checkItem = (
    { raw, key, line, unread, notes = [], wholeSpecialHours = false, columns }: BulkItem,
    index: number,
  ) => {
    const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw)
    const fields = isObject ? pickLocationFields(raw as Record<string, unknown>) : null
    const who = whoIs(key, fields)
    if (fields === null) return problems.add(key, who, null, 'each item must be an object of location fields.')
    // Every problem of the item is said, not only its first (an id that names no location of
    // the locator aside, which leaves nothing to check it against): a file is mended in one pass.
    const before = problems.count
    for (const { field, message } of unread ?? []) problems.add(key, who, field, message)
    const current = targetOf(deps, locatorId, raw as Record<string, unknown>, fields, holderOf)
    if (current instanceof Error) return problems.add(key, who, 'id', current.message)
    const target = current?.id ?? null
    const sameAs = target === null ? undefined : byTarget.get(target)
    if (sameAs !== undefined) problems.add(key, who, null, `the same location (${target}) as ${sameAs}.`)
    else if (target !== null) byTarget.set(target, key)
    let patch: LocationPatch | null = null
    try {
      patch = normalizeLocationBody(fields, target === null ? 'create' : 'update', definitions)
    } catch (e) {
      if (!(e instanceof LocationError)) throw e
      for (const [field, messages] of Object.entries(e.details ?? {}))
        for (const message of messages) problems.add(key, who, field, inColumn(message, field, columns))
    }
    // An external_id is matched against the others even when the item has other problems; not
    // when it matched the item to the same location as one before, which says it already.
    const ext = patch === null ? fields.external_id : patch.externalId
    const matchedByIt = sameAs !== undefined && current?.id !== trimStrings((raw as Record<string, unknown>).id)
    if (typeof ext === 'string' && ext !== '' && !matchedByIt) {
      const first = byExternalId.get(ext)
      const holder = holderOf(ext)
      // An item repeated whole (id and external_id) is said once: the same location as `first`.
      if (first !== undefined && first !== sameAs)
        problems.add(key, who, 'external_id', `the same store code as ${first}; give each external_id once.`)
      else if (holder !== null && holder.id !== target)
        problems.add(
          key,
          who,
          'external_id',
          `already the store code of location ${holder.id} (${JSON.stringify(holder.name)}); external ids are unique within a locator.`,
        )
      if (first === undefined) byExternalId.set(ext, key)
    }
    if (patch === null || problems.count > before) return
    const keepsPoint = !patch.coordinates && patch.address !== undefined && patch.address === current?.address
    const warnings = [...notes, ...ignoredFields(raw as Record<string, unknown>)]
    plans.push({
      index,
      line,
      key,
      raw: raw as Record<string, unknown>,
      patch,
      target,
      keepsPoint,
      found: null,
      warnings,
      wholeSpecialHours,
    })
  }
  let until = performance.now() + SLICE_MS
  for (let index = 0; index < items.length; index++) {
    checkItem(items[index]!, index)
    if (performance.now() < until || index + 1 === items.length) continue
    await nextTurn()
    until = performance.now() + SLICE_MS
  }
  return plans
}

/**
 * Warns each row that creates a location without an external_id when the locator has one of its
 * name at its address already: a file without store codes imported twice makes every store twice.
 */
function noteRepeats(deps: AdminDeps, locatorId: string, plans: Plan[]): void {
  const creates = plans.filter((p) => p.target === null && !p.patch.externalId)
  if (creates.length === 0) return
  const key = (name: string, address: string) => `${nameKey(name)}\u0000${nameKey(address)}`
  const held = new Map<string, string>()
  for (const r of deps.store.locations.namesAndAddresses(locatorId)) held.set(key(r.name, r.address), r.id)
  for (const plan of creates) {
    const id = held.get(key(plan.patch.name ?? '', plan.patch.address ?? ''))
    if (id !== undefined)
      plan.warnings.push(
        `Location ${id} has this name and address already: this row makes a second one. Give each row its store code as external_id, and imports update the stores they match.`,
      )
  }
}

/** The most leading zeros looked for before a new row's store code of digits. */
const ZEROS_LOOKED_FOR = 4
/** A store code of digits led by as many zeros: its digits after them. */
const ZERO_LED = new RegExp(`^0{1,${ZEROS_LOOKED_FOR}}([1-9]\\d{0,11})$`)

/**
 * Warns each row that creates a location with a code of digits ("12") when the locator has that
 * code with leading zeros ("0012"): a sheet saved again in Excel lost them, and imported so it
 * makes every store a second time; and the other way round, when an earlier import lost them.
 * Indexed lookups, a few a row: no scan of the locator.
 */
function noteLostZeros(deps: AdminDeps, locatorId: string, plans: Plan[]): void {
  for (const plan of plans) {
    const code = plan.patch.externalId
    if (plan.target !== null || typeof code !== 'string') continue
    const bare = ZERO_LED.exec(code)?.[1]
    const held = bare === undefined ? null : deps.store.locations.holderOf(locatorId, bare)
    if (held !== null)
      plan.warnings.push(
        `Location ${held} has the external_id "${bare}": if this row is that store, an earlier import lost the code's leading zeros (Excel reads ${code} as ${bare}), and the row makes a second one. Give the row the code "${bare}", or that location the code "${code}".`,
      )
    if (!/^[1-9]\d{0,11}$/.test(code)) continue
    for (let zeros = 1; zeros <= ZEROS_LOOKED_FOR; zeros++) {
      const padded = `${'0'.repeat(zeros)}${code}`
      const id = deps.store.locations.holderOf(locatorId, padded)
      if (id === null) continue
      plan.warnings.push(
        `Location ${id} has the external_id "${padded}": if this row is that store, its code lost its leading zeros (Excel reads ${padded} as ${code}), and the row makes a second one. Format the column as text and give the code as "${padded}".`,
      )
      break
    }
  }
}

/**
 * Addresses geocoded at once: their cache rows share commits (one each would wait for its own
 * fsync), and an HTTP geocoder's own gate still spaces its requests (geocode/http/request.ts).
 */
const GEOCODE_CONCURRENCY = 8

/** Step 2: the addresses that need it geocoded (new ones, without coordinates); problems in item order. */
async function geocodeAll(
  deps: AdminDeps,
  items: BulkItem[],
  plans: Plan[],
  problems: Problems,
  onProgress?: (p: BulkProgress) => void,
): Promise<void> {
  const todo = plans.filter((p) => p.patch.address !== undefined && !p.patch.coordinates && !p.keepsPoint)
  const failed = new Map<Plan, string>()
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < todo.length) {
      const plan = todo[next++]!
      try {
        plan.found = await geocode(deps, plan.patch.address!)
        plan.warnings.push(...(await placementWarnings(deps, plan.patch.address!, plan.found, items[plan.index]!)))
      } catch (e) {
        if (!(e instanceof LocationError)) throw e
        failed.set(plan, e.message)
      }
      onProgress?.({ stage: 'geocoded', done: ++done, total: todo.length })
    }
  }
  await Promise.all(Array.from({ length: Math.min(GEOCODE_CONCURRENCY, todo.length) }, worker))
  for (const plan of todo) {
    const message = failed.get(plan)
    if (message === undefined) continue
    const { columns, unplaced } = items[plan.index]!
    const said = inColumns(message, columns)
    problems.add(
      plan.key,
      whoIs(plan.key, pickLocationFields(plan.raw)),
      'address',
      unplaced ? `${said} ${unplaced}` : said,
    )
  }
}

/**
 * delete_missing that would delete every location with an external id (`coded`) is refused: an
 * empty or truncated export, or a file of the wrong column, would otherwise wipe the locator; so
 * is one that would delete more than `maxDelete`. Checked before geocoding, and again in the
 * write's transaction: another write may have added a location meanwhile.
 */
function refuseDeleting(coded: Coded[], plans: Plan[], maxDelete: number | null, words: BulkWords): void {
  const going = missing(coded, plans)
  const gone = going.length
  const locations = `location${gone === 1 ? '' : 's'}`
  if (maxDelete !== null && gone > maxDelete) {
    const some = going.slice(0, 5).map((l) => JSON.stringify(l.externalId))
    throw new LocationError(
      'validation_error',
      `${words.deleteMissing} would delete ${gone} ${locations}, more than ${words.maxDelete} (${maxDelete}); nothing was written.`,
      {
        delete_missing: [
          `Refused: ${words.sent} lacks the external_id of ${gone} ${locations} (${some.join(', ')}${gone > 5 ? ', ...' : ''}). Check ${words.sent}; if they are meant to go, raise ${words.maxDelete}.`,
        ],
      },
    )
  }
  if (gone === 0 || gone < coded.length) return
  throw new LocationError(
    'validation_error',
    `${words.deleteMissing} would delete all ${gone} ${locations} with an external_id (${plans.length === 0 ? 'no location was sent' : 'none of those sent matches one of them'}); nothing was written.`,
    {
      delete_missing: [
        `Refused: it would delete every location with an external_id. Check ${words.sent} and its external_ids. To replace them all, delete them first (the CLI's locations delete, or POST /admin/v1/locations/{id}/delete), then import without ${words.deleteMissing}.`,
      ],
    },
  )
}

type Coded = { id: string; externalId: string; name: string }

/** The locations delete_missing removes: those of `coded` (the locator's with an external id) that no item matched. */
function missing(coded: Coded[], plans: Plan[]): Coded[] {
  const kept = new Set(plans.map((p) => p.target).filter((id) => id !== null))
  return coded.filter((l) => !kept.has(l.id))
}

/** An item's result; `done` is created, or for an update the fields it changes (none: unchanged). */
const resultOf = (
  plan: Plan,
  id: string | null,
  record: LocationRecord | null,
  done: 'created' | string[],
  read: HoursRead,
): BulkResult => ({
  index: plan.index,
  ...(plan.line === undefined ? {} : { line: plan.line }),
  id,
  external_id: record?.externalId ?? (typeof plan.patch.externalId === 'string' ? plan.patch.externalId : null),
  action: done === 'created' ? 'created' : done.length === 0 ? 'unchanged' : 'updated',
  ...(done !== 'created' && done.length > 0 && { changes: done }),
  geocoding: plan.found ? { precision: plan.found.precision, source: plan.found.source } : null,
  warnings: record === null ? plan.warnings : [...plan.warnings, ...unreadHoursWarnings(record, read)],
})

type ApplyOptions = {
  deleteMissing: boolean
  maxDelete: number | null
  words: BulkWords
  dryRun: boolean
  definitions: string
  towns: ReverseLookup | null
}

/**
 * What each plan does to the rows as they are now; written unless `dryRun`. Call inside a write
 * transaction when writing. `definitions`: the custom fields as checked (JSON); changed since
 * (the CLI may change them while addresses are geocoded), each item is checked against them again.
 */
function apply(deps: AdminDeps, locatorId: string, plans: Plan[], options: ApplyOptions) {
  const { deleteMissing, dryRun, towns } = options
  const recheck = !dryRun && JSON.stringify(deps.store.customFields.list(locatorId)) !== options.definitions
  // Before the writes: not what they create.
  const coded = deleteMissing ? deps.store.locations.externalIds(locatorId) : []
  if (deleteMissing) refuseDeleting(coded, plans, options.maxDelete, options.words)
  const gone = missing(coded, plans)
  if (!dryRun) deps.roomFor?.(locatorId, plans.filter((p) => p.target === null).length - gone.length)
  const results: BulkResult[] = []
  const read = hoursReadOnce()
  for (const plan of plans) {
    if (recheck)
      checkCustomFieldsAgain(deps, locatorId, pickLocationFields(plan.raw), plan.target === null ? 'create' : 'update')
    const ext = plan.patch.externalId
    const holder = typeof ext === 'string' ? deps.store.locations.holderOf(locatorId, ext) : null
    if (holder !== null && holder !== plan.target)
      throw new LocationError(
        'conflict',
        `${plan.key}: the external_id ${JSON.stringify(ext)} became that of location ${holder} meanwhile; nothing was written.`,
      )
    const placing = towns !== null && plan.town !== undefined ? withKnownTown(towns, plan.town) : towns
    if (plan.target === null) {
      const record = newLocationRecord(locatorId, plan.patch, plan.found, placing)
      if (!dryRun) deps.store.locations.insert(record)
      results.push(resultOf(plan, dryRun ? null : record.id, record, 'created', read))
      continue
    }
    const current = deps.store.locations.get(locatorId, plan.target)
    // Deleted by another write since the check (which matched it): sent again, it is matched anew.
    if (current === null)
      throw new LocationError(
        'conflict',
        `${plan.key}: location ${plan.target} was deleted meanwhile; nothing was written. Send the request again.`,
      )
    if (plan.keepsPoint && current.address !== plan.patch.address)
      throw new LocationError(
        'conflict',
        `${plan.key}: the address of location ${current.id} changed meanwhile, so its point would not fit the address sent; nothing was written. Send the request again.`,
      )
    const next = applyPatch(current, sentPatch(plan, current), plan.found, placing)
    const changes = changedFields(next, current)
    if (!dryRun) deps.store.locations.replace(next, current)
    results.push(resultOf(plan, current.id, next, changes, read))
  }
  for (const { id, externalId, name } of gone) {
    if (!dryRun) deps.store.locations.remove(locatorId, id)
    results.push({ index: null, id, external_id: externalId, name, action: 'deleted', geocoding: null, warnings: [] })
  }
  return results
}

/** The plan's patch, with "" (cleared) for each date of the current special hours it lacks when it sends them whole. */
function sentPatch(plan: Plan, current: LocationRecord): LocationPatch {
  const sent = plan.patch.specialHours
  if (!plan.wholeSpecialHours || sent === undefined) return plan.patch
  const cleared = Object.keys(current.specialHours).filter((date) => !Object.hasOwn(sent, date))
  return { ...plan.patch, specialHours: { ...Object.fromEntries(cleared.map((date) => [date, ''])), ...sent } }
}

/**
 * Creates, updates and (with deleteMissing) deletes locations of a locator as `items` say, all or
 * nothing: every item is checked and geocoded first, and any problem throws one 422
 * validation_error listing every failing item (nothing written). Then all of it is written in
 * one transaction, or with `dryRun` only worked out: the same answer, no ids for new locations.
 */
export async function bulkUpsert(
  deps: AdminDeps,
  locatorId: string,
  items: BulkItem[],
  options: BulkOptions = {},
): Promise<BulkReport> {
  const { dryRun = false, deleteMissing = false, maxDelete = null, onProgress, words = API_WORDS } = options
  items = await withPaddedPostcodes(deps, items)
  const problems = new Problems()
  const definitions = JSON.stringify(deps.store.customFields.list(locatorId))
  const plans = await check(deps, locatorId, items, problems)
  noteRepeats(deps, locatorId, plans)
  noteLostZeros(deps, locatorId, plans)
  onProgress?.({ stage: 'checked', done: items.length, total: items.length })
  if (problems.count > 0) throw problems.error(items.length)
  if (deleteMissing) refuseDeleting(deps.store.locations.externalIds(locatorId), plans, maxDelete, words)
  await geocodeAll(deps, items, plans, problems, onProgress)
  if (problems.count > 0) throw problems.error(items.length)
  const towns = await townsOf(deps)
  const memo: PostcodeMemo = new Map()
  for (const plan of plans) {
    const at = plan.patch.coordinates
    if (!at) continue
    const said = plan.warnings.length
    if (towns !== null) plan.warnings.push(...pointWarnings(towns, at, items[plan.index]!))
    plan.warnings.push(...(await postcodeWarnings(deps, towns, at, items[plan.index]!, memo)))
    const address = plan.patch.address
    if (towns === null || address === undefined) continue
    const { town, named } = towns.writtenTown(at.lat, at.lng, address)
    plan.town = { ...at, address, town }
    // The row's country and postcode say nothing against the point: its address may.
    if (plan.warnings.length === said)
      plan.warnings.push(...(await addressPointWarnings(deps, named, at, address, items[plan.index]!, memo)))
  }
  const report = dryRun
    ? reportOf(apply(deps, locatorId, plans, { deleteMissing, maxDelete, words, dryRun, definitions, towns }), true)
    : await locatorWrite(deps, locatorId, () => {
        const written = reportOf(
          apply(deps, locatorId, plans, { deleteMissing, maxDelete, words, dryRun, definitions, towns }),
          false,
        )
        deps.inWrite?.(written)
        return written
      })
  onProgress?.({ stage: 'written', done: dryRun ? 0 : report.results.length, total: report.results.length })
  return report
}

function reportOf(results: BulkResult[], dryRun: boolean): BulkReport {
  const count = (action: BulkAction) => results.filter((r) => r.action === action).length
  return {
    dry_run: dryRun,
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    deleted: count('deleted'),
    results,
  }
}
