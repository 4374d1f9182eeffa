// Bulk upsert: many locations of one locator, each matched by id, else by external_id, else
// created, or deleted when its item says delete; all or nothing. A dry run answers what a real
// run would do and writes nothing.
import type { AddressParts, Geocoding } from '../store/locations'
import { apply, missing, refuseDeleting } from './bulk-apply'
import { check } from './bulk-check'
import { geocodeAll } from './bulk-geocode'
import { Problems } from './bulk-problems'
import { unchangedPostcodesNote, withPaddedPostcodes } from './bulk-postcodes'
import { type Going, noteLostZeros, noteRepeatedRows, noteRepeats, repeatedRowsNote, repeatsNote } from './bulk-repeats'
import { addressPointWarnings, pointWarnings, type PostcodeMemo, postcodeWarnings, type RowPlace } from './placement'
import type { RawRecord } from './csv-records'
import { type AdminDeps, locatorWrite, townsOf } from './service'

/** The most locations one request of the Management API may carry (the CLI sends any number). */
export const BULK_MAX_ITEMS = 1000

/** One location sent: `raw` an object of location fields (with `id` or `external_id` to match), or a delete item. */
export type BulkItem = RowPlace & {
  raw: unknown
  /** The key its problems are reported under: "locations[3]", "[3]" (a top-level JSON array), "line 7". */
  key: string
  /** The line its row starts on (a CSV row): its result carries it. */
  line?: number
  /**
   * What reading it found wrong before `raw` was made (a CSV cell), by field: reported with the
   * rest. Field null: the item as a whole (a CSV row's cells out of their columns), left unchecked.
   */
  unread?: { field: string | null; message: string }[]
  /** What reading it read otherwise than written (a CSV cell), to say in its result's warnings. */
  notes?: string[]
  /** Its note (one of notes) of a postcode given back the leading zero a spreadsheet dropped. */
  postcodeNote?: string
  /**
   * A CSV row's address as joined before (csv-address.ts joinAddress): a region named as its town
   * after it too, a Jersey postcode before its town ("10117 Berlin, Berlin", "JE2 3AB St Helier").
   * A location stored so, its postcode spelt any way ("London sw1a2aa"), keeps its address and its
   * point (csv-address.ts joinedAsBefore).
   */
  formerAddress?: string
  /** Said after a problem of its address (a new store's, required): its address cells Excel lost (a CSV row's). */
  addressLost?: string
  /** Said after the refusal of its address when that cannot be placed (a CSV row's garbled cells). */
  unplaced?: string
  /** Its special_hours are all the location's: the dates it has but `raw` does not are cleared. */
  wholeSpecialHours?: boolean
  /** The header each day's hours came from, Monday first (a CSV row): its warnings name that column. */
  hoursColumns?: readonly (string | undefined)[]
  /** The header of the special hours column (a CSV row). */
  specialColumn?: string
  /** Field paths to the file's column headers (a CSV row): problems name the column the person wrote. */
  columns?: ReadonlyMap<string, string>
  /** The address parts its columns give (a CSV row): those of a location whose coordinates it sends. */
  parts?: AddressParts
}

export type BulkProgress = {
  stage: 'checked' | 'geocoded' | 'written'
  /** With 'written': the locations created, updated or deleted (0 in a dry run) of the `total` answered. */
  done: number
  total: number
  /** With 'geocoded': where the address was placed; left out when it could not be. */
  at?: { lat: number; lng: number }
}

export type BulkOptions = {
  dryRun?: boolean
  /** Also delete the locator's locations whose external id no item has (those without one stay). */
  deleteMissing?: boolean
  /** The most locations deleteMissing may delete; more refuses the whole request. null: no limit. */
  maxDelete?: number | null
  /**
   * The lines of a file read as no store (a totals row, a dump's count of its rows): with
   * deleteMissing, one naming a location it would delete refuses the request.
   */
  noStore?: readonly RawRecord[]
  onProgress?: (progress: BulkProgress) => void
  /** How refusals name the options and what was sent; the API's by default. */
  words?: BulkWords
}

/**
 * The words refusals use for the delete options and what was sent: the API's, or the CLI's.
 * `keepPoint`: how the store of location `id`, if it did not move, keeps its geocoded point with a
 * new address where nothing geocodes it (the single-location update; the CLI has none of its own).
 */
export type BulkWords = {
  deleteMissing: string
  maxDelete: string
  sent: string
  keepPoint: (id: string) => string
  /** Where the sender reads location `id` of locator `locatorId` again: its updated_at now. */
  readAgain: (locatorId: string, id: string) => string
}

export const API_WORDS: BulkWords = {
  deleteMissing: 'delete_missing',
  maxDelete: 'max_delete',
  sent: 'the request',
  keepPoint: (id) => `update it alone (POST /admin/v1/locations/${id} with the address and its coordinates)`,
  readAgain: (_, id) => `GET /admin/v1/locations/${id}`,
}

/** `absent`: a delete item whose location there is none (deleted already): nothing to delete. */
export type BulkAction = 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent'

