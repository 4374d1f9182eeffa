// The import bench's files: store rows with coordinates (from bench/synthetic.ts) and rows with
// addresses only (house numbers and streets varied over the demo's real postcodes and towns), as a
// CSV file for the CLI and as JSON bodies for the bulk endpoint.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { countryCode } from '../../src/geocode/countries'
import { ensureGeodata, openEmbeddedGeocoder } from '../../src/geocode/embedded'
import { normalizeAddress } from '../../src/geocode/geocoder'
import { generate, prng } from '../synthetic'
import { ROOT } from '../http/options'

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

/** One store as a spreadsheet holds it; lat and lng absent for the address-only files. */
export type Row = {
  external_id: string
  name: string
  address: string
  /** The row's country cell (alpha-2); the import checks the geocoded point against it. */
  country: string
  lat?: number
  lng?: number
  description: string
  tags: string[]
  phone: string
  email: string
  website: string
  hours: Record<string, string>
}

/** Where the visibility probe's row is put: open sea, far from every seeded store (lat, lng). */
export const PROBE_POINT = { lat: 0.5, lng: -30.5 } as const

/**
 * `n` rows with coordinates, external ids `${prefix}-<i>`; with `probe`, the last row sits alone at
 * PROBE_POINT, so a public query there shows whether the import is visible.
 */
export function coordinateRows(n: number, seed: number, prefix: string, probe = false): Row[] {
  const rows = generate(n, seed).bodies.map((b, i) => {
    const c = b.coordinates as { lat: number; lng: number }
    const contact = b.contact as Record<string, string>
    return {
      external_id: `${prefix}-${i}`,
      name: b.name as string,
      address: b.address as string,
      country: (b.address as string).slice(-2),
      lat: c.lat,
      lng: c.lng,
      description: b.description as string,
      tags: b.tags as string[],
      phone: contact.phone!,
      email: contact.email!,
      website: contact.website!,
      hours: b.hours as Record<string, string>,
    }
  })
  if (probe && rows.length > 0) Object.assign(rows[rows.length - 1]!, { name: 'Import probe', ...PROBE_POINT })
  return rows
}

/** A demo address cut around its house number: `${before}${number}${after}${town}`. */
type Template = { before: string; after: string; town: string; country: string; area: string }

/**
 * The demo's addresses as templates: the street's words apart from its house number, whichever side
 * the country writes it ("206 Long Acre", "Kalverstraat 75", "Calle de Serrano, 28"), and the rest
 * (postcode, town, country) kept as written. Stores within ~0.5° share an area: their streets mix.
 * Only the addresses the embedded geocoder places are kept: an import refuses a file with any other.
 */
async function templates(): Promise<Template[]> {
  const path = join(ROOT, 'data/geocoder.sqlite')
  await ensureGeodata(path)
  const geocoder = openEmbeddedGeocoder(path)
  const demo = JSON.parse(readFileSync(join(ROOT, 'data/demo/demo.json'), 'utf8')) as {
    locations: { address: string; coordinates: { lat: number; lng: number } }[]
  }
  const out: Template[] = []
  for (const { address, coordinates: c } of demo.locations) {
    if (geocoder.lookup(address) === null) continue
    const pieces = address.split(', ')
    const country = countryCode(pieces[pieces.length - 1]!)
    if (country === null) continue
    const area = `${country}:${Math.round(c.lat * 2)}:${Math.round(c.lng * 2)}`
    const first = pieces[0]!
    const rest = (from: number) => `, ${pieces.slice(from).join(', ')}`
    let m: RegExpExecArray | null
    if ((m = /^\d+[a-z]?\s+(.+)$/i.exec(first)))
      out.push({ before: '', after: ` ${m[1]}`, town: rest(1), country, area })
    else if ((m = /^(.+?)\s+\d+[a-z]?$/i.exec(first)))
      out.push({ before: `${m[1]} `, after: '', town: rest(1), country, area })
    else if (/^\d+$/.test(pieces[1] ?? '')) out.push({ before: `${first}, `, after: '', town: rest(2), country, area })
  }
  geocoder.close()
  return out
}

/**
 * `n` rows with an address and no coordinates, external ids `${prefix}-<i>`: a demo address's
 * postcode and town, a street of a demo store of the same area, a house number from 1 to 400,
 * seeded. The other fields as the rows with coordinates have them.
 */
export async function addressRows(n: number, seed: number, prefix: string): Promise<Row[]> {
  const all = await templates()
  const byArea = new Map<string, Template[]>()
  for (const t of all) byArea.set(t.area, [...(byArea.get(t.area) ?? []), t])
  const rnd = prng(seed ^ 0x5bd1e995)
  return coordinateRows(n, seed, prefix).map((row, i) => {
    const t = all[i % all.length]!
    const neighbours = byArea.get(t.area)!
    const street = neighbours[Math.floor(rnd() * neighbours.length)]!
    const number = 1 + Math.floor(rnd() * 400)
    // The street's own side of the number: "12 High Street" or "Hauptstraße 12".
    const streetPart = street.before === '' ? `${number}${street.after}` : `${street.before}${number}`
    const { lat: _lat, lng: _lng, ...rest } = row
    return { ...rest, address: `${streetPart}${t.town}`, country: t.country }
  })
}

/** How many of the rows' addresses differ once normalized as the geocode cache keys them. */
export function distinctAddresses(rows: Row[]): number {
  return new Set(rows.map((r) => normalizeAddress(r.address))).size
}

/** The rows as a CSV file's text: the columns an operator's spreadsheet would have. */
export function toCsv(rows: Row[]): string {
  const withPoint = rows[0]?.lat !== undefined
  const header = [
    'external_id',
    'name',
    'address',
    'country',
    ...(withPoint ? ['lat', 'lng'] : []),
    'description',
    'tags',
    'phone',
    'email',
    'website',
    ...DAYS,
  ]
  const cells = rows.map((r) => [
    r.external_id,
    r.name,
    r.address,
    r.country,
    ...(withPoint ? [String(r.lat), String(r.lng)] : []),
    r.description,
    r.tags.join('|'),
    r.phone,
    r.email,
    r.website,
    ...DAYS.map((d) => r.hours[d] ?? 'closed'),
  ])
  return stringify([header, ...cells])
}

/** The rows as the bulk endpoint's JSON items. */
export function toBodies(rows: Row[]): Record<string, unknown>[] {
  return rows.map((r) => ({
    external_id: r.external_id,
    name: r.name,
    address: r.address,
    ...(r.lat === undefined ? {} : { coordinates: { lat: r.lat, lng: r.lng } }),
    description: r.description,
    tags: r.tags,
    contact: { phone: r.phone, email: r.email, website: r.website },
    hours: Object.fromEntries(DAYS.map((d) => [d, r.hours[d] ?? 'closed'])),
  }))
}
