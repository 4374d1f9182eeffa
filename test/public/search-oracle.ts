// The Query API's keyword search as the HTTP property tests' oracle sees it, written apart from
// src/engine: the words as typed; when they match nothing, again with typos; when that matches
// nothing either, by their forms (docs/query-api.md, Search). Words are oracleWords'. The index's
// oracle (test/engine/oracle-fixture.ts) reads its own words by the same readings.
import { editDistances, oracleWords, typosAllowed } from '../helpers'

/** A location's words: its own (name, address, description, tags, tag labels) and its town's names. */
export type Searched = { own: string[]; town: string[] }

/** The words of a location's own text: hyphens and apostrophes split words, and are dropped for a second reading. */
export function ownWords(parts: string[]): string[] {
  const text = parts.join(' ')
  return [...new Set([...oracleWords(text), ...oracleWords(text.replace(/['’`´-]/g, ''))])]
}

/**
 * The documented word forms: a word of 5 characters or more ending in -ing(s) (after a vowel, a
 * doubled last consonant made single), -ies, -es (after ss, sh, ch, x or z), -ed (6 or more) or
 * -s (not after s, i or u) cut to a stem of at least 3 characters; else the word.
 */
export function formStem(w: string): string {
  if (w.length < 5) return w
  for (const end of ['ings', 'ing']) {
    const stem = w.slice(0, -end.length)
    if (!w.endsWith(end) || stem.length < 3) continue
    if (/[aeiouy]/.test(stem)) return /([bdgmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem
  }
  const cuts: [string, (stem: string) => boolean][] = [
    ['ies', () => true],
    ['es', (stem) => ['ss', 'sh', 'ch', 'x', 'z'].some((e) => stem.endsWith(e))],
    ['ed', () => w.length >= 6],
    ['s', (stem) => !/[siu]$/.test(stem)],
  ]
  // Of the endings that apply, the longest cut (the shortest stem).
  for (const [end, after] of cuts) {
    const stem = w.slice(0, -end.length)
    if (w.endsWith(end) && stem.length >= 3 && after(stem)) return stem
  }
  return w
}

export type Reading = 'exact' | 'typos' | 'forms'

/**
 * Of `candidates` (the locations the query's other terms keep), those `search` finds, read as the
 * engine reads it: `live` are all the published locations, whose own words make a word a store's
 * (a typo reaches a word only towns have only whole, with its first letter right).
 */
export function searched<T>(live: T[], candidates: T[], wordsOf: (r: T) => Searched, search: string): T[] {
  const words = oracleWords(search)
  if (words.length === 0) return candidates
  const own = new Set(live.flatMap((r) => wordsOf(r).own))
  const all = new Set(live.flatMap((r) => [...wordsOf(r).own, ...wordsOf(r).town]))
  const read = (reading: Reading) =>
    candidates.filter((r) => wordsMatch([...wordsOf(r).own, ...wordsOf(r).town], words, reading, own, formStem))
  return readInTurn(
    words,
    read,
    (found) => found.length > 0,
    () => typedOnlyTownWords(all, own, words),
    formStem,
  )
}

/**
 * The first reading that finds something: the words as typed, unless `typedOnly` says the last
 * reaches only towns' words; with typos, where a word may have them; by their forms, where a word
 * has one. `stem` is the form's stem.
 */
export function readInTurn<R>(
  words: string[],
  read: (reading: Reading) => R,
  found: (r: R) => boolean,
  typedOnly: () => boolean,
  stem: (w: string) => string,
): R {
  const exact = read('exact')
  if (found(exact) && !typedOnly()) return exact
  const typos = words.some((w) => typosAllowed(w) > 0) ? read('typos') : null
  if (typos !== null && found(typos)) return typos
  if (found(exact) || !words.some((w) => stem(w) !== w)) return typos ?? exact
  return read('forms')
}

/** Whether the last word, one that may have typos, begins words, and only words no store writes (not itself). */
export function typedOnlyTownWords(all: Set<string>, own: Set<string>, words: string[]): boolean {
  const w = words[words.length - 1]
  if (w === undefined || typosAllowed(w) === 0) return false
  const begun = [...all].filter((t) => t.startsWith(w))
  return begun.length > 0 && begun.every((t) => !own.has(t) && t !== w)
}

/**
 * Whether a location's `tokens` hold every word, the last as a prefix, in the reading: as typed;
 * by `stem`'s forms, as prefixes; with typos, a word of a store's own text (`own`) reached
 * within typosAllowed, a word only towns have only whole with its first letter right.
 */
export function wordsMatch(
  tokens: string[],
  words: string[],
  reading: Reading,
  own: Set<string>,
  stem: (w: string) => string,
): boolean {
  const lastAt = words.length - 1
  return words.every((w, i) => {
    const last = i === lastAt
    if (reading === 'exact') return tokens.some((t) => (last ? t.startsWith(w) : t === w))
    if (reading === 'forms') {
      const s = stem(w)
      return tokens.some((t) => (last || s !== w ? t.startsWith(s) : t === s))
    }
    const k = typosAllowed(w)
    return tokens.some((t) =>
      own.has(t)
        ? editDistances(w, t)[last ? 1 : 0] <= k
        : (last ? t.startsWith(w) : t === w) || (t[0] === w[0] && editDistances(w, t)[0] <= k),
    )
  })
}
