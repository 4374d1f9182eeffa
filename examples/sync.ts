// Mirrors a store list (CSV or JSON) into a locator through the Management API: creates the stores
// that are new, updates those that changed, deletes those that disappeared, all matched by the
// chain's own store code (external_id), which every row must have. A row that also has an
// export's id column is matched by its id first, so a store whose code changed is updated, not
// deleted. Run it again at any time: what is in step stays untouched. It prints first the locator
// its key writes (a service older than GET /admin/v1/locator names none: it says so and goes on),
// then what changed and what is worth a look. Run one sync a locator at a time: it deletes no
// store its list lacks (but one whose code a row takes, with that row) when another write changed
// the locator while it ran (sync-others.ts).
// Every request carries an Idempotency-Key, so the client's retries after a timeout never write twice.
// Run right after a first start, it waits for the service to finish starting (up to 2 minutes;
// STORELOC_STARTUP_WAIT=SECONDS sets another wait), saying so once.
// STORELOC_SYNC_CHUNK=N sends N rows a request instead of 1,000, and deletes N a request; rows that take
// one another's store codes in a ring (a swap) go in one request however many, up to 1,000; a chain
// longer than a request goes in parts, its end first (sync-parts.ts).
//
//   STORELOC_URL=http://127.0.0.1:3000 STORELOC_KEY=sk_... bun examples/sync.ts stores.csv [--dry-run] [--max-delete N] [--encoding NAME]
//
// --max-delete N: refuse, writing nothing, when more than N stores would be deleted (a list cut short).
// --encoding NAME: a CSV file's encoding when it is not UTF-8, such as windows-1252, as the CLI import takes it.
// --help: these options, the environment variables it reads (STORELOC_...), and the exit codes below.
//
// Exit 0 when in step (or a dry run said what it would do), 1 when the list has problems or the
// service cannot be used (nothing is written then), 2 for a wrong command line, 3 when it failed
// while writing (the service out of reach): part of the list may be written; run it again, and it
// writes only what is not in step yet. Exit 3 too when another write changed the locator while it
// ran, up to the delete of a store: the list is written, the stores it lacks are not deleted (but
// those deleted before it said so); or after its deletes, which it looks for once done: the
// locator is not in step with the list. Run it again once that write is done. A look the service
// refuses (a key revoked, a proxy's limit) exits 3 as well, saying its refusal and what is written,
// and deletes nothing after it. A request refused while writing says what the requests before it
// wrote, or that nothing is written, and that it may be written itself when a try of it before
// the refusal got no answer; one refused for another write meanwhile (a 409 without
// Retry-After: two first syncs at once) is sent again, up to 3 times. Ctrl-C stops it at once,
// saying how many rows it sent so far and what they did (created, updated, unchanged) and how
// many of the stores the list lacks it deleted: exit 130 (SIGTERM alike: exit 143).
import { type BulkLocation, type BulkReport, StorelocClient, StorelocError } from 'storeloc/client'
// The CLI import's own modules: this script runs from the service's checkout. A JSON source needs only the client.
import { joinedAsBefore } from '../src/locations/csv-address'
// And its way of listing problems and warnings: one that many rows share once, naming a few of them.
import { geocodingLine, problemLines } from '../src/cli/import-report'
// And its wording of a CSV row's problems and warnings: the file's column names, not the fields'.
import { inColumn, inColumns } from '../src/locations/bulk-problems'
import { API_WORDS, type BulkItem, type BulkWords } from '../src/locations/bulk'
import { refuseNamedNoStore } from '../src/locations/bulk-no-store'
import type { RawRecord } from '../src/locations/csv-records'
import { LocationError } from '../src/locations/errors'
import { type Command, commandLine, progress } from './sync-command'
import { clearLeftOut, deleteRow, dropsTaken, itemAt, parts, type Row, rowsNamed, type Stored, storeOfRow } from './sync-parts'
import { idsOfNoStore, listedTwice } from './sync-list'
import { readRows } from './sync-read'
import { sentMaybeWritten } from './sync-tries'
import { bulkPastRefreshes, keptChanged, refuseOthersChanges, SaysWritten, type Snapshot } from './sync-others'
import { inListOrder, lostZeros, printChanges, printWarnings, warningsOf } from './sync-print'

