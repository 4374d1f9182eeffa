// Request bodies, read once and classified, so routes decide what each case means.
import { encodingNamed, isAsciiLabel, singleQuoted, singleQuotedRefused, utf8Marked } from '../core/charset'
import { jsonFault } from '../core/json-fault'
import { jsonShapeSteps } from '../core/json-shape'
import { inSlices } from '../core/slices'
import { bytesUpTo, closesAfter } from '../core/read-bytes'
import { utf8Text } from '../core/text'
import { firstBrokenPair } from '../core/urlencoded'
import { separatorOfName } from '../locations/csv'
import { splitsByTabs } from '../locations/csv-records'
import { type BodyDigest, bodyDigest, type MultipartOf } from './body-digest'
import { type FormFields, formFields } from './form-fields'
import { charsetOf, mediaTypeOf, paramFault, paramsOf, typeReadOf } from './content-type'
import { lfDelimited, type MultipartBody, readMultipartBody } from './multipart/fields'
import { formDataParts, type Part, utf8Of } from './multipart/parts'
import { type NotRead, notReadReason, partNotRead, whyNoFields } from './multipart/unread'

export type ParsedBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, unknown>; shape?: SentShape }
  /** `unread`: a body was sent, but with this Content-Type ('' for none), which is not read. */
  | { kind: 'empty'; unread?: string; shape?: SentShape }
  | { kind: 'invalid_json'; reason: string }
  /**
   * A form body that cannot be read without losing what was sent (a charset not UTF-8, a broken
   * escape, a file), or whose parts are not found (no shape then, but `csv` for a CSV file sent
   * so). `reason` says why, with how to send a form; on a route that reads CSV, which reads no
   * form, why alone. formRefusal says it.
   */
  | { kind: 'invalid_form'; reason: string; shape?: SentShape }
  | { kind: 'too_large' }
  /**
   * A text/csv body, on a route that reads CSV; its bytes as sent, and the charset its Content-Type
   * names (null: none, read as UTF-8). The reader decodes them.
   */
  | { kind: 'csv'; bytes: Uint8Array; charset: string | null; typedSeparator?: '\t' }
  /** A body sent compressed (a Content-Encoding but identity), which is not read: `reason` says so. */
  | { kind: 'encoded'; reason: string }
  /** JSON whose Content-Type names a charset other than UTF-8, which is not read: `reason` says so. */
  | { kind: 'charset'; reason: string }
  /** JSON with an object or array too large to parse in one stretch (`jsonShape`), not parsed: `reason` says so. */
  | { kind: 'too_wide'; reason: string }

/** The refusal of a form body (invalid_form's `reason`), in the words of every route that takes one. */
export const formRefusal = (reason: string): string => `The form body could not be read: ${reason}`

/**
 * What a form or an unread body holds, for a route that reads CSV (`csv`) to say how to send it.
 * `csv`: its text starts as a CSV file does (a multipart body's too, when it is no form); `tabs`:
 * its lines split by tabs, so text/tab-separated-values reads it by them;
 * `fields`: a form's field names, first sent first; `file`: a multipart body's first file, its
 * name, type and charset (one not UTF-8) as sent, what its bytes read as (`tsv`: as its type or
 * name says, or its lines split by tabs), and `empty` when it has none;
 * `texts`: a form's text fields that the route reads elsewhere (BodyOptions' `flags`), however
 * many fields come before; `lost`: a part FormData drops, which the reason names; `lines`: an
 * urlencoded body holds line breaks, which curl -d drops, so the file was sent whole.
 */
export type SentShape = {
  csv?: boolean
  lines?: true
  lost?: true
  fields?: string[]
  texts?: [string, string][]
  tabs?: true
  file?: { name: string; type: string; charset: string | null; reads: 'json' | 'csv' | 'tsv' | null; empty?: true }
}

/**
 * How a route reads a body: `csv`, a CSV body too (with the shape of one it does not read);
 * `flags`, the text fields of a form that route reads elsewhere (bulk's query flags), kept in its shape.
 */
