// Bulk upsert's delete items ({"external_id": ..., "delete": true}, or by id): read, matched, and
// reported. One naming no location is no error: a sync run again, or a store already deleted by
// hand, still goes through, and its result says there was nothing to delete.
import type { LocationRecord } from '../store/locations'
import { LOCATION_ID } from '../core/ids'
import { gotInstead } from '../core/sent-value'
import { flagValue } from '../core/urlencoded'
import { quoted, trimStrings } from '../core/validation'
import type { BulkResult } from './bulk'
import { sameCode } from './bulk-codes'
import { checkExternalId } from './normalize'

/** A delete item: the location it deletes, if there is one. */
export type Removal = {
  index: number
  line: number | undefined
  key: string
  /** The location it deletes; null: none has its id or external_id. */
  target: string | null
  /** The id it was sent with, else null (it names its location by external_id). */
  sentId: string | null
  /** The external_id it was sent with, else null. */
  sentExternalId: string | null
  /** Its if_updated_at as sent, else null: the location is deleted only while its updated_at is this instant. */
  ifUpdatedAt: string | null
}

/** The fields a delete item may have: what names its location, the flag, and its condition. */
const REMOVAL_FIELDS = new Set(['id', 'external_id', 'delete', 'if_updated_at'])

/** An ISO 8601 date and time with its offset, as updated_at is written ("2026-12-02T02:27:31.441Z"). */
const INSTANT = /^(\d{4})-(\d\d)-(\d\d)T\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/i

/** Whether `text` is an INSTANT of a day the calendar has: Date.parse reads February 30 as March 2. */
function isInstant(text: string): boolean {
  const [, year, month, day] = INSTANT.exec(text) ?? []
  if (year === undefined || Number.isNaN(Date.parse(text))) return false
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() === Number(day)
}

/** A date and time without its offset (Python's isoformat() of a naive datetime), which names no instant. */
const zoneless = (sent: unknown) => typeof sent === 'string' && isInstant(`${sent}Z`)

/** Whether a location's updated_at is the instant an if_updated_at names, however its offset writes it. */
export const sameInstant = (updatedAt: string, ifUpdatedAt: string) => Date.parse(updatedAt) === Date.parse(ifUpdatedAt)

/** Whether an item is a delete item: its delete field is there and not false (a bad value is its problem). */
export const isRemoval = (raw: Record<string, unknown>) => raw.delete !== undefined && raw.delete !== false

type Lookup = {
  byId: (id: string) => LocationRecord | null
  byExternalId: (ext: string) => LocationRecord | null
}

/**
 * A delete item matched to its location: by id, else by external_id (an id of no location gives
 * way to the external_id, as for updates); or its problems, by field (null: the item's own).
 */
export function readRemoval(
  raw: Record<string, unknown>,
  lookup: Lookup,
):
  | { target: LocationRecord | null; sentId: string | null; sentExternalId: string | null; ifUpdatedAt: string | null }
  | [string | null, string][] {
  if (raw.delete !== true)
    return [
      ['delete', `The delete field must be true or false${gotInstead(raw.delete, flagValue, 'an ordinary item')}`],
    ]
  const problems: [string | null, string][] = []
  // One problem of the item, however many fields: a whole row of an export marked delete is one mistake.
  const extra = Object.keys(raw).filter((name) => !REMOVAL_FIELDS.has(name))
  if (extra.length > 0) {
    const more = extra.length > 5 ? ` and ${extra.length - 5} more` : ''
    problems.push([
      null,
      `a delete item names its location by id or external_id, nothing else: leave out ${extra.slice(0, 5).map(quoted).join(', ')}${more}, or leave out delete to update the location.`,
    ])
  }
  // As a write reads them: a pasted value's blanks are no part of it.
  const id = trimStrings(raw.id)
  const ext = trimStrings(raw.external_id)
  const sentId = id === undefined || id === null || id === '' ? null : id
  const sentExternalId = ext === undefined || ext === null || ext === '' ? null : ext
  if (sentId !== null && typeof sentId !== 'string')
    problems.push(['id', `The id field must be a location's id, a text (loc_...); got ${quoted(sentId)}.`])
  else if (sentId !== null && !LOCATION_ID.test(sentId)) {
    // Beside a store code, the location is named already: only the id is in the way.
    const fix =
      typeof sentExternalId === 'string'
        ? `leave the id out, and the external_id ${JSON.stringify(sentExternalId)} names the location to delete.`
        : 'to delete by your own store code, give it as external_id.'
    problems.push(['id', `id ${quoted(sentId)} is not an id of this service (loc_...): ${fix}`])
  }
  // Held to the rules of every external_id, in their words: one no location could have is a
  // mistake, not a store gone, and its result would echo it.
  checkExternalId(sentExternalId, (field, message) => problems.push([field, message]))
  if (sentId === null && sentExternalId === null)
    problems.push([null, 'a delete item needs the id or the external_id of the location to delete.'])
  const ifUpdatedAt = raw.if_updated_at ?? null
  if (ifUpdatedAt !== null && (typeof ifUpdatedAt !== 'string' || !isInstant(ifUpdatedAt)))
    problems.push([
      'if_updated_at',
      `The if_updated_at field must be the location's updated_at as read, such as "2026-12-02T02:27:31.441Z"; got ${quoted(ifUpdatedAt)}${zoneless(ifUpdatedAt) ? ', which names no time zone: add Z, as updated_at is in UTC' : ''}.`,
    ])
  if (problems.length > 0) return problems
  const byId = sentId === null ? null : lookup.byId(sentId as string)
  if (byId !== null && sentExternalId !== null && !sameCode(byId.externalId, sentExternalId as string))
    return [
      [
        'external_id',
        `id ${byId.id} is the location with the external_id ${byId.externalId === null ? 'none' : JSON.stringify(byId.externalId)}, not ${JSON.stringify(sentExternalId)}: give one of them.`,
      ],
    ]
  const target = byId ?? (sentExternalId === null ? null : lookup.byExternalId(sentExternalId as string))
  return {
    target,
    sentId: sentId as string | null,
    sentExternalId: sentExternalId as string | null,
    ifUpdatedAt: ifUpdatedAt as string | null,
  }
}

/** A delete item's result: what it deleted (or, in a dry run, would), or that nothing had its id or external_id. */
export function removalResult(removal: Removal, deleted: LocationRecord | null): BulkResult {
  const place = { index: removal.index, ...(removal.line === undefined ? {} : { line: removal.line }) }
  if (deleted !== null)
    return {
      ...place,
      id: deleted.id,
      external_id: deleted.externalId,
      name: deleted.name,
      action: 'deleted',
      geocoding: null,
      warnings: [],
    }
  const named = [
    removal.sentId === null ? null : `the id ${JSON.stringify(removal.sentId)}`,
    removal.sentExternalId === null ? null : `the external_id ${JSON.stringify(removal.sentExternalId)}`,
  ]
    .filter((part) => part !== null)
    .join(' or ')
  return {
    ...place,
    id: null,
    external_id: removal.sentExternalId,
    action: 'absent',
    geocoding: null,
    warnings: [`No location of this locator has ${named}: there was nothing to delete.`],
  }
}
