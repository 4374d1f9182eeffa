// A town and its district written in one piece, as addresses and visitors write them: beside a
// dash ("Köln-Ehrenfeld", "Hamburg-St. Pauli") or a space ("Hamburg St Pauli"). The place
// search (place-districts.ts) and the resolver (address-read.ts) read them at the same gaps.
import { nameKey } from '../../core/text'
import { DASHES } from './near'
import { dashInName } from './saint-names'

/** The most words a town's name before its district and a space is read in. */
export const TOWN_WORDS = 6

/** A text read as a town (`head`) and its district (`rest`), beside a space or not (a dash). */
export type TownSplit = { head: string; rest: string; spaced: boolean }

/** The splits of `text` at `gaps`, the longest head first; none where both sides are one name. */
function* splitsAt(text: string, gaps: RegExpMatchArray[], spaced: boolean): Generator<TownSplit> {
  for (const gap of gaps.reverse()) {
    const [head, rest] = [text.slice(0, gap.index), text.slice(gap.index! + gap[0].length)]
    const town = nameKey(head)
    // "Mont-St-Michel" is one name: not Mont (Mons) and its district.
    if (town === '' || nameKey(rest) === '' || dashInName(town, rest)) continue
    yield { head, rest, spaced }
  }
}

/** The ways `text` reads as a town, a dash and its district: at each dash, the longest head first. */
export const dashSplits = (text: string): Generator<TownSplit> => splitsAt(text, [...text.matchAll(DASHES)], false)

/**
 * The ways `text` reads as a town, a space and its district: after each of its first TOWN_WORDS
 * words, the longest head first. None in a text with a digit, whose words after a town are a
 * postal district's or a number's ("Chicago W1", "Area 51").
 */
export function spaceSplits(text: string): Generator<TownSplit> {
  const gaps = /\d/.test(text) ? [] : [...text.trimEnd().matchAll(/(?<=\S)\s+/g)].slice(0, TOWN_WORDS)
  return splitsAt(text, gaps, true)
}
