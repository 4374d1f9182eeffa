// How a change reads the hours cells a spreadsheet holds (`bun bench/hours-cells.ts --base <commit>`):
// every string literal of test/ and docs/ that may be hours, read by the working tree and by the
// base as a week cell (alone and after two weeks' hours) and as each cell of ten rows of day
// headers; prints each reading that differs and the counts. `--every N` reads every Nth text
// alone: the whole set takes minutes.
import { join, resolve } from 'node:path'
import { baseAndEvery, literals, withTrees } from './base-tree'

const USAGE = 'usage: bun bench/hours-cells.ts --base <commit> [--every N]'
const { base, every } = baseAndEvery(USAGE)

const here = resolve(import.meta.dir, '..')
const HEADERS = [
  'Lu;Ma;Mi;Ju;Vi;Sa;Do',
  'Lu;Ma;Me;Gi;Ve;Sa;Do',
  'Lu;Ma;Me;Je;Ve;Sa;Di',
  'Mo;Di;Mi;Do;Fr;Sa;So',
  'ma;di;wo;do;vr;za;zo',
  'Mon;Tue;Wed;Thu;Fri;Sat;Sun',
  'Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag',
  'Seg;Ter;Qua;Qui;Sex;Sab;Dom',
  'Lunes;Martes;Miércoles;Jueves;Viernes;Sábado;Domingo',
  'Mo-Fr;Sa;So',
]
const BEFORE = ['', 'Mo-Fr 8-12 14-18, ', 'Mon-Fri 9-5, ']

/** A literal that holds a digit or a word for closed, and no cell's quote or separator. */
const hoursLike = (text: string) =>
  text.length < 160 && /\d|closed|geschlossen|ferm|cerrad|chius|gesloten/i.test(text) && !/[;"]/.test(text)

/** Each text's readings by the tree at `root`, keyed by how it was read. */
async function readings(root: string, texts: string[]): Promise<Map<string, string>[]> {
  const { splitWeekHours } = await import(join(root, 'src/core/week-hours.ts'))
  const { weekInto } = await import(join(root, 'src/locations/csv-week.ts'))
  const { readLocationsCsv } = await import(join(root, 'src/locations/csv.ts'))
  const read = (f: () => unknown) => {
    try {
      return JSON.stringify(f())
    } catch (e) {
      return `threw ${e}`
    }
  }
  return texts.map((text) => {
    const out = new Map<string, string>()
    for (const before of BEFORE) {
      const body: Record<string, unknown> = {}
      const doubts: string[] = []
      const week = read(() => [
        weekInto(body, before + text),
        body,
        splitWeekHours(before + text, true, doubts),
        doubts,
      ])
      out.set(`week "${before}"`, week)
    }
    for (const headers of HEADERS) {
      const cells = `;"${text}"`.repeat(headers.split(';').length)
      const row = read(() => {
        const { body, problems, warnings } = readLocationsCsv(`Name;Adresse;${headers}\nA;1 Rd${cells}\n`).rows[0]!
        return [body.hours, problems, warnings]
      })
      out.set(headers, row)
    }
    return out
  })
}

const texts = literals([join(here, 'test'), join(here, 'docs')])
  .filter(hoursLike)
  .filter((_, i) => i % every === 0)
await withTrees(base, 'hours-cells-', async (trees) => {
  const dir = trees[0]![1]
  const [was, now] = [await readings(dir, texts), await readings(here, texts)]
  let changed = 0
  let cells = 0
  for (const [i, text] of texts.entries())
    for (const [how, reading] of now[i]!) {
      cells += how.startsWith('week') ? 1 : how.split(';').length
      if (was[i]!.get(how) === reading) continue
      changed++
      console.log(`${JSON.stringify(text)} as ${how}:\n  ${was[i]!.get(how)}\n  ${reading}`)
    }
  console.log(`${texts.length} texts, ${cells} cells: ${changed} readings changed`)
})