export type BodyOptions = { csv?: boolean; flags?: readonly string[]; digest?: boolean; jsonShape?: boolean }

/**
 * JSON when the Content-Type says so; urlencoded and multipart bodies become form fields (with
 * `a[b]` and `a[]` nesting); anything else, or nothing, is empty (`unread` naming the type when
 * something was sent).
 */
export async function parseBody(
  request: Request,
  maxBytes: number,
  options: BodyOptions = {},
): Promise<ParsedBody & { digest?: BodyDigest }> {
  const bytes = await bytesUpTo(request, maxBytes, closesAfter(request))
  if (bytes === null) return { kind: 'too_large' }
  // A multipart body is split and read by FormData once, for its fields and its digest alike.
  let multipart: Promise<MultipartBody> | undefined
  const multipartOf = () => (multipart ??= readMultipartBody(bytes, request.headers.get('content-type') ?? ''))
  const parsed = await classify(request, bytes, options, multipartOf)
  return options.digest ? { ...parsed, digest: await bodyDigest(request, bytes, multipartOf) } : parsed
}

/** What a body sent with this Content-Type holds, read by the reader of its type. */
async function classify(
  request: Request,
  bytes: Uint8Array,
  options: BodyOptions,
  multipartOf: MultipartOf,
): Promise<ParsedBody> {
  const contentType = request.headers.get('content-type') ?? ''
  const type = typeReadOf(contentType)
  const encoded = encodedRefusal(request, bytes)
  if (encoded !== null) return encoded
  // Tab separated values are CSV with a tab, which the type names: a comma in a header cell is its text.
  if (options.csv && type === 'text/tab-separated-values')
    return { kind: 'csv', bytes, charset: charsetOf(contentType), typedSeparator: '\t' }
  if (options.csv && type === 'text/csv') return { kind: 'csv', bytes, charset: charsetOf(contentType) }
  // A UTF-8 byte order mark says the body is UTF-8 whatever its charset, as a CSV body is read.
  const charset = utf8Marked(bytes) ? null : charsetOf(contentType)
  if (type === 'application/json' || type.endsWith('+json')) return readJson(bytes, charset, options)
  const flags = options.csv ? (options.flags ?? []) : null
  if (type === 'application/x-www-form-urlencoded') return readUrlencoded(bytes, charset, flags)
  if (type === 'multipart/form-data') return readMultipart(bytes, await multipartOf(), flags)
  if (!bytes.some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return { kind: 'empty' }
  return options.csv ? { kind: 'empty', unread: type, shape: csvShape(bytes) } : { kind: 'empty', unread: type }
}

/** A compressed body is not read: its bytes are not the JSON or form they would be. */
function encodedRefusal(request: Request, bytes: Uint8Array): ParsedBody | null {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase()
  if (encoding === 'identity' || encoding === '' || bytes.length === 0) return null
  return {
    kind: 'encoded',
    reason: `The request body is sent compressed (Content-Encoding: ${encoding.slice(0, 40)}), which this service does not read. Send it uncompressed.`,
  }
}

/** A JSON body (RFC 8259: UTF-8), in `charset` as its Content-Type names it (null: none). */
async function readJson(
  bytes: Uint8Array,
  charset: string | null,
  options: { csv?: boolean; jsonShape?: boolean },
): Promise<ParsedBody> {
  if (!readAsUtf8(charset, isAscii(bytes)))
    return { kind: 'charset', reason: charsetRefused(charset!, options.csv === true) }
  // Other bytes than UTF-8 would be stored as U+FFFD, the text sent lost.
  if (isUtf16(bytes)) return { kind: 'invalid_json', reason: UTF16_JSON }
  const text = utf8Text(bytes)
  if (text === null)
    return {
      kind: 'invalid_json',
      reason:
        'it is not valid UTF-8. Send JSON encoded as UTF-8 (a Latin-1 or Windows-1252 "é" is one byte that UTF-8 does not allow).',
    }
  if (text.trim() === '') return { kind: 'empty' }
  // Counted in slices first: one object of 600,000 keys holds the parse a second.
  const tooWide = options.jsonShape ? await inSlices(jsonShapeSteps(bytes)) : null
  if (tooWide !== null) return { kind: 'too_wide', reason: tooWide }
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch (e) {
    const csv = !options.csv || !looksLikeCsv(text) ? '' : splitsByTabs(text) ? TSV_SENT : CSV_SENT
    // CSV first: a URL's "//" in a cell is no comment.
    return { kind: 'invalid_json', reason: (csv === '' ? jsonFault(text) : null) ?? `${(e as Error).message}${csv}` }
  }
}

/** How a JSON body that reads as CSV is told to be sent: tab separated values by their own type, which reads them by tabs. */
const CSV_SENT = '. It reads as CSV: send it with Content-Type: text/csv.'
const TSV_SENT = '. It reads as tab separated values: send it with Content-Type: text/tab-separated-values.'

/**
 * An urlencoded body, read as URLSearchParams reads it (a "%" without two hex digits after it is
 * kept as typed, as curl -d 'description=20% off' sends it); refused where that reading would
 * change the text. With `flags` (the bulk route's), its shape, for the refusal to say how to send it.
 */
function readUrlencoded(bytes: Uint8Array, charset: string | null, flags: readonly string[] | null): ParsedBody {
  const text = utf8Text(bytes)
  // Parsed once for its shape, its _charset_ and its fields: a parse of 8 MiB takes some 100 ms.
  const params = text === null ? null : new URLSearchParams(text)
  const shape = flags ? formShape(bytes, params, flags) : undefined
  if (!readAsUtf8(charset, text !== null && isAsciiForm(text)))
    return { kind: 'invalid_form', shape, reason: formCharsetRefused(charset!) }
  if (text === null || params === null) return { kind: 'invalid_form', reason: NOT_UTF8, shape }
  const named = charsetField(params.get('_charset_'))
  if (!readAsUtf8(named, isAsciiForm(text))) return { kind: 'invalid_form', shape, reason: charsetFieldRefused(named!) }
  // JSON sent as a form (curl -d without a Content-Type) would be one field named by the whole
  // text: no field of a location. Unread, so the error says how it was sent.
  if (looksLikeJson(text)) return { kind: 'empty', unread: 'application/x-www-form-urlencoded' }
  const broken = firstBrokenPair(text)
  if (broken !== null) {
    const { name } = broken
    return {
      kind: 'invalid_form',
      shape,
      reason: `the field ${JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name)} holds an escape whose bytes are not UTF-8 (é is %C3%A9, not Latin-1's %E9). Send it encoded as UTF-8, or send JSON.`,
    }
  }
  return formOf(formFields(params), shape)
}

/** A multipart body's text fields; one holding a file is refused (with `flags`, saying what the file is). */
async function readMultipart(
  bytes: Uint8Array,
  multipart: MultipartBody,
  flags: readonly string[] | null,
): Promise<ParsedBody> {
  const csv = flags !== null
  const unread = multipartUnread(multipart)
  // A CSV file sent as it is, under a multipart type set by hand: no form, its shape says so.
  if (unread !== null && csv)
    return { kind: 'invalid_form', reason: unread.why, ...(isCsvNotForm(bytes) && { shape: csvShape(bytes) }) }
  if (unread !== null) return { kind: 'invalid_form', reason: `${unread.why} ${unread.fix}` }
  const fields: [string, string][] = []
  let empty: File | undefined
  for (const [k, v] of multipart.fields!) {
    if (typeof v === 'string') fields.push([k, v])
    // A file input left empty (a browser sends it with no name and no bytes) says nothing; an
    // empty file named is the upload, to a route that reads CSV, whatever text (flags) is beside it.
    else if (v.size === 0) empty ??= (v as File).name ? (v as File) : undefined
    else
      return {
        kind: 'invalid_form',
        reason: `the field ${JSON.stringify(k.slice(0, 60))} is a file; location fields are text.`,
        ...(csv && {
          shape: {
            file: await fileShape(v as File, fileCharset(multipart)),
            texts: textsOf(multipart.fields!, flags!),
          },
        }),
      }
  }
  const file = csv && empty !== undefined ? await fileShape(empty, null) : undefined
  const shape: SentShape | undefined = csv
    ? {
        fields: distinct(fields.map(([k]) => k)),
        texts: textsOf(fields, flags!),
        ...(file && { file: { ...file, empty: true as const } }),
      }
    : undefined
  // Whatever charset the body or a part names: the rule of an urlencoded body, for each. Judged
  // first: text in a charset named (Shift_JIS) is seldom UTF-8, and the refusal names that charset.
  const parts = formDataParts(multipart)
  const named = charsetField(fields.find(([k]) => k === '_charset_')?.[1])
  const refused =
    parts === null
      ? wholeRefused(fields, multipart.contentType, named)
      : partRefused(parts, multipart.contentType, named)
  // A part dropped: its fields are not what was sent, and the route that reads CSV says why alone.
  if (typeof refused === 'object' && refused.lost && shape)
    return { kind: 'invalid_form', shape: { ...shape, lost: true }, reason: refused.why }
  if (refused !== undefined)
    return { kind: 'invalid_form', shape, reason: typeof refused === 'string' ? refused : notReadReason(refused) }
  // Its text parts are read as UTF-8, bytes that are not become U+FFFD.
  if (fields.some(([k, v]) => k.includes('\uFFFD') || v.includes('\uFFFD')) && utf8Text(bytes) === null)
    return { kind: 'invalid_form', shape, reason: NOT_UTF8 }
  return formOf(formFields(fields), shape)
}

/** A form read, or refused for its fields (a name given twice). */
const formOf = (fields: FormFields, shape: SentShape | undefined): ParsedBody =>
  'refused' in fields
    ? { kind: 'invalid_form', shape, reason: fields.refused }
    : { kind: 'form', value: fields.value, shape }

/**
 * Why a multipart body's fields are not read, null when FormData reads them: lines in LF alone,
 * no boundary, a boundary empty or holding a backslash, a part's Content-Disposition read in more
 * than one way (readMultipartBody's doubt), or parts that do not match its boundary. `fix`: how a
 * route that reads a form has it sent.
 */
function multipartUnread(multipart: MultipartBody): { why: string; fix: string } | null {
  const boundary = paramsOf(multipart.contentType, true).get('boundary')
  const remade = 'Send the body your HTTP client makes from a form (curl -F)'
  const opening = openingBoundary(multipart.text)
  const toClient = 'leave the Content-Type to your HTTP client, which names the boundary of the form it sends,'
  // Written so, FormData finds no boundary, or another than paramsOf reads.
  const miswritten = multipart.fields === null ? paramFault(multipart.contentType, 'boundary') : null
  if (miswritten !== null)
    return {
      why: `the boundary parameter of its Content-Type (${utf8Of(miswritten.written).slice(0, 80)}) has ${miswritten.fault}, which RFC 9110 does not allow: no boundary is read from it.`,
      fix: `${opening === undefined ? 'L' : `Write it as multipart/form-data; boundary=${opening.shown}, or l`}${toClient.slice(1)} or send JSON.`,
    }
  // FormData reads boundary="" (delimiters "--"), where no part is found apart to be judged.
  if (boundary === '')
    return {
      why: 'the boundary its Content-Type names is empty, and a boundary has 1 to 70 characters (RFC 2046).',
      fix: `${remade}, or send JSON.`,
    }
  // RFC 2046 allows neither in a boundary. Quoted, FormData keeps each backslash that RFC 9110
  // drops ("B\\C" and "B\"C" are B\\C and B\"C to it), and cuts the boundary at a ";".
  const sign = boundary?.includes('\\') ? 'a backslash' : boundary?.includes(';') ? 'a ";"' : null
  if (boundary !== undefined && sign !== null)
    return {
      why: `the boundary its Content-Type names (${utf8Of(boundary).slice(0, 70)}) holds ${sign}, which a boundary may not hold (RFC 2046).`,
      fix: `${remade}, or a boundary of letters, digits and '()+_,-./:=?.`,
    }
  // Set by hand, the type loses the boundary the client writes with the body, or names another.
  // A boundary refused above is not offered.
  const other =
    opening !== undefined && opening.value !== boundary && opening.line !== boundary && !/[\\;]/.test(opening.value)
  const byClient = `L${toClient.slice(1)}${other ? ` or name the boundary its parts start with (multipart/form-data; boundary=${opening.shown}),` : ''} or send JSON.`
  if (boundary === undefined)
    return {
      why: 'its Content-Type names no boundary (multipart/form-data; boundary=...), the line each part starts with.',
      fix: byClient,
    }
  if (lfDelimited(multipart))
    return {
      why: 'its lines end in LF alone ("\\n"), and multipart/form-data\'s lines end in CRLF ("\\r\\n"): its boundary lines, its part headers and the blank line after them.',
      fix: `${remade}, write its line ends as CRLF, or send JSON.`,
    }
  // The example is a text field: a file is no location field.
  if (multipart.doubt !== null)
    return {
      why: `a part's Content-Disposition (${JSON.stringify(utf8Of(multipart.doubt).slice(0, 100))}) is read in more than one way: it is given twice, a parameter is given twice or has no value, or a value holds a backslash or a quote.`,
      fix: 'Give it once, with each value a word or in quotes, as form-data; name="name", or send JSON.',
    }
  if (multipart.fields === null) {
    const why = whyNoFields(multipart)
    if (why !== null) return { why, fix: `${remade}, or send JSON.` }
    // curl -F after -H "Content-Type: multipart/form-data; boundary=X" names X, then its own.
    const twice = (multipart.contentType.match(/;\s*boundary\s*=/gi)?.length ?? 0) > 1
    return {
      why: `it is not multipart/form-data that can be read: its parts and the boundary its Content-Type names do not match${twice ? ' (it names a boundary twice, and the first is read)' : ''}.`,
      fix: other ? byClient : 'Send the body your HTTP client makes from a form, or send JSON.',
    }
  }
  return null
}

/**
 * The boundary a multipart body's first line opens (`--B`), or closes when it holds no part
 * (`--B--`), as read and as a Content-Type writes it, and that `line` whole (a boundary may end
 * in "--"); undefined when it starts otherwise.
 */
function openingBoundary(text: string): { value: string; shown: string; line: string } | undefined {
  // Spaces after a delimiter are padding (RFC 2046): a boundary ends in none.
  const opening = /^--(([^\r\n]{1,70}?)(?:--)?)[ \t]*\r?\n/.exec(text)
  if (opening === null) return undefined
  const value = opening[2]!
  return { value, shown: /^[\w'+.-]+$/.test(value) ? value : JSON.stringify(utf8Of(value)), line: opening[1]! }
}

/** A charset text of a multipart body is in; `field`: the part that names it, or `_charset_`, the form's field. */
type PartCharset = { charset: string; field?: string; byField?: true }

/**
 * Why a multipart body's parts are not read: the first text part FormData drops or reads otherwise
 * than sent (partNotRead's NotRead), else the first charset its text is in that is not read as UTF-8
 * (readAsUtf8): its field names in the body's, judged first; each value in its part's own
 * (FormData keeps no part's type), else the body's, or none when it starts with UTF-8's byte order
 * mark, which says UTF-8 whatever is named. A part with a filename is a file, refused apart.
 * `parts`: as FormData finds them (formDataParts), read one at a time. `named`: the form's
 * _charset_ field's (RFC 7578 4.6), which names and values without a charset of their own are in too.
 */
function partRefused(parts: Iterable<Part>, contentType: string, named: string | null): string | NotRead | undefined {
  const whole = charsetOf(contentType)
  let names = true
  let refused: PartCharset | undefined
  let index = 0
  for (const part of parts) {
    index++
    // A file: its disposition has filename= or filename* (fileNameOf).
    if (part.filename !== null) continue
    const notRead = partNotRead(part, index)
    if (notRead !== null) return notRead
    const { value, type, name } = part
    names &&= ASCII_TEXT.test(part.headers)
    if (refused !== undefined) continue
    const own = type === null ? null : charsetOf(type)
    const marked = value.startsWith('\xef\xbb\xbf')
    const charset = marked ? null : (own ?? whole)
    const ascii = ASCII_TEXT.test(value)
    // Its name as the fingerprint reads it (multipartMeant): unquoted, or quoted with escapes.
    if (!readAsUtf8(charset, ascii))
      refused = { charset: charset!, field: own === null ? undefined : utf8Of(name ?? '') }
    else if (!marked && own === null && !readAsUtf8(named, ascii)) refused = { charset: named!, byField: true }
  }
  if (!readAsUtf8(whole, names)) return formCharsetRefused(whole!)
  if (!readAsUtf8(named, names)) return charsetFieldRefused(named!)
  if (refused?.byField) return charsetFieldRefused(refused.charset)
  return refused && formCharsetRefused(refused.charset, refused.field)
}

/** Why a body's fields are not read in its charset; its parts not found apart. */
function wholeRefused(fields: [string, string][], contentType: string, named: string | null): string | undefined {
  const charset = charsetOf(contentType)
  const ascii = fields.every(([k, v]) => ASCII_TEXT.test(k) && ASCII_TEXT.test(v))
  if (!readAsUtf8(charset, ascii)) return formCharsetRefused(charset!)
  return readAsUtf8(named, ascii) ? undefined : charsetFieldRefused(named!)
}

/**
 * The first 64 KiB of a body as text, for telling what it looks like: in the UTF-16 its byte
 * order mark names, else UTF-8 (bytes not UTF-8 as U+FFFD).
 */
const head = (bytes: Uint8Array): string => new TextDecoder(marked(bytes)).decode(bytes.subarray(0, 65_536))

/** The UTF-16 a byte order mark names (Excel's "Unicode Text"), else UTF-8. */
const marked = (bytes: Uint8Array): 'utf-16le' | 'utf-16be' | 'utf-8' =>
  bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8'

/** Whether a body not sent as CSV starts as one: a first line of text (no control bytes, as a binary file has) that looksLikeCsv. */
function readsAsCsv(bytes: Uint8Array): boolean {
  const text = head(bytes)
  const first = text.trimStart().split(/\r?\n/, 1)[0]!
  return !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(first) && looksLikeCsv(text)
}

/** A body's shape as CSV: whether it readsAsCsv, and `tabs` when text/tab-separated-values reads it by tabs. */
function csvShape(bytes: Uint8Array): Pick<SentShape, 'csv' | 'tabs'> {
  if (!readsAsCsv(bytes)) return { csv: false }
  return splitsByTabs(head(bytes)) ? { csv: true, tabs: true } : { csv: true }
}

/** Whether a body sent as multipart/form-data is none, but a CSV file: no delimiter starts it, and it readsAsCsv. */
const isCsvNotForm = (bytes: Uint8Array): boolean => !(bytes[0] === 0x2d && bytes[1] === 0x2d) && readsAsCsv(bytes)

/**
 * An urlencoded body's field names and whether it is a CSV file sent as a form (curl -d @stores.csv):
 * its first cell names no field ("name=A,B" is a form with a comma in a value). Its texts from the
 * `whole` body's fields when it is UTF-8: a flag's checkbox may come after a textarea of 64 KiB.
 */
function formShape(bytes: Uint8Array, whole: URLSearchParams | null, flags: readonly string[]): SentShape {
  const text = head(bytes)
  const firstCell = text.trimStart().split(/[,;\t\r\n]/, 1)[0]!
  const params = whole ?? new URLSearchParams(text)
  return {
    ...(/[=&]/.test(firstCell) ? { csv: false } : csvShape(bytes)),
    ...(/[\r\n]/.test(text.trim()) ? { lines: true as const } : {}),
    fields: distinct([...params.keys()]),
    texts: textsOf(params, flags),
  }
}

/**
 * The encoding other than UTF-8 that the Content-Type of a multipart body's first file (with bytes)
 * names, as FormData finds it; null when it names none or UTF-8. FormData's File drops it.
 */
function fileCharset(multipart: MultipartBody): string | null {
  for (const part of formDataParts(multipart) ?? []) {
    if (part.filename === null || part.value === '') continue
    const charset = part.type === null ? null : charsetOf(part.type)
    const encoding = charset === null ? null : encodingNamed(charset)
    return encoding === null || encoding === 'utf-8' ? null : charset
  }
  return null
}

/** A multipart file's name and type as sent (`charset`, fileCharset's), and whether its bytes read as JSON or CSV. */
async function fileShape(file: File, charset: string | null): Promise<NonNullable<SentShape['file']>> {
  const type = mediaTypeOf(file.type)
  const name = file.name ?? ''
  const bytes = new Uint8Array(await file.slice(0, 65_536).arrayBuffer())
  const start = head(bytes).trimStart()[0]
  const json =
    type === 'application/json' || type.endsWith('+json') || /\.json$/i.test(name) || start === '{' || start === '['
  const text = readsAsCsv(bytes)
  // Tab separated as its type or name says, or as its header splits, which text/tab-separated-values reads by tabs.
  const tsv =
    type === 'text/tab-separated-values' || separatorOfName(name) === '\t' || (text && splitsByTabs(head(bytes)))
  const csv = type === 'text/csv' || /\.csv$/i.test(name) || text
  return { name, type, charset, reads: json ? 'json' : tsv ? 'tsv' : csv ? 'csv' : null }
}

/**
 * A form's text fields that `flags` names, first sent first, however many fields come before:
 * 3 values of each, however far apart (a hidden field and its checkbox are a pair, a third value makes none).
 */
function textsOf(fields: Iterable<[string, string | File]>, flags: readonly string[]): [string, string][] {
  const texts: [string, string][] = []
  const counts = new Map<string, number>()
  for (const [name, value] of fields) {
    if (typeof value !== 'string' || !flags.includes(name)) continue
    const count = counts.get(name) ?? 0
    if (count === 3) continue
    counts.set(name, count + 1)
    texts.push([name, value])
  }
  return texts
}

/** `names` without repeats, first sent first; at most 20. */
const distinct = (names: string[]): string[] => [...new Set(names)].slice(0, 20)

/**
 * Whether a body that is not JSON starts as a CSV file does: a first line of cells apart by ",",
 * ";", a tab or "|", as the CSV reader splits them. A line with a brace, a bracket or a name
 * before ":" is JSON gone wrong ('"locations": [...]' without its braces), not a header.
 */
function looksLikeCsv(text: string): boolean {
  // The first 1,024 characters: the pattern backtracks over a run of spaces, in time squared.
  const first = text.trimStart().slice(0, 1024).split(/\r?\n/, 1)[0]!
  return !/[{}[\]]|^\s*"?[\w ]+"?\s*:/.test(first) && /[,;\t|]/.test(first)
}

function looksLikeJson(text: string): boolean {
  const start = text.trimStart()[0]
  if (start !== '{' && start !== '[') return false
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** How an unread body was sent (ParsedBody's `unread`), for a message: "without a Content-Type header" or 'as "text/plain"'. */
export const sentAs = (unread: string): string =>
  unread === ''
    ? 'without a Content-Type header'
    : unread === 'application/x-www-form-urlencoded'
      ? 'as a form, "application/x-www-form-urlencoded", though it is JSON (curl -d sends a form unless told otherwise)'
      : `as ${JSON.stringify(unread.slice(0, 100))}`

/**
 * Whether a body is UTF-16: its byte order mark, or a NUL beside each of its first ASCII
 * characters (`{` and `"` as UTF-16 write them). A JSON text's first bytes hold no NUL otherwise.
 */
const isUtf16 = (bytes: Uint8Array): boolean =>
  (bytes[0] === 0xff && bytes[1] === 0xfe) ||
  (bytes[0] === 0xfe && bytes[1] === 0xff) ||
  (bytes.length >= 4 && (bytes[0] === 0) !== (bytes[1] === 0) && (bytes[2] === 0) !== (bytes[3] === 0))

/** Windows PowerShell 5 writes a file so with Out-File and `>`, and Invoke-RestMethod -InFile sends it as it is. */
const UTF16_JSON =
  'it is UTF-16 (as Windows PowerShell writes a file with Out-File or >), and JSON is read as UTF-8 only. Send it encoded as UTF-8: save the file with Out-File -Encoding utf8 or Set-Content -Encoding utf8.'

const NOT_UTF8 =
  'it is not valid UTF-8. Send its text encoded as UTF-8 (é is the bytes C3 A9, or %C3%A9 in a urlencoded body), or send JSON.'

/**
 * Whether a JSON or form body is read as sent, as UTF-8: its Content-Type names no charset, or
 * names UTF-8, or its text is ASCII (`ascii`), which reads the same in whatever charset is named.
 * "us-ascii" names no UTF-8 (the Encoding Standard reads it as windows-1252): a body so named
 * with bytes beyond ASCII is in some charset it does not say, and is not read.
 */
const readAsUtf8 = (charset: string | null, ascii: boolean): boolean =>
  charset === null || encodingNamed(charset) === 'utf-8' || ascii

/**
 * Why a JSON body in `charset` is not read; on the bulk route (`csv`), that a CSV body may name
 * one, when a CSV body beyond ASCII is read in it: not ASCII, x-user-defined or a label unknown.
 */
const charsetRefused = (charset: string, csv: boolean) =>
  quotesRefused(charset, 'JSON') ??
  `The request body is JSON in the charset ${JSON.stringify(charset.slice(0, 40))} (its Content-Type says so), and JSON is read as UTF-8 only (RFC 8259): nothing was read. Send it encoded as UTF-8, with Content-Type: application/json or application/json; charset=utf-8.${csv && csvReadIn(charset) ? ` A CSV body is read in the charset it names: Content-Type: text/csv; charset=${charset.slice(0, 40)}.` : ''}`

/** Why a body of `kind` is not read in a charset in single quotes; null when `charset` is none such. */
function quotesRefused(charset: string, kind: string): string | null {
  if (singleQuoted(charset) === null) return null
  return singleQuotedRefused(charset, `name UTF-8 without them, charset=utf-8 (${kind} is read as UTF-8 only)`)
}

const csvReadIn = (charset: string): boolean =>
  !isAsciiLabel(charset) && ![null, 'x-user-defined'].includes(encodingNamed(charset))

/** Why a form body in `charset` is not read: its Content-Type's, or that of the part of `field`. */
const formCharsetRefused = (charset: string, field?: string) =>
  quotesRefused(charset, 'a form body') ??
  `${field === undefined ? 'its charset is' : `the field ${JSON.stringify(field.slice(0, 60))} is in the charset`} ${JSON.stringify(charset.slice(0, 40))}${field === undefined ? '' : " (its part's Content-Type says so)"}, and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.`

/** A form's _charset_ field's value (RFC 7578 4.6, as HTML forms send it) as a charset; null when none is named. */
const charsetField = (value: string | File | null | undefined): string | null =>
  (typeof value === 'string' && value.trim().toLowerCase()) || null

/** Why a form whose _charset_ field names `charset` is not read. */
const charsetFieldRefused = (charset: string) =>
  `its _charset_ field says its text is in the charset ${JSON.stringify(charset.slice(0, 40))}, and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (in HTML, a page in UTF-8 or <form accept-charset="UTF-8">), or send JSON.`

/** Whether bytes read the same in any ASCII-based charset: ASCII without NUL (UTF-16's ASCII has a NUL in every other byte). */
const isAscii = (bytes: Uint8Array): boolean => bytes.every((b) => b > 0 && b < 0x80)

/** Text that reads the same in any ASCII-based charset (as isAscii's bytes). */
const ASCII_TEXT = /^[\x01-\x7f]*$/

/**
 * Whether an urlencoded body reads the same in any ASCII-based charset: ASCII without NUL (UTF-16's
 * ASCII has a NUL in every other byte), and no escape of a byte above 0x7F.
 */
const isAsciiForm = (text: string): boolean => ASCII_TEXT.test(text) && !/%[89a-f][0-9a-f]/i.test(text)
