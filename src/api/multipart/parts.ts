// A multipart/form-data body split into parts as Bun's FormData splits it, and a part's header
// lines read. Every text here is latin1: one character a byte, the bytes as sent.
import { paramOf, paramsOf } from '../content-type'

/**
 * A part: its header lines and its value; `type`, its Content-Type's value (null without one);
 * `name`, its Content-Disposition's as paramsOf reads it, and `filename`, as fileNameOf reads it
 * (null without them). Fields, not a map: 150,000 parts would hold 300,000 beside FormData's
 * entries.
 */
export type Part = { headers: string; type: string | null; name: string | null; filename: string | null; value: string }

/** A multipart body's bytes as latin1 text, and the Content-Type it was sent with. */
export type MultipartText = { text: string; contentType: string }

/**
 * The parts of a multipart body as Bun's FormData finds them: the body to its last closing
 * delimiter, split at each delimiter followed by CRLF wherever it stands (after a preamble that
 * ends in no CRLF too); a part's headers end at its first blank line, and its value loses one CRLF
 * at its end. Null when its Content-Type names no boundary or it has no closing delimiter.
 */
export function formDataParts({ text, contentType }: MultipartText): Iterable<Part> | null {
  const boundary = paramOf(contentType, 'boundary')
  const spans = boundary ? partSpans(text, boundary) : null
  if (spans === null) return null
  return (function* () {
    for (const [start, end] of spans) {
      const part = partOf(text.slice(start, end))
      yield part.value.endsWith('\r\n') ? { ...part, value: part.value.slice(0, -2) } : part
    }
  })()
}

/**
 * Where each part of a multipart text stands, [start, end): from after its delimiter line to the
 * next delimiter line, or to the last closing delimiter, as formDataParts splits the body. Null
 * when the text has no closing delimiter.
 */
export function partSpans(text: string, boundary: string): Iterable<[number, number]> | null {
  const close = text.lastIndexOf(`--${boundary}--`)
  if (close === -1) return null
  const delimiter = `--${boundary}\r\n`
  // Part by part: a body of 150,000 parts is read without holding them all.
  return (function* (): Generator<[number, number]> {
    let at = text.indexOf(delimiter)
    while (at !== -1 && at + delimiter.length <= close) {
      const start = at + delimiter.length
      const next = text.indexOf(delimiter, start)
      at = next !== -1 && next + delimiter.length <= close ? next : -1
      yield [start, at === -1 ? close : at]
    }
  })()
}

/**
 * The text with each delimiter line's transport padding (RFC 2046: spaces and tabs after `--B`,
 * before its CRLF) dropped, as FormData reads no padded line as a delimiter; the text itself when
 * none is padded. A delimiter line starts the text or follows a CRLF.
 */
export function withoutPadding(text: string, boundary: string): string {
  const dashes = `--${boundary}`
  let out = ''
  let from = 0
  for (let at = text.indexOf(dashes); at !== -1; at = text.indexOf(dashes, at + 1)) {
    if (at !== 0 && !(text[at - 1] === '\n' && text[at - 2] === '\r')) continue
    let end = at + dashes.length
    while (text[end] === ' ' || text[end] === '\t') end++
    if (end === at + dashes.length || text[end] !== '\r' || text[end + 1] !== '\n') continue
    out += text.slice(from, at + dashes.length)
    from = end
  }
  return from === 0 ? text : out + text.slice(from)
}

/** A part from its text after its delimiter: its headers to the first blank line, its value after it. */
export function partOf(piece: string): Part {
  const end = piece.indexOf('\r\n\r\n')
  const headers = end === -1 ? piece : piece.slice(0, end)
  const disposition = paramsOf(partHeader(headers, 'content-disposition') ?? '')
  return {
    headers,
    type: partHeader(headers, 'content-type'),
    name: disposition.get('name') ?? null,
    filename: fileNameOf(disposition),
    value: end === -1 ? '' : piece.slice(end + 4),
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

const DISPOSITION = 'content-disposition:'

/** A part's first Content-Disposition value, '' without one. */
export function dispositionOf(headers: string): string {
  const at = dispositionAt(headers.toLowerCase(), 0)
  return at === -1 ? '' : headers.slice(at + DISPOSITION.length, lineEnd(headers, at)).trim()
}

/** Where a line of lowercased header lines starts with DISPOSITION, from `from`; -1 when none does. */
export function dispositionAt(lower: string, from: number): number {
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

/** Text that reads the same as latin1 and as UTF-8. */
export const ASCII = /^[\x00-\x7f]*$/

/** Latin1 text read as UTF-8, as FormData reads header bytes; ASCII as it is, without a copy. */
export const utf8Of = (text: string): string => (ASCII.test(text) ? text : Buffer.from(text, 'latin1').toString('utf8'))

/**
 * A Content-Disposition's name and file name with the backslashes in their quotes kept, as
 * FormData keeps them (fetch writes a name's backslash as it is).
 */
export function backslashedNames(disposition: string): { name: string | null; filename: string | null } {
  const params = paramsOf(disposition, true)
  return { name: params.get('name') ?? null, filename: fileNameOf(params) }
}

/**
 * A disposition's file name (latin1 text of its bytes): its `filename*` decoded (RFC 6266 prefers
 * it, and .NET writes `filename` beside it as a MIME encoded-word), or split in sections (RFC
 * 2231), else its `filename`; null when none is given, the part a text field.
 */
export function fileNameOf(params: Map<string, string>): string | null {
  const starred = params.get('filename*') ?? joinedSections(params)
  const plain = params.get('filename') ?? null
  if (starred === undefined) return plain
  return extValue(starred) ?? plain ?? starred
}

/**
 * RFC 2231's sections of a file name (`filename*0*=UTF-8''...; filename*1=...`, as Python's email
 * package splits a long one), from 0 to the first missing, as one ext-value: a plain section
 * percent-encoded, an encoded one as sent. Undefined when there is no section 0. A name whose
 * first section is plain has no charset, and reads as UTF-8.
 */
function joinedSections(params: Map<string, string>): string | undefined {
  const first = params.get('filename*0*')
  let joined = first ?? (params.has('filename*0') ? "UTF-8''" : undefined)
  if (joined === undefined) return undefined
  for (let n = first === undefined ? 0 : 1; ; n++) {
    const encoded = params.get(`filename*${n}*`)
    const plain = encoded === undefined ? params.get(`filename*${n}`) : undefined
    if (encoded === undefined && plain === undefined) return joined
    joined +=
      encoded ?? plain!.replace(/[^!#$&+.^_`|~0-9a-z-]/gi, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  }
}

/**
 * An RFC 8187 ext-value (`UTF-8''st%C3%B6res.csv`) as the latin1 text of its UTF-8 bytes; null
 * when it is written otherwise, or in a charset other than UTF-8 and ISO-8859-1 (all RFC 8187 asks
 * a reader to know).
 */
function extValue(value: string): string | null {
  const ext = /^([!#$%&+^_`{}~0-9a-z-]+)'[^']*'((?:%[0-9a-f]{2}|[!#$&+.^_`|~0-9a-z-])*)$/i.exec(value)
  if (ext === null) return null
  const charset = ext[1]!.toLowerCase()
  const latin1 = ext[2]!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  if (charset === 'utf-8') return latin1
  // Its characters are its bytes in ISO-8859-1: as UTF-8, each name here is bytes in latin1 text.
  return charset === 'iso-8859-1' ? Buffer.from(latin1, 'utf8').toString('latin1') : null
}