/** Set once the first write is sent: a failure after it may leave part of the list written. */
let writing = false
/**
 * What the writes did so far, said as they go and when the sync is stopped midway: the rows of the
 * list `sent` and what the service did with them; `underway`: the rows of the write sent, not answered yet.
 */
const done = { sent: 0, toWrite: 0, deleted: 0, toDelete: 0, requests: 0, underway: [] as Row[] }
/** The answers of the writes so far, one a request in order, and the stores deleted so far (true: found gone already). */
const answered = { reports: [] as BulkReport[], gone: new Map<string, boolean>() }

/** " (1 created, 2 unchanged)": what the rows sent so far did, those that did it; "" before any. */
function didSaid(): string {
  const said = (['created', 'updated', 'unchanged'] as const).flatMap((a) => {
    const n = answered.reports.reduce((sum, report) => sum + report[a], 0)
    return n > 0 ? [`${n} ${a}`] : []
  })
  return said.length === 0 ? '' : ` (${said.join(', ')})`
}

/** Ctrl-C (SIGINT) or SIGTERM aborts the call under way, in a request or a wait: each call takes its signal. */
const stop = new AbortController()
const { signal } = stop
/** The first of them, as the stop's message names it, and its exit code (128 + its number). */
const stopped = { by: 'Ctrl-C', code: 130 }
process.once('SIGINT', () => stop.abort())
process.once('SIGTERM', () => {
  if (!signal.aborted) Object.assign(stopped, { by: 'SIGTERM', code: 143 })
  stop.abort()
})

/** A problem the route answered, "locations[3].hours.monday" -> messages, in the row's words: its line and columns. */
function problemSaid(chunk: Row[], detail: string, message: string): string {
  const at = /^locations\[(\d+)\](?:\.(.+))?$/.exec(detail)
  const row = at === null ? undefined : chunk[Number(at[1])]
  if (row === undefined) return message
  // Another item it names ("the same location as locations[0]") is named so too.
  const said = message.replace(/locations\[(\d+)\]/g, (item, n) => chunk[Number(n)]?.label ?? item)
  const columns = row.item?.columns
  return inColumns(at![2] === undefined ? said : inColumn(said, at![2], columns), columns)
}

/**
 * Sends the requests, as dry runs or for real; the reports in order. Dry runs go on past a
 * refused request, so one run lists the problems of every row of the list `rows`, with `found`'s:
 * those the sync found itself (cells not read, a store listed twice). With `snapshot`, the stores
 * as first read, a request refused for stores only the geocode refresh changed since is sent again.
 */
