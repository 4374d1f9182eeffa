// POST /admin/v1/locations/bulk: the request (JSON or CSV) read into the bulk upsert's items.
import { meantName } from '../../core/text'
import { FLAG_VALUES, flagValue, isCheckedBox, single, wholeNumber } from '../../core/urlencoded'
import { gotInstead } from '../../core/sent-value'
import { BULK_MAX_ITEMS, type BulkItem } from '../../locations/bulk'
import { type CsvRead, csvBulkItems, type NamedField, readLocationsCsvInSlices } from '../../locations/csv'
import { takesOnly } from '../../locations/service'
import { CsvError } from '../../locations/csv-records'
import { type ParsedBody, type SentShape, sentAs } from '../body'
import { typeReadOf } from '../content-type'
import { AdminError } from './errors'

/** The bulk route's body limit: 1,000 full locations fit. */
export const BULK_MAX_BODY_BYTES = 8 * 1024 * 1024

export type BulkRequest = { items: BulkItem[]; dryRun: boolean; deleteMissing: boolean; maxDelete: number | null }

const invalid = (field: string, message: string) =>
  new AdminError('validation_error', undefined, { [field]: [message] })

/** The fields of a JSON bulk body, and the body as a message shows it. */
const BODY_FIELDS = ['locations', 'dry_run', 'delete_missing', 'max_delete']
const BODY_SHAPE = '{"locations": [...], "dry_run": false, "delete_missing": false, "max_delete": null}'

/**
 * An option from the JSON body or the query string (`read` parses the query's text; null: not
 * such a value), else undefined. Both may give it, alike: a body and a query string that
 * disagree (a dry run or not?) are refused, so neither is guessed. `body` is the body's value,
 * already checked, null or undefined when it gives none; `expects` ends the messages.
 */
function bodyOrQuery<T>(
  name: string,
  body: T | null | undefined,
  params: URLSearchParams,
  read: (sent: string) => T | null,
  expects: string,
): T | undefined {
  const sent = single(params, name, (tail) => new AdminError('invalid_request', `The ${name} parameter ${tail}`))
  if (sent === null) return body ?? undefined
  const fromQuery = read(sent)
  if (fromQuery === null)
    throw new AdminError('invalid_request', `The ${name} parameter must be ${expects}; got ${JSON.stringify(sent)}.`)
  if (body !== undefined && body !== null && body !== fromQuery)
    throw new AdminError(
      'invalid_request',
      `The ${name} parameter is ${fromQuery} and the body's ${name} field is ${body}: send it once.`,
    )
  return fromQuery
}

/** A flag from the JSON body or the query string, else false. */
function flag(name: string, fromBody: unknown, params: URLSearchParams): boolean {
  if (fromBody !== undefined && typeof fromBody !== 'boolean')
    throw invalid(name, `The ${name} field must be true or false${gotInstead(fromBody, flagValue, 'false')}`)
  return bodyOrQuery(name, fromBody, params, flagValue, FLAG_VALUES) ?? false
}

/**
 * max_delete from the JSON body or the query string, else null (no limit): the most locations
 * delete_missing may delete.
 */
function maxDelete(fromBody: unknown, params: URLSearchParams): number | null {
  if (fromBody !== undefined && fromBody !== null && !(Number.isSafeInteger(fromBody) && (fromBody as number) >= 0))
    throw invalid(
      'max_delete',
      `The max_delete field must be a whole number of 0 or more, or null${gotInstead(fromBody, wholeNumber, 'no limit')}`,
    )
  return (
    bodyOrQuery(
      'max_delete',
      fromBody as number | null | undefined,
      params,
      wholeNumber,
      'a whole number of 0 or more',
    ) ?? null
  )
}

/** max_delete limits delete_missing: alone it would be read as a guard and guard nothing. */
function withDeleteMissing(request: BulkRequest): BulkRequest {
  if (request.maxDelete !== null && !request.deleteMissing)
    throw new AdminError('invalid_request', 'max_delete is for delete_missing: send both, or neither.')
  return request
}

/** The body's fields that are not a bulk request's, each with what it may have meant ("dryRun": dry_run). */
function unknownFields(body: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const name of Object.keys(body)) {
    // An export's JSON answer posts back as it is: its success field says nothing to a write.
    if (BODY_FIELDS.includes(name) || name === 'success') continue
    out[name] = [`The ${name} field is unknown${meantName(name, BODY_FIELDS)}: a bulk body is ${BODY_SHAPE}.`]
  }
  return out
}

