// A multipart/form-data body's parts as sent, and what it means apart from its boundary.
import { sha256Hex } from '../core/ids'
import { contentTypeMeant, paramOf, paramsOf } from './content-type'

/** A part: its header lines and its value, as latin1 text (one character a byte, the bytes as sent). */
export type Part = { headers: string; value: string }

/**
 * The parts of a multipart body (RFC 7578), split at the boundary its Content-Type names; null when
 * it names none, or no part ends at a closing delimiter. With `past`, the parts after a closing
 * delimiter too, which FormData reads when another follows. FormData keeps neither a part's
 * headers nor its bytes.
 */
export function multipartParts(bytes: Uint8Array, contentType: string, past = false): Part[] | null {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary) return null
  const text = `\r\n${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')}`
  const pieces = text.split(`\r\n--${boundary}`)
  const close = pieces.findIndex((piece, i) => i > 0 && piece.startsWith('--'))
  if (close < 2) return null
  const parts = past ? pieces.slice(1).filter((piece) => !piece.startsWith('--')) : pieces.slice(1, close)
  return parts.map((piece) => {
    const end = piece.indexOf('\r\n\r\n')
    return end === -1 ? { headers: piece, value: '' } : { headers: piece.slice(0, end), value: piece.slice(end + 4) }
  })
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
export async function multipartMeant(bytes: Uint8Array, contentType: string): Promise<string | null> {
  const parts = multipartParts(bytes, contentType)
  if (parts === null) return null
  const read = await new Response(bytes, { headers: { 'content-type': contentType } }).formData().catch(() => null)
  const fields = read === null ? [] : [...read.entries()]
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
