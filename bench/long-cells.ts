// The cost of reading long hours cells (`bun bench/long-cells.ts [--base <commit>]`): of each
// kind, `--cells` (100) distinct cells of `--length` (490) characters, after 10 not timed, read
// as a week (splitWeekHours with its doubts) and as a CSV of one row per cell under a week's
// column ("Öffnungszeiten"), a day's ("Montag") and some days' ("Mo-Fr"), as an import reads them.
// Each run is a process of its own; with --base, runs of the base's src/ and this tree's
// alternate. Prints each kind's CPU milliseconds a cell for each way and tree (median, min-max of
// the runs), and whether every run read the same answers (a hash of them).
import { join } from 'node:path'
import { alternated, withTrees } from './base-tree'
import { spread } from './spread'
import { readOptions } from './system'

const USAGE =
  'usage: bun bench/long-cells.ts [--base <commit>] [--runs 5] [--cells 100] [--length 490] [--kinds week,spelled,...] [--root <dir> --kind <kind>]'

/**
 * Each kind: the text a cell repeats to its length, after its start. A week's ("week", "words")
 * ends after its last whole repeat, padded with spaces: a day cut off in it is not read, and its
 * start's days hold the later ones, which read as its exceptions.
 */
const KINDS = {
  week: ['Mo-Sa 9-18, ', 'Mo-Fr 9-18, Sa 10-13, '],
  spelled: ['', 'Montag: 09:00 - 12:30 Uhr und 14:00 - 18:30 Uhr, Dienstag: 9-18, Samstag: 10-13, '],
  note: ['9-18 Uhr, Do bis 20 Uhr, Sa 10-13:30 Uhr,', ' Termine nach Vereinbarung, bitte anrufen'],
  closing: ['', 'Do bis 8, '],
  letters: ['Mo-Fr', ' x 9'],
  commas: ['Mo ', '9, '],
  words: ['Mon-Sat 9-5 ', 'Mon-Fri 9-5 '],
} as const
type Kind = keyof typeof KINDS
const WAYS = ['week', 'Öffnungszeiten', 'Montag', 'Mo-Fr'] as const

let base = ''
let runs = 5
let cells = 100
let length = 490
let kinds = Object.keys(KINDS) as Kind[]
let root = ''
let kind: Kind | '' = ''
readOptions(Bun.argv.slice(2), USAGE, (option, value, int) => {
  const asKind = (k: string) => {
    if (!(k in KINDS)) throw new Error(`${option}: one of ${Object.keys(KINDS).join(', ')}\n${USAGE}`)
    return k as Kind
  }
  if (option === '--base') base = value()
  else if (option === '--runs') runs = int(1)
  else if (option === '--cells') cells = int(1)
  else if (option === '--length') length = int(10)
  else if (option === '--kinds') kinds = value().split(',').map(asKind)
  else if (option === '--root') root = value()
  else if (option === '--kind') kind = asKind(value())
  else return false
  return true
})

const pad = (n: number) => String(n).padStart(2, '0')

/** Cells read before the timed ones. */
const WARM = 10

/** `cells` (and WARM) cells of `kind`, each `length` long, made distinct by their first hour and its minutes (KINDS). */
function cellsOf(kind: Kind): string[] {
  const [start, unit] = KINDS[kind]
  let text: string = start
  while (text.length < length + 10) text += unit
  const whole = kind === 'week' || kind === 'words'
  return Array.from({ length: cells + WARM }, (_, i) => {
    const cell = text.replace(/\d+/, (hour) => `${Number(hour) + Math.floor(i / 60)}:${pad(i % 60)}`).slice(0, length)
    const last = unit.trimEnd()
    return whole ? cell.slice(0, cell.lastIndexOf(last) + last.length).padEnd(length) : cell
  })
}

/** One run in this process: each way's CPU ms per cell of `kind` by the tree at `tree`, and a hash of the answers. */
async function once(tree: string, kind: Kind): Promise<[number[], string]> {
  const { splitWeekHours } = await import(join(tree, 'src/core/week-hours.ts'))
  const { readLocationsCsv } = await import(join(tree, 'src/locations/csv.ts'))
  const all = cellsOf(kind)
  // The first cells warm the process up, as an import's first rows do: not timed.
  const [first, texts] = [all.slice(0, WARM), all.slice(WARM)]
  const read = (way: string, texts: string[]) => {
    if (way === 'week')
      return texts.map((text) => {
        const doubts: string[] = []
        return [splitWeekHours(text, true, doubts), doubts]
      })
    const csv = `Name;Adresse;${way}\n${texts.map((text, i) => `S${i};${i} Hauptstraße;"${text}"\n`).join('')}`
    const { rows } = readLocationsCsv(csv)
    return rows.map(({ body, problems, warnings }: Record<string, unknown>) => [body, problems, warnings])
  }
  for (const way of WAYS) read(way, first)
  const answers: unknown[] = []
  const cpu = WAYS.map((way) => {
    const t0 = process.cpuUsage()
    answers.push(read(way, texts))
    const used = process.cpuUsage(t0)
    return (used.user + used.system) / 1000 / texts.length
  })
  return [cpu, Bun.hash(JSON.stringify(answers)).toString(16)]
}

if (root !== '' || kind !== '') {
  if (root === '' || kind === '') throw new Error(`--root and --kind go together\n${USAGE}`)
  const [cpu, hash] = await once(root, kind)
  console.log([...cpu, hash].join(' '))
} else {
  await withTrees(base, 'long-cells-', (trees) => {
    for (const k of kinds) {
      const said = alternated(trees, runs, (tree) => {
        const args = ['bun', join(import.meta.dir, 'long-cells.ts'), '--root', tree, '--kind', k]
        return [...args, '--cells', `${cells}`, '--length', `${length}`]
      })
      const hashes = new Set(said.flatMap((outs) => outs.map((out) => out[WAYS.length]!)))
      console.log(`${k}: ${JSON.stringify(cellsOf(k)[0]!.slice(0, 60))}...`)
      for (const [t, [name]] of trees.entries()) {
        const f = (x: number) => x.toFixed(2)
        const shown = WAYS.map((way, w) => {
          const s = spread(said[t]!.map((out) => Number(out[w])))
          return `${way} ${f(s.median)} (${f(s.min)}-${f(s.max)})`
        })
        console.log(`  ${name}, N=${runs}, CPU ms a cell: ${shown.join('; ')}`)
      }
      const same =
        hashes.size === 1 ? 'every run read the same answers' : `the runs read ${hashes.size} sets of answers`
      console.log(`  ${same} (${[...hashes].join(', ')})`)
    }
  })
}
