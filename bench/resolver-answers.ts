// How a change places addresses (`bun bench/resolver-answers.ts --base <commit>`): the embedded
// resolver's answer to each of many texts, by the working tree and by the base, on this tree's
// data file; prints each answer that differs and the counts. The texts: the literals of test/ and
// docs/ that hold a letter, the geocoding reference's addresses, and texts made from the data's
// towns (names alone and dashed, near pairs joined by a dash, a spaced dash and "bei", joining
// words as a slash). `--every N` reads every Nth text alone.
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { baseAndEvery, literals, withTrees } from './base-tree'

const USAGE = 'usage: bun bench/resolver-answers.ts --base <commit> [--every N]'
const { base, every } = baseAndEvery(USAGE)

const here = resolve(import.meta.dir, '..')
const DATA = join(here, 'data/geocoder.sqlite')

/** A literal that holds a letter and reads as an address might. */
const addressLike = (text: string) =>
  text.length >= 2 && text.length <= 80 && /\p{L}/u.test(text) && !/[{}<>=()$\\]|^\.|\.ts$/.test(text)

type Town = { name: string; country: string; lat: number; lng: number; population: number }

/** Texts made from the data's towns: the shapes visitors and spreadsheets write them in. */
function townTexts(into: Set<string>): void {
  const db = new Database(DATA, { readonly: true })
  const towns = db
    .query<Town, []>(
      'SELECT name, country, lat, lng, population FROM places WHERE population >= 15000 AND section = 0 ORDER BY population DESC, id',
    )
    .all()
  db.close()
  const km = (a: Town, b: Town) => Math.hypot(a.lat - b.lat, (a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180)) * 111
  for (const t of towns.slice(0, 1500)) into.add(t.name)
  for (const t of towns.filter((t) => /\s/.test(t.name)).slice(0, 3000)) {
    into.add(t.name)
    into.add(t.name.replace(/ /g, '-'))
  }
  // Near pairs of one country: a town and the city it is near, or two cities named as one area.
  const big = towns.filter((t) => t.population >= 100_000)
  let n = 0
  for (const a of big)
    for (const b of big) {
      if (a === b || a.country !== b.country || km(a, b) > 60) continue
      if (!/\s/.test(a.name) && !/\s/.test(b.name) && n++ % 3 !== 0) continue
      for (const join of ['-', ' ', ' - ', ' – ']) into.add(`${a.name}${join}${b.name}`)
    }
  const de = towns.filter((t) => t.country === 'DE')
  for (const t of de.slice(0, 600)) {
    const city = big.find((b) => b.country === 'DE' && b !== t && km(t, b) < 30)
    if (city !== undefined) into.add(`${t.name} bei ${city.name}`)
    into.add(`bei ${t.name}`)
    into.add(`Die ${t.name}`)
  }
  const joined = / (an der|am|ob der|upon|on|sur|en|de|im|bei) /
  for (const t of towns.filter((t) => joined.test(t.name)).slice(0, 1500))
    for (const mark of ['/', ' / ', ' - ', ' – ']) into.add(t.name.replace(joined, mark))
}

/** Each text's answer by the tree at `root`: town, region, country, point, precision; or null. */
async function answers(root: string, texts: string[]): Promise<string[]> {
  const { openEmbeddedGeocoder } = await import(join(root, 'src/geocode/embedded.ts'))
  const geo = openEmbeddedGeocoder(DATA)
  try {
    return texts.map((text) => {
      const r = geo.lookup(text)
      if (r === null) return 'null'
      const { city = '-', region = '-', country } = r.parts
      return `${city} | ${region} | ${country} (${r.lat.toFixed(4)}, ${r.lng.toFixed(4)}) ${r.precision}`
    })
  } finally {
    geo.close()
  }
}

const found = new Set(literals([join(here, 'test'), join(here, 'docs')]).filter(addressLike))
for (const r of JSON.parse(readFileSync(join(here, 'bench/geocode/reference.json'), 'utf8'))) found.add(r.address)
townTexts(found)
const texts = [...found].sort().filter((_, i) => i % every === 0)
await withTrees(base, 'resolver-answers-', async (trees) => {
  const dir = trees[0]![1]
  const [was, now] = [await answers(dir, texts), await answers(here, texts)]
  let changed = 0
  for (const [i, text] of texts.entries()) {
    if (was[i] === now[i]) continue
    changed++
    console.log(`${JSON.stringify(text)}:\n  ${was[i]}\n  ${now[i]}`)
  }
  console.log(`${texts.length} texts: ${changed} answers changed`)
})
