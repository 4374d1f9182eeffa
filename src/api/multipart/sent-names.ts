// A part's Content-Disposition read as its sender wrote it, where FormData reads a backslash in
// quotes otherwise: browsers write `\` as it is and `"` as %22 (WHATWG), so `filename="C:\dir\"`
// ends at its last quote; Go, Python and curl --form-escape write `\\` and `\"` (RFC 9110).
import { fileNameOf } from './parts'

/** A parameter name (a token), `=`, and a token value. */
const NAME = String.raw`[ \t]*;[ \t]*([!#$%&'*+.^_\x60|~0-9a-z-]+)[ \t]*=[ \t]*`
const TOKEN = String.raw`([!#$%&'*+.^_\x60|~0-9a-z-]+)`

/**
 * A parameter from its ";", its quoted value read as a browser writes one (`literal`: to the next
 * quote) or with RFC 9110's escapes (`escaped`: only `\\` and `\"`, as writers that escape write).
 */
const PARAM = {
  literal: new RegExp(`${NAME}(?:${TOKEN}|"([^"\\r\\n]*)")[ \\t]*`, 'iy'),
  escaped: new RegExp(`${NAME}(?:${TOKEN}|"((?:[^"\\\\\\r\\n]|\\\\["\\\\])*)")[ \\t]*`, 'iy'),
}

/**
 * A disposition's parameters (names lowercased) read one way, each a token or a quoted string
 * closed before its ";" or the end, each named once; a ";" closing the list is no parameter. Null
 * when one is written otherwise (no value, text after its quote, a name given twice).
 */
function paramsRead(disposition: string, way: keyof typeof PARAM): Map<string, string> | null {
  const params = new Map<string, string>()
  const pattern = PARAM[way]
  let at = disposition.indexOf(';')
  if (at === -1) return params
  while (at < disposition.length) {
    pattern.lastIndex = at
    const param = pattern.exec(disposition)
    if (param === null) return /^[ \t]*;[ \t]*$/.test(disposition.slice(at)) ? params : null
    const name = param[1]!.toLowerCase()
    if (params.has(name)) return null
    const quoted = param[3]
    params.set(name, param[2] ?? (way === 'escaped' ? quoted!.replace(/\\(.)/g, '$1') : quoted!))
    at = pattern.lastIndex
  }
  return params
}

/**
 * A disposition's parameters as its sender meant them: a quoted value with a backslash read both
 * ways (a browser's and an escaping writer's), and the one way that reads it. Read both ways, as a
 * browser's (as FormData reads `\\`) when both name one field (sameField); else 'two ways'
 * (`name="photo\\"`: photo\\ to a browser, photo\ to Go). Null when neither way reads it.
 */
export function sentParams(disposition: string): Map<string, string> | 'two ways' | null {
  const literal = paramsRead(disposition, 'literal')
  if (!disposition.includes('\\')) return literal
  const escaped = paramsRead(disposition, 'escaped')
  if (literal === null || escaped === null) return literal ?? escaped
  return sameField(literal, escaped) ? literal : 'two ways'
}

/**
 * Whether two readings name one field: one name, and a file in both or in neither. Go's
 * `filename="C:\\dir\\x.csv"` is a file either way, told by its base name x.csv.
 */
const sameField = (one: Map<string, string>, other: Map<string, string>): boolean =>
  one.get('name') === other.get('name') && (fileNameOf(one) === null) === (fileNameOf(other) === null)

/** A disposition's field name and file name (fileNameOf) as sent (sentParams); 'two ways' or null as it is. */
export function sentNames(disposition: string): { name: string | null; filename: string | null } | 'two ways' | null {
  const params = sentParams(disposition)
  return params instanceof Map ? { name: params.get('name') ?? null, filename: fileNameOf(params) } : params
}
