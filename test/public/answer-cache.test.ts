// The response cache's admission and eviction, through its own API (its effect over HTTP, the same
// bytes between writes and the new answer after one, is tested in caching.test.ts).
import { describe, expect, test } from 'bun:test'
import { AnswerCache, type Kept } from '../../src/public/answer-cache'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = async (kept: Kept | undefined) => (kept === undefined ? undefined : await kept.body.text())

describe('AnswerCache', () => {
  test('an answer is kept from the second time its key is asked for', async () => {
    const cache = new AnswerCache()
    expect(await text(cache.get('a'))).toBeUndefined()
    expect(cache.offer('a', 1, 'W/"1"', bytes('first'))).toBeNull()
    expect(await text(cache.get('a'))).toBeUndefined() // asked once: only the key is remembered
    const answer = bytes('second')
    const kept = cache.offer('a', 1, 'W/"1"', answer)!
    answer.fill(0x21) // the caller may reuse its bytes: the cache has its own
    expect(await kept.text()).toBe('second')
    expect(await text(cache.get('a'))).toBe('second')
    expect(await text(cache.get('a'))).toBe('second')
    expect(cache.size).toBe(1)
  })

  test('one-off keys keep no answers, and the keys remembered are bounded', async () => {
    const cache = new AnswerCache(4, 3)
    for (let i = 0; i < 100; i++) cache.offer(`k${i}`, 1, 'W/"1"', bytes('x'.repeat(1000)))
    expect(cache.size).toBe(0)
    cache.offer('k99', 1, 'W/"1"', bytes('again')) // still remembered: among the last 3
    expect(await text(cache.get('k99'))).toBe('again')
    cache.offer('k0', 1, 'W/"1"', bytes('again')) // forgotten long ago: remembered anew, not kept
    expect(await text(cache.get('k0'))).toBeUndefined()
  })

  test('past its size the least recently used answer leaves first', async () => {
    const cache = new AnswerCache(2, 10)
    const keep = (k: string) => {
      cache.offer(k, 1, 'W/"1"', bytes(k))
      cache.offer(k, 1, 'W/"1"', bytes(k))
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

  test('an answer made for a newer version takes the place of the one kept, once asked for twice again', async () => {
    const cache = new AnswerCache(4, 4)
    cache.offer('a', 1, 'W/"1-x"', bytes('old'))
    cache.offer('a', 1, 'W/"1-x"', bytes('old'))
    cache.offer('a', 2, 'W/"2-x"', bytes('new')) // first ask since it was kept: remembered
    expect(cache.get('a')?.version).toBe(1) // the caller sees the version and does not use it
    cache.offer('a', 2, 'W/"2-x"', bytes('new'))
    const kept = cache.get('a')!
    expect({ version: kept.version, etag: kept.etag, body: await kept.body.text() }).toEqual({ version: 2, etag: 'W/"2-x"', body: 'new' })
    expect(cache.size).toBe(1)
  })
})
