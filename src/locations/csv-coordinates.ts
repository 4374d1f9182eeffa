// Coordinate cells read as numbers, in the forms spreadsheets hold them: decimals with a point or
// a comma, a Unicode minus, a degree sign, a hemisphere letter, degrees-minutes-seconds; and one
// column holding both ("Coordinates": "52.5170, 13.3889").
import { withoutCoordinateNote } from './csv-columns'
import { excelError } from './csv-garbled'
import type { RawRecord } from './csv-records'

type Axis = 'lat' | 'lng'

/** A plain decimal number as String(n) writes it, and the same with a decimal comma (Excel in many locales). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i
const DECIMAL_COMMA = /^[+-]?\d*,\d+(?:e[+-]?\d+)?$/i
/**
 * Degrees, then minutes and seconds or not, a hemisphere letter before or after: 48°51'24"N,
 * 48° 51.4' N, N 40.4155, 40.4155 N, 52.517°. Groups: letter before, degrees, minutes, seconds, letter after.
 */
const ANGLE =
  /^([NSEW])?\s*([+-]?\d+(?:[.,]\d+)?)\s*[°º˚]?\s*(?:(\d+(?:[.,]\d+)?)\s*['′’]\s*(?:(\d+(?:[.,]\d+)?)\s*(?:"|″|”|'')\s*)?)?([NSEW])?$/i
const HEMISPHERES: Record<Axis, string> = { lat: 'NS', lng: 'EW' }
/** Minus signs other than '-' that text and spreadsheets write: the Unicode minus, an en dash. */
const MINUS = /[\u2212\u2013]/g

const number = (text: string) => Number(text.replace(',', '.'))

/** A decimal cell (a point or a comma) as a number; null for anything else. */
function decimal(text: string): number | null {
  const point = DECIMAL_COMMA.test(text) ? text.replace(',', '.') : text
  return DECIMAL.test(point) ? Number(point) : null
}

/** An angle cell (ANGLE) as signed degrees, S and W negative; null when it is none, or its letter is the other axis's. */
function angle(text: string, axis: Axis): number | null {
  const m = ANGLE.exec(text)
  if (m === null) return null
  const [, before, degrees, minutes, seconds, after] = m as unknown as (string | undefined)[]
  const letter = (before ?? after)?.toUpperCase()
  if ((before && after) || (letter && /^[+-]/.test(degrees!))) return null
  if (letter !== undefined && !HEMISPHERES[axis].includes(letter)) return null
  // Minutes follow whole degrees, seconds whole minutes, each under 60.
  if (minutes !== undefined && (!/^[+-]?\d+$/.test(degrees!) || number(minutes) >= 60)) return null
  if (seconds !== undefined && (!/^\d+$/.test(minutes!) || number(seconds) >= 60)) return null
  const size = Math.abs(number(degrees!)) + number(minutes ?? '0') / 60 + number(seconds ?? '0') / 3600
  const negative = degrees!.startsWith('-') || letter === 'S' || letter === 'W'
  // Seven decimals are a centimetre: a DMS value's thirds and sixths end there.
  const value = Math.round(size * 1e7) / 1e7
  return negative ? -value : value
}

/** Whether a coordinate is in range for its axis: a latitude within ±90, a longitude within ±180. */
export const inRange = (value: number, axis: Axis) => Math.abs(value) <= (axis === 'lat' ? 90 : 180)

/** A coordinate cell as a number: a decimal (the common case, first), else an angle; null when it is neither. */
export function coordinateValue(cell: string, axis: Axis): number | null {
  const plain = decimal(cell)
  if (plain !== null) return plain
  const text = cell.replace(MINUS, '-')
  return decimal(text) ?? angle(text, axis)
}

/** Ways a cell holding both coordinates parts them: ';', ', ', ',', after a N or S, a space. */
const PAIR_SPLITS = [/;/, /,\s+/, /,/, /(?<=[NS])\s*/i, /\s+/]

/** A cell holding both coordinates, latitude first ("52.5170, 13.3889", "(52,517; 13,389)"); null when it is not two. */
export function coordinatePair(cell: string): { lat: number; lng: number } | null {
  const text = cell.replace(/^\((.*)\)$/, '$1').trim()
  for (const split of PAIR_SPLITS) {
    const parts = text.split(split)
    if (parts.length !== 2) continue
    const lat = coordinateValue(parts[0]!.trim(), 'lat')
    const lng = coordinateValue(parts[1]!.trim(), 'lng')
    if (lat !== null && lng !== null) return { lat, lng }
  }
  return null
}

/**
 * A whole number too long for a coordinate, or digits in groups of three ("52520008",
 * "52.520.008"): a decimal whose separator a spreadsheet took for a thousands one.
 */
const LOST_SEPARATOR = /^[+-]?(?:\d{4,}|\d{1,3}(?:[.,]\d{3}){2,})$/
export const lostSeparator = (cell: string) => LOST_SEPARATOR.test(cell.trim())

/**
 * A date as a spreadsheet shows one it made of a decimal ("13.4" in a German Excel: "13. Apr",
 * "13-Apr", "Apr 13", "09.18.2026"): no coordinate reads so.
 */
const MADE_DATE = /^(?:\d{1,2}[.]?[ -]?\p{L}{3,}\.?|\p{L}{3,}\.?[ -]\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})$/u

/** A compass word beside a number is a coordinate written in words ("48 North"), not a date. */
const COMPASS = /^(?:north|south|east|west|nord|süd|sud|ost|est|ouest|norte|sur|este|oeste|noord|zuid|oost)$/i
const madeDate = (cell: string) => MADE_DATE.test(cell.trim()) && !COMPASS.test(cell.replace(/[\d\s./-]/g, ''))

/** What a coordinate cell read as no number, or as a number no coordinate is, is told: the forms read. */
export function coordinateProblem(header: string, field: string, cell: string): string {
  const named = `The "${header}" column`
  if (field !== 'coordinates' && lostSeparator(cell))
    return `${named} must be a ${field === 'coordinates.lat' ? 'latitude' : 'longitude'}; got ${JSON.stringify(cell)}, which has lost its decimal separator: a spreadsheet set for decimal commas reads 52.520008 as 52520008 (or 52.520.008). Format the column as text, then paste the coordinates in again, such as 52.520008 or 52,520008.`
  if (field !== 'coordinates' && madeDate(cell))
    return `${named} must be a ${field === 'coordinates.lat' ? 'latitude' : 'longitude'}; got ${JSON.stringify(cell)}, a date a spreadsheet made of it (a German Excel shows 13.4 as "13. Apr"). Format the column as text, then paste the coordinates in again, such as 52.520008 or 52,520008.`
  if (field === 'coordinates')
    return `${named} must be two numbers, latitude then longitude, such as "52.5170, 13.3889"; got ${JSON.stringify(cell)}. Or give each its own column (lat, lng).`
  const examples =
    field === 'coordinates.lat' ? `48°51'24"N, 48.8566 N and 48.8566°` : `3°42'27"W, 3.7074 W and 2.3522°`
  return `${named} must be a number; got ${JSON.stringify(cell)}. Write a decimal number such as 48.8566 or -3.7074 (${examples} are read too).`
}

const pairKey = (header: string) =>
  withoutCoordinateNote(header)
    .toLowerCase()
    .replace(/[\s_.,/()-]/g, '')
/** Headers of a column holding both coordinates. */
const PAIR_NAMES = new Set(
  [
    'coordinates',
    'coords',
    'lat long',
    'lat lng',
    'lat lon',
    'latitude longitude',
    'gps coordinates',
    'geo coordinates',
    'koordinaten',
    'gps koordinaten',
    'coordonnées',
    'coordonnees',
    'coordonnées gps',
    'coordenadas',
    'coordenadas gps',
    'coordinate',
    'coordinate gps',
    'coördinaten',
    'coordinaten',
  ].map(pairKey),
)
/** Headers that may name such a column, or an address or a name: read so only when each value is two numbers. */
const MAYBE_PAIR_NAMES = new Set(
  ['location', 'gps', 'geo', 'geolocation', 'position', 'point', 'standort', 'ubicación', 'ubicacion', 'posizione'].map(
    pairKey,
  ),
)

/**
 * The column of a file without lat and lng columns that holds both coordinates: the first named
 * so (PAIR_NAMES), else the first whose name may mean it (MAYBE_PAIR_NAMES) and whose every cell,
 * one at least, holds two numbers; -1 when none.
 */
export function pairColumn(columns: readonly { header: string; field: string | null }[], records: RawRecord[]): number {
  if (columns.some((c) => c.field === 'coordinates.lat' || c.field === 'coordinates.lng')) return -1
  const unread = (names: Set<string>) =>
    columns.flatMap((c, i) => (c.field === null && names.has(pairKey(c.header)) ? [i] : []))
  const named = unread(PAIR_NAMES)
  if (named.length > 0) return named[0]!
  return (
    unread(MAYBE_PAIR_NAMES).find((i) => {
      // A cell Excel saved as an error is its row's, unread there (csv-row.ts): no sign of another meaning.
      const cells = records.map((r) => r.cells[i] ?? '').filter((cell) => cell !== '' && !excelError(cell))
      return cells.length > 0 && cells.every((cell) => coordinatePair(cell) !== null)
    }) ?? -1
  )
}

/**
 * A row's coordinate cells (lat, lng, or both in one: `coordinates`) as the body's coordinates,
 * and a problem for each cell that holds no coordinate.
 */
export function readPoint(cells: [header: string, field: string, cell: string][]): {
  point: Record<string, number>
  problems: { field: string | null; message: string }[]
} {
  const point: Record<string, number> = {}
  const problems: { field: string | null; message: string }[] = []
  for (const [header, field, cell] of cells) {
    const axis = field === 'coordinates.lat' ? 'lat' : 'lng'
    const value = field === 'coordinates' ? coordinatePair(cell) : coordinateValue(cell, axis)
    // Out of range for a lost separator, it is told so; other numbers out of range, by validation.
    const lost = typeof value === 'number' && !inRange(value, axis) && lostSeparator(cell)
    if (value === null || lost) problems.push({ field, message: coordinateProblem(header, field, cell) })
    else if (typeof value === 'number') point[field.slice('coordinates.'.length)] = value
    else Object.assign(point, value)
  }
  return { point, problems }
}
