// What examples/sync.ts checks before it deletes the stores its list lacks: that no other write
// changed the locator since the sync read it. Two syncs of one locator at once would each delete
// what the other's list has and its own lacks, and both end "in step"; a person editing alike.
import type { BulkReport, StorelocClient } from 'storeloc/client'

/** The locator's stores as the sync read them first: each id with its updated_at. */
export type Snapshot = Map<string, string>

/** How many of the changes a refusal names before counting the rest. */
const NAMED = 5

/**
 * Refuses the deletes when a store changed since `snapshot` but for this run's writes (`reports`:
 * the stores they created, updated or deleted): made, changed or deleted by another writer. Its
 * message names them and the time of the first, so the other run is found.
 */
export async function refuseOthersChanges(
  client: StorelocClient,
  snapshot: Snapshot,
  reports: BulkReport[],
  toDelete: number,
  signal: AbortSignal,
): Promise<void> {
  const written = new Set(
    reports.flatMap((r) => r.results.flatMap((x) => (x.id !== null && x.action !== 'unchanged' ? [x.id] : []))),
  )
  const changes: { at: string; said: string }[] = []
  const now = await client.exportLocations({}, { signal })
  for (const l of now) {
    if (written.has(l.id)) continue
    const had = snapshot.get(l.id)
    const store = `${l.external_id === null ? 'a store without a code' : JSON.stringify(l.external_id)} (${l.id})`
    if (had === undefined) changes.push({ at: l.created_at, said: `${store} made at ${l.created_at}` })
    else if (had !== l.updated_at) changes.push({ at: l.updated_at, said: `${store} changed at ${l.updated_at}` })
  }
  const still = new Set(now.map((l) => l.id))
  for (const id of snapshot.keys())
    if (!still.has(id) && !written.has(id)) changes.push({ at: '', said: `${id} deleted` })
  if (changes.length === 0) return
  const first = changes.map((c) => c.at).filter((at) => at !== '').sort()[0]
  const named = changes.slice(0, NAMED).map((c) => c.said)
  const more = changes.length > NAMED ? ` and ${changes.length - NAMED} more` : ''
  throw new Error(
    `Another write changed the locator while this sync ran${first === undefined ? '' : `, from ${first}`}: ${named.join(', ')}${more}. Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks. The ${toDelete} store${toDelete === 1 ? '' : 's'} the list lacks ${toDelete === 1 ? 'is' : 'are'} not deleted; the rest of the list is written. Run the sync again once the other write is done.`,
  )
}
