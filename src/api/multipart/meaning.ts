// What a multipart/form-data body means apart from its boundary, for an Idempotency-Key's
// fingerprint: its parts as FormData reads them, hashed by each fingerprint version's rule.
import { isUtf8 } from 'node:buffer'
import { createHash } from 'node:crypto'
import { sha256Hex } from '../../core/ids'
import { contentTypeMeant, paramOf, paramsOf } from '../content-type'
import type { MultipartBody } from './fields'
import { ASCII, backslashedNames, type Part, partHeader, partOf, utf8Of } from './parts'
import { sentNames } from './sent-names'

/**
 * A body's meaning by the rule of this version (`meant`), by it as it read a quoted backslash
 * before names were read as sent (`kept`), and by v4, v3 and v2 (null: its bytes told it).
 */
export type MultipartMeaning = { meant: string; kept: string; v4: string; v3: string | null; v2: string | null }

/**
 * What a multipart body means, as a SHA-256 (hex): each part's name and file name (in UTF-8, as
 * sent, sentNames, as the body's fields read them), Content-Type (as contentTypeMeant reads it)
 * and value bytes, in order. A text field's `text/plain` in UTF-8 is no type (RFC 7578 makes it a
 * field's default): clients differ in sending it. Its boundary, preamble and epilogue mean nothing:
 * fetch makes a new boundary for each try of one FormData. Null when its parts are not found, or
 * are not the fields FormData reads (a delimiter inside a value, a part past the close, a name
 * given twice): its bytes then tell it. A name or file name whose bytes are not UTF-8 reads as
 * U+FFFD to FormData, as other bytes do: its bytes are hashed too (withNamesAsSent).
 *
 * `kept` and `v4`: each name with a backslash in quotes kept, as FormData reads it; `v4`, the names
 * as read alone. `v3` and `v2` (v2 counted a field's `text/plain`): null where a
 * name or file name is beyond ASCII or holds a backslash in quotes, or a text value starts with a
 * byte-order mark, as those rules found no parts then, and its bytes told it.
 *
 * `fileNames` 'plain': as each rule read file names before filename* (RFC 6266) was, FormData's
 * `filename` alone, a part of filename* alone a text field.
 */
export async function multipartMeant(
  body: MultipartBody,
  fileNames: 'starred' | 'plain' = 'starred',
): Promise<MultipartMeaning | null> {
  const pieces = partsBeforeClose(body)
  if (pieces === null) return null
  const fields = body.fields ?? []
  if (fields.length !== pieces.length) return null
  // Each list hashed as its JSON is written, part by part: the list and its text whole would hold
  // some 40 MB for a body of 8 MiB.
  const byV4 = listHash(PARTS)
  const byV2 = listHash(PARTS)
  const notUtf8 = listHash(NAMES_NOT_UTF8)
  const bySent = listHash(PARTS)
  const notUtf8Sent = listHash(NAMES_NOT_UTF8)
  let v3Alike = true
  for (const [i, piece] of pieces.entries()) {
    const part = partOf(piece)
    const starred = namesOf(part, 'sent')
    const plain = fileNames === 'plain' ? plainFileName(part, true) : undefined
    // Each rule before names were read as sent kept a backslash in quotes, as FormData reads it.
    const keptStarred = part.headers.includes('\\') ? namesOf(part, 'kept') : starred
    const sent = plain === undefined ? keptStarred : { ...keptStarred, filename: plain }
    const name = sent.name === null ? null : utf8Of(sent.name)
    const filename = sent.filename === null ? null : utf8Of(sent.filename)
    // As the body's fields read it: its file by `filename` alone for a rule before filename*.
    const readName = starred.name === null ? null : utf8Of(starred.name)
    const readFile = plain === undefined ? starred.filename : plain
    // A part that filename* makes a file was a text field to FormData: that rule found it alike.
    const renamed = readFile !== starred.filename
    if (!renamed && !(await readAlike(fields[i]!, readName, readFile === null ? null : utf8Of(readFile), part.value)))
      return null
    if (!utf8Whole(sent.name) || !utf8Whole(sent.filename)) notUtf8.add([i, sent.name, sent.filename])
    if (!utf8Whole(starred.name) || !utf8Whole(starred.filename)) notUtf8Sent.add([i, starred.name, starred.filename])
    // v3 and v2 read names as latin1 without a backslash in quotes, and a text value with its
    // leading byte-order mark, which FormData drops.
    const unescaped = fileNames === 'starred' ? part.filename : plainFileName(part, false)
    v3Alike &&= name === part.name && filename === unescaped && !(filename === null && part.value.startsWith(BOM))
    const type = part.type === null ? null : contentTypeMeant(part.type)
    const digest = createHash('sha256').update(part.value, 'latin1').digest('hex')
    const typed = type === 'text/plain' ? null : type
    byV4.add([name, filename, filename === null ? typed : type, digest])
    const starredFile = starred.filename === null ? null : utf8Of(starred.filename)
    bySent.add([readName, starredFile, starredFile === null ? typed : type, digest])
    byV2.add([name, filename, type, digest])
  }
  const v4 = byV4.hex()
  const kept = notUtf8.entries === 0 ? v4 : withNamesAsSent(v4, notUtf8.hex())
  // Each rule before filename* read a quoted backslash as FormData does: `plain`, its names kept.
  const read = bySent.hex()
  const meant =
    fileNames === 'plain' ? kept : notUtf8Sent.entries === 0 ? read : withNamesAsSent(read, notUtf8Sent.hex())
  return v3Alike ? { meant, kept, v4, v3: v4, v2: byV2.hex() } : { meant, kept, v4, v3: null, v2: null }
}

