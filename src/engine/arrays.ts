// Growing and trimming the typed arrays the index keeps per key (or per term), and bit counts.

type TypedArray = Float64Array | Int32Array | Uint32Array | Uint8Array

/** `a` with room for at least `n` elements (grown by half again), contents kept. */
export function ensure<T extends TypedArray>(a: T, n: number): T {
  if (n <= a.length) return a
  const b = new (a.constructor as new (n: number) => T)(Math.max(n, Math.ceil(a.length * 1.5), 16))
  b.set(a)
  return b
}

/** `a` cut to exactly `n` elements (a copy only when it is longer). */
export function fit<T extends TypedArray>(a: T, n: number): T {
  return a.length === n ? a : (a.slice(0, n) as T)
}

/** `a` at least `n` long, the new elements set to `fill` (a copy only when it must grow). */
export function widen(a: Int32Array<ArrayBuffer>, n: number, fill: number): Int32Array<ArrayBuffer> {
  if (a.length >= n) return a
  const b = new Int32Array(n).fill(fill)
  b.set(a)
  return b
}

/** The number of set bits in a 32-bit integer. */
export function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}
