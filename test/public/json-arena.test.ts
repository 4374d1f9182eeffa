// The arena that keeps locations' public JSON as UTF-8 (src/indexes/json-arena.ts), through its own
// API, against a Map of slot -> text: every live slot reads back its text, through copy() and
// text(), across buffers filling up, slots freed and reused, and sparse buffers compacted.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { JsonArena } from '../../src/indexes/json-arena'

const utf8 = new TextDecoder()

/** Every live slot reads back its text, both ways; the live byte count is their sum. */
function agrees(arena: JsonArena, oracle: Map<number, string>): void {
  let live = 0
  for (const [slot, text] of oracle) {
    const size = Buffer.byteLength(text)
    expect(arena.size(slot)).toBe(size)
    expect(arena.text(slot)).toBe(text)
    const out = new Uint8Array(size + 4).fill(0x7e)
    expect(arena.copy(slot, out, 2)).toBe(2 + size)
    expect(utf8.decode(out.subarray(2, 2 + size))).toBe(text)
    expect([out[0], out[1], out[size + 2], out[size + 3]]).toEqual([0x7e, 0x7e, 0x7e, 0x7e]) // nothing written around
    live += size
  }
  expect(arena.bytes.live).toBe(live)
}

// Texts of any size up to a few buffers' worth, with 2-, 3- and 4-byte UTF-8 characters.
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '東', '😀'), fc.integer({ min: 1, max: 70_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
)
type Op = { add: string; inOrder: boolean } | { free: number } | { reorder: number } | { trim: true }
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ add: text, inOrder: fc.boolean() }) },
  { weight: 2, arbitrary: fc.nat().map((free) => ({ free })) },
  { weight: 2, arbitrary: fc.nat().map((reorder) => ({ reorder })) },
  { weight: 1, arbitrary: fc.constant({ trim: true as const }) },
)

describe('JsonArena', () => {
  test('reads back every live text after any sequence of adds (in order or as written), frees, reorders and trims', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const arena = new JsonArena()
        const oracle = new Map<number, string>()
        const written = new Set<number>() // slots added as written and not reordered since
        for (const o of ops) {
          if ('add' in o) {
            const slot = arena.add(o.add, o.inOrder)
            expect(oracle.has(slot)).toBe(false) // a live slot is never handed out again
            oracle.set(slot, o.add)
            if (!o.inOrder) written.add(slot)
          } else if ('trim' in o) {
            arena.trim()
          } else if (oracle.size > 0) {
            const slot = [...oracle.keys()][('free' in o ? o.free : o.reorder) % oracle.size]!
            if ('free' in o) {
              arena.free(slot)
              oracle.delete(slot)
            } else expect(arena.reorder(slot)).toBe(written.has(slot))
            written.delete(slot)
          }
          // Moves between buffers (compaction, reorder) keep each text's kind.
          const live = [...oracle.values()].reduce((n, t) => n + Buffer.byteLength(t), 0)
          const loose = [...written].reduce((n, slot) => n + Buffer.byteLength(oracle.get(slot)!), 0)
          expect(arena.outOfOrder).toBeCloseTo(live === 0 ? 0 : loose / live, 12)
        }
        agrees(arena, oracle)
        const gone = arena.add('x')
        arena.free(gone)
        expect(() => arena.reorder(gone)).toThrow(/not in use/)
      }),
      { numRuns: 300 },
    )
  })

  test('reordering every text written keeps what is held within the bound of any other freeing', () => {
    const arena = new JsonArena()
    const oracle = new Map<number, string>()
    const t = (i: number) => `{"id":"loc_${String(i).padStart(5, '0')}","name":"${'Zoë '.repeat(250)}"`
    const slots: number[] = []
    for (let i = 0; i < 20_000; i++) {
      const slot = arena.add(t(i))
      oracle.set(slot, t(i))
      slots.push(slot)
    }
    expect(arena.outOfOrder).toBe(1)
    const live = arena.bytes.live
    // In an order unrelated to the writes' (every 7th), as a space order would be.
    for (let k = 0; k < slots.length; k++) {
      expect(arena.reorder(slots[(k * 7) % slots.length]!)).toBe(true)
      // The buffers being emptied are let go once at most half live (their rest moved as written).
      expect(arena.bytes.allocated).toBeLessThan(2 * live + 3 * 8 * 1024 * 1024)
    }
    expect(arena.outOfOrder).toBe(0)
    for (const slot of slots) expect(arena.reorder(slot)).toBe(false)
    arena.trim()
    agrees(arena, oracle)
    expect(arena.bytes.allocated).toBeLessThan(live + 8 * 1024 * 1024)
  })

  test('trim gives back the free space of the newest buffer; adds after it start a small buffer', () => {
    const arena = new JsonArena()
    const oracle = new Map<number, string>()
    const t = (i: number) => `{"id":"loc_${i}","name":"${'Zoë '.repeat(300)}"}`
    for (let i = 0; i < 10_000; i++) oracle.set(arena.add(t(i)), t(i))
    const before = arena.bytes
    expect(before.allocated - before.live).toBeGreaterThan(1024 * 1024) // 12 MB in buffers of 64 KB, doubling
    arena.trim()
    // What is left unused: the ends of the older buffers, where the next text did not fit.
    const trimmed = arena.bytes
    expect(trimmed.live).toBe(before.live)
    expect(trimmed.allocated - trimmed.live).toBeLessThan(10 * Buffer.byteLength(t(0)))
    agrees(arena, oracle)
    arena.trim() // nothing left to give back
    expect(arena.bytes).toEqual(trimmed)
    for (let i = 10_000; i < 10_010; i++) oracle.set(arena.add(t(i)), t(i))
    agrees(arena, oracle)
    expect(arena.bytes.allocated).toBe(trimmed.allocated + 64 * 1024)
  })

  test('freed space is given back: buffers at most half live are compacted and let go', () => {
    const arena = new JsonArena()
    const oracle = new Map<number, string>()
    const t = (i: number) => `{"id":"loc_${String(i).padStart(5, '0')}","name":"${'Zoë '.repeat(250)}"`
    // Freed while their buffer is the newest: 20 MB written, a tenth kept.
    for (let i = 0; i < 20_000; i++) {
      const slot = arena.add(t(i))
      if (i % 10 === 0) oracle.set(slot, t(i))
      else arena.free(slot)
    }
    // Freed once their buffers are full: 20 MB kept, then nine tenths of it freed.
    const later: number[] = []
    for (let i = 20_000; i < 40_000; i++) later.push(arena.add(t(i)))
    later.forEach((slot, i) => {
      if (i % 10 === 0) oracle.set(slot, t(20_000 + i))
      else arena.free(slot)
    })
    agrees(arena, oracle)
    const { live, allocated } = arena.bytes
    expect(live).toBe(4000 * Buffer.byteLength(t(0)))
    // What is held stays within a small factor of what is live (the newest buffer is at most 8 MB).
    expect(allocated).toBeLessThan(2 * live + 8 * 1024 * 1024)
  })

  test('a slot freed twice is refused, and the arena is unchanged', () => {
    const arena = new JsonArena()
    const a = arena.add('{"id":"a"')
    const b = arena.add('{"id":"b"')
    arena.free(a)
    expect(() => arena.free(a)).toThrow(/not in use/)
    agrees(arena, new Map([[b, '{"id":"b"']]))
  })
})
