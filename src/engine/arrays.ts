// Growing and trimming the typed arrays the index keeps per key (or per term).

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