async function upsert(
  client: StorelocClient,
  requests: Row[][],
  dryRun: boolean,
  rows: Row[],
  found: Problem[] = [],
  snapshot?: Snapshot,
): Promise<BulkReport[]> {
  const reports: BulkReport[] = []
  const problems = [...found]
  // Each row refused is counted once, as the progress reaches it: by the sync when it found a
  // problem itself (sent or not), else by the service when the answer names it.
  const foundIn = new Set(found.flatMap((f) => f.label ?? []))
  const refused: Refused = { bySync: new Set(), byService: new Set() }
  const reach = (reached: Row[]) => {
    for (const r of reached) if (foundIn.has(r.label)) refused.bySync.add(r.label)
  }
  // Rows of the list, not the deletes sent beside them.
  const listed = (chunk: Row[]) => chunk.filter((r) => !r.drop).length
  // The progress counts the rows of the list: those sent in no request (the sync refuses them) first.
  const inRequests = new Set(requests.flat().map((r) => r.label))
  reach(rows.filter((r) => !inRequests.has(r.label)))
  let sent = rows.length - requests.reduce((n, chunk) => n + listed(chunk), 0)
  for (const request of requests) {
    // The dry runs' own deletes come last: the items before them are at the same places in both runs.
    const chunk = dryRun ? request : request.filter((r) => !r.dryOnly)
    reach(chunk)
    if (!dryRun) done.requests++
    if (!dryRun) done.underway = chunk
    try {
      const report = await bulkPastRefreshes(client, { locations: chunk.map((r) => r.location), dry_run: dryRun }, snapshot, signal)
      reports.push({ ...report, results: report.results.filter((r) => r.index === null || !chunk[r.index]?.dryOnly) })
      if (!dryRun) done.sent += listed(chunk)
      if (!dryRun) done.deleted += chunk.length - listed(chunk)
      for (const r of dryRun ? [] : report.results)
        if (r.action === 'deleted' || r.action === 'absent') answered.gone.set(chunk[r.index!]!.location.id!, r.action === 'absent')
      if (!dryRun) answered.reports.push(report)
      done.underway = []
    } catch (e) {
      if (!(e instanceof StorelocError)) throw e
      if (e.code === 'precondition_failed') throw keptChanged(e, chunk.map((r) => r.store), { rows: rowsNamed(chunk), dryRun })
      if (e.details === undefined) {
        if (!refusedWhole(e)) throw e
        // None of its rows is written: its refusal names them, and its message's items, by the file.
        done.underway = []
        throw refusalOf(e, chunk)
      }
      // The server names items by their place in the request: name them by the file's instead.
      for (const [detail, messages] of Object.entries(e.details)) {
        const row = chunk[itemAt(detail)]
        for (const m of messages) problems.push({ label: row?.label, message: problemSaid(chunk, detail, m) })
        if (row !== undefined && !row.drop && !refused.bySync.has(row.label)) refused.byService.add(row.label)
      }
      if (!dryRun) {
        // Refused whole: none of its rows is written.
        done.underway = []
        for (const line of problemLines(inLineOrder(problems, rows))) console.error(`  ${line}`)
        throw refusalOf(e, chunk)
      }
    }
    sent += listed(chunk)
    // A list of several requests says how far it got, and what its rows did: created, updated, unchanged.
    // A request of deletes alone moves it no further: the next request's line says it.
    if (requests.length > 1 && listed(chunk) > 0)
      progress(`${dryRun ? 'checked' : 'sent'}: ${sent} of ${rows.length} rows${dryRun ? refusedSaid(refused, rows) : didSaid()}`)
  }
  for (const line of problemLines(inLineOrder(problems, rows))) console.error(`  ${line}`)
  const count = refused.bySync.size + refused.byService.size
  // No row refused: the problems are of the deletes sent beside the rows, or of a request.
  if (count === 0 && problems.length > 0) throw new Error('The list cannot be written as sent; nothing was written.')
  if (count > 0)
    throw new Error(
      `${count} of ${rows.length} rows of the list cannot be written as sent${refusedSaid(refused, rows, true)}; nothing was written.`,
    )
  return reports
}

/** The labels of the rows refused so far, each once: by the sync, or else by the service. */
type Refused = { bySync: Set<string>; byService: Set<string> }

/**
 * " (2 refused by the sync, 1 by the service)", the rows refused so far, as the progress says them;
 * `named`: each count followed by its rows as the file has them, " (lines 2, 6)". "" when none is.
 */
function refusedSaid(refused: Refused, rows: Row[], named = false): string {
  const said = (labels: Set<string>, by: string) => {
    const which = named ? ` (${rowsNamed(rows.filter((r) => labels.has(r.label)))})` : ''
    return labels.size === 0 ? [] : [`${labels.size} ${by}${which}`]
  }
  const bySync = said(refused.bySync, 'refused by the sync')
  const counts = [...bySync, ...said(refused.byService, `${bySync.length === 0 ? 'refused ' : ''}by the service`)]
  if (counts.length === 0) return ''
  if (named) return `, ${counts.join(' and ')}`
  return ` (${counts.join(', ')})`
}

/**
 * Whether an answer refuses its request whole, writing none of it: a 4xx, but a 409 of a try of
 * the same write still running (with Retry-After) and a 410 of one made once.
 */
const refusedWhole = (e: StorelocError) =>
  e.status >= 400 && e.status < 500 && e.status !== 410 && !(e.status === 409 && e.retryAfter !== undefined)