/** The query string's flags: the body's fields but its items. */
export const QUERY_FLAGS = BODY_FIELDS.filter((f) => f !== 'locations')

const checkParams = (params: URLSearchParams) => takesOnly(params, QUERY_FLAGS)

/**
 * How to send a list too long for one request: in parts, which delete_missing must not be sent
 * with, since each part would delete the others'.
 */
const inParts = (what: string, deleteMissing: boolean): string =>
  deleteMissing
    ? `Send ${what} in several requests without delete_missing: it looks only at its own request, so each part would delete the others' locations. Then delete the locations the list lacks, as examples/sync.ts does, or import the whole list with the CLI's locations import --delete-missing, which takes any number.`
    : `Send ${what} in several requests (the CLI's locations import takes any number).`

/** inParts' advice for a request whose delete_missing is not known (a body too large to read). */
const WITHOUT_DELETE_MISSING =
  "With delete_missing, send each part without it: it looks only at its own request, so each part would delete the others' locations. Then delete the locations the list lacks, as examples/sync.ts does, or import the whole list with the CLI's locations import --delete-missing."

/** The refusal of more than BULK_MAX_ITEMS locations (`got`: how many, as said). */
const tooMany = (got: string, deleteMissing: boolean): AdminError =>
  invalid(
    'locations',
    `The locations field may not have more than ${BULK_MAX_ITEMS} items; ${got}. ${inParts('them', deleteMissing)}`,
  )

/** The items and options of a JSON bulk request, or the documented error. */
export function jsonBulkRequest(value: unknown, params: URLSearchParams): BulkRequest {
  if (Array.isArray(value))
    throw new AdminError(
      'invalid_request',
      `The request body must be a JSON object, not an array: ${BODY_SHAPE}. An array of locations (as the CLI's locations export prints) goes in its locations field.`,
    )
  if (value === null || typeof value !== 'object')
    throw new AdminError('invalid_request', `The request body must be a JSON object: ${BODY_SHAPE}.`)
  const body = value as Record<string, unknown>
  checkParams(params)
  // A misspelt flag ("dryRun") would otherwise write for real.
  const unknown = unknownFields(body)
  if (Object.keys(unknown).length > 0) throw new AdminError('validation_error', undefined, unknown)
  const locations = body.locations
  if (locations === undefined) throw invalid('locations', 'The locations field is required.')
  if (!Array.isArray(locations)) throw invalid('locations', 'The locations field must be an array.')
  const deleteMissing = flag('delete_missing', body.delete_missing, params)
  if (locations.length > BULK_MAX_ITEMS) throw tooMany(`got ${locations.length}`, deleteMissing)
  return withDeleteMissing({
    items: locations.map((raw, i) => ({ raw, key: `locations[${i}]` })),
    dryRun: flag('dry_run', body.dry_run, params),
    deleteMissing,
    maxDelete: maxDelete(body.max_delete, params),
  })
}

/** The shortest bulk body, for a message to a person who sent none. */
const JSON_EXAMPLE = '{"locations": [{"name": "A", "address": "1 Main St, Town"}]}'

/** How a file is sent as it is: its Content-Type by what it reads as; `tsv` reads by tabs. */
type Sent = 'json' | 'csv' | 'tsv'
const TYPES: Record<Sent, string> = { json: 'application/json', csv: 'text/csv', tsv: 'text/tab-separated-values' }

/**
 * The curl command that sends a file as it is: named as sent (its folder dropped, as old browsers
 * sent C:\fakepath\a.csv), in double quotes where a shell would split it, else FILE (`unknown`: no
 * file of the body was read) or stores; a CSV file (`tsv`: tab separated) with the charset its
 * part named.
 */
function sendFile(name: string, type: Sent, unknown = false, charset: string | null = null): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
  // "-" is curl's stdin; within double quotes a shell still reads $, `, \ and !, and cmd.exe %.
  // A browser writes a name's " as %22. U+FFFD stands for bytes not UTF-8: no file's name.
  const file = /^\w[\w.+-]{0,59}$/.test(base)
    ? base
    : /^[^"$`\\!%\x00-\x1f\x7f\uFFFD]{1,60}$/.test(base) && base !== '-'
      ? `"${base}"`
      : `${unknown ? 'FILE' : 'stores'}.${type}`
  const named = type === 'json' || charset === null ? TYPES[type] : `${TYPES[type]}; charset=${charset}`
  return `curl --data-binary @${file} -H "Content-Type: ${named}"`
}

