// The vocabulary's term ids: one per distinct word, words compared in place after their hash.
import { expect, test } from 'bun:test'
import { Vocabulary } from '../../src/engine/text/vocabulary'

/** Interns every space-separated word of `text`; returns their ids. */
const internAll = (v: Vocabulary, text: string) => {
  const ids: number[] = []
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text[i] !== ' ') continue
    if (i > start) ids.push(v.intern(text, start, i))
    start = i + 1
  }
  return ids
}

test('words of one length and one hash stay apart ("declinate" and "macallums" share their FNV-1a hash)', () => {
  const v = new Vocabulary()
  const ids = internAll(v, 'declinate macallums declinate liquid costarring macallums')
  expect(ids).toEqual([0, 1, 0, 2, 3, 1])
  expect(v.terms).toEqual(['declinate', 'macallums', 'liquid', 'costarring'])
  expect([
    v.find('declinate'),
    v.find('macallums'),
    v.find('liquid'),
    v.find('costarring'),
    v.find('declinat'),
  ]).toEqual([0, 1, 2, 3, undefined])
})

test('a word found inside longer text, and past a rehash, keeps its id', () => {
  const v = new Vocabulary()
  const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`)
  const first = internAll(v, words.join(' '))
  expect(first).toEqual(words.map((_, i) => i))
  expect(internAll(v, `x ${words.slice().reverse().join(' ')} x`)).toEqual([
    3000,
    ...words.map((_, i) => 2999 - i),
    3000,
  ])
})