/** The refusal of `chunk` in the file's words: the rows it held, and its message's items ("locations[2]") by their lines. */
function refusalOf(e: StorelocError, chunk: Row[]): StorelocError {
  const said = e.message.replace(/locations\[(\d+)\]/g, (item, n) => chunk[Number(n)]?.label ?? item)
  const { retryAfter, requestId } = e
  return new StorelocError(e.status, e.code, `The request ${chunk.every((r) => r.drop) ? '' : 'of '}${rowsNamed(chunk)} was refused: ${said}`, e.details, e.idempotencyKey, {
    retryAfter,
    requestId,
  })
}

/** A problem of the list, of the row `label` names (undefined: a request's own). */
type Problem = { label: string | undefined; message: string }

/**
 * The problems' messages in the order of their rows in the list `rows`, as a person fixing the
 * file reads it, not as sent (a chain goes from its end); those of no row of the list after them.
 */
function inLineOrder(problems: Problem[], rows: Row[]): string[] {
  const place = new Map(rows.map((r, i) => [r.label, i]))
  const at = (p: Problem) => place.get(p.label ?? '') ?? rows.length
  return problems.toSorted((a, b) => at(a) - at(b)).map((p) => p.message)
}

async function main(): Promise<void> {
  const command = commandLine(process.argv.slice(2))
  const source = await readSource(command)
  const plan = await planSync(command, source)
  const sent = await send(command, plan, source.rows, source.snapshot)
  report(command, source, plan, sent)
}

/** The key's locator; null from a service older than its route, whose 404 says it has no such route. */
async function keyLocator(client: StorelocClient) {
  try {
    return await client.locator({ signal })
  } catch (e) {
    if (e instanceof StorelocError && e.status === 404 && e.message.startsWith('No route GET /admin/v1/locator.')) return null
    throw e
  }
}

/** The list as read, with what the sync found in it itself, and the locator's stores as they are. */
type Source = Awaited<ReturnType<typeof readSource>>

/**
 * The list's rows, refused if one has no code, and the locator's stores; each row sent as its
 * store is matched: an address joined as before kept, special hours it leaves out cleared.
 */
async function readSource({ client, file, encoding }: Command) {
  // The key's locator first: a key of another locator would mirror the list there.
  const locator = await keyLocator(client)
  if (locator !== null) console.log(`locator ${JSON.stringify(locator.name)} (${locator.id})`)
  else console.log('locator not named: the service is older than GET /admin/v1/locator; upgrade it to see the locator its key writes.')
  const { rows, unknown, unread, notes, noStore } = readRows(file, await client.customFields({ signal }), encoding)
  for (const note of notes) console.log(`check ${note}`)
  // A JSON item that is no object (null, a number) has no code either.
  const unmatched = rows.filter((r) => typeof r.location?.external_id !== 'string' || r.location.external_id === '')
  if (unmatched.length > 0) {
    const named = unmatched.slice(0, 5).map((r) => r.label)
    const more = unmatched.length > 5 ? ` and ${unmatched.length - 5} more` : ''
    // A list without a code column is the common case: say how to give one, and what was not read.
    const none = unmatched.length === rows.length ? ' Give the list a column of store codes: external_id, "Store Code" or "Filialnummer" are read so.' : ''
    const unread = unknown.length > 0 ? ` Columns not read: ${unknown.join(', ')}.` : ''
    throw new Error(
      `A mirror matches stores by external_id; ${unmatched.length === 1 ? 'this row has' : 'these rows have'} none: ${named.join(', ')}${more}.${none}${unread}`,
    )
  }
  const twice = listedTwice(rows)

  // The locator's stores as they are, by external id: one snapshot, not pages a write between them may shift.
  const current = new Map<string, { id: string }>()
  const stored: Stored[] = []
  const specialOf = new Map<string, Record<string, string>>()
  const addressOf = new Map<string, string>()
  const snapshot: Snapshot = new Map()
  for (const l of await client.exportLocations({}, { signal })) {
    stored.push({ id: l.id, external_id: l.external_id })
    snapshot.set(l.id, l)
    specialOf.set(l.id, l.special_hours)
    addressOf.set(l.id, l.address)
    if (l.external_id !== null) current.set(l.external_id, { id: l.id })
  }
  // A row joined as addresses were before (BulkItem.formerAddress) is its store's address: sent as
  // stored, it neither rewrites it nor moves a pin placed by hand. Its store is the route's (storeOfRow).
  const storeOf = storeOfRow(stored)
  for (const r of rows) {
    const had = addressOf.get(storeOf(r) ?? '')
    if (had !== undefined && joinedAsBefore(had, r.item?.formerAddress, r.item?.postcode))
      (r.location as BulkLocation).address = had
  }
  clearLeftOut(rows, storeOf, specialOf)
  idsOfNoStore(rows, stored)
  return { rows, unknown, unread, twice, stored, current, snapshot, noStore }
}

