// The fallback readings of a search's words, asked only when the words as typed find nothing (so
// exact matches rank and count as they always did). With typos: each word becomes the terms
// within its edits of it (text/fuzzy-terms: one for 4 to 7 characters, two from 8; the last word
// as a prefix; a word only town names have, as a whole word with its first letter right). Then,
// when typos find nothing either, by their forms: each word with an ending (-s, -es, -ing, -ed)
// cut to its stem and taken as a prefix ("skiing" finds "ski"). Each term is marked with its
// word's bit; a location passes when its terms carry every word's bit. Candidates are the
// locations of the rarest word's terms: from FlexSearch's postings of the terms it holds, from
// the base's term columns (and the delta) for the common ones; a word with a term in neither
// (new since the base) leaves every location a candidate (those in the query's boxes, for a
// radius or bbox query).
import { ensure, popcount } from '../arrays'
import { countPassing, termColumn } from '../columns'
import { boxesAround, boxesOf, inBoxes } from '../geo/boxes'
import { kmBetween, RAD } from '../geo/sphere'
import type { IndexState } from '../state'
import { type TagPlan, tagTest } from '../tags'
import { withinEdits } from '../../core/text'
import { editsFor, eachTermNear, wordStem } from '../text/fuzzy-terms'
import type { IndexQuery, IndexResult } from '../types'
import { cleared, type Matches } from './matches'
import { inNameOrder } from './name-pages'
import { columnGroups } from './plan'
import { inRankThenNameOrder } from './priority-pages'
import { scanDelta } from './radius'
import { type Filter, orderOf, takePage, TopK } from './top-k'

/** The marks of the latest fuzzy plan: a word bit per term, and the terms marked (to clear them); keys seen, by bit. */
export class FuzzyMarks {
  bits = new Int32Array(0)
  marked: number[] = []
  seen = new Int32Array(0)
}

/** Every word's bit; each word's terms; the terms of the word whose locations are fewest, when they can be listed (else null). */
type FuzzyPlan = { all: number; words: number[][]; source: { terms: number[]; size: number } | null }

/** How a fallback reads the words: with typos, or by their forms (wordStem). */
export type Reading = 'typos' | 'forms'

/** A word as a reading takes it: the text its terms are near, by `k` edits, as a prefix or whole. */
type WordSpec = { word: string; k: number; prefix: boolean }

/** The words as `reading` takes them; null when it reads them as typed (no word may have a typo, or an ending). */
function readWords(words: string[], reading: Reading): WordSpec[] | null {
  const last = words.length - 1
  if (words.length > 30) return null
  if (reading === 'typos')
    return words.some((w) => editsFor(w) > 0)
      ? words.map((word, i) => ({ word, k: editsFor(word), prefix: i === last }))
      : null
  const stems = words.map(wordStem)
  return stems.some((stem, i) => stem !== words[i])
    ? stems.map((stem, i) => ({ word: stem, k: 0, prefix: i === last || stem !== words[i] }))
    : null
}

/** The plan of `specs` (at most 31: one bit each), its terms marked in s.fuzzy; null when no location can match. */
function planFuzzy(s: IndexState, specs: WordSpec[]): FuzzyPlan | null {
  const marks = s.fuzzy
  for (const t of marks.marked) marks.bits[t] = 0
  marks.marked.length = 0
  if (marks.bits.length < s.terms.vocab.size) marks.bits = new Int32Array(s.terms.vocab.size + 1024)
  const { df, ownDf } = s.terms
  const { terms: spelt } = s.terms.vocab
  const inText = s.postings.inText
  const { termCol } = s.base
  let source: FuzzyPlan['source'] = null
  const wordTerms: number[][] = []
  for (let w = 0; w < specs.length; w++) {
    const { word, k, prefix } = specs[w]!
    const bit = 1 << w
    const terms: number[] = []
    let size = 0
    let listed = true
    eachTermNear(s.prefixes, s.editRows, s.prefixGroups, word, k, prefix, (t) => {
      if (df[t] === 0) return // no live location has it
      if (ownDf[t] === 0 && !nearTownWord(word, spelt[t]!, prefix)) return
      if (marks.bits[t] === 0) marks.marked.push(t)
      marks.bits[t]! |= bit
      size += df[t]!
      terms.push(t)
      if (inText[t] !== 1 && !(t < termCol.length && termCol[t]! >= 0)) listed = false
    })
    if (size === 0) return null
    wordTerms.push(terms)
    if (listed && (source === null || size < source.size)) source = { terms, size }
  }
  return { all: specs.length >= 31 ? -1 : (1 << specs.length) - 1, words: wordTerms, source }
}

