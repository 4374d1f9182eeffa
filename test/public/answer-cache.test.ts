// The response cache's admission and eviction, through its own API (its effect over HTTP, the same
// bytes between writes and the new answer after one, is tested in caching.test.ts).
import { describe, expect, test } from 'bun:test'
import { AnswerCache } from '../../src/public/answer-cache'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = async (blob: Blob | undefined) => (blob === undefined ? undefined : await blob.text())

describe('AnswerCache', () => {
  test('an answer is kept from the second time its key is asked for', async () => {
    const cache = new AnswerCache()
    expect(await text(cache.get('a'))).toBeUndefined()
    cache.offer('a', bytes('first'))
    expect(await text(cache.get('a'))).toBeUndefined() // asked once: only the key is remembered
    cache.offer('a', bytes('second'))
    expect(await text(cache.get('a'))).toBe('second')
    expect(await text(cache.get('a'))).toBe('second')
    expect(cache.size).toBe(1)
  })

  test('one-off keys keep no answers, and the keys remembered are bounded', async () => {
    const cache = new AnswerCache(4, 3)
    for (let i = 0; i < 100; i++) cache.offer(`k${i}`, bytes('x'.repeat(1000)))
    expect(cache.size).toBe(0)
    cache.offer('k99', bytes('again')) // still remembered: among the last 3
    expect(await text(cache.get('k99'))).toBe('again')
    cache.offer('k0', bytes('again')) // forgotten long ago: remembered anew, not kept
    expect(await text(cache.get('k0'))).toBeUndefined()
  })

  test('past its size the least recently used answer leaves first', async () => {
    const cache = new AnswerCache(2, 10)
    const keep = (k: string) => {
      cache.offer(k, bytes(k))
      cache.offer(k, bytes(k))
    }
    keep('a')
    keep('b')
    expect(await text(cache.get('a'))).toBe('a') // a is now more recent than b
    keep('c')
    expect(cache.size).toBe(2)
    expect(await text(cache.get('b'))).toBeUndefined()
    expect(await text(cache.get('a'))).toBe('a')
    expect(await text(cache.get('c'))).toBe('c')
  })
})
