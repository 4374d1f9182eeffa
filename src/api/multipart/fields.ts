// A multipart/form-data body's fields: Bun's FormData's reading, checked against each part's
// Content-Disposition as clients write it, and the bodies FormData reads otherwise than sent.
import { paramFault, paramOf, paramsOf } from '../content-type'
import { unfolded } from './folds'
import { sentNames, sentParams } from './sent-names'
import {
  backslashedNames,
  dispositionAt,
  dispositionOf,
  formDataParts,
  type MultipartText,
  type Part,
  partHeader,
  utf8Of,
  withoutPadding,
} from './parts'

type Field = [string, string | File]

/**
 * A multipart body: its bytes as latin1 `text` and its Content-Type, read once for its fields,
 * its charsets and its fingerprint alike (a copy each would hold 8 MiB more for a body of 8 MiB).
 * `fields`: FormData's, or where it misreads a part, the parts' own; null when FormData reads
 * none. `doubt`: the Content-Disposition of a part read in more than one way, null when none is.
 * `folded`: a part's header lines were folded, and `text` holds them unfolded.
 */
export type MultipartBody = MultipartText & { fields: Field[] | null; doubt: string | null; folded: boolean }

export async function readMultipartBody(bytes: Uint8Array, contentType: string): Promise<MultipartBody> {
  const sent = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  // Padding means nothing (RFC 2046), nor does a fold (RFC 5322), which FormData refuses: read,
  // split and fingerprinted as the body without them.
  const boundary = paramOf(contentType, 'boundary')
  const unpadded = boundary ? withoutPadding(sent, boundary) : sent
  const text = boundary ? unfolded(unpadded, boundary) : sent
  const read = text === sent ? bytes : Buffer.from(text, 'latin1')
  const form = await new Response(read, { headers: { 'content-type': formDataType(contentType) } })
    .formData()
    .catch(() => null)
  const fields = form === null ? null : [...form.entries()]
  const body: MultipartBody = { text, contentType, fields, doubt: null, folded: text !== unpadded }
  return body.fields === null ? body : namedAsSent(body)
}

/** A parameter value RFC 9110 writes without quotes. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i

/**
 * The Content-Type FormData is given: the boundary alone, as RFC 9110 reads it, since FormData
 * takes the spaces before a later ";" (`boundary=B ; charset=utf-8`) into it. As sent where the
 * boundary is miswritten (paramFault) or holds a backslash: those are refused by name.
 */
function formDataType(contentType: string): string {
  const boundary = paramsOf(contentType, true).get('boundary')
  if (!boundary || boundary.includes('\\') || paramFault(contentType, 'boundary') !== null) return contentType
  return `multipart/form-data; boundary=${TOKEN.test(boundary) ? boundary : `"${boundary}"`}`
}

/**
 * The body with the fields its parts' Content-Dispositions name: FormData's, when it reads each
 * name as sent (sentNames). Else each part's own reading, when every disposition reads one way
 * (plainDisposition): FormData reads .NET's `name=file; filename=a.csv` as a text field named
 * "file; filename=a.csv", and a browser's `name="C:\dir\"` as `C:\dir\"`. Else with `doubt`.
 */
function namedAsSent(body: MultipartBody): MultipartBody {
  const fields = body.fields!
  if (quotedLinesAgree(body.text, fields)) return body
  const parts = formDataParts(body)
  // No parts found apart (a boundary FormData reads otherwise): refused for that in body.ts.
  if (parts === null) return body
  const misread = firstMisread(fields, parts)
  if (misread === 'none') return body
  if (misread !== 'fields over' && !plainDisposition(misread.headers))
    return { ...body, doubt: dispositionOf(misread.headers) }
  return withFieldsOfParts(body)
}

/**
 * The first part whose field FormData reads otherwise than its disposition names it, or whose
 * disposition reads two ways; 'fields over' when none does but FormData reads more fields than
 * the parts name, else 'none'.
 */
function firstMisread(fields: Field[], parts: Iterable<Part>): Part | 'none' | 'fields over' {
  let i = 0
  for (const part of parts) {
    const names = fieldNames(part)
    if (names === null) continue
    const read = fields[i++]
    if (names === 'doubt' || read === undefined || !isNamed(read, names)) return part
  }
  return i === fields.length ? 'none' : 'fields over'
}