/** How a body that reads as CSV is told to be sent: as tab separated values when its lines split by tabs. */
const asCsv = (shape: SentShape | undefined): { kind: 'csv' | 'tsv'; reads: string } =>
  shape?.tabs ? { kind: 'tsv', reads: 'reads as tab separated values' } : { kind: 'csv', reads: 'reads as CSV' }

/** `"name", "lat"`: a form's field names as a message lists them. */
const fieldList = (fields: string[]): string =>
  fields.length === 0
    ? 'no fields'
    : `the field${fields.length === 1 ? '' : 's'} ${fields
        .slice(0, 5)
        .map((f) => JSON.stringify(f.slice(0, 40)))
        .join(', ')}${fields.length > 5 ? ', ...' : ''}`

/**
 * The query string that carries a form's flags (dry_run, delete_missing, max_delete), as advice
 * goes on: the file or JSON sent as the body, a dry run without it would write. A checkbox's `on`
 * (a browser's value for a box without one) is written `true`, which the query string reads; a
 * hidden field and its ticked checkbox (isCheckedBox), in either order (ASP.NET MVC writes the box
 * first), as the box's value alone: the query string reads a flag given once.
 * `given`: SentShape's texts, which parseBody keeps to QUERY_FLAGS.
 */
function flagsIn(given: [string, string][]): string {
  const hidden = (flag: [string, string]) => {
    const same = given.filter(([name]) => name === flag[0])
    const other = same[0] === flag ? same[1] : same[0]
    return same.length === 2 && isCheckedBox(flag[1], other![1])
  }
  const flags = given
    .filter((flag) => !hidden(flag))
    .map(([name, value]): [string, string] => [name, name !== 'max_delete' && value === 'on' ? 'true' : value])
  if (flags.length === 0) return ''
  const names = fieldList([...new Set(flags.map(([name]) => name))])
  return `, and ${names} in the query string: POST /admin/v1/locations/bulk?${new URLSearchParams(flags)}`
}

/**
 * How a form or an unread body was sent, and how to send what it holds: curl -d sends a form
 * (dropping a file's line breaks), curl -F a file upload, neither the file as it is.
 */
function howSent(body: ParsedBody | undefined, type: string): string {
  const { kind, reads } = asCsv(body !== undefined && 'shape' in body ? body.shape : undefined)
  if (body?.kind === 'empty' && body.unread !== undefined)
    return body.shape?.csv
      ? ` It was sent ${sentAs(body.unread)}, and ${reads}: send it as ${TYPES[kind]}, with ${sendFile('', kind)}.`
      : ` It was sent ${sentAs(body.unread)}.`
  if (body?.kind !== 'form' && body?.kind !== 'invalid_form') return ''
  const shape = body.shape
  const flags = flagsIn(shape?.texts ?? [])
  const asJson = (unknown = false) =>
    `Send JSON, such as ${JSON_EXAMPLE} with Content-Type: application/json, or a CSV file as it is, with ${sendFile('', 'csv', unknown)}${flags}.`
  if (type === 'application/x-www-form-urlencoded') {
    const form = 'as a form, "application/x-www-form-urlencoded"'
    if (shape?.csv && shape.lines)
      return ` It was sent ${form}, curl's type for a body sent without a Content-Type of its own: add the CSV type, with ${sendFile('', kind)}.`
    return shape?.csv
      ? ` It was sent ${form} (curl -d sends a form, and drops the line breaks of a file): send a CSV file as it is, with ${sendFile('', kind)}.`
      : ` It was sent ${form}, with ${fieldList(shape?.fields ?? [])}, and this route reads no form. ${asJson()}`
  }
  if (type !== 'multipart/form-data') return ''
  // Its parts not found: why, though a form read whole would be refused too. What they hold is
  // not known, so no file is named; nor when it is a CSV file sent as it is, with a form's type.
  if (body.kind === 'invalid_form' && shape?.csv)
    return ` It was sent as "multipart/form-data", but is no form: it ${reads}. Send it as ${TYPES[kind]}, with ${sendFile('', kind, true)}.`
  if (body.kind === 'invalid_form' && shape === undefined)
    return ` It was sent as "multipart/form-data", and this route reads no form; nor could its parts be read: ${body.reason} ${asJson(true)}`
  if (body.kind === 'invalid_form' && shape?.lost)
    return ` It was sent as "multipart/form-data", and this route reads no form; nor could one of its parts be read: ${body.reason} ${asJson(true)}`
  const file = shape?.file
  if (file === undefined)
    return shape?.fields
      ? ` It was sent as "multipart/form-data", a form with ${fieldList(shape.fields)}, and this route reads no form. ${asJson()}`
      : ' It was sent as "multipart/form-data", and this route reads no form.'
  const upload = `as "multipart/form-data", a form's file upload (curl -F)`
  if (file.empty)
    return ` It was sent ${upload} of ${JSON.stringify(file.name.slice(0, 60))}, which is empty (0 bytes): send the file that holds the locations as the body, with ${sendFile(file.name, file.reads ?? 'csv')}${flags}.`
  if (file.reads === null)
    return ` It was sent ${upload} of ${JSON.stringify(file.name.slice(0, 60))} (${JSON.stringify(file.type.slice(0, 60) || 'no type')}), neither JSON nor CSV: save it as CSV, and send that file itself as the body, with ${sendFile('', 'csv')}${flags}.`
  return ` It was sent ${upload}: send the file itself as the body, with ${sendFile(file.name, file.reads, false, file.charset)}${flags}.`
}

