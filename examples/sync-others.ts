// What examples/sync.ts checks before it deletes the stores its list lacks: that no other write
// changed the locator since the sync read it. Two syncs of one locator at once would each delete
// what the other's list has and its own lacks, and both end "in step"; a person editing alike.
// A write after that check is the service's to see: each delete item carries the store's updated_at
// as first read (if_updated_at), and a store changed since is kept (412 precondition_failed). The
// same check once the deletes are done says another sync's deletes that came after this one's look.
// The service's geocode refresh (Google's 30 days) moves a store's point, and so its updated_at, on
// its own: no other writer. A store only it changed is deleted all the same, its time zone too
// when that is the one its point gives, before and after.
import {
  type AdminLocation,
  type BulkDelete,
  type BulkLocation,
  type BulkReport,
  type StorelocClient,
  StorelocError,
} from 'storeloc/client'
// The service's own zone of a point: a store's zone set by hand and its point's are told apart by it.
import { zoneAt } from '../src/core/zone'
import { itemAt } from './sync-parts'

/** The locator's stores as the sync read them first, by id. */
export type Snapshot = Map<string, AdminLocation>

/** What the geocode refresh writes: the point and how it was found (and so the zone its point gives). */
const REFRESHED = new Set(['coordinates', 'geocoding', 'updated_at'])

/**
 * The fields of the store `now` that another write changed since it was read (`had`); none when
 * only the geocode refresh did (it moves a point a geocoder gave, by a geocoder: not coordinates
 * sent, whose source is `reverse`, nor a pin moved by hand, null), or when no field the API shows
 * changed: no one's edit is lost by a delete. A point moved across a border moves the zone shown
 * with it: the refresh's when both zones are their points' (a zone set by hand that its point
 * gives says nothing the point does not), another's when either is not.
 */
export function changedFields(had: AdminLocation, now: AdminLocation): string[] {
  const changed = (Object.keys(now) as (keyof AdminLocation)[]).filter(
    (k) => k !== 'updated_at' && JSON.stringify(had[k]) !== JSON.stringify(now[k]),
  )
  const moved = changed.includes('coordinates') || changed.includes('geocoding')
  const byGeocoder = (l: AdminLocation) => l.geocoding !== null && l.geocoding.source !== 'reverse'
  const pointsZone = (l: AdminLocation) => l.timezone === zoneAt(l.coordinates.lat, l.coordinates.lng)
  const refreshed = (k: string) => REFRESHED.has(k) || (k === 'timezone' && pointsZone(had) && pointsZone(now))
  return moved && byGeocoder(had) && byGeocoder(now) && changed.every(refreshed) ? [] : changed
}

/** The fields another write changed of the stores a refusal (412) names, by their places in its request. */
const changedIn = new WeakMap<StorelocError, Map<number, string[]>>()

/**
 * How many refusals may name one store the geocode refresh changed before the request is sent no
 * more: a run of the refresh moves a point once, and moves the stores of a request one at a time.
 */
const REFRESHES = 3

/**
 * How many times a request refused for another write meanwhile (409 without Retry-After: nothing
 * written, "send it again") is sent again: two first syncs at once each create the stores.
 */
const CONFLICTS = 3

/**
 * client.bulkUpsert, sent again when refused (412 precondition_failed) only for stores the geocode
 * refresh changed since `snapshot`, each delete item then with the store's updated_at now, and
 * when refused for another write meanwhile (byOtherWrite), up to CONFLICTS times. Any other
 * refusal, or a store another write changed, is thrown as the service answered it.
 */