/**
 * The requests and their dry runs' reports; the stores no row matches (`gone`), those `dropped`
 * deleted in the requests of the rows taking their codes; the ids of the stores rows match.
 */
type Plan = Awaited<ReturnType<typeof planSync>>

/** What to do with a list that has none of the stores' codes: it is cut short, or is to replace them all. */
const REPLACE_ALL =
  " Check that the file is the whole list, with the codes the stores have: GET /admin/v1/locations/export?format=csv, with this key, lists them. To replace them all, delete them first (POST /admin/v1/locations/{id}/delete; on the service's machine, its command line's locations delete LOCATOR_ID ID...), then run the sync again."

/**
 * The list cut into requests, each checked as a dry run; refused, writing nothing, when a row
 * has a problem or the deletes go past what a mirror should do.
 */
async function planSync({ client, size, maxDelete }: Command, source: Source) {
  const { rows, unread, twice, stored, current, snapshot, noStore } = source
  // Stores the list drops whose codes its rows take are deleted in those rows' requests, the rest last.
  // A row listed twice is said so, not checked again: its first row is, with the rest of the list.
  // So is a CSV row read wrong as a whole (cells out of their columns): the service's checks of its
  // fields would be of cells in the wrong ones, as the CLI's import leaves it unchecked.
  const checked = rows.filter((r) => !twice.has(r) && !r.item?.unread?.some((u) => u.field === null))
  const drops = dropsTaken(checked, stored, snapshot)
  const dropped = new Set(drops.map((d) => d.location.id))
  const requests = parts([...checked, ...drops], stored, size)
  // Every request checked first (dry runs write nothing), so a bad row anywhere stops the sync
  // before any write, and one run lists every problem of the list.
  const found = [...unread, ...twice.values()]
  const planned = await upsert(client, requests, true, rows, found, snapshot)
  // What disappeared from the list: the locator's stores that no row matches. A row matches by id
  // first, so a store whose code the list changes (its id column kept) is updated, not deleted.
  const isRow = (r: BulkReport['results'][number]) => r.action !== 'deleted' && r.action !== 'absent'
  const matched = new Set(planned.flatMap((r) => r.results.filter(isRow).map((x) => x.id)))
  const gone = [...current].filter(([, { id }]) => !matched.has(id)).map(([ext, { id }]) => ({ id, external_id: ext }))
  refuseNoStoreNamed(noStore, gone, snapshot)
  // As the bulk route refuses it: an empty list, a cut-short export or codes from the wrong column.
  if (gone.length > 0 && gone.length === current.size)
    throw new Error(
      `The list would delete every one of the locator's ${current.size} stores with an external_id: none of their codes is in it.${lostZeros(planned, gone) || REPLACE_ALL} Nothing was written.`,
    )
  if (maxDelete !== null && gone.length > maxDelete)
    throw new Error(
      `The list would delete ${gone.length} store${gone.length === 1 ? '' : 's'}, more than --max-delete ${maxDelete}: ${gone
        .slice(0, 5)
        .map((g) => g.external_id)
        .join(', ')}${gone.length > 5 ? ` and ${gone.length - 5} more` : ''}.${lostZeros(planned, gone) || ` Check the list; if they are meant to go, run the sync again with --max-delete ${gone.length}.`} Nothing was written.`,
    )
  // As the bulk route refuses delete_missing so: stores deleted and made again under their codes
  // without leading zeros would each lose their id, other codes matching or not.
  const zeros = lostZeros(planned, gone)
  if (zeros !== '')
    throw new Error(
      `The list would delete stores and make them again with new ids:${zeros} To renumber a store, keep its id (an id column) beside its new code. Nothing was written.`,
    )
  return { requests, planned, gone, dropped, matched }
}