/**
 * The error for a bulk body that is neither JSON nor CSV, over the limit, or unreadable.
 * `contentType`: the request's, which says how a form body was sent.
 */
export function bulkBodyError(
  body: ParsedBody | undefined,
  contentType = '',
  params = new URLSearchParams(),
): AdminError {
  if (body?.kind === 'too_large') {
    // The body is unread: without the query string's word, it may hold delete_missing (the
    // field is mostly sent in it), and a split sent so deletes: how to split is said for both.
    const deleteMissing = flagValue(params.get('delete_missing') ?? '')
    const parts =
      deleteMissing === null
        ? `${inParts('the locations', false)} ${WITHOUT_DELETE_MISSING}`
        : inParts('the locations', deleteMissing)
    return new AdminError(
      'payload_too_large',
      `The request body may not be larger than ${BULK_MAX_BODY_BYTES / 1024 / 1024} MiB on this route. ${parts}`,
    )
  }
  if (body?.kind === 'invalid_json')
    return new AdminError('invalid_request', `The request body is not valid JSON: ${body.reason}`)
  if (body?.kind === 'encoded' || body?.kind === 'charset' || body?.kind === 'too_wide')
    return new AdminError('invalid_request', body.reason)
  const sent = howSent(body, typeReadOf(contentType))
  return new AdminError(
    'invalid_request',
    `Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values).${sent}`,
  )
}

/** How the refusal of a CSV body that is not UTF-8 says to name its encoding. */
const NAME_CHARSET = (label: string) => `name it in the Content-Type: text/csv; charset=${label}`
const NAME_NO_CHARSET = 'send it as Content-Type: text/csv, or text/csv; charset=utf-8'

/**
 * The items and options of a CSV bulk request (flags in the query string), with its unknown
 * columns. `charset`: the Content-Type's, the body's encoding (UTF-8 when null); `typedSeparator`:
 * the separator its type names. Read in slices: other locators' queries are answered while a
 * body of 8 MiB is.
 */
export async function csvBulkRequest(
  { bytes, charset, typedSeparator }: { bytes: Uint8Array; charset: string | null; typedSeparator?: string },
  params: URLSearchParams,
  customFields: readonly NamedField[],
): Promise<BulkRequest & Pick<CsvRead, 'unknown' | 'notes' | 'noStore'>> {
  checkParams(params)
  let read: CsvRead
  try {
    read = await readLocationsCsvInSlices(bytes, customFields, {
      encoding: charset,
      nameEncoding: NAME_CHARSET,
      nameNoEncoding: NAME_NO_CHARSET,
      maxRows: BULK_MAX_ITEMS,
      typedSeparator,
    })
  } catch (e) {
    if (e instanceof CsvError) throw new AdminError('invalid_request', `The CSV body cannot be read: ${e.message}`)
    throw e
  }
  const deleteMissing = flag('delete_missing', undefined, params)
  // Reading stopped at the row after the limit: the file's own count is not known.
  if (read.rows.length > BULK_MAX_ITEMS) throw tooMany('the CSV body has more rows of locations', deleteMissing)
  return {
    ...withDeleteMissing({
      items: csvBulkItems(read),
      dryRun: flag('dry_run', undefined, params),
      deleteMissing,
      maxDelete: maxDelete(undefined, params),
    }),
    unknown: read.unknown,
    notes: read.notes,
    noStore: read.noStore,
  }
}