/**
 * Whether a typed word reaches a word only town names have: as typed (the last word, as its
 * beginning), or as a whole word with its first letter right. Towns have hundreds of other
 * spellings; the start of one ("velo" in "welondon") is no match.
 */
function nearTownWord(word: string, term: string, prefix: boolean): boolean {
  if (prefix ? term.startsWith(word) : term === word) return true
  return term.charCodeAt(0) === word.charCodeAt(0) && withinEdits(word, term, editsFor(word))
}

/** Passes a key whose terms carry every word's bit, and whose tags (and open state) pass. */
class FuzzyFilter implements Filter {
  private readonly tags: ((bits: Uint32Array, row: number) => boolean) | null

  constructor(
    private readonly s: IndexState,
    tagPlan: TagPlan | null,
    private readonly all: number,
  ) {
    this.tags = tagPlan === null ? null : tagTest(tagPlan, s.tags.words, s.open.state)
  }

  passes(key: number): boolean {
    if (this.tags !== null && !this.tags(this.s.tags.bits, key)) return false
    const { pool, start, count } = this.s.terms
    const bits = this.s.fuzzy.bits
    let have = 0
    for (let i = start[key]!, end = i + count[key]!; i < end; i++) have |= bits[pool[i]!]!
    return (have & this.all) === this.all
  }
}

/**
 * Visits once each live location that has one of `terms`: FlexSearch's postings of those it
 * holds; the base's column of each other one, then the delta (its locations are in no column).
 */
function eachListed(s: IndexState, terms: number[], visit: (key: number) => void): void {
  const marks = s.fuzzy
  const seen = (marks.seen = ensure(marks.seen, (s.keys.entries.length + 31) >>> 5))
  const visited: number[] = []
  const once = (key: number) => {
    const bit = 1 << (key & 31)
    if ((seen[key >>> 5]! & bit) !== 0) return
    seen[key >>> 5]! |= bit
    visited.push(key)
    visit(key)
  }
  const { base } = s
  const inText = s.postings.inText
  const words = s.terms.vocab.terms
  let columns = false
  for (const t of terms) {
    if (inText[t] === 1) {
      for (const key of s.postings.candidates([words[t]!])) once(key)
      continue
    }
    columns = true
    const col = termColumn(base.colTags, base.colWords, base.termCol[t]!)
    for (let w = 0; w < base.colWords; w++)
      for (let bits = base.cols[col + w]! & base.live[w]!; bits !== 0; bits &= bits - 1)
        once(base.key[32 * w + 31 - Math.clz32(bits & -bits)]!)
  }
  if (columns) for (const key of s.delta.keys) once(key)
  for (const key of visited) seen[key >>> 5] = 0
}

/** A word whose terms number more than this is tested term by term, not by OR-ing their columns. */
const COLUMN_TERMS = 64

/**
 * Every live location that passes `filter`, as Matches: the base's by position, 32 at a time by
 * the columns of the tags and of each word whose terms all have one (OR within a word), the pool
 * read only for the words the columns leave undecided; then the delta's by key.
 */
function markFuzzy(s: IndexState, plan: FuzzyPlan, tagPlan: TagPlan | null, filter: Filter): Matches {
  const marks = cleared(s)
  const { bits, pos } = marks
  const { base } = s
  const n = base.size
  const groups = columnGroups(base, tagPlan, null)
  let undecided = false
  for (const terms of plan.words) {
    const cols = terms.length <= COLUMN_TERMS ? terms.map((t) => (t < base.termCol.length ? base.termCol[t]! : -1)) : []
    if (cols.length === 0 || cols.some((c) => c < 0)) undecided = true
    else groups.push(Int32Array.from(cols, (c) => termColumn(base.colTags, base.colWords, c)))
  }
  let count = 0
  if (n > 0) {
    marks.some = ensure(marks.some, base.colWords)
    count = countPassing(base.cols, groups, 0, n - 1, pos, marks.some, base.live)
    if (undecided) {
      count = 0
      for (let w = 0; w < base.colWords; w++) {
        let passing = pos[w]!
        for (let b = passing; b !== 0; b &= b - 1) {
          const at = 32 * w + 31 - Math.clz32(b & -b)
          if (!filter.passes(base.key[at]!)) passing &= ~(1 << (at & 31))
        }
        pos[w] = passing
        count += popcount(passing)
      }
    }
  }
  for (const key of s.delta.keys) {
    if (!filter.passes(key)) continue
    bits[key >>> 5]! |= 1 << (key & 31)
    count++
  }
  return { bits, pos, count }
}

