// What the pages keep until a write (src/api/pages/kept.ts): made once per key and tag, pending
// promises shared, the longest unused dropped past the budget, failures never kept.
import { describe, expect, test } from 'bun:test'
import { Kept } from '../../src/api/pages/kept'

/** A Kept of strings weighing their length, counting the values it had made. */
function kept(budget: number) {
  const made: string[] = []
  const store = new Kept<string>(budget, (v) => v.length)
  const get = (key: string, tag: string, value = key.repeat(4)) =>
    store.get(key, tag, async () => {
      made.push(`${key}@${tag}`)
      return value
    })
  return { made, get }
}

describe('Kept', () => {
  test('a key is made once for its tag; requests while it is made wait for the same one', async () => {
    const k = kept(100)
    const [a, b] = [k.get('a', 'v1'), k.get('a', 'v1')]
    expect(a).toBe(b)
    expect(await a).toBe('aaaa')
    expect(await k.get('a', 'v1')).toBe('aaaa')
    expect(k.made).toEqual(['a@v1'])
  })

  test('another tag makes the key again, and its value replaces the old', async () => {
    const k = kept(100)
    await k.get('a', 'v1')
    expect(await k.get('a', 'v2', 'new')).toBe('new')
    expect(await k.get('a', 'v2')).toBe('new')
    expect(k.made).toEqual(['a@v1', 'a@v2'])
  })

  test('past the budget, the longest unused go first', async () => {
    const k = kept(10) // room for two values of 4
    await k.get('a', 'v')
    await k.get('b', 'v')
    await k.get('a', 'v') // a is used again: b is now the longest unused
    await k.get('c', 'v')
    await k.get('a', 'v')
    await k.get('c', 'v')
    expect(k.made).toEqual(['a@v', 'b@v', 'c@v'])
    await k.get('b', 'v')
    expect(k.made).toEqual(['a@v', 'b@v', 'c@v', 'b@v'])
  })

  test('a value over the budget alone is kept until another is made', async () => {
    const k = kept(10)
    await k.get('big', 'v', 'x'.repeat(50))
    await k.get('big', 'v')
    expect(k.made).toEqual(['big@v'])
    await k.get('a', 'v')
    await k.get('big', 'v', 'x'.repeat(50))
    expect(k.made).toEqual(['big@v', 'a@v', 'big@v'])
  })

  test('many small values are kept, whatever their number', async () => {
    const k = kept(2000) // 100 values of 8 to 12
    const keys = Array.from({ length: 100 }, (_, n) => `k${n}`)
    for (const key of keys) await k.get(key, 'v')
    for (const key of keys) await k.get(key, 'v')
    expect(k.made).toHaveLength(100)
  })

  test('a failure is not kept: the next request makes it again', async () => {
    const store = new Kept<string>(100, (v) => v.length)
    let calls = 0
    const failing = () => store.get('a', 'v', async () => (calls++, Promise.reject(new Error('disk'))))
    await expect(failing()).rejects.toThrow('disk')
    await expect(failing()).rejects.toThrow('disk')
    expect(calls).toBe(2)
    expect(await store.get('a', 'v', async () => 'ok')).toBe('ok')
  })
})
