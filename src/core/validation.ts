// Checks shared by every body and file the services read: the Management API's, the CLI's.
import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { codePoints } from './text'

/**
 * No field nests deeper than this (hours: day, list, interval; filters: group, tags, tag); a value
 * nested deeper is left as it is, for the schema to refuse (walked to the end, 120,000 levels
 * overflow the stack: a 500, or the CLI's stack trace).
 */
const MAX_FIELD_DEPTH = 8

/**
 * Strings trimmed, lone UTF-16 surrogates (JSON's "\ud800") made U+FFFD, as SQLite's UTF-8
 * stores them: the response to a write then says what a later read returns; and in Unicode's
 * composed form (NFC), so that text that reads the same is the same: "Café" typed with a combining
 * accent (macOS file names, some keyboards) is the tag "Café", not a second one beside it that no
 * filter group value or tags[] query matches. For bodies and files read from JSON (the Management
 * API, the CLI's filters and priority rules).
 */
export function trimStrings(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.trim().toWellFormed().normalize('NFC')
  if (depth === MAX_FIELD_DEPTH) return v
  if (Array.isArray(v)) return v.map((x) => trimStrings(x, depth + 1))
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimStrings(x, depth + 1)]))
  return v
}

/**
 * The schema's errors for `value`, but for a string over maxLength in UTF-16 units and not in
 * characters: TypeBox counts units, so 150 emoji would exceed "200 characters".
 */
export function* schemaErrors(schema: TSchema, value: unknown): Generator<ValueError> {
  // Check walks a valid value three to four times faster than Errors, which builds its iterator.
  if (Value.Check(schema, value)) return
  for (const e of Value.Errors(schema, value)) {
    if (
      e.type === ValueErrorType.StringMaxLength &&
      typeof e.value === 'string' &&
      codePoints(e.value) <= (e.schema as TSchema & { maxLength: number }).maxLength
    )
      continue
    yield e
  }
}

/** A full http(s) URL, protocol included. */
export function isFullUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false
  try {
    return new URL(value).hostname.length > 0
  } catch {
    return false
  }
}

/** The most characters of a sent text a message quotes: an answer stays small, whatever was sent. */
const QUOTED_MAX = 60

/** `text` cut to QUOTED_MAX UTF-16 units, not between the two of a surrogate pair. */
const cut = (text: string) =>
  text.slice(0, /[\uD800-\uDBFF]/.test(text[QUOTED_MAX - 1] ?? '') ? QUOTED_MAX - 1 : QUOTED_MAX)

/**
 * A sent value as a message shows it: a text in JSON quotes, cut after QUOTED_MAX characters
 * with its length said; an array or object as JSON when that is as short, else by its kind (its
 * JSON may be megabytes, or nested past what JSON.stringify can walk); else as JSON writes it.
 */
export function quoted(value: unknown): string {
  if (typeof value === 'string')
    return value.length <= QUOTED_MAX
      ? JSON.stringify(value)
      : `${JSON.stringify(`${cut(value)}…`)} (${value.length} characters)`
  if (value === null || typeof value !== 'object') return value === undefined ? 'nothing' : String(value)
  return shortJson(value) ?? (Array.isArray(value) ? 'an array' : 'an object')
}

/** JSON text of `value` when it has at most QUOTED_MAX characters, else null: each level writes a bracket, so the walk ends early however deep the value. */
function shortJson(value: unknown): string | null {
  let text = ''
  const put = (piece: string) => {
    text += piece
    return text.length <= QUOTED_MAX
  }
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object')
      return put(JSON.stringify(typeof v === 'string' ? v.slice(0, QUOTED_MAX + 1) : v) ?? 'null')
    const array = Array.isArray(v)
    if (!put(array ? '[' : '{')) return false
    let first = true
    for (const [k, x] of array ? v.entries() : Object.entries(v)) {
      if (!first && !put(',')) return false
      first = false
      if (!array && !put(`${JSON.stringify(String(k).slice(0, QUOTED_MAX + 1))}:`)) return false
      if (!walk(x)) return false
    }
    return put(array ? ']' : '}')
  }
  return walk(value) ? text : null
}

/** A key of a sent object as a field's name shows it: cut as quoted() cuts a text, without quotes. */
export const keyShown = (key: string) => (key.length <= QUOTED_MAX ? key : `${cut(key)}…`)
