// KeptAnswers: a pure reading's answers kept by key, bounded in count and in the texts kept.
import { describe, expect, test } from 'bun:test'
import { KeptAnswers } from '../src/core/kept-answers'

/** A reading that counts its calls, answering each key's length. */
function counted() {
  const asked: string[] = []
  return { asked, read: (key: string) => (asked.push(key), key.length) }
}

describe('KeptAnswers', () => {
  test('a key asked again is answered without reading it again, null answers too', () => {
    const kept = new KeptAnswers<number | null>(10, 50)
    let reads = 0
    const none = () => (reads++, null)
    expect([kept.of('a', none), kept.of('a', none)]).toEqual([null, null])
    const { asked, read } = counted()
    expect([kept.of('abc', read), kept.of('abc', read), kept.of('de', read)]).toEqual([3, 3, 2])
    expect([reads, asked]).toEqual([1, ['abc', 'de']])
  })

  test('all answers are dropped when as many as the bound are kept', () => {
    const kept = new KeptAnswers<number>(3, 50)
    const { asked, read } = counted()
    for (const key of ['a', 'b', 'c', 'd', 'a', 'd']) kept.of(key, read)
    // "d" found three kept and dropped them: "a" is read again, "d" is kept.
    expect(asked).toEqual(['a', 'b', 'c', 'd', 'a'])
  })

  test('no answer is kept for a key made of a text longer than the bound', () => {
    const kept = new KeptAnswers<number>(10, 4)
    const { asked, read } = counted()
    for (const key of ['abcde', 'abcde', 'abcd', 'abcd']) kept.of(key, read)
    kept.of('k1', read, ['abcd', 'xyzzy'])
    kept.of('k1', read, ['abcd', 'xyzzy'])
    kept.of('k2', read, ['abcd', 'wxyz'])
    kept.of('k2', read, ['abcd', 'wxyz'])
    expect(asked).toEqual(['abcde', 'abcde', 'abcd', 'k1', 'k1', 'k2'])
  })
})
