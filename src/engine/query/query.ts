// A query, start to end: its words and tags planned, the path chosen (the name order's pages for
// everything by name or priority; a heap of the best for the rest), the page taken.
import type { IndexState } from '../state'
import { planTags, type TagPlan, tagTest } from '../tags'
import type { IndexQuery, IndexResult } from '../types'
import { boxesOf } from '../geo/boxes'
import { boxQuery, visitBoxMatches, visitBoxPassing } from './box-query'
import { fuzzyFilter, fuzzyQuery } from './fuzzy'
import { markCandidates, markMatches, type Matches } from './matches'
import { inNameOrder } from './name-pages'
import { KeyFilter, planWords, searchWords, walkForPage, wordLeads } from './plan'
import { inRankThenNameOrder } from './priority-pages'
import { radiusQuery } from './radius'
import { orderOf, takePage, TopK } from './top-k'
import { FUZZY_HEAP_MAX } from '../tuning'
import { editsFor, wordStem } from '../text/fuzzy-terms'

/**
 * Answers a query over the index's state (byRankMin, fuzzyHeapMax: IndexOptions'): with its words as
 * typed; when that finds nothing, with typos allowed; when that finds nothing, by their forms (fuzzy.ts).
 * A last word that as typed only begins words no store writes (a town's other names: "lumbr" begins
 * Lumbroso) is read with typos at once: the typo reading keeps those matches, and adds the stores'
 * own words it is a typo of ("lumber"). A town's name typed whole ("rome") is not.
 */
export function runQuery(s: IndexState, q: IndexQuery, byRankMin: number, fuzzyHeapMax: number): IndexResult {
  const words = searchWords(q.search)
  const tagPlan = q.tags.length > 0 || q.openAt != null ? planTags(s.tags, q) : null
  if (tagPlan === undefined) return { total: 0, hits: [] }
  const exact = exactQuery(s, q, byRankMin, words, tagPlan)
  if (words.length === 0 || (exact.total > 0 && !typedOnlyTownWords(s, words))) return exact
  const typos = fuzzyQuery(s, q, words, tagPlan, fuzzyHeapMax)
  if (typos !== null && typos.total > 0) return typos
  if (exact.total > 0) return exact
  return fuzzyQuery(s, q, words, tagPlan, fuzzyHeapMax, 'forms') ?? typos ?? exact
}

/**
 * Whether the last word, one that may have typos (4 characters or more), only begins, as typed,
 * words no live location writes in its own text: none of them is the word itself, nor a store's.
 * The prefix's terms are walked until one a store writes.
 */
function typedOnlyTownWords(s: IndexState, words: string[]): boolean {
  const { df, ownDf } = s.terms
  const { prefixes } = s
  const w = words[words.length - 1]!
  let matched = false
  for (let j = prefixes.firstAtOrAfter(w); j < prefixes.terms.length && prefixes.terms[j]!.startsWith(w); j++) {
    const t = prefixes.ids[j]!
    if (df[t] === 0) continue
    if (ownDf[t]! > 0 || prefixes.terms[j] === w) return false
    matched = true
  }
  return matched && editsFor(w) > 0
}

