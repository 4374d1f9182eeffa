// Bulk upsert, the last step: what each checked item does to the rows as they are now, and the
// locations delete_missing removes; written in the caller's transaction, or only worked out.
import type { ReverseLookup } from '../geocode/embedded/reverse'
import { changedFields, samePoint } from '../store/location-compare'
import { type LocationRecord, replacedPointOf } from '../store/locations'
import type { BulkResult, BulkWords } from './bulk'
import type { Plan } from './bulk-check'
import { type Coded, codeSaid, excelReads, holdersOfCode, keepsCode, lostZeroPairs, sameCode } from './bulk-codes'
import { refuseNamedNoStore } from './bulk-no-store'
import { hoursInColumns } from './bulk-problems'
import { type Removal, removalResult, sameInstant } from './bulk-removals'
import type { RawRecord } from './csv-records'
import { LocationError } from './errors'
import { type LocationPatch, pickLocationFields } from './normalize'
import { type HoursRead, hoursReadOnce, unreadHoursWarnings } from './opening'
import { newLocationRecord } from './record'
import { type AdminDeps, applyPatch, checkCustomFieldsAgain } from './service'
import { withKnownTown } from './town'

/**
 * delete_missing that would delete every location with an external id (`coded`) is refused: an
 * empty or truncated export, or a file of the wrong column, would otherwise wipe the locator; so
 * is one that would delete more than `maxDelete`. Checked before geocoding, and again in the
 * write's transaction: another write may have added a location meanwhile. Delete items count
 * towards "every location" (a request of them alone still wipes it) but not towards `maxDelete`,
 * which limits what delete_missing finds, not what the request names. `noStore`: the lines of a
 * file read as no store, refused when one names a location that would go (refuseNamedNoStore).
 */
export function refuseDeleting(
  coded: Coded[],
  plans: Plan[],
  removals: Removal[],
  maxDelete: number | null,
  words: BulkWords,
  noStore: readonly RawRecord[] = [],
): void {
  const going = missing(coded, plans, removals)
  refuseNamedNoStore(going, noStore, words)
  const gone = going.length
  const locations = `location${gone === 1 ? '' : 's'}`
  const zeros = lostZeros(going, plans)
  if (maxDelete !== null && gone > maxDelete) {
    const some = going.slice(0, 5).map((l) => JSON.stringify(l.externalId))
    throw new LocationError(
      'validation_error',
      `${words.deleteMissing} would delete ${gone} ${locations}, more than ${words.maxDelete} (${maxDelete}); nothing was written.`,
      {
        delete_missing: [
          `Refused: ${words.sent} lacks the external_id of ${gone} ${locations} (${some.join(', ')}${gone > 5 ? ', ...' : ''}). Check ${words.sent}; if they are meant to go, raise ${words.maxDelete}.`,
          ...lostZerosHint(zeros, words),
        ],
      },
    )
  }
  const kept = new Set(plans.map((p) => p.target))
  if (gone === 0) return
  if (coded.some((l) => kept.has(l.id))) {
    refuseLostZeros(zeros, words)
    return
  }
  const all = coded.length
  const why =
    plans.length > 0
      ? 'none of those sent matches one of them'
      : removals.length > 0
        ? 'the request only deletes'
        : 'no location was sent'
  throw new LocationError(
    'validation_error',
    `${words.deleteMissing} would delete all ${all} location${all === 1 ? '' : 's'} with an external_id (${why}); nothing was written.`,
    {
      delete_missing: [
        `Refused: it would delete every location with an external_id. Check ${words.sent} and its external_ids. To replace them all, delete them first (the CLI's locations delete, or POST /admin/v1/locations/{id}/delete), then import without ${words.deleteMissing}.`,
        ...lostZerosHint(zeros, words),
      ],
    },
  )
}

/**
 * The items that create a location with the code of one that delete_missing would delete but for
 * leading zeros ("12" sent, "0012" stored), as [sent, stored]: a sheet saved in Excel loses them.
 */
