// How a bulk request's problems are worded: each names its item, and a CSV row's its column.
import { LocationError, type ValidationDetails } from './errors'
import { NUMBER_AS_STRING } from './normalize'
import { DAYS_IN_ENGLISH } from '../core/day-names'
import { DAYS } from '../store/locations'

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
 * "The coordinates.lat field ..." as "The "Latitude" column ..." when a column
 * gave the field; a cell is always text, so JSON's "written as a string" hint is left out.
 */
export function inColumn(message: string, field: string, columns: ReadonlyMap<string, string> | undefined): string {
  // A part of a column's field is named by that column: "tags.0" by "Tags".
  const dot = field.indexOf('.')
  const header = columns?.get(field) ?? (dot > 0 ? columns?.get(field.slice(0, dot)) : undefined)
  if (header === undefined) return message
  return message.replace(`The ${field} field`, columnSaid(field, header, columns!)).replace(NUMBER_AS_STRING, '')
}

/** A field as the column that gave it is named: "The "Latitude" column", a part "A value of the "Labels" column". */
function columnSaid(field: string, header: string, columns: ReadonlyMap<string, string>): string {
  if (columns.has(field)) return `The "${header}" column`
  // A column of both coordinates ("52.52, 13.40") holds a latitude and a longitude, not values.
  if (field === 'coordinates.lat' || field === 'coordinates.lng')
    return `The ${field === 'coordinates.lat' ? 'latitude' : 'longitude'} in the "${header}" column`
  const day = DAYS.indexOf(field.slice(field.indexOf('.') + 1) as (typeof DAYS)[number])
  return day >= 0 ? `${DAYS_IN_ENGLISH[day]}'s hours in the "${header}" column` : `A value of the "${header}" column`
}

/**
 * The items of a JSON file's list, each keyed as the file has it: "[3]" in a top-level array,
 * "locations[3]" in {"locations": [...]}. The CLI's import and examples/sync.ts name them so.
 */
export function jsonListItems(list: unknown[], topLevel: boolean): { raw: unknown; key: string }[] {
  return list.map((raw, i) => ({ raw, key: `${topLevel ? '' : 'locations'}[${i}]` }))
}

/**
 * A problem as Problems.add writes it, "<whoIs>: <text>", taken apart again: the item's key ("line 7",
 * "locations[3]", or "[3]" in a top-level JSON array) and the text; null for another message.
 */
const PROBLEM = /^(line \d+|(?:locations)?\[\d+\])(?: \((?:external_id )?"(?:[^"\\]|\\.)*"\))?: ([\s\S]*)$/
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
  // A file of one column holding both coordinates ("52.52, 13.40") is told that column.
  const pair = columns.get('coordinates')
  const lat = columns.get('coordinates.lat') ?? 'lat'
  const lng = columns.get('coordinates.lng') ?? 'lng'
  const fill =
    pair !== undefined ? `fill in the row's "${pair}" column` : `fill in the row's "${lat}" and "${lng}" columns`
  return message.replace(`${SEND_COORDINATES} with the address`, fill).replace(SEND_COORDINATES, fill)
}

/** A warning of a day's hours not read (opening.ts unreadHoursWarnings): its day, its quoted text, the rest. */
const DAY_HOURS = /^hours\.(monday|tuesday|wednesday|thursday|friday|saturday|sunday) ("(?:[^"\\]|\\.)*") ([\s\S]*)$/
/** And of a date's. */
const DATE_HOURS = /^special_hours\.(\d{4}-\d\d-\d\d) ("(?:[^"\\]|\\.)*") ([\s\S]*)$/

/** "Monday", "Saturday and Sunday", "Monday to Friday". */
function daysSaid(days: number[]): string {
  const run = days.every((d, i) => i === 0 || d === days[i - 1]! + 1)
  if (run && days.length > 2) return `${DAYS_IN_ENGLISH[days[0]!]} to ${DAYS_IN_ENGLISH[days.at(-1)!]}`
  const names = days.map((d) => DAYS_IN_ENGLISH[d]!)
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * A CSV row's warnings of hours not read in its columns' words: `hours.monday "auf Zuruf" ...`
 * as `Monday's hours "auf Zuruf" in the "Montag" column ...`, the days of one column and text in
 * one warning. `days`: the header each day's hours came from (a day no cell filled, its stored
 * hours, keeps the field's name); `special`: the special hours column's.
 */
export function hoursInColumns(
  warnings: string[],
  days: readonly (string | undefined)[] | undefined,
  special: string | undefined,
): string[] {
  if (days === undefined && special === undefined) return warnings
  const grouped = new Map<string, number[]>()
  const out: (string | { key: string; header: string; text: string; rest: string })[] = []
  for (const w of warnings) {
    const day = DAY_HOURS.exec(w)
    const header = day === null ? undefined : days?.[DAYS.indexOf(day[1] as (typeof DAYS)[number])]
    if (day !== null && header !== undefined) {
      const key = `${header}\u0000${day[2]}\u0000${day[3]}`
      const seen = grouped.get(key)
      if (seen !== undefined) seen.push(DAYS.indexOf(day[1] as (typeof DAYS)[number]))
      else {
        grouped.set(key, [DAYS.indexOf(day[1] as (typeof DAYS)[number])])
        out.push({ key, header, text: day[2]!, rest: day[3]! })
      }
      continue
    }
    const date = DATE_HOURS.exec(w)
    out.push(
      date !== null && special !== undefined
        ? `The hours ${date[2]} of ${date[1]} in the "${special}" column ${date[3]}`
        : w,
    )
  }
  return out.map((w) =>
    typeof w === 'string'
      ? w
      : `${daysSaid(grouped.get(w.key)!)}'s hours ${w.text} in the "${w.header}" column ${w.rest}`,
  )
}
