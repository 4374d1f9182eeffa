// A multipart/form-data body's parts as sent, and what it means apart from its boundary.
import { createHash } from 'node:crypto'
import { utf8Text } from '../core/text'
import { contentTypeMeant, paramOf, paramsOf } from './content-type'

/**
 * A part: its header lines and its value, as latin1 text (one character a byte, the bytes as
 * sent); `type`: its Content-Type's value (partHeader), null without one; `name` and `filename`:
 * its Content-Disposition's parameters as paramsOf reads them, null without them. No map a part:
 * 150,000 parts would hold 300,000 beside FormData's own entries.
 */
export type Part = { headers: string; type: string | null; name: string | null; filename: string | null; value: string }

/**
 * A multipart body: its bytes as latin1 `text` (one character a byte), its Content-Type, and
 * `fields`, FormData's reading or, where it misreads a part, the parts' own (readFields); null
 * when FormData reads none. FormData keeps neither a part's headers nor its bytes: formDataParts
 * splits them as FormData does, for their charsets; multipartMeant splits them for the fingerprint
 * by its rule. Each reads the one `text`: a copy each would hold 8 MiB more for a body of 8 MiB.
 * `doubt`: the Content-Disposition of a part read in more than one way, null when none is.
 */
export type MultipartBody = {
  text: string
  contentType: string
  fields: [string, string | File][] | null
  doubt: string | null
}

export async function readMultipartBody(bytes: Uint8Array, contentType: string): Promise<MultipartBody> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData().catch(() => null)
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  const body: MultipartBody = { text, contentType, fields: form === null ? null : [...form.entries()], doubt: null }
  return body.fields === null ? body : readFields(body)
}

/**
 * A body's fields as its parts' Content-Dispositions say: FormData's, when it reads each part's
 * name and file name as RFC 7578 writes them (backslashes kept, as it keeps them). Else each part's
 * own reading, when every part's disposition reads one way (plainDisposition): FormData reads
 * .NET's `name=file; filename=a.csv` as a text field named "file; filename=a.csv". Else `doubt`.
 */
function readFields(body: MultipartBody): MultipartBody {
  const fields = body.fields!
  if (quotedAlike(body.text, fields)) return body
  const parts = formDataParts(body)
  // No parts found apart (a boundary FormData reads otherwise): refused apart, as multipartUnread says.
  if (parts === null) return body
  let i = 0
  let differs: Part | null = null
  for (const part of parts) {
    const own = entryOf(part, true)
    if (own === null) continue
    const read = fields[i++]
    if (read === undefined || !sameEntry(read, own)) {
      differs = part
      break
    }
  }
  if (differs === null && i === fields.length) return body
  if (differs !== null && !plainDisposition(differs.headers)) return { ...body, doubt: dispositionOf(differs.headers) }
  const own: [string, string | File][] = []
  for (const part of formDataParts(body)!) {
    if (!plainDisposition(part.headers)) return { ...body, doubt: dispositionOf(part.headers) }
    const entry = entryOf(part, false)
    if (entry === null) continue
    const bytes = Buffer.from(part.value, 'latin1')
    own.push([
      entry.name,
      entry.filename === null
        ? new TextDecoder().decode(bytes)
        : new File([bytes], entry.filename, { type: part.type ?? '' }),
    ])
  }
  return { ...body, fields: own }
}

/** A Content-Disposition line where FormData finds one: at a line's start, named as FormData matches it. */
const DISPOSITION_LINE = /^content-disposition:([^\r\n]*)/gim

