// The big cities a four-letter text is one typo off ("Wein": Wien, "Kolm": Köln), for the place
// search's bigOneOff(): their four-letter names are read once, a few hundred.
import type { SortedKeys, Texts } from './place-keys'

/** A town this populous is listed for a four-letter text one typo off its whole name. */
const BIG_TYPO = 500_000
/** The length of the names and texts looked at (bytes: ASCII letters only). */
const LETTERS = 4

type BigName = { key: string; town: number; main: number; name: number }
/** A town found: 1 when its main name is one off, else 0; and then the other name's spellings. */
export type OneOffTown = { main: number; spelt: string }

export class BigOneOff {
  /** The names of four ASCII letters of the towns of BIG_TYPO people or more, read on first use. */
  private names: BigName[] | null = null
  /** The last text looked up, and its towns: one find() asks for a text more than once. */
  private last: { key: string; found: Map<number, OneOffTown> } | null = null

  constructor(
    private readonly keys: SortedKeys,
    private readonly spellings: Texts,
    private readonly population: Int32Array,
  ) {}

  /** The towns whose whole name is `key` (a name key) with a letter changed or two neighbours swapped. */
  towns(key: string): Map<number, OneOffTown> {
    if (this.last?.key !== key) this.last = { key, found: this.find(key) }
    return this.last.found
  }

  private find(key: string): Map<number, OneOffTown> {
    const found = new Map<number, OneOffTown>()
    if (Buffer.byteLength(key) !== LETTERS) return found
    for (const n of (this.names ??= this.read())) {
      const diff: number[] = []
      for (let j = 0; j < LETTERS && diff.length <= 2; j++) if (n.key[j] !== key[j]) diff.push(j)
      const oneOff =
        diff.length === 1 ||
        (diff.length === 2 &&
          diff[1] === diff[0]! + 1 &&
          n.key[diff[0]!] === key[diff[1]!] &&
          n.key[diff[1]!] === key[diff[0]!])
      if (oneOff && (found.get(n.town)?.main ?? -1) < n.main)
        found.set(n.town, { main: n.main, spelt: n.main === 1 ? '' : this.spellings.at(n.name) })
    }
    return found
  }

  private read(): BigName[] {
    const names: BigName[] = []
    const { ref, main, start, bytes } = this.keys
    for (let i = 0; i < this.keys.size; i++)
      if (this.keys.length(i) === LETTERS && this.population[ref[i]!]! >= BIG_TYPO)
        names.push({
          key: bytes.toString('latin1', start[i]!, start[i]! + LETTERS),
          town: ref[i]!,
          main: main[i]!,
          name: i,
        })
    return names
  }
}
