// Terms within a few edits of a typed word, found in the vocabulary's text order: one row of the
// edit-distance table per character of a term, the rows of the characters it shares with the term
// before it kept, and every term under a prefix skipped at once when no term there can be close
// enough (or, for the last word, taken at once when the prefix itself is).
import type { Prefixes } from './prefixes'

/**
 * The edits a typed word may be off by: none below 4 characters or without a letter (a house
 * number, a postcode), one from 4, two from 8. Characters are the folded word's UTF-16 units.
 */
export function editsFor(word: string): number {
  if (word.length < 4 || !/\p{L}/u.test(word)) return 0
  return word.length >= 8 ? 2 : 1
}

/**
 * A word with its ending cut, for the last of a search's readings: "skiing" -> "ski", "running"
 * -> "run", "bikes" -> "bike", "boxes" -> "box", "batteries" -> "batter", "guided" -> "guid"; the
 * word itself when it has none of these endings, or is too short to cut (under 5 characters, a
 * stem under 3, "-ing" after no vowel, "-ed" on a word under 6).
 */
export function wordStem(word: string): string {
  if (word.length < 5) return word
  const ing = /^(.{3,}?)ings?$/.exec(word)
  if (ing !== null && /[aeiouy]/.test(ing[1]!)) return ing[1]!.replace(/([bdgmnprt])\1$/, '$1')
  const cut = /^(.{3,}?)(?:(?<=ss|sh|ch|x|z)es|ies|(?<=.{4})ed|(?<![siu])s)$/.exec(word)
  return cut === null ? word : cut[1]!
}

/** The edit-distance rows, by depth, kept between calls. */
export class EditRows {
  rows: Int32Array[] = []

  /** Row `depth`, with room for `width` cells. */
  at(depth: number, width: number): Int32Array {
    let row = this.rows[depth]
    if (row === undefined || row.length < width) {
      row = new Int32Array(Math.max(width, 16))
      this.rows[depth] = row
    }
    return row
  }
}

/** The places, in text order, each term's group of shared first characters ends at: for jumps past a prefix. */
export class PrefixGroups {
  /** Per place: the characters its term shares with the one before (at most 255). */
  lcp = new Uint8Array(0)
  /** Per place and depth 1..JUMP_DEPTH: the place after the last term sharing that many first characters with it. */
  ends = new Int32Array(0)
  /** The terms they were made for (Prefixes.terms is replaced or spliced as terms come). */
  private madeFor: string[] | null = null
  private madeLength = -1

  /** Made again when the terms changed since. */
  of(terms: string[]): this {
    if (this.madeFor === terms && this.madeLength === terms.length) return this
    const n = terms.length
    const lcp = new Uint8Array(n)
    for (let i = 1; i < n; i++) {
      const a = terms[i - 1]!
      const b = terms[i]!
      let d = 0
      const most = Math.min(a.length, b.length, 255)
      while (d < most && a.charCodeAt(d) === b.charCodeAt(d)) d++
      lcp[i] = d
    }
    const ends = new Int32Array(n * JUMP_DEPTH)
    for (let i = n - 1; i >= 0; i--)
      for (let d = 1; d <= JUMP_DEPTH; d++)
        ends[i * JUMP_DEPTH + d - 1] = i + 1 < n && lcp[i + 1]! >= d ? ends[(i + 1) * JUMP_DEPTH + d - 1]! : i + 1
    this.lcp = lcp
    this.ends = ends
    this.madeFor = terms
    this.madeLength = n
    return this
  }

  /** The place after the last term sharing `d` first characters with the term at place `i`. */
  end(i: number, d: number): number {
    if (d <= JUMP_DEPTH) return this.ends[i * JUMP_DEPTH + d - 1]!
    let j = i + 1
    while (j < this.lcp.length && this.lcp[j]! >= d) j++
    return j
  }
}

/** Depths whose group ends are kept: a shallow prefix's group is large, a deep one's is walked. */
const JUMP_DEPTH = 4

/**
 * Visits the id of every term within `k` edits of `word` (one character inserted, deleted or
 * changed, or two side by side swapped, is one edit); with `prefix`, of every term one of whose
 * prefixes (itself included) is. Each once, in text order.
 */
export function eachTermNear(
  prefixes: Prefixes,
  rows: EditRows,
  groups: PrefixGroups,
  word: string,
  k: number,
  prefix: boolean,
  visit: (t: number) => void,
): void {
  const { terms, ids } = prefixes
  const { lcp } = groups.of(terms)
  const m = word.length
  const first = rows.at(0, m + 1)
  for (let j = 0; j <= m; j++) first[j] = j
  let i = 0
  // The rows are right up to the characters the term shares with the one before: its rows were
  // found at least that far (a jump leaves for a term that shares fewer than where it stopped).
  while (i < terms.length) {
    const term = terms[i]!
    const depth = i === 0 ? 0 : lcp[i]!
    let skipTo = -1
    for (let d = depth + 1; d <= term.length; d++) {
      const above = rows.at(d - 1, m + 1)
      const row = rows.at(d, m + 1)
      const c = term.charCodeAt(d - 1)
      // A swap of the term's last two characters so far takes two rows up (none at depth 1).
      const twoUp = d > 1 ? rows.at(d - 2, m + 1) : above
      const before = d > 1 ? term.charCodeAt(d - 2) : -1
      row[0] = d
      let least = d
      let wPrev = -1
      for (let j = 1; j <= m; j++) {
        const w = word.charCodeAt(j - 1)
        let v = Math.min(above[j - 1]! + (w === c ? 0 : 1), above[j]! + 1, row[j - 1]! + 1)
        if (w === before && wPrev === c && twoUp[j - 2]! + 1 < v) v = twoUp[j - 2]! + 1
        row[j] = v
        if (v < least) least = v
        wPrev = w
      }
      if (prefix && row[m]! <= k) {
        // This prefix is close enough: every term it begins matches.
        skipTo = groups.end(i, d)
        for (let x = i; x < skipTo; x++) visit(ids[x]!)
        break
      }
      if (least > k) {
        // No term this prefix begins can come within k.
        skipTo = groups.end(i, d)
        break
      }
    }
    if (skipTo !== -1) {
      i = skipTo
      continue
    }
    // A whole word matches a term whose full row's last cell is within k.
    if (!prefix && rows.at(term.length, m + 1)[m]! <= k) visit(ids[i]!)
    i++
  }
}