/** The words of the bulk route's refusals, as the sync says them: the list deletes what it drops. */
const LIST_WORDS: BulkWords = { ...API_WORDS, deleteMissing: 'The list', sent: 'the list' }

/**
 * As the bulk route refuses delete_missing so: a line read as no store (a count of the rows above
 * it, a totals row) naming a store the list would delete, by its code or name, may be its row cut short.
 */
function refuseNoStoreNamed(noStore: RawRecord[], gone: { id: string; external_id: string }[], snapshot: Snapshot) {
  const going = gone.map((g) => ({ id: g.id, externalId: g.external_id, name: snapshot.get(g.id)?.name ?? '' }))
  try {
    refuseNamedNoStore(going, noStore, LIST_WORDS)
  } catch (e) {
    if (!(e instanceof LocationError)) throw e
    throw new Error([e.message, ...(e.details?.delete_missing ?? [])].join('\n  '))
  }
}

/** The reports of the requests as run (the dry runs' in a dry run), and the stores found deleted already. */
type Sent = Awaited<ReturnType<typeof send>>

/** Writes the plan (not in a dry run): the requests, then the deletes not sent with them. */
async function send(command: Command, plan: Plan, rows: Row[], snapshot: Snapshot) {
  writing = !command.dryRun
  done.toWrite = rows.length
  done.toDelete = plan.gone.length
  try {
    return await write(command, plan, rows, snapshot)
  } catch (e) {
    // The rows written are unchanged in the next run, which neither lists them nor warns of them:
    // what they changed is said now, and their warnings, known before any write (those of the
    // request under way, maybe written, too).
    const goneAlready = new Set([...answered.gone].flatMap(([id, already]) => (already ? [id] : [])))
    const gone = plan.gone.filter((g) => answered.gone.has(g.id))
    printChanges(inListOrder(answered.reports, plan.requests, rows), gone, goneAlready)
    printWarnings(warningsOf(rows, plan.requests, plan.planned, done.requests))
    throw e
  }
}

/** send's writes: the reports of the requests as run (the dry runs' in a dry run), and the stores found deleted already. */
async function write({ client, dryRun, size }: Command, plan: Plan, rows: Row[], snapshot: Snapshot) {
  const { requests, planned, gone, dropped } = plan
  const reports = dryRun ? planned : await upsert(client, requests, false, rows, [], snapshot)

  // One deleted meanwhile (by hand) is answered absent, not refused, and said so: its result has
  // no id, so it is known by its place in the request.
  const goneAlready = new Set<string>()
  reports.forEach((report, chunk) => {
    for (const r of report.results) if (r.action === 'absent') goneAlready.add(requests[chunk]![r.index!]!.location.id!)
  })
  // The rest deleted last, `size` a request, by id, as the rows are sent; each only while as first read (if_updated_at).
  const last = gone.filter((g) => !dropped.has(g.id)).map((g) => deleteRow(g.id, g.external_id, snapshot.get(g.id)?.updated_at))
  if (dryRun) return { reports, goneAlready }
  // The list's rows and their stores, as sent; those it created or updated differ again after another write.
  const listed = reports.flatMap((report, chunk) =>
    report.results.flatMap((r) => {
      const location = r.index === null ? undefined : requests[chunk]![r.index]?.location
      const row = r.action === 'created' || r.action === 'updated' || r.action === 'unchanged'
      return location === undefined || location.delete || r.id === null || !row ? [] : [{ id: r.id, location, made: r.action !== 'unchanged' }]
    }),
  )
  const wrote = listed.filter((w) => w.made)
  const lacks = new Set(gone.map((g) => g.id))
  const others = { toDelete: last.length, size, gone: answered.gone, listed, lacks }
  // Deleted only when no other write came since the stores were read: another sync's rows are no list's to drop.
  if (last.length > 0) await refuseOthersChanges(client, snapshot, reports, wrote, others, signal)
  for (let i = 0; i < last.length; i += size) {
    const chunk = last.slice(i, i + size)
    const report = await sendDeletes(client, chunk, snapshot)
    done.deleted += chunk.length
    for (const r of report.results) {
      answered.gone.set(chunk[r.index!]!.location.id!, r.action === 'absent')
      if (r.action === 'absent') goneAlready.add(chunk[r.index!]!.location.id!)
    }
    // A store found gone is no store deleted: counted apart, as the summary does.
    const already = last.slice(0, i + size).filter((d) => goneAlready.has(d.location.id!)).length
    const sent = Math.min(i + size, last.length)
    if (last.length > size)
      progress(`deleted: ${sent - already} of ${last.length} stores${already > 0 ? `, ${already} already gone` : ''}`)
  }
  // Looked at again once done: another sync's check before its deletes may have passed before
  // these, as this one's before its own; each would end "in step" with the other's list's stores gone.
  await refuseOthersChanges(client, snapshot, reports, wrote, { ...others, done: true }, signal)
  return { reports, goneAlready }
}

