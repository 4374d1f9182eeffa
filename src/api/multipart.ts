// A multipart/form-data body's parts as sent, and what it means apart from its boundary.
import { sha256Hex } from '../core/ids'
import { contentTypeMeant, paramOf, paramsOf } from './content-type'

/**
 * A part: its header lines and its value, as latin1 text (one character a byte, the bytes as
 * sent); `named`: each header's value by its name lowercased (partHeader); `disposition`: its
 * Content-Disposition's parameters, as paramsOf reads them (its name, its filename).
 */
export type Part = { headers: string; named: Map<string, string>; disposition: Map<string, string>; value: string }

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
      const named = namedHeaders(headers)
      const disposition = paramsOf(named.get('content-disposition') ?? '')
      return { headers, named, disposition, value: end === -1 ? '' : piece.slice(end + 4) }
    }),
  }
}

/**
 * A part's header lines as values by name lowercased: a line's name runs to its first ":", the
 * first line of a name holds its value, trimmed. Read once a part: 150,000 parts are read apiece.
 */
function namedHeaders(headers: string): Map<string, string> {
  const named = new Map<string, string>()
  let start = 0
  while (start < headers.length) {
    const end = lineEnd(headers, start)
    // Within its own line: a search to the headers' end from each line would take time squared.
    const colon = headers.slice(start, end).indexOf(':')
    if (colon !== -1) {
      const name = headers.slice(start, start + colon).toLowerCase()
      if (!named.has(name)) named.set(name, headers.slice(start + colon + 1, end).trim())
    }
    start = end + 1
  }
  return named
}

/** Where the line from `start` ends: its first CR or LF (a line starts after either), else the text's end. */
function lineEnd(text: string, start: number): number {
  let at = start
  while (at < text.length && text.charCodeAt(at) !== 0x0d && text.charCodeAt(at) !== 0x0a) at++
  return at
}

/** A header's value in a part (`name` lowercased), null without it. */
export const partHeader = (part: Part, name: string): string | null => part.named.get(name) ?? null

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
  const parts = body.parts.slice(0, body.closed)
  const fields = body.fields ?? []
  if (fields.length !== parts.length) return null
  const meant: (string | null)[][] = []
  const v2: (string | null)[][] = []
  for (const [i, part] of parts.entries()) {
    const { value, disposition } = part
    const type = partHeader(part, 'content-type')
    const name = disposition.get('name') ?? null
    const file = disposition.get('filename') ?? null
    if (!(await readAlike(fields[i]!, name, file, value))) return null
    const typeMeant = type === null ? null : contentTypeMeant(type)
    const digest = sha256Hex(Buffer.from(value, 'latin1'))
    meant.push([name, file, file === null && typeMeant === 'text/plain' ? null : typeMeant, digest])
    v2.push([name, file, typeMeant, digest])
  }
  const hashed = (list: (string | null)[][]) => sha256Hex(`multipart/form-data parts\n${JSON.stringify(list)}`)
  return { meant: hashed(meant), v2: hashed(v2) }
}

/** Whether FormData's field is the part as split here: its name, whether a file and its name, its value. */
async function readAlike(field: [string, string | Blob], name: string | null, file: string | null, value: string) {
  const [key, read] = field
  if (key !== name) return false
  if (typeof read === 'string') return file === null && read === Buffer.from(value, 'latin1').toString('utf8')
  const bytes = Buffer.from(await read.arrayBuffer()).toString('latin1')
  return file !== null && ((read as File).name ?? '') === file && bytes === value
}