export type BulkResult = {
  /** The item's position in the request; null for a location delete_missing deleted. */
  index: number | null
  /** The line of the item's row, when it was a CSV row. */
  line?: number
  /** null for a location a dry run would create. */
  id: string | null
  external_id: string | null
  /** A deleted location's name: a delete item or delete_missing names it by id or external_id only. */
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
  absent: number
  results: BulkResult[]
  /** What is said of the request as a whole: rows without a store code that repeat stored locations. */
  notes?: string[]
}

/**
 * Creates, updates and deletes (delete items; with deleteMissing, those none names) locations of a locator as `items` say, all or
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
  const {
    dryRun = false,
    deleteMissing = false,
    maxDelete = null,
    noStore = [],
    onProgress,
    words = API_WORDS,
  } = options
  items = await withPaddedPostcodes(deps, items)
  const problems = new Problems()
  const definitions = JSON.stringify(deps.store.customFields.list(locatorId))
  const { plans, removals } = await check(deps, locatorId, items, problems, deleteMissing)
  const going: Going = {
    deleted: new Set(removals.flatMap((r) => (r.target === null ? [] : [r.target]))),
    missing: new Map(
      deleteMissing
        ? missing(deps.store.locations.externalIds(locatorId), plans, removals).map((l) => [l.id, l.externalId])
        : [],
    ),
  }
  const repeats = noteRepeats(deps, locatorId, plans, going)
  const repeated = noteRepeatedRows(plans)
  noteLostZeros(deps, locatorId, plans)
  onProgress?.({ stage: 'checked', done: items.length, total: items.length })
  if (problems.count > 0) throw problems.error(items.length)
  if (deleteMissing)
    refuseDeleting(deps.store.locations.externalIds(locatorId), plans, removals, maxDelete, words, noStore)
  await geocodeAll(deps, items, plans, problems, words, onProgress)
  if (problems.count > 0) throw problems.error(items.length)
  const towns = await townsOf(deps)
  const memo: PostcodeMemo = new Map()
  for (const plan of plans) {
    const at = plan.patch.coordinates
    if (!at) continue
    const said = plan.warnings.length
    const country = towns === null ? [] : pointWarnings(towns, at, items[plan.index]!)
    const postcode = await postcodeWarnings(deps, towns, at, items[plan.index]!, memo)
    // A point outside the row's country is far from its postcode too: that warning is told only
    // for a hint (a question: swapped, a minus sign) the country's warning does not give.
    const hinted = (said: string[]) => said.some((w) => w.endsWith('?'))
    plan.warnings.push(...country, ...(country.length === 0 || (hinted(postcode) && !hinted(country)) ? postcode : []))
    const address = plan.patch.address
    if (towns === null || address === undefined) continue
    const { town, named } = towns.writtenTown(at.lat, at.lng, address)
    plan.town = { ...at, address, town }
    // The row's country and postcode say nothing against the point: its address may.
    if (plan.warnings.length === said)
      plan.warnings.push(...(await addressPointWarnings(deps, named, at, address, items[plan.index]!, memo)))
  }
  const creates = plans.filter((p) => p.target === null && !p.patch.externalId).length
  const csv = items.some((i) => i.columns !== undefined)
  const notes = [
    ...(repeats > 0 ? [repeatsNote(repeats, creates, locatorId, csv)] : []),
    ...(repeated.length > 0 ? [repeatedRowsNote(repeated, creates, csv)] : []),
  ]
  const written = () =>
    reportOf(
      apply(deps, locatorId, plans, removals, { deleteMissing, maxDelete, noStore, words, dryRun, definitions, towns }),
      dryRun,
      items,
      notes,
    )
  // A dry run reads in one transaction, as the real run does: its answer is that of one state of
  // the file, not of reads between which another process committed.
  const report = dryRun
    ? deps.store.read(written)
    : await locatorWrite(deps, locatorId, () => {
        const report = written()
        deps.inWrite?.(report)
        return report
      })
  // Written: created, updated or deleted; a location left unchanged, or found gone, is not.
  const changed = report.results.filter((r) => r.action !== 'unchanged' && r.action !== 'absent').length
  onProgress?.({ stage: 'written', done: dryRun ? 0 : changed, total: report.results.length })
  return report
}

/**
 * The answer as final, before inWrite keeps it for a key's replay: `notes` with the note of the
 * unchanged rows' postcodes, whose warnings it takes out of those rows' results.
 */
function reportOf(results: BulkResult[], dryRun: boolean, items: readonly BulkItem[], notes: string[]): BulkReport {
  const count = (action: BulkAction) => results.filter((r) => r.action === action).length
  const report: BulkReport = {
    dry_run: dryRun,
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    deleted: count('deleted'),
    absent: count('absent'),
    results,
  }
  const postcodes = unchangedPostcodesNote(items, report)
  const all = postcodes === null ? notes : [...notes, postcodes]
  if (all.length > 0) report.notes = all
  return report
}