/** Writes a request of deletes alone; its failure, and a refusal's problems, name its stores. */
async function sendDeletes(client: StorelocClient, chunk: Row[], snapshot: Snapshot): Promise<BulkReport> {
  done.underway = chunk
  try {
    const report = await bulkPastRefreshes(client, { locations: chunk.map((r) => r.location) }, snapshot, signal)
    done.underway = []
    return report
  } catch (e) {
    if (!(e instanceof StorelocError) || !refusedWhole(e)) throw e
    // Refused whole: none of its stores is deleted.
    done.underway = []
    if (e.code === 'precondition_failed') throw keptChanged(e, chunk.map((r) => r.store), done)
    for (const [detail, messages] of Object.entries(e.details ?? {}))
      for (const m of messages) console.error(`  ${problemSaid(chunk, detail, m)}`)
    throw refusalOf(e, chunk)
  }
}

/** Prints what changed (or would), what is worth a look, and the counts. */
function report({ dryRun }: Command, { rows, unknown, stored }: Source, plan: Plan, { reports, goneAlready }: Sent): void {
  const { requests, planned, gone, matched } = plan
  const results = inListOrder(reports, requests, rows)
  printChanges(results, gone, goneAlready, dryRun)
  printWarnings(warningsOf(rows, requests, planned))
  // How the addresses placed were: a list of towns' stores all on their towns' points is worth a look.
  const placed = geocodingLine({ results }, null)
  if (placed !== null) console.log(placed)
  if (unknown.length > 0) console.log(`columns not read (no location field has these names): ${unknown.join(', ')}`)
  const count = (action: string) => results.filter((r) => r.action === action).length
  // Stores without a code are no list's to delete: the count says the locator holds them beside the list.
  const left = stored.filter((s) => s.external_id === null && !matched.has(s.id)).length
  const kept = left === 0 ? '' : `; ${left} store${left === 1 ? '' : 's'} without an external_id left as ${left === 1 ? 'it is' : 'they are'}`
  console.log(
    `${dryRun ? 'Dry run, nothing written: ' : ''}${count('created')} created, ${count('updated')} updated, ${count('unchanged')} unchanged, ${gone.length - goneAlready.size} deleted${kept}.`,
  )
}

/** " (lines 4-6)", ' (deleting "S9" (loc_...))': the rows or stores of the write under way; "" when none is. */
const underway = () => (done.underway.length === 0 ? '' : ` (${rowsNamed(done.underway)})`)

/**
 * ", 2 of the 5 stores the list lacks deleted": how far the deletes got when the sync stopped
 * (those found gone already counted in); "" when the list lacks no store.
 */
function deletesSaid(): string {
  const { deleted, toDelete } = done
  if (toDelete === 0) return ''
  const stores = toDelete === 1 ? 'the store the list lacks' : `the ${toDelete} stores the list lacks`
  if (deleted === 0) return `, ${stores} not deleted yet`
  return deleted >= toDelete ? `, ${stores} deleted` : `, ${deleted} of ${stores} deleted`
}

/** "; the request under way (line 2) may have gone through too": said only while one is. */
const underwaySaid = () => (done.underway.length === 0 ? '' : `; the request under way${underway()} may have gone through too`)

