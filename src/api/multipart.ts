// A multipart/form-data body's parts as sent, and what it means apart from its boundary.
import { createHash } from 'node:crypto'
import { contentTypeMeant, paramOf, paramsOf } from './content-type'

/**
 * A part: its header lines and its value, as latin1 text (one character a byte, the bytes as
 * sent); `type`: its Content-Type's value (partHeader), null without one; `name` and `filename`:
 * its Content-Disposition's parameters as paramsOf reads them, null without them. No map a part:
 * 150,000 parts would hold 300,000 beside FormData's own entries.
 */
export type Part = { headers: string; type: string | null; name: string | null; filename: string | null; value: string }

/**
 * A multipart body read once, for its reading, its charsets and its fingerprint alike: `parts`
 * split at the boundary its Content-Type names, to the body's end (FormData reads on past a
 * closing delimiter another follows), the first `closed` of them before the first close; null when
 * it names no boundary, or no part ends at a closing delimiter. `fields`: FormData's reading, null
 * when it reads none. FormData keeps neither a part's headers nor its bytes.
 */
export type MultipartBody = {
  parts: Part[] | null
  closed: number
  fields: [string, string | File][] | null
}

export async function readMultipartBody(bytes: Uint8Array, contentType: string): Promise<MultipartBody> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData().catch(() => null)
  return { ...multipartParts(bytes, contentType), fields: form === null ? null : [...form.entries()] }
}

/**
 * Whether a multipart body has a delimiter line ended by LF alone (`--boundary\n`), as a body
 * written by hand with "\n" has: FormData finds delimiters ended by CRLF only, and reads such a
 * body as no fields, or its parts after one as the value before it.
 */
export function lfDelimited(bytes: Uint8Array, contentType: string): boolean {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return false
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(`--${boundary}\n`, 0, 'latin1')
}

/** The parts of a multipart body (RFC 7578), as MultipartBody holds them. */
function multipartParts(bytes: Uint8Array, contentType: string): Pick<MultipartBody, 'parts' | 'closed'> {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return { parts: null, closed: 0 }
  const text = `\r\n${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')}`
  const pieces = text.split(`\r\n--${boundary}`)
  const close = pieces.findIndex((piece, i) => i > 0 && piece.startsWith('--'))
  if (close < 2) return { parts: null, closed: 0 }
  // The pieces before the first close start with no "--": they are the first of those kept.
  const parts = pieces.slice(1).filter((piece) => !piece.startsWith('--'))
  return {
    closed: close - 1,
    parts: parts.map((piece) => {
      const end = piece.indexOf('\r\n\r\n')
      const headers = end === -1 ? piece : piece.slice(0, end)
      const disposition = paramsOf(partHeader(headers, 'content-disposition') ?? '')
      const [name, filename] = [disposition.get('name') ?? null, disposition.get('filename') ?? null]
      return {
        headers,
        type: partHeader(headers, 'content-type'),
        name,
        filename,
        value: end === -1 ? '' : piece.slice(end + 4),
      }
    }),
  }
}

/**
 * A header's value in a part's header lines (`name` lowercased), null without it: a line's name
 * runs to its first ":", the first line of a name holds its value, trimmed.
 */
export function partHeader(headers: string, name: string): string | null {
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

/** Where the line from `start` ends: its first CR or LF (a line starts after either), else the text's end. */
function lineEnd(text: string, start: number): number {
  let at = start
  while (at < text.length && text.charCodeAt(at) !== 0x0d && text.charCodeAt(at) !== 0x0a) at++
  return at
}

/**
 * What a multipart body means, as a SHA-256 (hex): each part's name, file name, Content-Type (as
 * contentTypeMeant reads it) and value bytes, in order. A text field's `text/plain` in UTF-8 is no
 * type (RFC 7578 makes it a field's default): clients differ in sending it. Its boundary, preamble
 * and epilogue mean nothing: fetch makes a new boundary for each try of one FormData. Null when its
 * parts are not found, or are not the fields FormData reads (a delimiter inside a value, a part
 * past the close, a name given twice): its bytes then tell it. `v2`: what it meant by the rule of
 * fingerprints v2, which counted a field's `text/plain`.
 */
export async function multipartMeant(body: MultipartBody): Promise<{ meant: string; v2: string } | null> {
  if (body.parts === null) return null
  const fields = body.fields ?? []
  if (fields.length !== body.closed) return null
  // Each rule's list hashed as its JSON is written, part by part: the list and its text whole would
  // hold some 40 MB for a body of 8 MiB.
  const meant = listHash()
  const v2 = listHash()
  for (let i = 0; i < body.closed; i++) {
    const { value, type, name, filename } = body.parts[i]!
    if (!(await readAlike(fields[i]!, name, filename, value))) return null
    const typeMeant = type === null ? null : contentTypeMeant(type)
    const digest = createHash('sha256').update(value, 'latin1').digest('hex')
    meant.add([name, filename, filename === null && typeMeant === 'text/plain' ? null : typeMeant, digest])
    v2.add([name, filename, typeMeant, digest])
  }
  return { meant: meant.hex(), v2: v2.hex() }
}

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

/** Text that reads the same as latin1 and as UTF-8. */
const ASCII = /^[\x00-\x7f]*$/

/** Whether FormData's field is the part as split here: its name, whether a file and its name, its value. */
async function readAlike(field: [string, string | Blob], name: string | null, file: string | null, value: string) {
  const [key, read] = field
  if (key !== name) return false
  // ASCII reads the same as latin1 and as UTF-8: most values are, and need no copy to compare.
  if (typeof read === 'string')
    return file === null && read === (ASCII.test(value) ? value : Buffer.from(value, 'latin1').toString('utf8'))
  const bytes = Buffer.from(await read.arrayBuffer()).toString('latin1')
  return file !== null && ((read as File).name ?? '') === file && bytes === value
}
