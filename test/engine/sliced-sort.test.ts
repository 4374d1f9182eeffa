// Sorts made in slices (the name order of a built index, the prefix order of one loaded in the
// background) against the one-piece sort they stand for.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { SlicedSort } from '../../src/engine/sliced-sort'
import { Prefixes } from '../../src/engine/text/prefixes'
import { Vocabulary } from '../../src/engine/text/vocabulary'

test('a sliced sort gives the items in order, leaving out those skipped before or during it, whatever the slice', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 300, size: 'max' }),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.nat(400), { maxLength: 40, size: 'max' }),
      (items, slice, skipsAtSteps) => {
        // Items are places in `items`; skipped: a place "written" while the sort runs.
        const skipped = new Set<number>()
        const sort = new SlicedSort(
          () => items.length,
          (from, to) => Array.from({ length: to - from }, (_, i) => from + i).filter((p) => !skipped.has(p)),
          (a, b) => items[a]! - items[b]! || a - b,
          slice,
          (p) => skipped.has(p),
        )
        let sorted: number[] | null = null
        for (let step = 0; sorted === null; step++) {
          if (step < skipsAtSteps.length && items.length > 0) skipped.add(skipsAtSteps[step]! % items.length)
          sorted = sort.step()
        }
        const expected = items
          .map((_, p) => p)
          .filter((p) => !skipped.has(p))
          .sort((a, b) => items[a]! - items[b]! || a - b)
        expect(sorted).toEqual(expected)
      },
    ),
    { numRuns: 300, seed: 20261202 },
  )
})

test('prefixes sorted in steps are the order sort() makes at once: terms in text order, each with its id', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 200, size: 'max' }),
      fc.integer({ min: 1, max: 50 }),
      (words, slice) => {
        const vocab = new Vocabulary()
        for (const w of words) vocab.intern(w, 0, w.length)
        const once = new Prefixes()
        once.sort(vocab)
        const inSteps = new Prefixes()
        const step = inSteps.sortInSteps(vocab, slice)
        let steps = 0
        while (!step()) steps++
        expect(inSteps.terms).toEqual(once.terms)
        expect(inSteps.ids).toEqual(once.ids)
        expect(steps).toBeGreaterThanOrEqual(Math.ceil(vocab.size / slice)) // one run a step, at least
      },
    ),
    { numRuns: 200, seed: 1202 },
  )
})
