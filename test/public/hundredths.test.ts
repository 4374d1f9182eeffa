// Distances in answers are written by writeHundredths(): the same text as String(Math.round(x * 100) / 100).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { writeHundredths } from '../../src/api/public/answer'

/** What writeHundredths writes, between bytes it must leave alone. */
function hundredths(x: number): string {
  const out = new Uint8Array(40).fill(0x7e) // "~"
  const end = writeHundredths(out, 3, x)
  expect(end - 3).toBeLessThanOrEqual(25)
  const text = Buffer.from(out).toString('latin1')
  expect(text.slice(0, 3) + text.slice(end)).toBe('~'.repeat(40 - (end - 3)))
  return text.slice(3, end)
}

const naive = (x: number) => String(Math.round(x * 100) / 100)

describe('writeHundredths', () => {
  test('agrees with formatting the rounded fraction, for distances and beyond', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 0, max: 25_000, noNaN: true }),
          fc.double({ min: -1e6, max: 1e22, noNaN: true }),
          fc.double({ min: 1e9, max: 1e11, noNaN: true }),
          fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
        ),
        (x) => {
          expect(hundredths(x)).toBe(naive(x))
        },
      ),
      { numRuns: 20_000 },
    )
  })

  test('trailing zeros, a leading zero in the hundredths, halves, zero and the limits', () => {
    for (const x of [
      76345442641746.1,
      9999999999.994,
      9999999999.995,
      1e10,
      0,
      -0,
      0.004,
      0.005,
      0.05,
      0.5,
      0.1,
      0.10000001,
      1,
      1.005,
      12.3,
      12.30499,
      12.05,
      99.995,
      1e15,
      9e15,
      1e21,
      -1.234,
      Infinity,
      -Infinity,
      NaN,
    ]) {
      expect(hundredths(x)).toBe(naive(x))
    }
    expect(hundredths(12.05)).toBe('12.05')
    expect(hundredths(12.5)).toBe('12.5')
    expect(hundredths(7)).toBe('7')
  })
})
