// nameKey takes a fast path for ASCII text; it must fold exactly as the Unicode path does. The
// index's words (searchKey, cut by Vocabulary.internWords) must be nameKey's.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { Vocabulary } from '../src/engine/text/vocabulary'
import { nameKey, searchKey } from '../src/core/text'

test('ASCII text folds the same on the fast path as on the Unicode path', () => {
  // Appending " é" sends the same text down the Unicode path; its folded form ends in "e".
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 60 })
  fc.assert(
    fc.property(ascii, (s) => {
      const unicode = nameKey(`${s} é`)
      expect(unicode.endsWith('e')).toBe(true)
      expect(nameKey(s)).toBe(unicode.slice(0, -1).trimEnd())
    }),
    { numRuns: 2000 },
  )
  expect(nameKey("  Zoë's Café-Bar, 12 RUE d'Orsay ")).toBe('zoe s cafe bar 12 rue d orsay')
  expect(nameKey('Main St. #5')).toBe('main st 5')
  // Compatibility forms that decompose to capitals are lowercased too: a search for "tel" finds "℡".
  expect(nameKey('Call ℡ 5, 20℃')).toBe('call tel 5 20 c')
  // Nonspacing marks go as accents do; a word keeps its spacing marks; a final sigma is a sigma.
  expect(nameKey('ΟΔΟΣ Οδοστρωτήρας')).toBe('οδοσ οδοστρωτηρασ')
  expect(nameKey('नमस्ते किताब')).toBe('नमसत किताब')
  expect(nameKey('مُحَمَّد')).toBe('محمد')
  expect(nameKey('がっこう')).toBe('かっこう')
})

test("the index's words of a searchKey text are nameKey's words, for any text", () => {
  // The index cuts searchKey(text) into words as it interns them (Vocabulary.internWords); a
  // search folds its words with nameKey. Both must see the same words, or a stored word is never found.
  const wordsOf = (text: string) => {
    const v = new Vocabulary()
    const n = v.internWords(text)
    return Array.from(v.found.subarray(0, n), (t) => v.terms[t]!)
  }
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 60 })
  const any = fc.string({
    unit: fc.oneof(
      fc.constantFrom('ß', 'É', 'ø', '’', 'Ǆ', '™', '℡', 'İ', '٣', '東', 'ﬁ', '\u0301', ' ', '-', 'A', 'z', '7'),
      fc.constantFrom(..."aZ09 .,'-"),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  })
  for (const arb of [ascii, any]) {
    fc.assert(
      fc.property(arb, (s) => {
        const expected = nameKey(s)
          .split(' ')
          .filter((w) => w !== '')
        expect(wordsOf(searchKey(s))).toEqual(expected)
        expect(wordsOf(nameKey(s))).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
  }
  expect(wordsOf(searchKey("  Zoë's Café-Bar, 12 RUE d'Orsay "))).toEqual([
    'zoe',
    's',
    'cafe',
    'bar',
    '12',
    'rue',
    'd',
    'orsay',
  ])
  expect(wordsOf(searchKey('Main St. #5'))).toEqual(['main', 'st', '5'])
  expect(searchKey('Main St. #5')).toBe('main st. #5')
})
