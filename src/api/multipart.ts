// A multipart/form-data body's parts as sent, and what it means apart from its boundary.
import { sha256Hex } from '../core/ids'
import { contentTypeMeant, paramOf, paramsOf } from './content-type'

/** A part: its header lines and its value, as latin1 text (one character a byte, the bytes as sent). */
export type Part = { headers: string; value: string }

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
      return end === -1 ? { headers: piece, value: '' } : { headers: piece.slice(0, end), value: piece.slice(end + 4) }
    }),
  }
}

/** A header's value in a part's header lines, null without it. */
export const partHeader = (headers: string, name: string): string | null =>
  new RegExp(`^${name}:(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? null

/**
 * What a multipart body means, as a SHA-256 (hex): each part's name, file name, Content-Type (as
 * contentTypeMeant reads it) and value bytes, in order. Its boundary, preamble and epilogue mean
 * nothing: fetch makes a new boundary for each try of one FormData. Null when its parts are not
 * found, or are not the fields FormData reads (a delimiter inside a value, a part past the close,
 * a name given twice): its bytes then tell it.
 */
export async function multipartMeant(body: MultipartBody): Promise<string | null> {
  if (body.parts === null) return null
  const parts = body.parts.slice(0, body.closed)
  const fields = body.fields ?? []
  if (fields.length !== parts.length) return null
  const meant: (string | null)[][] = []
  for (const [i, { headers, value }] of parts.entries()) {
    const disposition = paramsOf(partHeader(headers, 'content-disposition') ?? '')
    const type = partHeader(headers, 'content-type')
    const name = disposition.get('name') ?? null
    const file = disposition.get('filename') ?? null
    if (!(await readAlike(fields[i]!, name, file, value))) return null
    meant.push([name, file, type === null ? null : contentTypeMeant(type), sha256Hex(Buffer.from(value, 'latin1'))])
  }
  return sha256Hex(`multipart/form-data parts\n${JSON.stringify(meant)}`)
}

/** Whether FormData's field is the part as split here: its name, whether a file and its name, its value. */
async function readAlike(field: [string, string | Blob], name: string | null, file: string | null, value: string) {
  const [key, read] = field
  if (key !== name) return false
  if (typeof read === 'string') return file === null && read === Buffer.from(value, 'latin1').toString('utf8')
  const bytes = Buffer.from(await read.arrayBuffer()).toString('latin1')
  return file !== null && ((read as File).name ?? '') === file && bytes === value
}