export async function bulkPastRefreshes(
  client: StorelocClient,
  request: { locations: (BulkLocation | BulkDelete)[]; dry_run?: boolean },
  snapshot: Snapshot | undefined,
  signal: AbortSignal,
): Promise<BulkReport> {
  let { locations } = request
  /** How many refusals named each item, by its place in the request. */
  const refusals = new Map<number, number>()
  let conflicts = 0
  for (;;) {
    try {
      return await client.bulkUpsert({ ...request, locations }, { signal })
    } catch (e) {
      // Sent again, the rows are matched anew: a code another sync just gave a store updates it.
      if (e instanceof StorelocError && byOtherWrite(e) && ++conflicts <= CONFLICTS) continue
      if (!(e instanceof StorelocError) || e.code !== 'precondition_failed' || !snapshot) throw e
      const named = Object.keys(e.details ?? {}).map(itemAt)
      for (const i of named) refusals.set(i, (refusals.get(i) ?? 0) + 1)
      const now = new Map<number, string>()
      const fields = new Map<number, string[]>()
      for (const i of named) {
        const id = locations[i]?.id
        const had = id ? snapshot.get(id) : undefined
        const store = had && (await client.getLocation(had.id, { signal }).catch(() => undefined))
        if (!had || !store) continue
        fields.set(i, changedFields(had, store))
        now.set(i, store.updated_at)
      }
      // A read ended by Ctrl-C is a stop, not a store that could not be read.
      signal.throwIfAborted()
      changedIn.set(e, fields)
      if (now.size === 0 || now.size < named.length || [...fields.values()].some((f) => f.length > 0)) throw e
      if (named.some((i) => refusals.get(i)! > REFRESHES)) throw e
      locations = locations.map((l, i) => (now.has(i) ? { ...l, if_updated_at: now.get(i) } : l)) as typeof locations
    }
  }
}

/** A store this run created or updated: its id, and the location its row sent. */
export type Wrote = { id: string; location: BulkLocation }

/** A failure after the list's writes whose message says what is written, and when to run again. */
export class SaysWritten extends Error {}

/** The refusal of the deletes: the whole list is written, which its message says, with when to run again. */
export class OthersWrote extends SaysWritten {}

/**
 * Whether a request was refused for another write meanwhile: a 409 without Retry-After (a code
 * another store took, a store changed or deleted), which writes nothing. Other 4xx refuse it itself.
 */
const byOtherWrite = (e: StorelocError) => e.status === 409 && e.retryAfter === undefined

/**
 * refuseOthersChanges' view of the run: `toDelete` stores the list lacks (`lacks`, their ids),
 * `size` rows a request; `gone`: the ids it deleted or found gone; `listed`: the store of each row
 * of the list, with the location it sent; `done`: looked at once the deletes are done.
 */
export type OthersOptions = {
  toDelete: number
  size: number
  gone: ReadonlyMap<string, unknown>
  listed: Wrote[]
  lacks: ReadonlySet<string>
  done?: boolean
}

/** How many of the changes a refusal names before counting the rest. */
const NAMED = 5

/**
 * Refuses the deletes when a store changed since `snapshot` but for this run's writes (`reports`:
 * the stores they created, updated or deleted; `gone`: the ids it deleted or found gone): made
 * or changed by another writer otherwise than the list has it, or deleted though the list has it;
 * and when a store this run wrote (`wrote`) was changed again after it. Its message names them and
 * the time of the first, so the other run is found.
 */
export async function refuseOthersChanges(
  client: StorelocClient,
  snapshot: Snapshot,
  reports: BulkReport[],
  wrote: Wrote[],
  options: OthersOptions,
  signal: AbortSignal,
): Promise<void> {
  try {
    await lookForOthers(client, snapshot, reports, wrote, options, signal)
  } catch (e) {
    if (!(e instanceof StorelocError) || e.status < 400 || e.status >= 500) throw e
    // Refused (the key revoked, a proxy's limit): what it wrote is known, another write's change not.
    const { toDelete, done = false } = options
    // A dry run's problems name their items with their codes ('locations[0] (external_id "S1"): ...').
    for (const messages of Object.values(e.details ?? {})) for (const m of messages) console.error(`  ${m}`)
    const stores = `${toDelete} store${toDelete === 1 ? '' : 's'} the list lacks`
    const when = done ? 'once its writes and deletes were done' : 'before its deletes'
    const what = done
      ? `The list is written${toDelete === 0 ? '' : ` and the ${stores} deleted`}; whether another write changed the locator meanwhile is not known.`
      : `The ${stores} ${toDelete === 1 ? 'is' : 'are'} not deleted; the rest of the list is written.`
    throw new SaysWritten(
      `The service refused the sync's look for other writes ${when} (${e.status} ${e.code}): ${e.message.replace(/\.?$/, '.')} ${what} Run the sync again once that is mended: it writes only what is not in step yet.`,
    )
  }
}

