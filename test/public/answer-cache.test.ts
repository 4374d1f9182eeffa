// The response cache's admission and eviction, through its own API (its effect over HTTP, the same
// bytes between writes and the new answer after one, is tested in caching-etag.test.ts).
import { describe, expect, test } from 'bun:test'
import { AnswerCache, type Kept } from '../../src/api/public/answer-cache'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = async (kept: Kept | undefined) => (kept === undefined ? undefined : await kept.body.text())

describe('AnswerCache', () => {
  test('an answer is kept from the second time its key is asked for', async () => {
    const cache = new AnswerCache()
    expect(await text(cache.get('a'))).toBeUndefined()
    expect(cache.offer('a', '1', 'W/"1"', bytes('first'))).toBeNull()
    expect(await text(cache.get('a'))).toBeUndefined() // asked once: only the key is remembered
    const answer = bytes('second')
    const kept = cache.offer('a', '1', 'W/"1"', answer)!
    answer.fill(0x21) // the caller may reuse its bytes: the cache has its own
    expect(await kept.text()).toBe('second')
    expect(await text(cache.get('a'))).toBe('second')
    expect(await text(cache.get('a'))).toBe('second')
    expect(cache.size).toBe(1)
  })

  test('one-off keys keep no answers, and the keys remembered are bounded', async () => {
    const cache = new AnswerCache(4, 3)
    for (let i = 0; i < 100; i++) cache.offer(`k${i}`, '1', 'W/"1"', bytes('x'.repeat(1000)))
    expect(cache.size).toBe(0)
    cache.offer('k99', '1', 'W/"1"', bytes('again')) // still remembered: among the last 3
    expect(await text(cache.get('k99'))).toBe('again')
    cache.offer('k0', '1', 'W/"1"', bytes('again')) // forgotten long ago: remembered anew, not kept
    expect(await text(cache.get('k0'))).toBeUndefined()
  })

  test('a key remembered again keeps its count when the slot it had before is taken', async () => {
    const cache = new AnswerCache(1, 3, 1_000_000)
    cache.offer('z', '1', 'W/"1"', bytes('z'))
    expect(cache.offer('z', '1', 'W/"1"', bytes('z'))).not.toBeNull() // kept, with 2 asks
    expect(cache.offer('a', '1', 'W/"1"', bytes('a'))).toBeNull()
    expect(cache.offer('a', '1', 'W/"1"', bytes('a'))).toBeNull() // 2 asks: not more than z's
    cache.offer('b', '1', 'W/"1"', bytes('b'))
    cache.offer('c', '1', 'W/"1"', bytes('c')) // takes the slot a had first, not a
    expect(cache.offer('a', '1', 'W/"1"', bytes('a'))).not.toBeNull() // 3 asks beat z's 2
    expect(await text(cache.get('a'))).toBe('a')
    expect(cache.get('z')).toBeUndefined()
  })

  test('past its size, a key asked for more often than the least recently used answer takes its place', async () => {
    const cache = new AnswerCache(2, 10)
    const ask = (k: string, times: number) => {
      for (let i = 0; i < times; i++) if (cache.get(k) === undefined) cache.offer(k, '1', 'W/"1"', bytes(k))
    }
    ask('a', 2)
    ask('b', 2)
    expect(await text(cache.get('a'))).toBe('a') // a: 3 asks, now more recent than b (2)
    ask('c', 2) // as often as b, the least recently used: not kept
    expect(cache.get('c')).toBeUndefined()
    ask('c', 1) // a third ask (a get that finds nothing counts none) against b's 2
    expect(cache.size).toBe(2)
    expect(await text(cache.get('b'))).toBeUndefined()
    expect(await text(cache.get('a'))).toBe('a')
    expect(await text(cache.get('c'))).toBe('c')
    // b left with its 2 asks remembered; the least recent now is a (4 asks): b's fifth beats it.
    ask('b', 3)
    expect(await text(cache.get('b'))).toBe('b')
    expect(await text(cache.get('a'))).toBeUndefined()
  })

  test('a round of more keys than the cache holds, each asked as often, keeps the same answers (no answer replaced per ask)', async () => {
    const cache = new AnswerCache(4, 16, 1_000_000)
    const made: string[] = []
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 10; i++) {
        const k = `k${i}`
        if (cache.get(k) === undefined && cache.offer(k, '1', 'W/"1"', bytes(k)) !== null) made.push(k)
      }
    }
    expect(made).toEqual(['k0', 'k1', 'k2', 'k3']) // kept at their second ask; later keys never beat them
    for (const k of ['k0', 'k1', 'k2', 'k3']) expect(await text(cache.get(k))).toBe(k)
  })

  test('counts are halved every agingPeriod offers, so an answer popular once gives way', async () => {
    const cache = new AnswerCache(1, 4, 4)
    for (let i = 0; i < 2; i++) cache.offer('old', '1', 'W/"1"', bytes('old'))
    for (let i = 0; i < 30; i++) cache.get('old') // 32 asks
    // Each offer of "new" counts toward the aging: by 4 offers 32 -> 16, by 8 -> 8 ...; "new" keeps
    // its asks (halved too) and wins once it has more than old's.
    let offers = 0
    while (cache.get('new') === undefined && offers < 100) {
      cache.offer('new', '1', 'W/"1"', bytes('new'))
      offers++
    }
    expect(await text(cache.get('new'))).toBe('new')
    expect(cache.get('old')).toBeUndefined()
    expect(offers).toBeGreaterThan(4) // not at once: old's 32 asks had to decay first
    expect(offers).toBeLessThan(40)
  })

  test("the kept answers' bytes stay within maxBytes, however big the answers; one over a sixteenth of it is sent, not kept", async () => {
    const cache = new AnswerCache(1000, 1000, 10_000, 1600)
    const ask = (k: string, size: number) => cache.get(k) ?? cache.offer(k, '1', 'W/"1"', bytes(k.padEnd(size, '.')))
    for (let i = 0; i < 40; i++) for (let n = 0; n < 2 + (i % 3); n++) ask(`k${i}`, 100)
    expect(cache.byteSize).toBeLessThanOrEqual(1600)
    expect(cache.size).toBe(16)
    expect(cache.byteSize).toBe(1600)
    for (let n = 0; n < 5; n++) expect(ask('big', 101)).toBeNull()
    expect(cache.get('big')).toBeUndefined()
    // An answer made again for a newer version, bigger: the least recently used others leave.
    const [newest] = [...Array(40).keys()]
      .reverse()
      .map((i) => `k${i}`)
      .filter((k) => cache.get(k) !== undefined)
    expect(await cache.offer(newest!, '2', 'W/"2"', bytes('x'.repeat(100)))!.text()).toBe('x'.repeat(100))
    expect(cache.byteSize).toBeLessThanOrEqual(1600)
    // Grown past a sixteenth: no longer kept.
    expect(cache.offer(newest!, '3', 'W/"3"', bytes('y'.repeat(101)))).toBeNull()
    expect(cache.get(newest!)).toBeUndefined()
    expect(cache.byteSize).toBeLessThanOrEqual(1500)
  })

  test('a URL over 2048 characters is neither kept nor remembered', () => {
    const cache = new AnswerCache(4, 4)
    const long = `a${'x'.repeat(2048)}`
    for (let n = 0; n < 3; n++) expect(cache.offer(long, '1', 'W/"1"', bytes('answer'))).toBeNull()
    expect(cache.get(long)).toBeUndefined()
    cache.offer('x'.repeat(2048), '1', 'W/"1"', bytes('answer'))
    expect(cache.offer('x'.repeat(2048), '1', 'W/"1"', bytes('answer'))).not.toBeNull() // at the limit: as any other
  })

  test('an answer made for a newer version takes the place of the one kept at once', async () => {
    const cache = new AnswerCache(4, 4)
    cache.offer('a', '1', 'W/"1-x"', bytes('old'))
    cache.offer('a', '1', 'W/"1-x"', bytes('old'))
    expect(cache.get('a')?.version).toBe('1')
    cache.get('a')!.headers = {
      limit: 10,
      origin: '*',
      vary: 'Origin',
      maxAge: 60,
      headers: new Headers({ etag: 'W/"1-x"' }),
    } // the caller's, for this answer only
    const body = cache.offer('a', '2', 'W/"2-x"', bytes('new'))
    expect(await body?.text()).toBe('new')
    const kept = cache.get('a')!
    expect({ version: kept.version, etag: kept.etag, body: await kept.body.text(), headers: kept.headers }).toEqual({
      version: '2',
      etag: 'W/"2-x"',
      body: 'new',
      headers: null,
    })
    expect(cache.size).toBe(1)
  })
})
