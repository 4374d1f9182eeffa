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

/**
 * A Content-Type's media type as a body is read by: mediaTypeOf's, but multipart/form-data where a
 * space or a "," stands for the ";" after it (`multipart/form-data, boundary=B`), a form refused
 * for that (paramFault) rather than a body of a type not read.
 */
export const typeReadOf = (contentType: string): string =>
  /^[ \t]*multipart\/form-data(?:[ \t]*,|[ \t]+[^ \t;])/i.test(contentType)
    ? 'multipart/form-data'
    : mediaTypeOf(contentType)

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

/** A parameter named `name`, after the start, a separator or a space: the signs and spaces between its name and its value. */
const NAMED = (name: string) => new RegExp(`(^|[;,\\s])${name}([ \\t]*)([=:])([ \\t]*)`, 'i')

/**
 * How the parameter `name` (a word) of a Content-Type is written otherwise than RFC 9110 writes
 * one, so that readers differ on it or find none: `fault`, what is wrong, and `written`, the
 * parameter as sent. Null when it is written so, or not given.
 */
export function paramFault(contentType: string, name: string): { fault: string; written: string } | null {
  const found = NAMED(name).exec(contentType)
  if (found === null) return null
  const [whole, before, spaceBefore, sign, spaceAfter] = found as unknown as string[]
  const start = found.index + before!.length
  const valueAt = found.index + whole!.length
  QUOTED.lastIndex = valueAt
  const quoted = contentType[valueAt] === '"' ? QUOTED.exec(contentType) : null
  const end = quoted === null ? contentType.indexOf(';', valueAt) : contentType.indexOf(';', QUOTED.lastIndex)
  const written = contentType.slice(start, end === -1 ? undefined : end).trim()
  const value = contentType.slice(valueAt, end === -1 ? undefined : end).trim()
  const fault = (text: string) => ({ fault: text, written })
  const lead = contentType.slice(0, start).trimEnd()
  if (lead.endsWith(',')) return fault('a "," before it where a ";" goes')
  if (!lead.endsWith(';')) return fault('no ";" before it')
  if (sign === ':') return fault('a ":" where its "=" goes')
  if (spaceBefore !== '') return fault('a space before its "="')
  if (spaceAfter !== '') return fault('a space after its "="')
  if (quoted !== null && !/^"(?:[^"\\]|\\[\s\S])*"$/.test(value))
    return fault(/^"(?:[^"\\]|\\[\s\S])*"/.test(value) ? 'text after its closing quote' : 'a quote that is not closed')
  if (quoted === null && value.includes('"')) return fault('a quote in a value not quoted')
  return null
}
