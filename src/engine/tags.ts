// Tags: ids of the index's own tag vocabulary (lowercased), one bitset of `words` 32-bit words per
// key, and a query's tags as a plan and a test of one row of bitsets.
import { ensure, fit } from './arrays'
import { OPEN } from './open-now'
import type { IndexQuery } from './types'

/**
 * A query's tags as masks of the index's 32-bit words per bitset, and whether it asks for the
 * locations open now (open-now.ts: OpenNow's state, and the base's open column).
 */
export type TagPlan = ({ logic: 'any' | 'all'; mask: Uint32Array } | { logic: 'match'; groups: Uint32Array[] }) & {
  open: boolean
}
/** Whether row `row` of a table of tag bitsets passes a query's tags. */
export type TagTest = (bits: Uint32Array, row: number) => boolean

export class TagTable {
  readonly idOf = new Map<string, number>()
  readonly names: string[] = []
  /** By tag id: how many live locations have it. */
  readonly docs: number[] = []
  /** By tag id: each spelling locations have it in, and how many locations spell it so. */
  private readonly spelt: Map<string, number>[] = []
  /**
   * By key, the spellings of a location that spells a tag otherwise than lowercased (each once);
   * the tags of the others are their lowercased names, so nothing is kept for them.
   */
  private readonly asSent = new Map<number, readonly string[]>()
  /**
   * Ids no live location has (docs 0), each once (`freed` marks them), which a new tag takes
   * before the vocabulary grows: tags that come and go would otherwise widen every key's bitset
   * and every base's columns for good. An id taken up again by its own tag is skipped when met.
   * Reuse is sound because no row has a freed id's bit (unlink clears a key's row), and a base
   * column holds it only for slots killed since (every write kills its key's base slot).
   */
  private readonly free: number[] = []
  private freed = new Uint8Array(0)
  /** 32-bit words per key's bitset. */
  words = 1
  /** The bitsets, `words` per key. */
  bits = new Uint32Array(0)
  /** Keys with a row. */
  private rows = 0

  /** Links a key's tags (as sent) into its bitset and the counts; its row must be empty. */
  link(key: number, sent: readonly string[]): void {
    const tags = sent.map((t) => t.toLowerCase())
    const asSent = tags.some((t, i) => t !== sent[i])
    for (const tag of tags) {
      let id = this.idOf.get(tag)
      if (id === undefined) id = this.reuse(tag) ?? this.add(tag)
      const at = key * this.words + (id >>> 5)
      const bit = 1 << (id & 31)
      if ((this.bits[at]! & bit) === 0) {
        this.bits[at]! |= bit
        this.docs[id]!++
        if (!asSent) this.count(id, tag, 1)
      }
    }
    if (asSent) {
      const spellings = [...new Set(sent)]
      this.asSent.set(key, spellings)
      for (const spelling of spellings) this.count(this.idOf.get(spelling.toLowerCase())!, spelling, 1)
    }
  }

  /** Drops a key's tags from its bitset and the counts (before a replace or a remove). */
  unlink(key: number): void {
    const sent = this.asSent.get(key)
    if (sent !== undefined) {
      for (const spelling of sent) this.count(this.idOf.get(spelling.toLowerCase())!, spelling, -1)
      this.asSent.delete(key)
    }
    const W = this.words
    for (let w = 0; w < W; w++) {
      let bits = this.bits[key * W + w]!
      while (bits !== 0) {
        const low = bits & -bits
        const id = w * 32 + 31 - Math.clz32(low)
        if (--this.docs[id]! === 0 && this.freed[id] === 0) {
          this.freed[id] = 1
          this.free.push(id)
        }
        if (sent === undefined) this.count(id, this.names[id]!, -1)
        bits ^= low
      }
      this.bits[key * W + w] = 0
    }
  }

  /**
   * The tags at least one location carries: each lowercased (as tags match), and as it is spelt
   * most often (of equals, the first in code unit order: every process names the same).
   */
  spellings(): { tag: string; spelt: string }[] {
    const out: { tag: string; spelt: string }[] = []
    for (let t = 0; t < this.names.length; t++) {
      if (this.docs[t]! === 0) continue
      let spelt = ''
      let most = 0
      for (const [spelling, n] of this.spelt[t]!)
        if (n > most || (n === most && spelling < spelt)) [spelt, most] = [spelling, n]
      out.push({ tag: this.names[t]!, spelt })
    }
    return out
  }

  /** A tag's id if some location has it, else -1. */
  liveTag(tag: string): number {
    const id = this.idOf.get(tag)
    return id === undefined || this.docs[id] === 0 ? -1 : id
  }

  /** Room for `n` keys' rows. */
  grow(n: number): void {
    this.rows = n
    this.bits = ensure(this.bits, n * this.words)
  }

  /** Cuts the growth slack after a bulk load of `n` keys. */
  shrink(n: number): void {
    this.rows = n
    this.bits = fit(this.bits, n * this.words)
  }

