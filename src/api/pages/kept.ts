// What the pages make from a locator's rows and keep until a write (its directory, sitemap bodies):
// promises by key, within a budget of their weight, the longest unused dropped first.
import type { IndexRegistry } from '../../indexes/registry'

type Entry<V> = { value: Promise<V>; tag: string; weight: number }

/**
 * Promises kept by key, each with the tag it was made for (a written version). Requests for a key
 * while its promise is pending share it. A value's weight counts once it is made; past `budget`,
 * the longest unused values go, never the one just made (a value over the budget alone is kept
 * until another is made). A promise that fails is not kept: the next request makes it again.
 */
export class Kept<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private total = 0

  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number,
  ) {}

  /** The value kept under `key` for `tag`, else `make()`'s, kept in place of one of another tag. */
  get(key: string, tag: string, make: () => Promise<V>): Promise<V> {
    const found = this.entries.get(key)
    if (found !== undefined) {
      this.entries.delete(key) // set again below: the map's order is the order of use
      if (found.tag === tag) {
        this.entries.set(key, found)
        return found.value
      }
      this.total -= found.weight
    }
    const entry: Entry<V> = { value: make(), tag, weight: 0 }
    this.entries.set(key, entry)
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return
        entry.weight = this.weigh(value)
        this.total += entry.weight
        this.trim(entry)
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
      },
    )
    return entry.value
  }

  /** Drops the longest unused values made until the rest fit the budget; `made` stays, as do pending ones. */
  private trim(made: Entry<V>): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget) return
      if (entry === made || entry.weight === 0) continue
      this.entries.delete(key)
      this.total -= entry.weight
    }
  }
}

/** One Kept per index registry (each app has its own), made on first use. */
export function keptPerRegistry<V>(budget: number, weigh: (value: V) => number): (registry: IndexRegistry) => Kept<V> {
  const all = new WeakMap<IndexRegistry, Kept<V>>()
  return (registry) => {
    let kept = all.get(registry)
    if (kept === undefined) all.set(registry, (kept = new Kept(budget, weigh)))
    return kept
  }
}
