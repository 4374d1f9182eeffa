// Term ids for the words of folded text (src/core/text.ts: searchKey), found without cutting each
// word out as a string: an open-addressing table keyed by an FNV-1a hash of the word's characters,
// compared in place, faster than splitting the text into a Map (PERF-001).

import { isWordChar } from '../../core/text'

const EMPTY = -1

export class Vocabulary {
  /** Term id -> its text. */
  readonly terms: string[] = []
  private hashes: number[] = []
  private table = new Int32Array(1024).fill(EMPTY)
  /** The ids internWords found, in order (a buffer the next call reuses). */
  found = new Int32Array(256)

  get size(): number {
    return this.terms.length
  }

  /** The id of text.slice(start, end), made on first sight (a new id is the size before the call). */
  intern(text: string, start: number, end: number): number {
    let h = 0x811c9dc5
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
    return this.internHashed(text, start, end, h)
  }

  /**
   * Interns every word of a searchKey text (src/core/text.ts: the runs of characters isWordChar takes),
   * hashed as they are cut, in one pass; their ids, in order, are `this.found[0..n)`, n returned.
   * New ids are the ones from the size before the call.
   */
  internWords(text: string): number {
    if (this.found.length < (text.length >> 1) + 1) this.found = new Int32Array((text.length >> 1) + 64)
    const found = this.found
    let n = 0
    let start = -1
    let h = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (isWordChar(c)) {
        if (start === -1) {
          start = i
          h = 0x811c9dc5
        }
        h = Math.imul(h ^ c, 16777619)
      } else if (start !== -1) {
        found[n++] = this.internHashed(text, start, i, h)
        start = -1
      }
    }
    if (start !== -1) found[n++] = this.internHashed(text, start, text.length, h)
    return n
  }

  private internHashed(text: string, start: number, end: number, h: number): number {
    const mask = this.table.length - 1
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot]!
      if (id === EMPTY) {
        const created = this.terms.length
        this.terms.push(text.slice(start, end))
        this.hashes.push(h)
        this.table[slot] = created
        if (this.terms.length * 2 > this.table.length) this.rehash()
        return created
      }
      if (this.hashes[id] === h && this.equals(id, text, start, end)) return id
    }
  }

  /** The id of a whole word, or undefined when no text had it. */
  find(word: string): number | undefined {
    let h = 0x811c9dc5
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619)
    const mask = this.table.length - 1
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.table[slot]!
      if (id === EMPTY) return undefined
      if (this.hashes[id] === h && this.terms[id] === word) return id
    }
  }

  private equals(id: number, text: string, start: number, end: number): boolean {
    const term = this.terms[id]!
    // startsWith compares in native code, faster than a charCodeAt loop.
    return term.length === end - start && text.startsWith(term, start)
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(EMPTY)
    const mask = table.length - 1
    for (let id = 0; id < this.terms.length; id++) {
      let slot = this.hashes[id]! & mask
      while (table[slot] !== EMPTY) slot = (slot + 1) & mask
      table[slot] = id
    }
    this.table = table
  }
}
