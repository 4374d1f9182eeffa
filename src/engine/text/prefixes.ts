// Prefix lookup: the vocabulary in text order (the terms a prefix begins lie side by side), and
// one bit per term for the terms the latest word plan's prefix begins.
import { ensure, fit } from '../arrays'
import { SlicedSort } from '../sliced-sort'
import type { Vocabulary } from './vocabulary'

export class Prefixes {
  /** Terms in text order (UTF-16 code units, as `<` compares), and their ids. */
  terms: string[] = []
  ids: number[] = []
  /** Whether terms are kept in order (from the first sort() on, each new term is placed). */
  private sorted = false
  /**
   * One bit per term: the terms the last word of the latest word plan begins (set by planWords,
   * or by markRange once a location's terms are read for a prefix with a column of its own);
   * cleared by the next plan. A bit, not a stamp per term: a check reads the marks of a
   * location's terms one after another, and a bit a term stays in cache.
   */
  bits = new Int32Array(0)
  /** firstAtOrAfter's last answer: its word and place, and the terms (and their count) it was of. */
  private lastWord = ''
  private lastAt = 0
  private lastTerms: string[] | null = null
  private lastLength = -1
  /** The terms marked in `bits`, to clear them. */
  private readonly marked: number[] = []

  /** Sorts the vocabulary; from now on each new term is placed in order as it comes. */
  sort(vocab: Vocabulary): void {
    // The native sort without a comparator, ids found back by hash: faster than ids sorted
    // through a comparator.
    this.terms = vocab.terms.slice().sort()
    this.ids = this.terms.map((word) => vocab.find(word)!)
    this.sorted = true
  }

  /**
   * sort() in slices (SlicedSort): each call does one step's work, `slice` terms' worth, and says
   * whether the order is made. No term is to be added meanwhile.
   */
  sortInSteps(vocab: Vocabulary, slice: number): () => boolean {
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
    const sort = new SlicedSort(
      () => vocab.size,
      (from, to) => vocab.terms.slice(from, to),
      byText,
      slice,
    )
    let terms: string[] | null = null
    const ids: number[] = []
    return () => {
      if (terms === null) {
        terms = sort.step()
        return false
      }
      const end = Math.min(terms.length, ids.length + slice)
      for (let i = ids.length; i < end; i++) ids.push(vocab.find(terms[i]!)!)
      if (ids.length < terms.length) return false
      this.terms = terms
      this.ids = ids
      this.sorted = true
      return true
    }
  }

  /** Makes room for new term t and places it in order. */
  add(t: number, word: string): void {
    this.bits = ensure(this.bits, (t >>> 5) + 1)
    if (!this.sorted) return
    const at = this.firstAtOrAfter(word)
    this.terms.splice(at, 0, word)
    this.ids.splice(at, 0, t)
  }

  /** Cuts the growth slack after a bulk load of `terms` terms. */
  shrink(terms: number): void {
    this.bits = fit(this.bits, (terms + 31) >>> 5)
  }

  /** Binary search: the first place in text order whose term is >= `word`. */
  firstAtOrAfter(word: string): number {
    // A query asks it twice of its last word (the plan, then typedOnlyTownWords): the last answer
    // is kept while the terms are the same (a term placed lengthens them).
    if (word === this.lastWord && this.terms === this.lastTerms && this.terms.length === this.lastLength)
      return this.lastAt
    let lo = 0
    let hi = this.terms.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.terms[mid]! < word) lo = mid + 1
      else hi = mid
    }
    this.lastWord = word
    this.lastAt = lo
    this.lastTerms = this.terms
    this.lastLength = this.terms.length
    return lo
  }

  /** Clears the marks of the previous plan. */
  clearMarks(): void {
    const { bits } = this
    for (const t of this.marked) bits[t >>> 5]! &= ~(1 << (t & 31))
    this.marked.length = 0
  }

  /** Marks term t. */
  mark(t: number): void {
    this.bits[t >>> 5]! |= 1 << (t & 31)
    this.marked.push(t)
  }

  /** Marks every term `prefix` begins, from place `from` of the text order on. */
  markRange(from: number, prefix: string): void {
    for (let i = from; i < this.terms.length && this.terms[i]!.startsWith(prefix); i++) this.mark(this.ids[i]!)
  }
}
