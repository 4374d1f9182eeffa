// The CSV export's cost of distinct day texts (`bun bench/export-days.ts [--base <commit>]`):
// writeLocationsCsv over 5,000 locations whose day columns hold 5,000 distinct texts each, of
// four kinds: the 24-hour clock's ("09:17-12:00, 14:03-18:30"), plain hours ("8:17-12 Uhr,
// 14:03-18:30 Uhr"), hours with a note of other days' ("9:17-18, Sa 10-13:04"), and the
// literals of test/ and docs/ that may be hours (as bench/hours-cells.ts picks them). Each run is a process of its own that times one export;
// with --base, runs of the base's src/ and this tree's alternate. Prints each kind's wall and CPU
// seconds per tree (median, min-max, each run's), and whether every run wrote the same text (a
// hash of it): CPU time, the process's, is the figure a loaded machine moves least.
import { join, resolve } from 'node:path'
import { alternated, literals, withTrees } from './base-tree'
import { spread } from './spread'
import { readOptions } from './system'

const USAGE =
  'usage: bun bench/export-days.ts [--base <commit>] [--runs 5] [--size 5000] [--kinds clock,plain,notes,corpus] [--root <dir> --kind <kind>]'
const HERE = resolve(import.meta.dir, '..')
const KINDS = ['clock', 'plain', 'notes', 'corpus'] as const
type Kind = (typeof KINDS)[number]

let base = ''
let runs = 5
let size = 5000
let kinds: Kind[] = [...KINDS]
let root = ''
let kind: Kind | '' = ''
readOptions(Bun.argv.slice(2), USAGE, (option, value, int) => {
  const asKind = (k: string) => {
    if (!(KINDS as readonly string[]).includes(k)) throw new Error(`${option}: one of ${KINDS.join(', ')}\n${USAGE}`)
    return k as Kind
  }
  if (option === '--base') base = value()
  else if (option === '--runs') runs = int(1)
  else if (option === '--size') size = int(1)
  else if (option === '--kinds') kinds = value().split(',').map(asKind)
  else if (option === '--root') root = value()
  else if (option === '--kind') kind = asKind(value())
  else return false
  return true
})

const pad = (n: number) => String(n).padStart(2, '0')
const DAY_WORDS = ['Sa', 'Samstag', 'Sat', 'Do', 'Di', 'Mi', 'So', 'samedi', 'Domingo']

/** `count` distinct texts of `kind`; `shift` (a day's index) starts each day's column elsewhere. */
function texts(kind: Kind, count: number, shift: number): string[] {
  const out: string[] = []
  if (kind === 'corpus') {
    const all = literals([join(HERE, 'test'), join(HERE, 'docs')]).filter(
      (t) => t.length < 160 && /\d|closed|geschlossen|ferm|cerrad|chius|gesloten/i.test(t) && !/[;"]/.test(t),
    )
    for (let i = 0; i < count; i++) out.push(all[(i + shift * 977) % all.length]!)
    // Fewer literals than rows: the rest are made distinct by a note of hours after them.
    return out.map((t, i) => (i < all.length ? t : `${t}, ${pad(i % 24)}-${pad(i % 60)}`))
  }
  for (let i = 0; i < count; i++) {
    const k = i + shift * count
    const [a, b, c] = [k % 60, Math.floor(k / 60) % 60, Math.floor(k / 3600) % 4]
    out.push(
      kind === 'clock'
        ? `${pad(7 + c)}:${pad(a)}-12:00, 14:${pad(b)}-18:30`
        : kind === 'plain'
          ? `${7 + c}:${pad(a)}-12 Uhr, 14:${pad(b)}-18:30 Uhr`
          : `${7 + c}:${pad(a)}-18, ${DAY_WORDS[k % DAY_WORDS.length]} 10-13:${pad(b)}`,
    )
  }
  return out
}

/** One export by the tree at `tree`, in this process: its wall and CPU seconds, and a hash of its text. */
async function once(tree: string, kind: Kind): Promise<[number, number, string]> {
  const { writeLocationsCsv } = await import(join(tree, 'src/locations/csv-write.ts'))
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
  const columns = days.map((_, d) => texts(kind, size, d))
  const locations = Array.from({ length: size }, (_, i) => ({
    id: `loc_${i}`,
    external_id: `S${i}`,
    name: `Store ${i}`,
    address: `${i} High Street, London`,
    coordinates: { lat: 51 + i / 1e5, lng: -0.1 + i / 1e5 },
    description: '',
    tags: ['a', 'b'],
    contact: { phone: '+44 20 7946 0000', email: '', website: '' },
    social: { instagram: '', facebook: '', twitter: '' },
    hours: Object.fromEntries(days.map((day, d) => [day, columns[d]![i]!])),
    special_hours: {},
    timezone: 'Europe/London',
    custom_fields: {},
    image_url: '',
    status: 'active',
  }))
  const [t0, cpu0] = [performance.now(), process.cpuUsage()]
  const csv: string = writeLocationsCsv(locations, [])
  const seconds = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  if (csv.length === 0) throw new Error('empty export')
  return [seconds, cpuSeconds, Bun.hash(csv).toString(16)]
}

if (root !== '' || kind !== '') {
  if (root === '' || kind === '') throw new Error(`--root and --kind go together\n${USAGE}`)
  console.log((await once(root, kind)).join(' '))
} else {
  await withTrees(base, 'export-days-', (trees) => {
    for (const k of kinds) {
      const said = alternated(trees, runs, (tree) => [
        'bun',
        join(import.meta.dir, 'export-days.ts'),
        '--root',
        tree,
        '--kind',
        k,
        '--size',
        `${size}`,
      ])
      const hashes = new Set(said.flatMap((outs) => outs.map((out) => out[2]!)))
      for (const [t, [name]] of trees.entries()) {
        const f = (x: number) => x.toFixed(3)
        const shown = (w: number) => {
          const s = spread(said[t]!.map((out) => Number(out[w])))
          return `median ${f(s.median)} s, ${f(s.min)}-${f(s.max)} (${s.runs.map(f).join(' ')})`
        }
        console.log(`${k} ${name}, N=${runs}: wall ${shown(0)}; CPU ${shown(1)}`)
      }
      // One text from every run of every tree, or the trees export these texts differently.
      const texts = hashes.size === 1 ? 'every run wrote the same text' : `the runs wrote ${hashes.size} texts`
      console.log(`${k}: ${texts} (${[...hashes].join(', ')})`)
    }
  })
}