const lostZeros = (going: Coded[], plans: Plan[]): [sent: string, stored: string][] =>
  lostZeroPairs(
    going.map((l) => l.externalId),
    plans.flatMap((p) => (p.target === null && typeof p.patch.externalId === 'string' ? [p.patch.externalId] : [])),
  )

/** A pair of lostZeros as a message shows it: `"12" sent, "0012" stored`, invisible characters named. */
const pairSaid = ([sent, stored]: [string, string]) => `${codeSaid(sent)} sent, ${codeSaid(stored)} stored`

/**
 * What to say in a refusal of delete_missing when items lost the leading zeros of the codes of
 * the locations it would delete (`pairs`, lostZeros): its "none matches" alone does not say why.
 * Empty when none did.
 */
function lostZerosHint(pairs: [sent: string, stored: string][], words: BulkWords): string[] {
  const [first] = pairs
  if (first === undefined) return []
  const many = pairs.length === 1 ? 'One external_id' : `${pairs.length} external_ids`
  return [
    `${many} of ${words.sent} ${pairs.length === 1 ? 'differs' : 'differ'} from a stored one only in leading zeros (${pairSaid(first)}): a spreadsheet drops them (Excel reads ${excelReads(first)}). Give the codes as they are stored (format the column as text) and send it again.`,
  ]
}

/**
 * delete_missing that would delete stores and create them again under their codes but for leading
 * zeros is refused, though other codes match: each such store would lose its id (and the links,
 * bookmarks and analytics that hold it), where a file saved in Excel is the likely cause.
 */
function refuseLostZeros(pairs: [sent: string, stored: string][], words: BulkWords): void {
  const [first] = pairs
  if (first === undefined) return
  const n = new Set(pairs.map(([, stored]) => stored)).size
  const codes = pairs.length
  const shown = pairs.slice(0, 5).map(pairSaid)
  const more = codes > 5 ? `, and ${codes - 5} more` : ''
  const locations = `location${n === 1 ? '' : 's'}`
  throw new LocationError(
    'validation_error',
    `${words.deleteMissing} would delete ${n} ${locations} and create ${n === 1 ? 'it' : 'them'} again, each with a new id, under ${codes === 1 ? 'a code that differs' : 'codes that differ'} only in leading zeros; nothing was written.`,
    {
      delete_missing: [
        `Refused: ${words.sent} has ${codes === 1 ? 'a code that differs' : `${codes} codes that differ`} from a stored location's only in leading zeros (${shown.join('; ')}${more}): a spreadsheet drops them (Excel reads ${excelReads(first)}). Give the codes as they are stored (format the column as text) and send it again. To renumber such a store, give its id beside its new code: it is updated in place and keeps its id.`,
      ],
    },
  )
}

/** The locations delete_missing removes: those of `coded` (the locator's with an external id) that no item matched. */
export function missing(coded: Coded[], plans: Plan[], removals: Removal[]): Coded[] {
  const named = new Set([...plans, ...removals].map((p) => p.target).filter((id) => id !== null))
  return coded.filter((l) => !named.has(l.id))
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
  warnings:
    record === null
      ? plan.warnings
      : [...plan.warnings, ...hoursInColumns(unreadHoursWarnings(record, read), plan.hoursColumns, plan.specialColumn)],
})

