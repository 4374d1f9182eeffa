// Towns found with a typo or two, as the store search allows them: the place search's names
// within an edit or two of what was typed, fewer edits first.
import { codePoints } from '../../core/text'
import { otherName } from './place-alike'
import { type PlaceHit, townHit } from './place-hit'
import { type SortedKeys, type Texts, utf8 } from './place-keys'
import { CANDIDATES, type PlaceParts } from './place-parts'
import { typoRanges } from './place-typos'

/** A typed text this long or longer is more often a whole name than one cut short. */
export const WHOLE_FROM = 5
/**
 * A town an alternate name names exactly ranks by its people only when it has more than this many
 * times those of the biggest town whose own name it is: "Cologne" is Köln, but "Manchester" is
 * not Richmond, VA (an old name), nor "Venice" Dayton, OH. Else it weighs as ALTERNATE_SHARE says.
 */
export const ALTERNATE_OVER_MAIN = 3
/** How much more a whole main name found through a typo weighs than a whole alternate one. */
export const WHOLE_MAIN_WEIGHT = 10

/** What the typo search reads: the place search's names, and its best towns of a range of names. */
export type TypoSource = {
  parts: PlaceParts
  names: Texts
  nameKeys: SortedKeys
  spellings: Texts
  bestOf: (from: number, to: number, depth: number) => Int32Array
}

/**
 * Towns whose name begins within an edit or two of `key`, as the store search allows typos: one
 * for 4 to 7 characters; two from 8, then with the first letter as typed. Fewer edits rank
 * first (tiers 4-6 for one, 7-9 for two); then, from WHOLE_FROM characters, a whole name within
 * them ("Mnchen": München before Mönchengladbach); then a main name. Among whole names a main
 * one weighs ten times its people: a big city's rare alternate name ("Brisel", Brussels) is
 * less likely meant than a town's own ("Bristl": Bristol).
 */
export function typoTowns(s: TypoSource, key: string, keep: ((town: number) => boolean) | null): PlaceHit[] {
  const p = utf8.encode(key)
  const wholeFirst = codePoints(key) >= WHOLE_FROM
  let found = typoRanges(s.nameKeys, p, 1, false, wholeFirst)
  if (found.prefix.length === 0 && codePoints(key) >= 8) found = typoRanges(s.nameKeys, p, 2, true, wholeFirst)
  // Row -> its fewest edits, its best rank (0 a whole name, 1 a main name begins so, 2 an
  // alternate one) and whether a main name has them.
  // name: the index of the name that gives them, of those alike the one a letter missed gives
  // before one a letter changed, then one a letter added ("Müchen": München, not Münhen); -1
  // when two written apart still tie ("Venedg": Venedig, Venedeg), as which the page's
  // language writes is not known.
  type Found = { edits: number; rank: number; main: number; name: number; kind: number }
  const towns = new Map<number, Found>()
  const add = (name: number, edits: number, rank: number) => {
    const [town, main] = [s.nameKeys.ref[name]!, s.nameKeys.main[name]!]
    const kind = Math.sign(p.length - s.nameKeys.length(name)) + 1
    const had = towns.get(town)
    if (
      had === undefined ||
      edits < had.edits ||
      (edits === had.edits && (rank < had.rank || (rank === had.rank && main > had.main)))
    )
      towns.set(town, { edits, rank, main, name, kind })
    else if (edits === had.edits && rank === had.rank && main === had.main && had.name !== name) {
      if (kind < had.kind) Object.assign(had, { name, kind })
      else if (kind === had.kind && (had.name < 0 || s.spellings.at(had.name) !== s.spellings.at(name))) had.name = -1
    }
  }
  for (const { from, to, edits } of found.whole) for (let i = from; i < to; i++) add(i, edits, 0)
  for (const { from, to, depth, edits } of found.prefix)
    for (const i of s.bestOf(from, to, depth)) add(i, edits, 2 - s.nameKeys.main[i]!)
  // Labels are made for the best only: a short text may be an edit from thousands of towns.
  const { population } = s.parts
  const ranked = [...towns]
    .filter(([town]) => keep === null || keep(town))
    .map(([town, { edits, rank, main, name }]) => ({
      town,
      main,
      name,
      whole: rank === 0,
      tier: 1 + 3 * edits + rank,
      weight: population[town]! * (rank === 0 && main === 1 ? WHOLE_MAIN_WEIGHT : 1),
    }))
  ranked.sort((a, b) => a.tier - b.tier || b.weight - a.weight)
  // A whole other name is meant as a town's own when its town is far the biggest of those found,
  // so a store near lifts it: "Müchen" is München (Munich's), before Jüchen, for stores by both.
  let biggestMain = 0
  for (const t of ranked) if (t.main === 1) biggestMain = Math.max(biggestMain, population[t.town]!)
  return ranked.slice(0, CANDIDATES).map(({ town, main, name, whole, tier, weight }) => {
    const hit: PlaceHit = { ...townHit(s.parts, s.names, town, main), tier, weight }
    if (whole && main === 0 && population[town]! > ALTERNATE_OVER_MAIN * biggestMain) {
      hit.meant = true
      const spelt = name < 0 ? undefined : s.spellings.at(name)
      if (otherName(spelt, hit.label)) hit.namedAs = spelt
    }
    return hit
  })
}
