// The place search's typo walk (typoRanges) against a naive oracle: every name's fewest edits
// from the typed text to any of its prefixes, by the optimal string alignment distance.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { keyParts, SortedKeys, utf8 } from '../../src/geocode/embedded/place-keys'
import { type TypoRange, typoRanges } from '../../src/geocode/embedded/place-typos'

/** Edits from `a` to `b`: a letter added, dropped or changed, or two neighbours swapped (no letter edited twice). */
function osa(a: Uint8Array, b: Uint8Array): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j))
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1)
    }
  return d[a.length]![b.length]!
}

/** A name's fewest edits from `text` to one of its prefixes of a byte or more. */
function prefixEdits(name: Uint8Array, text: Uint8Array): number {
  let best = Number.POSITIVE_INFINITY
  for (let k = 1; k <= name.length; k++) best = Math.min(best, osa(name.subarray(0, k), text))
  return best
}

/** Each name the ranges of prefixes and of whole names hold, with the fewest edits of a range that holds it. */
function walked(keys: SortedKeys, names: string[], text: string, most: number, anchored: boolean, whole = false) {
  const finds = typoRanges(keys, utf8.encode(text), most, anchored, whole)
  const held = (ranges: TypoRange[], isWhole: boolean) => {
    const found = new Map<string, number>()
    for (const r of ranges) {
      expect(r.to).toBeGreaterThan(r.from)
      for (let i = r.from; i < r.to; i++) {
        // Every name of a range begins with the same prefix of r.depth bytes; a whole one is that prefix.
        expect(names[i]!.slice(0, r.depth)).toBe(names[r.from]!.slice(0, r.depth))
        if (isWhole) expect(names[i]!.length).toBe(r.depth)
        found.set(names[i]!, Math.min(found.get(names[i]!) ?? Number.POSITIVE_INFINITY, r.edits))
      }
    }
    return found
  }
  return { prefix: held(finds.prefix, false), whole: held(finds.whole, true) }
}

/**
 * The walk over `list` (unique names) finds what the oracle does: the names with a prefix (whole:
 * the name itself) within `most` edits of `text`, each at its fewest; anchored, only those with
 * its first letter. Asked for whole names too, it finds the same prefixes.
 */
function agreesWithOracle(list: string[], text: string, most: number, anchored: boolean, whole: boolean): void {
  const names = [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) // ASCII: code unit order is byte order
  const keys = new SortedKeys(
    keyParts(
      names,
      names.map((_, i) => i),
    ),
  )
  const p = utf8.encode(text)
  const expected = (edits: (name: Uint8Array) => number) => {
    const within = new Map<string, number>()
    for (const name of names) {
      if (anchored && name[0] !== text[0]) continue
      const e = edits(utf8.encode(name))
      if (e <= most) within.set(name, e)
    }
    return within
  }
  const got = walked(keys, names, text, most, anchored, whole)
  expect(got.prefix).toEqual(expected((name) => prefixEdits(name, p)))
  expect(got.whole).toEqual(whole ? expected((name) => osa(name, p)) : new Map())
}

// Few letters, so names share prefixes and typed texts come near many of them.
const word = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', ' '), minLength: min, maxLength: max })

describe('typoRanges', () => {
  test('holds exactly the names with a prefix (whole: the name itself) within `most` edits, each at its fewest; anchored, those with the first letter as typed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word(1, 8), { minLength: 1, maxLength: 60 }),
        word(1, 7),
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        fc.boolean(),
        (list, text, most, anchored, whole) => agreesWithOracle(list, text, most, anchored, whole),
      ),
      { numRuns: 500 },
    )
  })

  // Long texts, and names a few edits from them: the walk's rows are kept only within `most` of
  // their diagonal, so their edges are met here.
  test('the same on long texts and names made from them by a few edits', () => {
    const edit = fc.record({
      at: fc.nat(40),
      op: fc.constantFrom('drop', 'add', 'change', 'swap', 'cut'),
      letter: fc.constantFrom('a', 'b', 'c', 'd', ' '),
    })
    const edited = (text: string, edits: { at: number; op: string; letter: string }[]) =>
      edits.reduce((t, { at, op, letter }) => {
        const i = at % (t.length + 1)
        if (op === 'drop') return t.slice(0, i) + t.slice(i + 1)
        if (op === 'add') return t.slice(0, i) + letter + t.slice(i)
        if (op === 'change') return t.slice(0, i) + letter + t.slice(i + 1)
        if (op === 'swap') return t.slice(0, i) + t.slice(i + 1, i + 2) + t.slice(i, i + 1) + t.slice(i + 2)
        return t.slice(0, Math.max(1, i))
      }, text)
    fc.assert(
      fc.property(
        word(12, 28),
        fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        fc.uniqueArray(word(1, 12), { maxLength: 10 }),
        fc.constantFrom(1, 2),
        fc.boolean(),
        fc.boolean(),
        (text, scripts, others, most, anchored, whole) => {
          const made = scripts.map((e) => edited(text, e)).filter((n) => n.length > 0)
          agreesWithOracle([...new Set([...made, ...others])], text, most, anchored, whole)
        },
      ),
      { numRuns: 300 },
    )
  })

  test('a swap of neighbours is one edit; a name that ends before the text is still within reach', () => {
    const names = ['lodz', 'london', 'londonderry', 'paris'] // in byte order
    const keys = new SortedKeys(keyParts(names, [0, 1, 2, 3]))
    expect(walked(keys, names, 'lodnon', 1, false).prefix).toEqual(
      new Map([
        ['london', 1],
        ['londonderry', 1],
      ]),
    )
    expect(walked(keys, names, 'lodzz', 1, false).prefix).toEqual(new Map([['lodz', 1]]))
    expect(walked(keys, names, 'pairs', 1, false).prefix).toEqual(new Map([['paris', 1]]))
    expect(walked(keys, names, 'qaris', 1, true).prefix).toEqual(new Map())
    expect(walked(keys, names, 'lodn', 1, false, true).whole).toEqual(new Map([['lodz', 1]]))
    expect(walked(keys, names, 'londno', 1, false, true).whole).toEqual(new Map([['london', 1]]))
  })
})