/**
 * A part's name and file name `sent` (sentNames, as the body's fields read them), or `kept`, a
 * backslash in quotes kept, as FormData reads it. part.name is unescaped.
 */
function namesOf(part: Part, reading: 'sent' | 'kept'): { name: string | null; filename: string | null } {
  if (!part.headers.includes('\\')) return part
  const disposition = partHeader(part.headers, 'content-disposition') ?? ''
  const sent = reading === 'sent' ? sentNames(disposition) : null
  return typeof sent === 'object' && sent !== null ? sent : backslashedNames(disposition)
}

/**
 * A part's `filename`, without its filename*: as FormData reads it (`kept`: a backslash in quotes
 * kept), else unescaped, as v3's rule compared it.
 */
const plainFileName = (part: Part, kept: boolean): string | null =>
  paramsOf(partHeader(part.headers, 'content-disposition') ?? '', kept && part.headers.includes('\\')).get(
    'filename',
  ) ?? null

/**
 * The texts of a multipart body's parts (each after its delimiter line) as the fingerprint splits
 * them: at each CRLF and delimiter, to the first closing delimiter. Null when it names no
 * boundary, or no part ends at a closing delimiter.
 */
function partsBeforeClose({ text, contentType }: MultipartBody): string[] | null {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return null
  // As split after a CRLF put first, without the copy of the text that would make: a body that
  // starts with its delimiter has an empty piece 0, and piece 0 (the preamble) is no part.
  const opening = `--${boundary}`
  const first = text.startsWith(opening)
  const pieces = (first ? text.slice(opening.length) : text).split(`\r\n${opening}`)
  if (first) pieces.unshift('')
  const close = pieces.findIndex((piece, i) => i > 0 && piece.startsWith('--'))
  return close < 2 ? null : pieces.slice(1, close)
}

const PARTS = 'multipart/form-data parts'
/** Each part whose name or file name is not UTF-8: its index and both names as sent (latin1 text). */
const NAMES_NOT_UTF8 = 'multipart/form-data names not UTF-8'

/** sha256Hex of `title`, a line feed and the JSON of the list of the entries added; `entries`, their count. */
function listHash(title: string) {
  const hash = createHash('sha256').update(`${title}\n[`)
  return {
    entries: 0,
    add(entry: (number | string | null)[]): void {
      hash.update(this.entries === 0 ? JSON.stringify(entry) : `,${JSON.stringify(entry)}`)
      this.entries++
    },
    hex: (): string => hash.update(']').digest('hex'),
  }
}

/**
 * Whether latin1 text (a byte a character) is UTF-8 whole, no byte of it read as U+FFFD; no name
 * (null) is. isUtf8 tells it without throwing: a fatal TextDecoder throws for each such name,
 * slowly.
 */
const utf8Whole = (text: string | null): boolean =>
  text === null || ASCII.test(text) || isUtf8(Buffer.from(text, 'latin1'))

/**
 * The hash of the parts as read (`read`) and of the names not UTF-8 as sent (`names`, their list's
 * hash): "caf\xe9" and "caf\xe8" both read "caf\uFFFD".
 */
const withNamesAsSent = (read: string, names: string): string => sha256Hex(`${read}\n${names}`)

/** UTF-8's byte-order mark as latin1 text: FormData drops it from a text value's start. */
const BOM = '\xef\xbb\xbf'

/** UTF-8 as FormData reads a text value: a leading byte-order mark dropped. */
const TEXT = new TextDecoder()

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
