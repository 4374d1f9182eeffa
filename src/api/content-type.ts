// A request's Content-Type as read: its parameters, its charset, and what it means however written.
import { encodingNamed, isAsciiLabel } from '../core/charset'

/** A quoted-string's text (RFC 9110): a backslash keeps the character after it; what follows the closing quote, to its ";", is no part of it. */
const QUOTED = /"((?:[^"\\]|\\[\s\S])*)"?[^;]*/y

/**
 * A Content-Type's parameters as RFC 9110 writes them, names lowercased: a quoted value unquoted,
 * its ";" no end; a name given twice means its first, as the WHATWG MIME parser reads it. Without
 * "=", no parameter. `escaped`: a quoted value keeps its backslashes, as FormData keeps a boundary's.
 */
export function paramsOf(contentType: string, escaped = false): Map<string, string> {
  const params = new Map<string, string>()
  let at = contentType.indexOf(';')
  while (at !== -1) {
    const next = contentType.indexOf(';', at + 1)
    // Within its own part: a search to the end from each ";" would take time squared.
    const eq = contentType.slice(at + 1, next === -1 ? undefined : next).indexOf('=')
    if (eq === -1) {
      at = next
      continue
    }
    const name = contentType
      .slice(at + 1, at + 1 + eq)
      .trim()
      .toLowerCase()
    let start = at + 2 + eq
    while (contentType[start] === ' ' || contentType[start] === '\t') start++
    QUOTED.lastIndex = start
    const quoted = contentType[start] === '"' ? QUOTED.exec(contentType) : null
    const value = quoted === null ? contentType.slice(start, next === -1 ? undefined : next).trim() : quoted[1]!
    if (name !== '' && !params.has(name))
      params.set(name, quoted === null || escaped ? value : value.replace(/\\([\s\S])/g, '$1'))
    at = quoted === null ? next : contentType.indexOf(';', QUOTED.lastIndex)
  }
  return params
}

/** A Content-Type's media type, "type/subtype" lowercased, without its parameters ('' for none). */
export const mediaTypeOf = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase()

/** The parameter `name` of a Content-Type, unquoted; null when none. */
export const paramOf = (contentType: string, name: string): string | null => paramsOf(contentType).get(name) ?? null

/**
 * The charset parameter of a Content-Type, lowercased, unquoted, trimmed; null when none. An
 * empty one (`charset=`, a template's unfilled blank) names nothing, so is none: UTF-8 is read.
 */
export const charsetOf = (contentType: string): string | null =>
  paramOf(contentType, 'charset')?.trim().toLowerCase() || null

/** The encoding a label names, ASCII's labels apart (a body beyond ASCII is refused in them); an unknown label as written. */
const encodingOf = (label: string): string => (isAsciiLabel(label) ? 'us-ascii' : (encodingNamed(label) ?? label))

/**
 * A Content-Type as what it means, to tell two requests apart: type and parameter names
 * lowercased, values unquoted and unspaced, in name order; the charset as the encoding it names,
 * left out when it names UTF-8 or nothing, as every body read takes a body with none for UTF-8.
 * A parameter named twice means its first, as paramsOf reads it. Only a charset's value is compared
 * without case (RFC 9110). A multipart boundary is left out (but with `boundary`): its body's
 * parts are compared (multipartMeant), or else its bytes with its boundary.
 */
export function contentTypeMeant(contentType: string, boundary = false): string {
  const type = mediaTypeOf(contentType)
  const meant: string[] = []
  for (const [name, value] of paramsOf(contentType)) {
    if (name === 'boundary' && type.startsWith('multipart/') && !boundary) continue
    const encoding = name === 'charset' && value.trim() !== '' ? encodingOf(value.trim().toLowerCase()) : null
    if (name !== 'charset') meant.push(`${name}=${value}`)
    else if (encoding !== null && encoding !== 'utf-8') meant.push(`charset=${encoding}`)
  }
  return [type, ...meant.sort()].join(';')
}