main().catch((e) => {
  if (signal.aborted && e === signal.reason) {
    if (!writing) console.error(`sync: stopped (${stopped.by}) before writing anything.`)
    else
      console.error(
        `sync: stopped (${stopped.by}): ${done.sent} of ${done.toWrite} rows sent${didSaid()}${deletesSaid()}${underwaySaid()}. Run the sync again: it writes only what is not in step yet.`,
      )
    process.exit(stopped.code)
  }
  // No answer before any write: most often a service not started, or another port in STORELOC_URL.
  const unanswered = e instanceof StorelocError && e.code === 'network_error'
  const unreached = !writing && unanswered
  const lost = unanswered ? `No answer from the service at ${process.env.STORELOC_URL}: ` : ''
  const where = unreached ? `Cannot reach the service at ${process.env.STORELOC_URL}: ` : lost
  const message = e instanceof Error ? e.message : String(e)
  // The runtime's first sentence says what failed; ours, not its own advice, says what to do.
  const failed = message.replace(/([.?!]) .*$/, '').replace(/[.?!]*$/, '')
  // Not found before any write: reads whose routes every service has (keyLocator takes an older
  // service's lack of /admin/v1/locator), so the address is no service's (a path too many, a finder's page).
  const unrouted = !writing && e instanceof StorelocError && e.status === 404
  const misaddressed = `${message.replace(/\.?$/, '.')} Check that STORELOC_URL is the service's address, such as http://127.0.0.1:3000, which the sync's /admin/v1/... paths follow; it is ${JSON.stringify(process.env.STORELOC_URL)}.`
  const said = unreached
    ? `${failed}. Check that it runs, and that STORELOC_URL is its address.`
    : unanswered
      ? `${failed}.`
      : unrouted
        ? misaddressed
        : message
  const waited = Number(process.env.STORELOC_STARTUP_WAIT ?? '120')
  if (e instanceof StorelocError && e.starting && waited === 0)
    // Not waited for, as asked: a start is no failure to report, and takes longer than "a moment".
    console.error(
      `sync: the service at ${process.env.STORELOC_URL} is starting (STORELOC_STARTUP_WAIT=0 waits for no start): a first start builds the geocoder's data, 15 s to a minute or more. Run the sync again shortly, once GET /readyz answers 200, or set STORELOC_STARTUP_WAIT to the seconds to wait.`,
    )
  else if (e instanceof StorelocError && e.starting)
    // Waited already: its "retry in a moment" and Retry-After: 1 would send the user round again.
    console.error(
      `sync: the service at ${process.env.STORELOC_URL} did not finish starting within ${waited} s: a first start builds the geocoder's data, longer on a slow machine. Run the sync again once GET /readyz answers 200, or set STORELOC_STARTUP_WAIT to more seconds.`,
    )
  else console.error(`sync: ${where}${said}`)
  // What the answer's headers add: when to run again, and the id a report of a failure quotes.
  if (e instanceof StorelocError && !e.starting && e.retryAfter !== undefined)
    console.error(`sync: the service asks to be tried again in ${e.retryAfter} s.`)
  if (e instanceof StorelocError && !e.starting && e.status >= 500 && e.requestId !== undefined)
    console.error(`sync: request id ${e.requestId}: quote it when reporting this failure.`)
  // Its message says what is written and when to run the sync again: not "part of the list".
  if (e instanceof SaysWritten) process.exit(3)
  if (!writing) process.exit(1)
  // A request refused whole wrote none of its rows: what the requests before it did is known. Its
  // refusal may follow an earlier try of it that wrote them, its answer lost (sync-tries.ts).
  if (e instanceof StorelocError && refusedWhole(e)) {
    const sent = sentMaybeWritten(e.idempotencyKey)
    const none = done.sent === 0 && done.deleted === 0
    const before = none
      ? sent > 0
        ? 'no request before it is written'
        : 'nothing is written'
      : `the requests before it are written: ${done.sent} of ${done.toWrite} rows sent${didSaid()}${deletesSaid()}`
    const maybe =
      sent > 0 ? ` This one may be written too: it was sent ${sent} times, and a try before its refusal may have gone through.` : ''
    console.error(`sync: ${before}.${maybe} Run the sync again: it writes only what is not in step yet.`)
    process.exit(3)
  }
  console.error(
    `sync: part of the list may be written${done.underway.length > 0 ? `, the request under way${underway()} too` : ''}. Run the sync again: it writes only what is not in step yet.`,
  )
  process.exit(3)
})
