// nameKey takes a fast path for ASCII text; it must fold exactly as the Unicode path does.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { nameKey } from '../src/text'

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
})
