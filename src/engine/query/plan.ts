// A query's words as a plan: term ids of the whole words, the prefix (the last word) as the terms
// it begins, and which of them the base's columns decide; which plan leads (the map's candidates
// or FlexSearch's postings of a rare word); and the groups of columns a query's tags and words
// are tested by.
import { popcount } from '../arrays'
import type { Base } from '../base'
import { NOT_IN_BASE, sigBits, sigColumn, tagColumn, termColumn } from '../columns'
import { nameKey } from '../../core/text'
import type { IndexState } from '../state'
import type { TagPlan, TagTest } from '../tags'
import { wordsIn } from '../text/term-pool'
import type { Prefixes } from '../text/prefixes'
import {
  HEAP_CANDIDATE_NS,
  PREFIX_PLAN_TERMS,
  PRIORITY_WALK_WORD_NS,
  SIG_PREFIX_TERMS,
  TERM_LOOKUP_CANDIDATES,
  WALK_WORD_NS,
} from '../tuning'
import type { SortOrder } from '../types'
import type { Filter } from './top-k'

/** How a query's words test a location's terms; the terms its prefix begins are marked in Prefixes.bits (once `marked`) until the next plan. */
export type WordPlan = {
  /** Term ids of the whole words, rarest first. */
  whole: number[]
  /** Where a word-first plan would start: FlexSearch terms (and their postings' size), or null. */
  source: { terms: string[]; size: number } | null
  /** Base positions: the term columns of the whole words that have one, each a match has. */
  wholeCols: number[]
  /** Base positions: the whole words without a column, checked in the pool. */
  baseWhole: number[]
  /** Base positions: the term columns of which a match has one, when they decide the prefix (null: checked in the pool). */
  prefixCols: number[] | null
  /** Base positions, when prefixCols is null: the columns of the prefix's terms that have one; a position with one of them has the prefix, unread. */
  prefixSure: number[]
  /** Signature bits every base match has: its whole words' without a column. */
  need: number[]
  /** Signature bits of which a match has one: the prefix's terms' (null: too many to be worth it, or decided by prefixCols). */
  some: number[] | null
  /** The last word, where its terms begin in text order, and whether they are marked (only with a prefix column may they not be: see markPrefix). */
  prefix: string
  from: number
  marked: boolean
}

/** A word plan whose words lead. */
export type LeadingPlan = WordPlan & { source: NonNullable<WordPlan['source']> }

/** No term ids: a plan without words has no whole words to check (shared, not made per query). */
export const NO_TERMS: readonly number[] = []

/** The words of a search, folded; the last is matched as a prefix, the others as whole words. */
export function searchWords(search: string): string[] {
  // No search (most queries): nameKey's regular expressions cost time on nothing.
  if (search === '') return []
  const folded = nameKey(search)
  return folded === '' ? [] : folded.split(' ')
}

/** A query's words as a plan; undefined: no location can match (a whole word no location has, a prefix no term begins). */
export function planWords(s: IndexState, words: string[]): WordPlan | undefined {
  const { vocab, df } = s.terms
  const { prefixes, base } = s
  const inText = s.postings.inText
  const whole: number[] = []
  for (let i = 0; i < words.length - 1; i++) {
    const t = vocab.find(words[i]!)
    if (t === undefined || df[t] === 0) return undefined
    if (!whole.includes(t)) whole.push(t)
  }
  whole.sort((a, b) => df[a]! - df[b]!)
  const prefix = words[words.length - 1]!
  prefixes.clearMarks()
  const from = prefixes.firstAtOrAfter(prefix)
  // A column of the prefix's own decides it in the base, alone; and it is then no word-first
  // source: its column is read faster.
  const own = base.prefixCol.get(prefix)
  let prefixTerms: string[] | null = own === undefined ? [] : null
  let prefixSize = 0
  let any = false
  const some: number[] = []
  const termCol = base.termCol
  /** The base's prefix terms' columns, while every one of them has a column. */
  let prefixCols: number[] | null = []
  const prefixSure: number[] = []
  let marked = true
  for (let i = from; i < prefixes.terms.length && prefixes.terms[i]!.startsWith(prefix); i++) {
    // With a column of its own, and no word-first source to find among its terms, the rest is
    // marked only if a location's terms are read for it (markPrefix): the base's never are.
    if (own !== undefined && any && prefixTerms === null) {
      marked = false
      break
    }
    const t = prefixes.ids[i]!
    prefixes.mark(t)
    // A term no live location has is in no live base position either.
    if (df[t] === 0) continue
    const c = t < termCol.length ? termCol[t]! : NOT_IN_BASE
    if (c >= 0) prefixSure.push(c)
    if (prefixCols !== null && c !== NOT_IN_BASE) {
      if (c < 0 || prefixCols.length === SIG_PREFIX_TERMS) prefixCols = null
      else prefixCols.push(c)
    }
    any = true
    if (some.length <= SIG_PREFIX_TERMS) some.push(t)
    if (prefixTerms !== null) {
      if (inText[t] === 0 || prefixTerms.length === PREFIX_PLAN_TERMS) prefixTerms = null
      else {
        prefixTerms.push(prefixes.terms[i]!)
        prefixSize += df[t]!
      }
    }
  }
  if (!any) return undefined
  if (own !== undefined) prefixCols = [own]
  // The word-first source: the rarest whole word FlexSearch holds, or the prefix's few terms.
  let source: WordPlan['source'] = prefixTerms !== null ? { terms: prefixTerms, size: prefixSize } : null
  for (const t of whole) {
    if (inText[t] === 1 && (source === null || df[t]! < source.size))
      source = { terms: [vocab.terms[t]!], size: df[t]! }
  }
  const wholeCols: number[] = []
  const baseWhole: number[] = []
  for (const t of whole) {
    const c = t < termCol.length ? termCol[t]! : -1
    if (c >= 0) wholeCols.push(c)
    else baseWhole.push(t)
  }
  const sig = prefixCols === null && some.length <= SIG_PREFIX_TERMS ? sigBits(some) : null
  return {
    whole,
    source,
    wholeCols,
    baseWhole,
    prefixCols,
    prefixSure: prefixCols === null ? prefixSure : [],
    need: sigBits(baseWhole),
    some: sig,
    prefix,
    from,
    marked,
  }
}

