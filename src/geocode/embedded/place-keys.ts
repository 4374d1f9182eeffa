// Keys and texts as the place search and the reverse lookup hold them: UTF-8 in one buffer with
// typed arrays of offsets, which the collector does not walk.

export const utf8 = new TextEncoder()

/** Keys (or texts) as one buffer of UTF-8 and where each starts, with a reference and a flag each. */
export type KeyParts = { bytes: Uint8Array; start: Int32Array; ref: Int32Array; main: Uint8Array }

/** The parts of `keys` in the order given (byte order for SortedKeys). */
export function keyParts(keys: string[], refs: number[] = [], main: number[] = []): KeyParts {
  const encoded = keys.map((k) => utf8.encode(k))
  const start = new Int32Array(keys.length + 1)
  let total = 0
  encoded.forEach((e, i) => {
    start[i] = total
    total += e.length
  })
  start[keys.length] = total
  const bytes = new Uint8Array(total)
  encoded.forEach((e, i) => bytes.set(e, start[i]!))
  return { bytes, start, ref: Int32Array.from(refs), main: Uint8Array.from(main) }
}

/** UTF-8 keys in byte order, each with a reference (a row of its own table) and whether it is a main name. */
export class SortedKeys {
  readonly bytes: Buffer
  readonly start: Int32Array
  readonly ref: Int32Array
  readonly main: Uint8Array
  readonly size: number

  constructor(parts: KeyParts) {
    // A Buffer over the same memory (a worker's parts arrive as plain typed arrays).
    this.bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.byteLength)
    this.start = parts.start
    this.ref = parts.ref
    this.main = parts.main
    this.size = parts.start.length - 1
  }

  /** <0, 0, >0: key i against `p` as bytes; 0 also when key i begins with `p` (`prefix`) */
  private compare(i: number, p: Uint8Array, prefix: boolean): number {
    const a = this.start[i]!
    const n = this.start[i + 1]! - a
    const m = Math.min(n, p.length)
    for (let j = 0; j < m; j++) {
      const d = this.bytes[a + j]! - p[j]!
      if (d !== 0) return d
    }
    return prefix && n >= p.length ? 0 : n - p.length
  }

  /** The keys that begin with `p`: [from, to). */
  range(p: Uint8Array): [number, number] {
    let lo = 0
    let hi = this.size
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(mid, p, false) < 0) lo = mid + 1
      else hi = mid
    }
    const from = lo
    hi = this.size
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(mid, p, true) <= 0) lo = mid + 1
      else hi = mid
    }
    return [from, lo]
  }

  /** Whether key i is `p` itself. */
  equals(i: number, p: Uint8Array): boolean {
    return this.start[i + 1]! - this.start[i]! === p.length && this.compare(i, p, false) === 0
  }

  /** Key i's length in bytes. */
  length(i: number): number {
    return this.start[i + 1]! - this.start[i]!
  }

  /** Key i's byte at `j`. */
  byteAt(i: number, j: number): number {
    return this.bytes[this.start[i]! + j]!
  }
}

/** Texts in one buffer, read back by index. */
export class Texts {
  private readonly keys: SortedKeys

  constructor(parts: KeyParts) {
    this.keys = new SortedKeys(parts)
  }

  at(i: number): string {
    return this.keys.bytes.toString('utf8', this.keys.start[i]!, this.keys.start[i + 1]!)
  }
}

/** An alpha-2 code as a number, and back. */
export const codeOf = (c: string) => (c.charCodeAt(0) << 8) | c.charCodeAt(1)
export const codeText = (n: number) => String.fromCharCode(n >> 8, n & 0xff)