/** refuseOthersChanges' look; a refusal of a request it makes (but a dry run's 409) is thrown as the service answered it. */
async function lookForOthers(
  client: StorelocClient,
  snapshot: Snapshot,
  reports: BulkReport[],
  wrote: Wrote[],
  { toDelete, size, gone, listed, lacks, done = false }: OthersOptions,
  signal: AbortSignal,
): Promise<void> {
  const written = new Set([
    ...reports.flatMap((r) => r.results.flatMap((x) => (x.id !== null && x.action !== 'unchanged' ? [x.id] : []))),
    ...gone.keys(),
  ])
  const changes: { id: string; at: string; said: string }[] = []
  // Its own writes change updated_at too: a store it wrote is another's when its row is no longer
  // in step. Checked before the stores are read again, which is the nearest look to the deletes.
  const again = await changedAgain(client, wrote, size, signal)
  const now = await client.exportLocations({}, { signal })
  const storeSaid = (l: { id: string; external_id: string | null }) =>
    `${l.external_id === null ? 'a store without a code' : JSON.stringify(l.external_id)} (${l.id})`
  // A store without a code, before and after, is no list's: the sync leaves it as it is.
  const noList = (l: { external_id: string | null } | undefined) => l === undefined || l.external_id === null
  for (const l of now) {
    const had = snapshot.get(l.id)
    if (written.has(l.id) || (l.external_id === null && noList(had))) continue
    const fields = had === undefined ? [] : changedFields(had, l)
    if (had === undefined) changes.push({ id: l.id, at: l.created_at, said: `${storeSaid(l)} made at ${l.created_at}` })
    else if (fields.length > 0)
      changes.push({ id: l.id, at: l.updated_at, said: `${storeSaid(l)} changed at ${l.updated_at} (${fields.join(', ')})` })
  }
  // A store another write made or changed as this list's row has it, or deleted as the list lacks
  // it, is in step: the same list synced twice at once. A row sent again as a dry run says which.
  const rowOf = new Map(listed.map((w) => [w.id, w]))
  const asRows = changes.flatMap((c) => rowOf.get(c.id) ?? [])
  const notInStep = new Set(await changedAgain(client, asRows, size, signal))
  const inStep = new Set(asRows.filter((w) => !notInStep.has(w.id)).map((w) => w.id))
  changes.splice(0, changes.length, ...changes.filter((c) => !inStep.has(c.id)))
  const still = new Map(now.map((l) => [l.id, l]))
  for (const [id, had] of snapshot)
    if (!still.has(id) && !written.has(id) && !lacks.has(id) && !noList(had)) changes.push({ id, at: '', said: `${storeSaid(had)} deleted` })
  for (const id of again) {
    const l = still.get(id)
    changes.push(
      l === undefined
        ? { id, at: '', said: `${storeSaid({ id, external_id: rowOf.get(id)?.location.external_id ?? null })} deleted` }
        : { id, at: l.updated_at, said: `${storeSaid(l)} changed at ${l.updated_at}` },
    )
  }
  if (changes.length === 0) return
  const first = changes.map((c) => c.at).filter((at) => at !== '').sort()[0]
  const named = changes.slice(0, NAMED).map((c) => c.said)
  const more = changes.length > NAMED ? ` and ${changes.length - NAMED} more` : ''
  const stores = `${toDelete} store${toDelete === 1 ? '' : 's'} the list lacks`
  const what = done
    ? `The list is written${toDelete === 0 ? '' : ` and the ${stores} deleted`}, but the locator is not in step with it.`
    : `The ${stores} ${toDelete === 1 ? 'is' : 'are'} not deleted; the rest of the list is written.`
  throw new OthersWrote(
    `Another write changed the locator while this sync ran${first === undefined ? '' : `, from ${first}`}: ${named.join(', ')}${more}. Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks. ${what} Run the sync again once the other write is done.`,
  )
}