/** Marks the plan's prefix terms, those planWords left unmarked, for reading a location's terms. */
function markPrefix(prefixes: Prefixes, plan: WordPlan): void {
  prefixes.markRange(plan.from, plan.prefix)
  plan.marked = true
}

/** Whether a key's terms (in the pool) pass a word plan. */
export function wordsOk(s: IndexState, key: number, plan: WordPlan): boolean {
  if (!plan.marked) markPrefix(s.prefixes, plan)
  const { pool, start, count } = s.terms
  const from = start[key]!
  return wordsIn(pool, s.prefixes.bits, from, from + count[key]!, plan.whole, true)
}

/** A query's test of a key's tags (by the key's bitset) and words (by its terms in the pool). */
export class KeyFilter implements Filter {
  constructor(
    private readonly s: IndexState,
    private readonly tags: TagTest | null,
    private readonly words: WordPlan | null,
  ) {}

  passes(key: number): boolean {
    if (this.tags !== null && !this.tags(this.s.tags.bits, key)) return false
    return this.words === null || wordsOk(this.s, key, this.words)
  }
}

/** Whether a query's words lead: FlexSearch's postings of its rarest word, fewer than half of `candidates`, are read instead of the candidates. */
export function wordLeads(ready: boolean, plan: WordPlan | null, candidates: number): plan is LeadingPlan {
  return (
    plan !== null &&
    plan.source !== null &&
    ready &&
    plan.source.size * 2 + plan.source.terms.length * TERM_LOOKUP_CANDIDATES < candidates
  )
}

/**
 * Whether a word-led query by name or priority is better answered by marking its candidates and
 * walking the name order to the page than by a heap of the best `keep`: the walk's work grows
 * with the base (its words of 32 positions), the heap's with the candidates (PERF-029).
 */
export function walkForPage(candidates: number, sort: SortOrder, colWords: number): boolean {
  return candidates * HEAP_CANDIDATE_NS > colWords * (sort === 'priority' ? PRIORITY_WALK_WORD_NS : WALK_WORD_NS)
}

/**
 * A query's tags and words over the base's columns (columns.ts), as groups of column offsets.
 * Tags: any is one group, all one per tag, match one per filter group; open now one, the open
 * column. Words: one group per term
 * column of a whole word, one of the prefix's term columns when they decide it; then one per
 * signature bit of the other whole words, and one of the prefix's signature bits when its columns
 * do not decide it.
 */
export function columnGroups(base: Base, tagPlan: TagPlan | null, wordPlan: WordPlan | null): Int32Array[] {
  const { colTags, colWords } = base
  const groups: Int32Array[] = []
  if (tagPlan !== null) {
    const column = (bits: number, w: number) => tagColumn(colTags, colWords, 32 * w + 31 - Math.clz32(bits & -bits))
    if (tagPlan.logic === 'all') {
      const { mask } = tagPlan
      for (let w = 0; w < mask.length; w++)
        for (let bits = mask[w]! | 0; bits !== 0; bits &= bits - 1) groups.push(Int32Array.of(column(bits, w)))
    } else {
      for (const mask of tagPlan.logic === 'match' ? tagPlan.groups : [tagPlan.mask]) {
        let n = 0
        for (let w = 0; w < mask.length; w++) n += popcount(mask[w]!)
        const group = new Int32Array(n)
        n = 0
        for (let w = 0; w < mask.length; w++)
          for (let bits = mask[w]! | 0; bits !== 0; bits &= bits - 1) group[n++] = column(bits, w)
        groups.push(group)
      }
    }
    if (tagPlan.open) groups.push(Int32Array.of(base.openCol))
  }
  if (wordPlan !== null) {
    const sig = (bit: number) => sigColumn(colTags, colWords, bit)
    const term = (c: number) => termColumn(colTags, colWords, c)
    groups.push(...wordPlan.wholeCols.map((c) => Int32Array.of(term(c))))
    if (wordPlan.prefixCols !== null) groups.push(Int32Array.from(wordPlan.prefixCols, term))
    groups.push(...wordPlan.need.map((bit) => Int32Array.of(sig(bit))))
    if (wordPlan.some !== null) groups.push(Int32Array.from(wordPlan.some, sig))
  }
  return groups
}

/**
 * Offsets of the columns of a prefix's terms that have one, when the columns do not decide the
 * prefix (WordPlan.prefixSure): a position with one of them is not read for the prefix.
 */
export function prefixSureCols(base: Base, wordPlan: WordPlan | null): number[] {
  if (wordPlan === null || wordPlan.prefixCols !== null) return NO_TERMS as number[]
  const { colTags, colWords } = base
  return wordPlan.prefixSure.map((c) => termColumn(colTags, colWords, c))
}
