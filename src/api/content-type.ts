// A request's Content-Type as read: its parameters, its charset, and what it means however written.
import { isAsciiLabel } from '../locations/csv-records'

/** The parameter `name` of a Content-Type, unquoted; null when none. */
export function paramOf(contentType: string, name: string): string | null {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=')
    if (eq !== -1 && param.slice(0, eq).trim().toLowerCase() === name)
      return param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
  }
  return null
}

/**
 * The charset parameter of a Content-Type, lowercased, unquoted, trimmed; null when none. An
 * empty one (`charset=`, a template's unfilled blank) names nothing, so is none: UTF-8 is read.
 */
export const charsetOf = (contentType: string): string | null =>
  paramOf(contentType, 'charset')?.trim().toLowerCase() || null

/** Whether bytes start with UTF-8's byte order mark, which says they are UTF-8 whatever the charset named. */
export const utf8Marked = (bytes: Uint8Array): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf

/** The encoding a charset label names, as the Encoding Standard reads labels ("utf8" is utf-8, "latin1" windows-1252); null when none it knows. */
export function encodingNamed(label: string): string | null {
  try {
    return new TextDecoder(label as ConstructorParameters<typeof TextDecoder>[0]).encoding
  } catch {
    return null
  }
}

/** The encoding a label names, ASCII's labels apart (a body beyond ASCII is refused in them); an unknown label as written. */
const encodingOf = (label: string): string => (isAsciiLabel(label) ? 'us-ascii' : (encodingNamed(label) ?? label))

/**
 * A Content-Type as what it means, to tell two requests apart: type and parameter names
 * lowercased, values unquoted and unspaced, in name order; the charset as the encoding it names,
 * left out when it names UTF-8 or nothing, as every body read takes a body with none for UTF-8.
 * A parameter named twice means its first, as paramOf reads it. Only a charset's value is compared
 * without case (RFC 9110): a multipart boundary's case is its own.
 */
export function contentTypeMeant(contentType: string): string {
  const [type, ...params] = contentType.split(';')
  const meant: string[] = []
  const seen = new Set<string>()
  for (const param of params) {
    const eq = param.indexOf('=')
    const name = param.slice(0, eq).trim().toLowerCase()
    // Without "=", no parameter: paramOf reads none there.
    if (eq === -1 || name === '' || seen.has(name)) continue
    seen.add(name)
    const value = (paramOf(`;${param}`, name) ?? '').trim()
    const encoding = name === 'charset' && value !== '' ? encodingOf(value.toLowerCase()) : null
    if (name !== 'charset') meant.push(`${name}=${value}`)
    else if (encoding !== null && encoding !== 'utf-8') meant.push(`charset=${encoding}`)
  }
  return [type!.trim().toLowerCase(), ...meant.sort()].join(';')
}