/**
 * The refusal (412 precondition_failed) of a request deleting stores (`stores`, as named, in its
 * order) that another write changed since the sync read them, each with the fields it changed
 * when bulkPastRefreshes read them: the service kept them, and wrote none of the request. `done`: of a request of deletes alone, how many of the `toDelete` stores
 * the list lacks went before it; else the request's rows as named (rowsNamed), not written, and
 * whether it was a dry run (then nothing is written yet).
 */
export function keptChanged(
  e: StorelocError,
  stores: (string | undefined)[],
  done: { deleted: number; toDelete: number } | { rows: string; dryRun?: boolean },
): OthersWrote {
  const kept = Object.keys(e.details ?? {}).flatMap((d) => {
    const i = itemAt(d)
    const store = stores[i]
    return store === undefined ? [] : [{ store, fields: changedIn.get(e)?.get(i) }]
  })
  // One only the geocode refresh moved (no field changed) is no other write's: named only when none is.
  const byOthers = kept.filter((k) => k.fields === undefined || k.fields.length > 0)
  const changed = (byOthers.length > 0 ? byOthers : kept).map(({ store, fields }) =>
    fields === undefined || fields.length === 0 ? store : `${store} (${fields.join(', ')})`,
  )
  const more = changed.length > NAMED ? ` and ${changed.length - NAMED} more` : ''
  const named = changed.length === 0 ? 'stores it was deleting' : `${changed.slice(0, NAMED).join(', ')}${more}`
  const them = changed.length === 1 ? 'it' : 'them'
  const others =
    'Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks.'
  if ('rows' in done && done.dryRun)
    return new OthersWrote(
      `Another write changed ${named} after this sync read the locator, as the dry run of ${done.rows} was to delete ${them}: the service refused that dry run. ${others} Nothing is written. Run the sync again once the other write is done.`,
    )
  if ('rows' in done)
    return new OthersWrote(
      `Another write changed ${named} after this sync read the locator, as the request of ${done.rows} was to delete ${them}: the service kept ${them}, and wrote none of that request. ${others} The requests before it are written, that one and the rest of the list not, nor are the stores the list lacks deleted. Run the sync again once the other write is done: it writes only what is not in step yet.`,
    )
  const { deleted, toDelete } = done
  return new OthersWrote(
    `Another write changed ${named} after this sync last read the locator, as it deleted the stores its list lacks: the service kept ${them}, and deleted none of that request. ${others} ${deleted} of the ${toDelete} store${toDelete === 1 ? '' : 's'} the list lacks ${deleted === 1 ? 'is' : 'are'} deleted, the rest not; the rest of the list is written. Run the sync again once the other write is done.`,
  )
}

/**
 * The ids of the stores in `wrote` whose rows, sent again as dry runs (`size` a request), would
 * change them: another write changed, renumbered or deleted them after this run wrote them. A
 * request refused for another write (byOtherWrite) names its rows, or all of them when it names
 * none; any other refusal is thrown.
 */
async function changedAgain(client: StorelocClient, wrote: Wrote[], size: number, signal: AbortSignal) {
  const changed: string[] = []
  for (let i = 0; i < wrote.length; i += size) {
    const chunk = wrote.slice(i, i + size)
    try {
      const report = await client.bulkUpsert({ locations: chunk.map((w) => w.location), dry_run: true }, { signal })
      for (const r of report.results) if (r.index !== null && r.action !== 'unchanged') changed.push(chunk[r.index]!.id)
    } catch (e) {
      if (!(e instanceof StorelocError) || !byOtherWrite(e)) throw e
      const named = Object.keys(e.details ?? {}).flatMap((d) => chunk[itemAt(d)]?.id ?? [])
      changed.push(...(named.length > 0 ? new Set(named) : chunk.map((w) => w.id)))
    }
  }
  return changed
}