/** The body with each part's own field, as its disposition names it; with `doubt` at the first read more than one way. */
function withFieldsOfParts(body: MultipartBody): MultipartBody {
  const fields: Field[] = []
  for (const part of formDataParts(body)!) {
    if (!plainDisposition(part.headers)) return { ...body, doubt: dispositionOf(part.headers) }
    const names = fieldNames(part)
    if (names === null || names === 'doubt') continue
    const bytes = Buffer.from(part.value, 'latin1')
    fields.push([
      names.name,
      names.filename === null
        ? new TextDecoder().decode(bytes)
        : new File([bytes], names.filename, { type: part.type ?? '' }),
    ])
  }
  return { ...body, fields }
}

/** A Content-Disposition line where FormData finds one: at a line's start, named as FormData matches it. */
const DISPOSITION_LINE = /^content-disposition:([^\r\n]*)/gim

/** A disposition as browsers and most clients write it: a name and filename each quoted, without a backslash. */
const QUOTED_DISPOSITION = /^[ \t]*form-data; name="([^"\\]+)"(?:; filename="([^"\\]*)")?[ \t]*$/

/**
 * Whether FormData's fields are, in order, the text's Content-Disposition lines, each written as
 * QUOTED_DISPOSITION: one regex pass over the text, where splitting its parts costs about twice
 * FormData's reading. Each field comes from a part's Content-Disposition line, so as many lines
 * as fields is one a part, none in a value.
 */
function quotedLinesAgree(text: string, fields: Field[]): boolean {
  let i = 0
  DISPOSITION_LINE.lastIndex = 0
  for (let line = DISPOSITION_LINE.exec(text); line !== null; line = DISPOSITION_LINE.exec(text)) {
    const quoted = QUOTED_DISPOSITION.exec(line[1]!)
    const read = fields[i++]
    if (quoted === null || read === undefined) return false
    const filename = quoted[2]
    if (!isNamed(read, { name: utf8Of(quoted[1]!), filename: filename === undefined ? null : utf8Of(filename) }))
      return false
  }
  return i === fields.length
}

type FieldNames = { name: string; filename: string | null }

/**
 * A part's field name and file name (null for a text field) as sent (sentNames), in UTF-8, as
 * FormData reads header bytes; null when it is no field (no name, or not form-data), 'doubt' when
 * its disposition reads two ways. Read neither way (`name="a";;`), as FormData reads it: it is
 * the part's field when FormData's reading agrees (firstMisread).
 */
function fieldNames(part: Part): FieldNames | 'doubt' | null {
  const disposition = partHeader(part.headers, 'content-disposition')
  if (disposition === null || disposition.split(';', 1)[0]!.trim().toLowerCase() !== 'form-data') return null
  const sent = sentNames(disposition)
  if (sent === 'two ways') return 'doubt'
  const { name, filename } = sent ?? backslashedNames(disposition)
  if (!name) return null
  return { name: utf8Of(name), filename: filename === null ? null : utf8Of(filename) }
}

/** Whether FormData's entry is the field so named: its key, whether a file, and its file name. */
function isNamed([key, read]: Field, names: FieldNames): boolean {
  if (key !== names.name) return false
  return typeof read === 'string' ? names.filename === null : (read.name ?? '') === names.filename
}

/**
 * Whether a part's Content-Disposition reads one way: given once, its parameters as sentParams
 * reads them (each named once, each value a token or a quoted string read one way). .NET's
 * unquoted tokens read so; Go's `name="photo\\"` does not (photo\\ to a browser).
 */
function plainDisposition(headers: string): boolean {
  const lower = headers.toLowerCase()
  const first = dispositionAt(lower, 0)
  if (first === -1) return true
  if (dispositionAt(lower, first + 1) !== -1) return false
  return sentParams(dispositionOf(headers)) instanceof Map
}

/**
 * Whether a multipart body has a line ended by LF alone where FormData finds only CRLF, as a body
 * written by hand with "\n" has. A delimiter line (`--boundary\n`, padded or not): FormData reads such a body as
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
  // Padded (RFC 2046), a delimiter line holds spaces or tabs before its LF: sought where one may be.
  if (text.includes(`--${boundary} `) || text.includes(`--${boundary}\t`)) {
    const padded = `--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]+\\n`
    if (new RegExp(`^${padded}|${read ? '\\r\\n' : '\\n'}${padded}`).test(text)) return true
  }
  if (read) return false
  for (const part of formDataParts(body) ?? []) if (part.value === '' && /\n\r?\n/.test(part.headers)) return true
  return false
}