/** A disposition as browsers and most clients write it: a name and filename each quoted, without a backslash. */
const QUOTED_DISPOSITION = /^[ \t]*form-data; name="([^"\\]+)"(?:; filename="([^"\\]*)")?[ \t]*$/

/**
 * Whether FormData's fields are, in order, the text's Content-Disposition lines, each written
 * as QUOTED_DISPOSITION: one regex pass over the text, where splitting its parts (readFields)
 * costs about twice FormData's reading. Each field comes from a part's Content-Disposition line,
 * so as many lines as fields is one a part, none in a value.
 */
function quotedAlike(text: string, fields: [string, string | File][]): boolean {
  let i = 0
  DISPOSITION_LINE.lastIndex = 0
  for (let line = DISPOSITION_LINE.exec(text); line !== null; line = DISPOSITION_LINE.exec(text)) {
    const quoted = QUOTED_DISPOSITION.exec(line[1]!)
    const read = fields[i++]
    if (quoted === null || read === undefined) return false
    const filename = quoted[2]
    if (!sameEntry(read, { name: utf8Of(quoted[1]!), filename: filename === undefined ? null : utf8Of(filename) }))
      return false
  }
  return i === fields.length
}

/**
 * A part's field name and file name (null for a text field) in UTF-8, as FormData reads header
 * bytes; null when it is no field (no name, or not form-data). `escaped`: backslashes kept.
 */
function entryOf(part: Part, escaped: boolean): { name: string; filename: string | null } | null {
  const disposition = partHeader(part.headers, 'content-disposition')
  if (disposition === null || disposition.split(';', 1)[0]!.trim().toLowerCase() !== 'form-data') return null
  const params = escaped ? paramsOf(disposition, true) : null
  const name = params === null ? part.name : (params.get('name') ?? null)
  if (!name) return null
  const filename = params === null ? part.filename : (params.get('filename') ?? null)
  return { name: utf8Of(name), filename: filename === null ? null : utf8Of(filename) }
}

/** Latin1 text (a byte a character) read as UTF-8; ASCII as it is, without a copy. */
const utf8Of = (text: string): string => (ASCII.test(text) ? text : Buffer.from(text, 'latin1').toString('utf8'))

/** Whether FormData's entry is the field named so: its key, whether a file, and its file name. */
function sameEntry([key, read]: [string, string | File], own: { name: string; filename: string | null }): boolean {
  if (key !== own.name) return false
  return typeof read === 'string' ? own.filename === null : (read.name ?? '') === own.filename
}

/** A parameter whose value is a token (RFC 9110) or a quoted string without a backslash, from its ";". */
const PLAIN_PARAM =
  /[ \t]*;[ \t]*([!#$%&'*+.^_`|~0-9a-z-]+)[ \t]*=[ \t]*(?:[!#$%&'*+.^_`|~0-9a-z-]+|"[^"\\\r\n]*")[ \t]*/iy

/**
 * Whether a part's Content-Disposition reads one way: given once, its parameters each named once,
 * each value a token or a quoted string without a backslash (Go writes `\\` for a name's `\`, a
 * browser writes `\` as it is). .NET's unquoted tokens read so.
 */
function plainDisposition(headers: string): boolean {
  const lower = headers.toLowerCase()
  const first = dispositionAt(lower, 0)
  if (first === -1) return true
  if (dispositionAt(lower, first + 1) !== -1) return false
  const disposition = dispositionOf(headers)
  const names = new Set<string>()
  let at = disposition.indexOf(';')
  if (at === -1) return true
  for (let param = paramAt(disposition, at); param !== null; param = paramAt(disposition, at)) {
    if (names.has(param.name)) return false
    names.add(param.name)
    at = param.end
  }
  // A ";" closing the list is no parameter.
  return at === disposition.length || /^[ \t]*;$/.test(disposition.slice(at))
}

/** The plain parameter at `at` (its ";"): its name lowercased and where it ends; null when none is. */
function paramAt(disposition: string, at: number): { name: string; end: number } | null {
  PLAIN_PARAM.lastIndex = at
  const param = PLAIN_PARAM.exec(disposition)
  return param === null ? null : { name: param[1]!.toLowerCase(), end: PLAIN_PARAM.lastIndex }
}

/** A part's first Content-Disposition value, '' without one. */
function dispositionOf(headers: string): string {
  const at = dispositionAt(headers.toLowerCase(), 0)
  return at === -1 ? '' : headers.slice(at + DISPOSITION.length, lineEnd(headers, at)).trim()
}

/**
 * The parts of a multipart body as Bun's FormData finds them: the body to its last closing
 * delimiter, split at each delimiter followed by CRLF wherever it stands (after a preamble that
 * ends in no CRLF too); a part's headers end at its first blank line, and its value loses one CRLF
 * at its end. Null when its Content-Type names no boundary or it has no closing delimiter.
 */
export function formDataParts({ text, contentType }: MultipartBody): Iterable<Part> | null {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return null
  const end = text.lastIndexOf(`--${boundary}--`)
  if (end === -1) return null
  const delimiter = `--${boundary}\r\n`
  // Part by part: a body of 150,000 parts is read without holding them all.
  return (function* () {
    let at = text.indexOf(delimiter)
    while (at !== -1 && at + delimiter.length <= end) {
      const start = at + delimiter.length
      const next = text.indexOf(delimiter, start)
      at = next !== -1 && next + delimiter.length <= end ? next : -1
      const part = partOf(text.slice(start, at === -1 ? end : at))
      yield part.value.endsWith('\r\n') ? { ...part, value: part.value.slice(0, -2) } : part
    }
  })()
}

/**
 * Whether a multipart body has a line ended by LF alone where FormData finds only CRLF, as a body
 * written by hand with "\n" has. A delimiter line (`--boundary\n`): FormData reads such a body as
 * no fields, or its parts after one as the value before it. It counts first in the body or after a
 * CRLF; where FormData reads no fields, after any LF too. After a LF alone, where FormData reads
 * fields, it is a value's text: RFC 2046's delimiter starts with CRLF. Where FormData reads no
 * fields, a part's header lines too: they end at the first blank line in CRLF, and one in LF alone
 * is none.
 */
export function lfDelimited(body: MultipartBody): boolean {
  const { text, contentType, fields } = body
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return false
  const read = (fields?.length ?? 0) > 0
  const line = `--${boundary}\n`
  if (text.startsWith(line) || text.includes(read ? `\r\n${line}` : `\n${line}`)) return true
  if (read) return false
  for (const part of formDataParts(body) ?? []) if (part.value === '' && /\n\r?\n/.test(part.headers)) return true
  return false
}

/**
 * A multipart body (RFC 7578) split by the fingerprint's rule, at each CRLF and delimiter: its
 * `closed` parts before the first close are `pieces` 1 to `closed`, read by partOf. Null when it
 * names no boundary, or no part ends at a closing delimiter.
 */
function multipartParts({ text, contentType }: MultipartBody): { pieces: string[]; closed: number } | null {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return null
  // As split after a CRLF put first, without the copy of the text that would make: a body that
  // starts with its delimiter has an empty piece 0, and piece 0 (the preamble) is no part.
  const opening = `--${boundary}`
  const first = text.startsWith(opening)
  const pieces = (first ? text.slice(opening.length) : text).split(`\r\n${opening}`)
  if (first) pieces.unshift('')
  const close = pieces.findIndex((piece, i) => i > 0 && piece.startsWith('--'))
  if (close < 2) return null
  // Pieces 1 to close - 1 start with no "--": each is a part, in order.
  return { closed: close - 1, pieces }
}

/** A part from its text after its delimiter: its headers to the first blank line, its value after it. */
function partOf(piece: string): Part {
  const end = piece.indexOf('\r\n\r\n')
  const headers = end === -1 ? piece : piece.slice(0, end)
  const disposition = paramsOf(partHeader(headers, 'content-disposition') ?? '')
  return {
    headers,
    type: partHeader(headers, 'content-type'),
    name: disposition.get('name') ?? null,
    filename: disposition.get('filename') ?? null,
    value: end === -1 ? '' : piece.slice(end + 4),
  }
}

/**
 * A header's value in a part's header lines (`name` lowercased), null without it: a line's name
 * runs to its first ":", the first line of a name holds its value, trimmed.
 */
function partHeader(headers: string, name: string): string | null {
  let start = 0
  while (start < headers.length) {
    const end = lineEnd(headers, start)
    // Within its own line: a search to the headers' end from each line would take time squared.
    const colon = headers.slice(start, end).indexOf(':')
    if (colon === name.length && headers.slice(start, start + colon).toLowerCase() === name)
      return headers.slice(start + colon + 1, end).trim()
    start = end + 1
  }
  return null
}

const DISPOSITION = 'content-disposition:'

/** Where a line of lowercased header lines starts with DISPOSITION, from `from`; -1 when none does. */
function dispositionAt(lower: string, from: number): number {
  for (let at = lower.indexOf(DISPOSITION, from); at !== -1; at = lower.indexOf(DISPOSITION, at + 1))
    if (at === 0 || lower[at - 1] === '\n' || lower[at - 1] === '\r') return at
  return -1
}

/** Where the line from `start` ends: its first CR or LF (a line starts after either), else the text's end. */
function lineEnd(text: string, start: number): number {
  let at = start
  while (at < text.length && text.charCodeAt(at) !== 0x0d && text.charCodeAt(at) !== 0x0a) at++
  return at
}

/**
 * What a multipart body means, as a SHA-256 (hex): each part's name and file name (in UTF-8, a
 * backslash in quotes kept, as FormData reads them), Content-Type (as contentTypeMeant reads it)
 * and value bytes, in order. A text field's `text/plain` in UTF-8 is no type (RFC 7578 makes it a
 * field's default): clients differ in sending it. Its boundary, preamble and epilogue mean nothing:
 * fetch makes a new boundary for each try of one FormData. Null when its parts are not found, or
 * are not the fields FormData reads (a delimiter inside a value, a part past the close, a name
 * given twice): its bytes then tell it. A name or file name whose bytes are not UTF-8 reads as
 * U+FFFD to FormData, as other bytes do: its bytes are hashed too (namesAsSent). `v4`, `v3` and
 * `v2`: what it meant by the rules of fingerprints v4 (names as read alone), v3 and v2 (v2 counted
 * a field's `text/plain`); v3 and v2 null where a name or file name is beyond ASCII or holds a
 * backslash in quotes, or a text value starts with a byte-order mark, as those rules found no
 * parts then, and its bytes told it.
 */
export async function multipartMeant(
  body: MultipartBody,
): Promise<{ meant: string; v4: string; v3: string | null; v2: string | null } | null> {
  const split = multipartParts(body)
  if (split === null) return null
  const fields = body.fields ?? []
  if (fields.length !== split.closed) return null
  // Each rule's list hashed as its JSON is written, part by part: the list and its text whole would
  // hold some 40 MB for a body of 8 MiB.
  const meant = listHash()
  const v2 = listHash()
  let before = true
  const lost: [number, string | null, string | null][] = []
  for (let i = 0; i < split.closed; i++) {
    const part = partOf(split.pieces[i + 1]!)
    // A backslash in quotes kept, as FormData keeps it (fetch writes a name's backslash as it is).
    const own = part.headers.includes('\\') ? escapedNames(part.headers) : part
    const name = own.name === null ? null : utf8Of(own.name)
    const filename = own.filename === null ? null : utf8Of(own.filename)
    if (!(await readAlike(fields[i]!, name, filename, part.value))) return null
    if (!utf8Whole(own.name) || !utf8Whole(own.filename)) lost.push([i, own.name, own.filename])
    // utf8Of gives ASCII back as it is, and any other text as other text (fewer characters, or U+FFFD).
    // v3 and v2 read names as latin1 without a backslash in quotes, and a text value with its
    // leading byte-order mark, which FormData drops.
    before &&= name === part.name && filename === part.filename && !(filename === null && part.value.startsWith(BOM))
    const typeMeant = part.type === null ? null : contentTypeMeant(part.type)
    const digest = createHash('sha256').update(part.value, 'latin1').digest('hex')
    meant.add([name, filename, filename === null && typeMeant === 'text/plain' ? null : typeMeant, digest])
    v2.add([name, filename, typeMeant, digest])
  }
  const v4 = meant.hex()
  const hex = lost.length === 0 ? v4 : namesAsSent(v4, lost)
  return before ? { meant: hex, v4, v3: v4, v2: v2.hex() } : { meant: hex, v4, v3: null, v2: null }
}

/** Whether latin1 text (a byte a character) is UTF-8 whole, no byte of it read as U+FFFD; no name (null) is. */
const utf8Whole = (text: string | null): boolean =>
  text === null || ASCII.test(text) || utf8Text(Buffer.from(text, 'latin1')) !== null

/**
 * The hash of the parts as read (`read`) and, for each part whose name or file name is not UTF-8,
 * its index and both names as sent (latin1 text): "caf\xe9" and "caf\xe8" both read "caf\uFFFD".
 */
const namesAsSent = (read: string, lost: [number, string | null, string | null][]): string =>
  createHash('sha256')
    .update(`${read}\nnames not UTF-8 ${JSON.stringify(lost)}`)
    .digest('hex')

/** sha256Hex of `multipart/form-data parts\n` and the JSON of the list of the entries added. */
function listHash() {
  const hash = createHash('sha256').update('multipart/form-data parts\n[')
  let first = true
  return {
    add(entry: (string | null)[]): void {
      hash.update(first ? JSON.stringify(entry) : `,${JSON.stringify(entry)}`)
      first = false
    },
    hex: (): string => hash.update(']').digest('hex'),
  }
}

/** A part's name and filename with the backslashes in their quotes kept. */
function escapedNames(headers: string): { name: string | null; filename: string | null } {
  const disposition = paramsOf(partHeader(headers, 'content-disposition') ?? '', true)
  return { name: disposition.get('name') ?? null, filename: disposition.get('filename') ?? null }
}

/** UTF-8's byte-order mark as latin1 text: FormData drops it from a text value's start. */
const BOM = '\xef\xbb\xbf'

/** UTF-8 as FormData reads a text value: a leading byte-order mark dropped. */
const TEXT = new TextDecoder()

/** Text that reads the same as latin1 and as UTF-8. */
const ASCII = /^[\x00-\x7f]*$/

/**
 * Whether FormData's field is the part as split here: its name, whether a file and its name (each
 * in UTF-8, as FormData reads them), its value.
 */
async function readAlike(field: [string, string | Blob], name: string | null, file: string | null, value: string) {
  const [key, read] = field
  if (key !== name) return false
  // ASCII reads the same as latin1 and as UTF-8: most values are, and need no copy to compare.
  if (typeof read === 'string')
    return file === null && read === (ASCII.test(value) ? value : TEXT.decode(Buffer.from(value, 'latin1')))
  const bytes = Buffer.from(await read.arrayBuffer()).toString('latin1')
  return file !== null && ((read as File).name ?? '') === file && bytes === value
}