type ApplyOptions = {
  deleteMissing: boolean
  maxDelete: number | null
  noStore: readonly RawRecord[]
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
export function apply(
  deps: AdminDeps,
  locatorId: string,
  plans: Plan[],
  removals: Removal[],
  options: ApplyOptions,
): BulkResult[] {
  const { deleteMissing, dryRun, towns } = options
  const recheck = !dryRun && JSON.stringify(deps.store.customFields.list(locatorId)) !== options.definitions
  // Before the writes: not what they create.
  const coded = deleteMissing ? deps.store.locations.externalIds(locatorId) : []
  if (deleteMissing) refuseDeleting(coded, plans, removals, options.maxDelete, options.words, options.noStore)
  const gone = missing(coded, plans, removals)
  const removing = removals.filter((r) => r.target !== null).length
  // A dry run is refused as the real run would be: its 200 promises the real run's.
  deps.roomFor?.(locatorId, plans.filter((p) => p.target === null).length - gone.length - removing)
  refuseChanged(deps, locatorId, removals, options.words)
  // Delete items and delete_missing first: the codes of the locations they delete are free for the items.
  const results: BulkResult[] = removals.map((removal) => removed(deps, locatorId, removal, dryRun))
  if (!dryRun) for (const { id } of gone) deps.store.locations.remove(locatorId, id)
  const recoded = new Map(
    plans.flatMap((p) =>
      p.target === null || p.patch.externalId === undefined ? [] : [[p.target, p.patch.externalId]],
    ),
  )
  const deleting = new Set([...removals.map((r) => r.target), ...gone.map((g) => g.id)])
  // The rows whose codes were let go of, as they were: each item's changes, and its write, are
  // against what it held, so a store left with no code is updated, and logged, as a dry run says.
  const released = new Map<string, LocationRecord>()
  const read = hoursReadOnce()
  for (const plan of plans) {
    if (recheck)
      checkCustomFieldsAgain(deps, locatorId, pickLocationFields(plan.raw), plan.target === null ? 'create' : 'update')
    const ext = plan.patch.externalId
    // As written or but for invisible characters: a code another location holds. One the request
    // gives that location another code or deletes (a swap) is let go of now; any other came meanwhile.
    const code = typeof ext === 'string' && ext !== '' ? ext : null
    const { others: holders, own } =
      code === null ? { others: [], own: null } : holdersOfCode(deps.store, locatorId, code, plan.target)
    const kept = code === null ? undefined : holders.find((h) => keepsCode(h.id, code, recoded, deleting))
    if (kept !== undefined)
      throw new LocationError(
        'conflict',
        `${plan.key}: the external_id ${JSON.stringify(ext)} became that of location ${kept.id}${kept.externalId === ext ? '' : ` (${codeSaid(kept.externalId)}, the same but for invisible characters)`} meanwhile; nothing was written.`,
      )
    if (!dryRun)
      for (const holder of holders) {
        const row = deps.store.locations.get(locatorId, holder.id)
        if (row !== null) released.set(holder.id, row)
        deps.store.locations.releaseExternalId(locatorId, holder.id)
      }
    const placing = towns !== null && plan.town !== undefined ? withKnownTown(towns, plan.town) : towns
    if (plan.target === null) {
      const record = newLocationRecord(locatorId, plan.patch, plan.found, placing)
      if (!dryRun) deps.store.locations.insert(record)
      results.push(resultOf(plan, dryRun ? null : record.id, record, 'created', read))
      continue
    }
    const current = released.get(plan.target) ?? own ?? deps.store.locations.get(locatorId, plan.target)
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
    // A point read as a former one (stale, sent back) only while the store is where the check found it.
    const movedMeanwhile = plan.keptAt !== undefined && !samePoint(current, plan.keptAt)
    const replaced = replacedPointOf(current)
    if (movedMeanwhile || (plan.stale !== undefined && (replaced === null || !samePoint(replaced, plan.stale))))
      throw new LocationError(
        'conflict',
        `${plan.key}: location ${current.id} moved meanwhile, so the coordinates sent are no longer its former address's point; nothing was written. Send the request again.`,
      )
    const next = withReplacedPoint(plan, applyPatch(current, sentPatch(plan, current), plan.found, placing))
    const changes = changedFields(next, current)
    if (!dryRun) deps.store.locations.replace(next, current)
    results.push(resultOf(plan, current.id, next, changes, read))
  }
  // Items in the order sent, then what delete_missing deletes.
  results.sort((a, b) => a.index! - b.index!)
  for (const { id, externalId, name } of gone)
    results.push({ index: null, id, external_id: externalId, name, action: 'deleted', geocoding: null, warnings: [] })
  return results
}

/**
 * Delete items whose if_updated_at is no longer their location's updated_at refuse the request
 * (precondition_failed), each named: another write changed the location since the sender read it.
 * Checked in the write's transaction, so no write comes between the check and the delete.
 */
function refuseChanged(deps: AdminDeps, locatorId: string, removals: Removal[], words: BulkWords): void {
  const changed = removals.flatMap(({ key, target, ifUpdatedAt }) => {
    const current = target === null || ifUpdatedAt === null ? null : deps.store.locations.get(locatorId, target)
    return current === null || sameInstant(current.updatedAt, ifUpdatedAt!) ? [] : [{ key, current, ifUpdatedAt }]
  })
  const [first] = changed
  if (first === undefined) return
  const said = ({ current }: (typeof changed)[number]) =>
    `location ${current.id}${current.externalId === null ? '' : ` (${JSON.stringify(current.externalId)})`} was changed at ${current.updatedAt}`
  // A time past the location's is none a write gave it: no change "after" it to speak of.
  const later = ({ current, ifUpdatedAt }: (typeof changed)[number]) =>
    Date.parse(ifUpdatedAt!) > Date.parse(current.updatedAt)
  const more = changed.length > 1 ? `, and ${changed.length - 1} more` : ''
  const sent = later(first)
    ? `before the if_updated_at sent (${first.ifUpdatedAt}), a time no write gave it`
    : `after the if_updated_at sent (${first.ifUpdatedAt})`
  const why = (c: (typeof changed)[number]) =>
    later(c) ? 'that time is later than any write gave it' : 'another write changed it since it was read'
  throw new LocationError(
    'precondition_failed',
    `${first.key}: ${said(first)}, ${sent}${more}; nothing was written.`,
    Object.fromEntries(
      changed.map((c) => [
        `${c.key}.if_updated_at`,
        [
          `The ${said(c)}, not at ${c.ifUpdatedAt}: ${why(c)}. Read it again (${words.readAgain(locatorId, c.current.id)}); if it is still to go, send its delete with its updated_at now.`,
        ],
      ]),
    ),
  )
}

/**
 * What a delete item does to the rows as they are now. One whose location went meanwhile has
 * nothing to delete, as one naming no location; one matched by external_id whose location has
 * another since is refused, as an update's would be.
 */
function removed(deps: AdminDeps, locatorId: string, removal: Removal, dryRun: boolean): BulkResult {
  const current = removal.target === null ? null : deps.store.locations.get(locatorId, removal.target)
  if (current === null) return removalResult(removal, null)
  if (removal.sentId === null && !sameCode(current.externalId, removal.sentExternalId))
    throw new LocationError(
      'conflict',
      `${removal.key}: the external_id ${JSON.stringify(removal.sentExternalId)} moved from location ${current.id} meanwhile; nothing was written. Send the request again.`,
    )
  if (!dryRun) deps.store.locations.remove(locatorId, current.id)
  return removalResult(removal, current)
}

/**
 * `next` remembering the point sent back that its new address replaced (Plan.sentBack, the
 * address placed elsewhere): a file that still holds it, sent again beside that address, leaves
 * the store where it is (bulk-check.ts); applyPatch forgets it once the store moves otherwise.
 */
function withReplacedPoint(plan: Plan, next: LocationRecord): LocationRecord {
  const sent = plan.sentBack
  if (sent === undefined || plan.found === null || samePoint(next, sent)) return next
  return { ...next, replacedPoint: { lat: sent.lat, lng: sent.lng, by: { lat: next.lat, lng: next.lng } } }
}

/** The plan's patch, with "" (cleared) for each date of the current special hours it lacks when it sends them whole. */
function sentPatch(plan: Plan, current: LocationRecord): LocationPatch {
  const sent = plan.patch.specialHours
  if (!plan.wholeSpecialHours || sent === undefined) return plan.patch
  const cleared = Object.keys(current.specialHours).filter((date) => !Object.hasOwn(sent, date))
  return { ...plan.patch, specialHours: { ...Object.fromEntries(cleared.map((date) => [date, ''])), ...sent } }
}
