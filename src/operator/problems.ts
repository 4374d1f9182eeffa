// What is wrong in a JSON file of filter groups or priority rules, one line a problem.
import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { schemaErrors } from '../core/validation'
import { OperatorError } from './shared'

const MAX_LISTED_PROBLEMS = 20

/** `/0/tags/1/color` under `filters` -> `filters[0].tags[1].color`. */
function jsonPath(root: string, pointer: string): string {
  let out = root
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    out += /^\d+$/.test(key) ? `[${key}]` : `.${key}`
  }
  return out
}

/** What a string must look like, by field name, for pattern mismatches. */
const PATTERN_HINTS: Record<string, string> = {
  id: 'must be 1 to 64 letters, digits, _ or - (such as services or _default)',
  color: 'must be a hex colour such as #1a7f37 or #fff',
  ids: 'must be a location id such as loc_0123456789abcdef',
}

/** A value as quoted in a message: JSON, cut short (nested too deep for JSON.stringify: its brackets). */
export function shown(v: unknown): string {
  let text: string
  try {
    text = JSON.stringify(v) ?? String(v)
  } catch {
    text = Array.isArray(v) ? '[[[...]]]' : '{...}'
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function problemFor(root: string, e: ValueError, unknownField?: (at: string) => string): string {
  const at = jsonPath(root, e.path)
  const field =
    e.path
      .split('/')
      .filter((p) => p !== '' && !/^\d+$/.test(p))
      .at(-1) ?? ''
  const s = e.schema as TSchema & Record<string, unknown>
  const got = e.value === undefined ? '' : `; got ${shown(e.value)}`
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${at} is required.`
    case ValueErrorType.ObjectAdditionalProperties:
      return unknownField
        ? unknownField(at)
        : `${at} is not a known field; the fields are ${Object.keys((s.properties as object) ?? {}).join(', ')}.`
    case ValueErrorType.String:
    case ValueErrorType.Boolean:
    case ValueErrorType.Number:
      return `${at} must be a ${s.type === 'string' ? 'string' : s.type === 'boolean' ? 'boolean (true or false)' : 'number'}${got}.`
    case ValueErrorType.Array:
      return `${at} must be an array${got}.`
    case ValueErrorType.Object:
      return `${at} must be an object${got}.`
    case ValueErrorType.StringMinLength:
      return `${at} must not be empty.`
    case ValueErrorType.StringMaxLength:
      return `${at} may be at most ${s.maxLength} characters.`
    case ValueErrorType.ArrayMinItems:
      return `${at} must have at least ${s.minItems} item(s).`
    case ValueErrorType.ArrayMaxItems:
      return `${at} may have at most ${s.maxItems} items.`
    case ValueErrorType.StringPattern:
      return `${at} ${PATTERN_HINTS[field] ?? `must match ${s.pattern}`}${got}.`
    default:
      return `${at}: ${e.message}${got}.`
  }
}

/** The schema's complaints about `value`, the first per field. */
export function schemaProblems(
  schema: TSchema,
  value: unknown,
  root: string,
  unknownField?: (at: string) => string,
): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const e of schemaErrors(schema, value)) {
    if (seen.has(e.path)) continue // "is required" before "must be a string"
    seen.add(e.path)
    out.push(problemFor(root, e, unknownField))
  }
  return out
}

export function refuse(what: string, problems: string[]): never {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${p}`)
  if (problems.length > MAX_LISTED_PROBLEMS) listed.push(`  ... and ${problems.length - MAX_LISTED_PROBLEMS} more.`)
  throw new OperatorError(`The ${what} were not changed:\n${listed.join('\n')}`)
}
