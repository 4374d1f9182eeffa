// wordStem: a search word with its ending cut, for the reading by word forms (engine/query/fuzzy.ts).
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { wordStem } from '../../src/engine/text/fuzzy-terms'

test('the endings cut, and the words left as they are', () => {
  const cases: [string, string][] = [
    ['skiing', 'ski'],
    ['kayaking', 'kayak'],
    ['running', 'run'], // a doubled consonant before -ing is one
    ['shopping', 'shop'],
    ['selling', 'sell'], // but -ll and -ss stay
    ['dressings', 'dress'],
    ['bikes', 'bike'],
    ['rentals', 'rental'],
    ['boxes', 'box'],
    ['churches', 'church'],
    ['glasses', 'glass'],
    ['batteries', 'batter'], // a prefix of both battery and batteries
    ['guided', 'guid'],
    // Left whole: under 5 characters, -s after s, u or i, -ing after no vowel, -ed on a word under 6.
    ['skis', 'skis'],
    ['pass', 'pass'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['string', 'string'],
    ['speed', 'speed'],
    ['ski', 'ski'],
  ]
  expect(cases.map(([word]) => [word, wordStem(word)])).toEqual(cases)
})

test('a stem is the start of its word, of 3 characters or more; a word under 5 is its own', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z]{1,12}$/), (word) => {
      const stem = wordStem(word)
      expect(word.startsWith(stem)).toBe(true)
      expect(stem.length).toBeGreaterThanOrEqual(Math.min(3, word.length))
      if (word.length < 5) expect(stem).toBe(word)
    }),
  )
})