/** The test of a key by `words` as `reading` takes them, and by the tags; null when it takes them as typed, or nothing can match. */
export function fuzzyFilter(
  s: IndexState,
  words: string[],
  tagPlan: TagPlan | null,
  reading: Reading = 'typos',
): Filter | null {
  const specs = readWords(words, reading)
  const plan = specs === null ? null : planFuzzy(s, specs)
  return plan === null ? null : new FuzzyFilter(s, tagPlan, plan.all)
}

/** The query again with its words (`words`: searchWords') as `reading` takes them; null when it takes them as typed. */
export function fuzzyQuery(
  s: IndexState,
  q: IndexQuery,
  words: string[],
  tagPlan: TagPlan | null,
  /** IndexOptions.fuzzyHeapMax. */
  heapMax: number,
  reading: Reading = 'typos',
): IndexResult | null {
  const specs = readWords(words, reading)
  if (specs === null) return null
  const plan = planFuzzy(s, specs)
  if (plan === null) return { total: 0, hits: [] }
  const { keys } = s
  const radius = q.center !== null
  const keep = Math.min(q.offset + Math.max(1, q.limit), Math.max(1, keys.live))
  const filter = new FuzzyFilter(s, tagPlan, plan.all)
  const heap = new TopK(
    keep,
    orderOf(q.sort, radius, keys.entries, keys.rankOf),
    radius && q.sort === 'distance',
    filter,
  )
  const listed = plan.source !== null && s.postings.ready
  if (radius) {
    const { lat, lng } = q.center!
    // A bbox query: every point in its boxes, at any distance; runs of exact boxes, not whole leaves.
    const bbox = q.bbox != null
    const r = bbox ? Infinity : q.radiusKm
    const cosLat1 = Math.cos(lat * RAD)
    const { lat: lats, lng: lngs, cosLat } = keys
    // The base's points in the boxes (and the delta's), or the word's locations, whichever are fewer.
    const boxes = bbox ? boxesOf(q.bbox!) : boxesAround(lng, lat, r)
    const runs = s.boxRuns
    const { base } = s
    const inRuns = s.delta.size + runs.fill(base, boxes, !bbox && boxes.length === 1, s.stack)
    if (listed && plan.source!.size < inRuns) {
      eachListed(s, plan.source!.terms, (key) => {
        const x = lngs[key]!
        const y = lats[key]!
        if (bbox && !inBoxes(boxes, x, y)) return
        const d = kmBetween(lng, lat, cosLat1, x, y, cosLat[key]!)
        if (d <= r) heap.offer(key, d)
      })
    } else {
      for (let i = 0; i < runs.count; i += 2) {
        for (let at = runs.found[i]!; at <= runs.found[i + 1]!; at++) {
          if (base.dead[at] === 1) continue
          const key = base.key[at]!
          const d = kmBetween(lng, lat, cosLat1, lngs[key]!, lats[key]!, cosLat[key]!)
          if (d <= r) heap.offer(key, d)
        }
      }
      scanDelta(s, lng, lat, r, cosLat1, boxes, heap)
    }
  } else if (listed && (plan.source!.size <= heapMax || s.nameOrder === null))
    eachListed(s, plan.source!.terms, (key) => heap.offer(key, 0))
  else if (s.nameOrder !== null) {
    // Many candidates: every location tested in kd order (its terms side by side), and the page
    // taken from the name order, as for a search as typed (matches.ts, name-pages.ts).
    const matches = markFuzzy(s, plan, tagPlan, filter)
    return q.sort === 'name' ? inNameOrder(s, q, matches) : inRankThenNameOrder(s, q, matches)
  } else {
    const { entries } = keys
    for (let key = 0; key < entries.length; key++) if (entries[key] !== null) heap.offer(key, 0)
  }
  return { total: heap.total, hits: takePage(heap, q.offset, q.limit, radius, keys, s.page) }
}
