// How a bulk request's problems are worded: each names its item, and a CSV row's its column.
import { LocationError, type ValidationDetails } from './errors'
import { NUMBER_AS_STRING } from './normalize'

/** Collects each item's problems as validation details: "<key>.<field>" -> messages naming the item. */
export class Problems {
  readonly details: ValidationDetails = {}
  private items = new Set<string>()
  add(key: string, who: string, field: string | null, message: string): void {
    this.items.add(key)
    const list = (this.details[field === null ? key : `${key}.${field}`] ??= [])
    list.push(`${who}: ${message}`)
  }
  get count(): number {
    return this.items.size
  }
  error(total: number): LocationError {
    const n = this.count
    return new LocationError(
      'validation_error',
      `${n} of ${total} location${total === 1 ? '' : 's'} cannot be written as sent; nothing was written.`,
      this.details,
    )
  }
}

/**
 * "The coordinates.lat field ..." as "The "Latitude" column (coordinates.lat) ..." when a column
 * gave the field; a cell is always text, so JSON's "written as a string" hint is left out.
 */
export function inColumn(message: string, field: string, columns: ReadonlyMap<string, string> | undefined): string {
  // A part of a column's field is named by that column: "tags.0" by "Tags".
  const dot = field.indexOf('.')
  const header = columns?.get(field) ?? (dot > 0 ? columns?.get(field.slice(0, dot)) : undefined)
  if (header === undefined) return message
  return message
    .replace(`The ${field} field`, `The "${header}" column${header === field ? '' : ` (${field})`}`)
    .replace(NUMBER_AS_STRING, '')
}

/** A problem as Problems.add writes it, "<whoIs>: <text>", taken apart again: the item's key and the text; null for another message. */
const PROBLEM = /^(line \d+|locations\[\d+\])(?: \((?:external_id )?"(?:[^"\\]|\\.)*"\))?: ([\s\S]*)$/
export function problemParts(message: string): { key: string; text: string } | null {
  const m = PROBLEM.exec(message)
  return m === null ? null : { key: m[1]!, text: m[2]! }
}

/**
 * How a person finds an item: its key, with its external id or else its name, when as long as a
 * valid one may be (a name's 200 characters): a longer one is the item's problem, not its name.
 */
export function whoIs(key: string, fields: Record<string, unknown> | null): string {
  const shown = (v: unknown): v is string => typeof v === 'string' && v !== '' && v.length <= 200
  if (shown(fields?.external_id)) return `${key} (external_id ${JSON.stringify(fields.external_id)})`
  if (shown(fields?.name)) return `${key} (${JSON.stringify(fields.name)})`
  return key
}

/** The service's advice to send coordinates, in a JSON body's words. */
const SEND_COORDINATES = 'send coordinates ({"lat": ..., "lng": ...})'

/** A geocoding refusal in a CSV row's words: its coordinate columns, as the file names them. */
export function inColumns(message: string, columns: ReadonlyMap<string, string> | undefined): string {
  if (columns === undefined) return message
  const lat = columns.get('coordinates.lat') ?? 'lat'
  const lng = columns.get('coordinates.lng') ?? 'lng'
  return message
    .replace(`${SEND_COORDINATES} with the address`, `fill in the row's "${lat}" and "${lng}" columns`)
    .replace(SEND_COORDINATES, `fill in the row's "${lat}" and "${lng}" columns`)
}
