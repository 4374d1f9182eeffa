// Reverse lookup benchmark: the town, country and postcode the embedded data gives each point of
// bench/geocode/reference.json (true points of real addresses) with its address, as a write with
// coordinates asks (writtenAt), checked against the address, and how long one lookup takes.
//
//   bun bench/reverse.ts [--data data/geocoder.sqlite] [--blocks 20] [--block 2000]
//
// A town is right when its name, or one of its other names, is written in the address ("New York"
// for New York City); a postcode when the address holds it. Prints a markdown report.
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { nameKey } from '../src/core/text'
import { DEFAULT_GEODATA_PATH } from '../src/geocode/embedded/build'
import { ReverseLookup, reverseLookupAt } from '../src/geocode/embedded/reverse'
import { type Spread, spread } from './spread'
import { provenance, provenanceLine } from './system'

type Reference = { address: string; country: string; lat: number; lng: number; kind: string; has_postcode: boolean }

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: DEFAULT_GEODATA_PATH },
    blocks: { type: 'string', default: '20' },
    block: { type: 'string', default: '2000' },
  },
})
const started = new Date()
const reference = JSON.parse(readFileSync(join(import.meta.dir, 'geocode', 'reference.json'), 'utf8')) as Reference[]
const lookup = reverseLookupAt(values.data!)
const db = new Database(values.data!, { readonly: true })
const namesOf = db.query<{ key: string }, [number]>('SELECT key FROM place_names WHERE place_id = ?')

/** Whether `phrase` (folded words) is written in `text` (folded words), word for word. */
const written = (text: string, phrase: string) => ` ${text} `.includes(` ${phrase} `)

type Tally = { points: number; town: number; country: number; noTown: number; postcodes: number; postcodeRight: number }
const tallies = new Map<string, Tally>()
const wrong: string[] = []
for (const r of reference) {
  const t = (tallies.get(r.kind) ??
    tallies.set(r.kind, { points: 0, town: 0, country: 0, noTown: 0, postcodes: 0, postcodeRight: 0 }).get(r.kind))!
  t.points++
  const found = lookup.writtenAt(r.lat, r.lng, r.address)
  if (found === null) {
    t.noTown++
    continue
  }
  const address = nameKey(r.address)
  const id = lookup.townNamed(found.parts.city!, r.lat, r.lng)
  const names = id === -1 ? [nameKey(found.parts.city!)] : namesOf.all(id).map((n) => n.key)
  if (names.some((n) => written(address, n))) t.town++
  else if (wrong.length < 25) wrong.push(`${r.address} -> ${found.parts.city}`)
  if (found.parts.country === r.country) t.country++
  if (found.parts.postcode !== undefined && r.has_postcode) {
    t.postcodes++
    if (written(address, nameKey(found.parts.postcode))) t.postcodeRight++
  }
}

/** Lookups of points spread over the reference's points (each moved up to ~1 km), timed a block at a time. */
function timing(): Spread {
  const blocks = Number(values.blocks)
  const size = Number(values.block)
  const us: number[] = []
  let seed = 42
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  for (let b = 0; b < blocks; b++) {
    const points = Array.from({ length: size }, () => {
      const r = reference[Math.floor(random() * reference.length)]!
      return [r.lat + (random() - 0.5) * 0.02, r.lng + (random() - 0.5) * 0.02, r.address] as const
    })
    const t0 = performance.now()
    for (const [lat, lng, address] of points) {
      const found = lookup.writtenAt(lat, lng, address)
      if (found) lookup.namesOf(lookup.townNamed(found.parts.city!, lat, lng))
    }
    us.push(((performance.now() - t0) * 1000) / size)
  }
  return spread(us)
}

const t0 = performance.now()
new ReverseLookup(new Database(values.data!, { readonly: true })) // a second one over the same file: its load time
const loadMs = performance.now() - t0
const time = timing()
const pct = (n: number, of: number) => `${n} of ${of} (${of === 0 ? 0 : Math.round((100 * n) / of)}%)`
const lines = [
  `Reverse lookup of the ${reference.length} reference points. ${provenanceLine(provenance(started))}`,
  '',
  '| Kind | Points | Town named in the address | Country right | No town | Postcode given (address has one) | Postcode in the address |',
  '|---|---|---|---|---|---|---|',
]
const all: Tally = { points: 0, town: 0, country: 0, noTown: 0, postcodes: 0, postcodeRight: 0 }
for (const [kind, t] of [...tallies].sort()) {
  for (const k of Object.keys(all) as (keyof Tally)[]) all[k] += t[k]
  lines.push(
    `| ${kind} | ${t.points} | ${pct(t.town, t.points)} | ${pct(t.country, t.points)} | ${t.noTown} | ${t.postcodes} | ${pct(t.postcodeRight, t.postcodes)} |`,
  )
}
lines.push(
  `| all | ${all.points} | ${pct(all.town, all.points)} | ${pct(all.country, all.points)} | ${all.noTown} | ${all.postcodes} | ${pct(all.postcodeRight, all.postcodes)} |`,
  '',
  `One lookup with its address, and its town's names: median ${time.median.toFixed(1)} µs a point (${time.min.toFixed(1)}–${time.max.toFixed(1)} over ${Number(values.blocks)} blocks of ${values.block}). Reading the data: ${Math.round(loadMs)} ms.`,
  '',
  'Towns not named in their address (first 25):',
  ...wrong.map((w) => `- ${w}`),
)
console.log(lines.join('\n'))