/** The query with its words matched as typed. */
function exactQuery(
  s: IndexState,
  q: IndexQuery,
  byRankMin: number,
  words: string[],
  tagPlan: TagPlan | null,
): IndexResult {
  const wordPlan = words.length > 0 ? planWords(s, words) : null
  if (wordPlan === undefined) return { total: 0, hits: [] }
  const filter = new KeyFilter(s, tagPlan === null ? null : tagTest(tagPlan, s.tags.words, s.open.state), wordPlan)
  const { keys } = s
  const radius = q.center !== null
  const textReady = s.postings.ready
  // Everything by name or by priority: the kept name order, without a heap, unless a rare word
  // leads: its few candidates then go to the heap below (walkForPage).
  if (!radius && q.sort !== 'distance' && s.nameOrder !== null) {
    let matches: Matches | null | undefined
    if (!wordLeads(textReady, wordPlan, keys.live))
      matches = tagPlan === null && wordPlan === null ? null : markMatches(s, tagPlan, wordPlan, filter)
    else if (walkForPage(wordPlan.source.size, q.sort, s.base.colWords))
      matches = markCandidates(s, s.postings.candidates(wordPlan.source.terms), filter)
    if (matches !== undefined)
      return q.sort === 'name' ? inNameOrder(s, q, matches) : inRankThenNameOrder(s, q, matches)
  }
  const byDistance = radius && q.sort === 'distance'
  // The best `keep` candidates in a bounded heap; no more than there are locations (an offset
  // past them all made a heap too large to allocate), at least one (for `limit: 0`, the total alone).
  const keep = Math.min(q.offset + Math.max(1, q.limit), Math.max(1, keys.live))
  const heap = new TopK(keep, orderOf(q.sort, radius, keys.entries, keys.rankOf), byDistance, filter)
  // A bbox query has a centre too: its distances are measured from it, and rank ties by them.
  if (radius && q.bbox != null) boxQuery(s, q, tagPlan, wordPlan, heap)
  else if (radius) radiusQuery(s, q, tagPlan, wordPlan, heap, byRankMin)
  else if (wordLeads(textReady, wordPlan, keys.live))
    s.postings.eachCandidate(wordPlan.source.terms, (key) => heap.offer(key, 0))
  else {
    const { entries } = keys
    for (let key = 0; key < entries.length; key++) if (entries[key] !== null) heap.offer(key, 0)
  }
  return { total: heap.total, hits: takePage(heap, q.offset, q.limit, radius, keys, s.page) }
}

/**
 * Visits each location a bbox query matches, in no order. Its words are taken with typos only
 * when as typed they match no location at all, not only none in the box, and by their forms only
 * when with typos they match none either: what a map's clusters count then stays the same as the
 * map moves. Its sort, offset and limit are not read.
 */
export function visitMatches(s: IndexState, q: IndexQuery, visit: (key: number) => void): void {
  const words = searchWords(q.search)
  const tagPlan = q.tags.length > 0 || q.openAt != null ? planTags(s.tags, q) : null
  if (tagPlan === undefined) return
  const boxes = boxesOf(q.bbox!)
  const everywhere = { ...q, center: null, bbox: null, sort: 'name' as const, offset: 0, limit: 0 }
  const exactAnywhere = words.length === 0 || exactQuery(s, everywhere, 0, words, tagPlan).total > 0
  // As runQuery: words that as typed reach only towns' other names are read with typos first.
  const typosFirst = exactAnywhere && words.length > 0 && typedOnlyTownWords(s, words)
  if (typosFirst && (fuzzyQuery(s, everywhere, words, tagPlan, FUZZY_HEAP_MAX)?.total ?? 0) > 0) {
    const filter = fuzzyFilter(s, words, tagPlan, 'typos')
    if (filter !== null) visitBoxPassing(s, boxes, filter, visit)
    return
  }
  if (exactAnywhere) {
    const wordPlan = words.length > 0 ? planWords(s, words) : null
    if (wordPlan === undefined) return
    const filter = new KeyFilter(s, tagPlan === null ? null : tagTest(tagPlan, s.tags.words, s.open.state), wordPlan)
    visitBoxMatches(s, boxes, tagPlan, wordPlan, filter, visit)
    return
  }
  // Whether typos match anywhere is asked only when the words have forms to fall back on.
  const forms = words.some((w) => wordStem(w) !== w)
  const typos = !forms || (fuzzyQuery(s, everywhere, words, tagPlan, FUZZY_HEAP_MAX)?.total ?? 0) > 0
  const filter = fuzzyFilter(s, words, tagPlan, typos ? 'typos' : 'forms')
  if (filter !== null) visitBoxPassing(s, boxes, filter, visit)
}