  /** A new tag's id: a freed one no location has taken up again (its old name forgotten), or undefined. */
  private reuse(tag: string): number | undefined {
    for (let id = this.free.pop(); id !== undefined; id = this.free.pop()) {
      this.freed[id] = 0
      if (this.docs[id] !== 0) continue
      this.idOf.delete(this.names[id]!)
      this.idOf.set(tag, id)
      this.names[id] = tag
      return id
    }
    return undefined
  }

  /** A new tag's id past the last (every row widened when it needs another word). */
  private add(tag: string): number {
    const id = this.names.length
    this.idOf.set(tag, id)
    this.names.push(tag)
    this.docs.push(0)
    this.spelt.push(new Map())
    if (id >= this.freed.length) this.freed = ensure(this.freed, id + 1)
    if (id >= this.words * 32) this.widen(this.words * 2)
    return id
  }

  /** Counts a location's spelling of tag `id` in (+1) or out (-1). */
  private count(id: number, spelling: string, by: 1 | -1): void {
    const spelt = this.spelt[id]!
    const n = (spelt.get(spelling) ?? 0) + by
    if (n === 0) spelt.delete(spelling)
    else spelt.set(spelling, n)
  }

  /** Every row widened to `words` 32-bit words (the new words 0). */
  private widen(words: number): void {
    const from = this.words
    const out = new Uint32Array(this.rows * words)
    for (let row = 0; row < this.rows; row++)
      for (let w = 0; w < from; w++) out[row * words + w] = this.bits[row * from + w]!
    this.bits = out
    this.words = words
  }
}

/**
 * A query's tags as masks; undefined: no location can match (under all/match, a tag no location
 * has). Planned without a Set, a Map or a closure per query (PERF-028).
 */
export function planTags(table: TagTable, q: IndexQuery): TagPlan | undefined {
  const { tags, tagLogic } = q
  const open = q.openAt != null
  // Open now alone: no tag to test (every row has all of none).
  if (tags.length === 0) return { logic: 'all', mask: new Uint32Array(table.words), open }
  if (tagLogic !== 'match') {
    const mask = new Uint32Array(table.words)
    let known = false
    for (let i = 0; i < tags.length; i++) {
      const id = table.liveTag(tags[i]!)
      if (id !== -1) {
        mask[id >>> 5]! |= 1 << (id & 31)
        known = true
      } else if (tagLogic === 'all') return undefined // a tag no location has: nothing has them all
    }
    return known ? { logic: tagLogic, mask, open } : undefined
  }
  // match: OR within a filter group, AND across groups (a group none of whose tags any location has: nothing matches).
  const names: string[] = []
  const groups: Uint32Array[] = []
  const known: boolean[] = []
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i]!
    const name = q.groupOf(tag)
    let g = names.indexOf(name)
    if (g === -1) {
      g = names.push(name) - 1
      groups.push(new Uint32Array(table.words))
      known.push(false)
    }
    const id = table.liveTag(tag)
    if (id === -1) continue
    groups[g]![id >>> 5]! |= 1 << (id & 31)
    known[g] = true
  }
  return known.includes(false) ? undefined : { logic: 'match', groups, open }
}

/**
 * A query's tag plan as a test of one row of W-word bitsets (a key's), and when it asks for open
 * locations, of the row's open state (`state`, by key: OpenNow.state).
 */
export function tagTest(plan: TagPlan, W: number, state: Uint8Array): TagTest {
  const test = tagsTest(plan, W)
  return plan.open ? (bits, row) => state[row] === OPEN && test(bits, row) : test
}

/** The plan's tags as a test of a row. With one word per row (at most 32 tags, the usual case) a mask or two, without loops. */
function tagsTest(plan: TagPlan, W: number): TagTest {
  if (W > 1) return (bits, row) => tagsMatch(bits, row * W, W, plan)
  if (plan.logic !== 'match') {
    const m = plan.mask[0]! | 0
    return plan.logic === 'any' ? (bits, row) => (bits[row]! & m) !== 0 : (bits, row) => (bits[row]! & m) === m
  }
  const masks = plan.groups.map((g) => g[0]! | 0)
  if (masks.length === 2) {
    const [a, b] = masks as [number, number]
    return (bits, row) => (bits[row]! & a) !== 0 && (bits[row]! & b) !== 0
  }
  return (bits, row) => {
    const v = bits[row]!
    for (let g = 0; g < masks.length; g++) if ((v & masks[g]!) === 0) return false
    return true
  }
}

/** Whether the tag bitset at bits[at..at+W) passes a query's tag plan. */
function tagsMatch(bits: Uint32Array, at: number, W: number, plan: TagPlan): boolean {
  if (plan.logic !== 'match') {
    const { mask } = plan
    if (plan.logic === 'any') {
      for (let w = 0; w < W; w++) if ((bits[at + w]! & mask[w]!) !== 0) return true
      return false
    }
    for (let w = 0; w < W; w++) if ((bits[at + w]! & mask[w]!) >>> 0 !== mask[w]) return false
    return true
  }
  for (const mask of plan.groups) {
    let hit = false
    for (let w = 0; w < W && !hit; w++) hit = (bits[at + w]! & mask[w]!) !== 0
    if (!hit) return false
  }
  return true
}
