// A JSON text's objects and arrays counted before it is parsed: JSON.parse reads a body in one
// stretch, and an object of 600,000 keys takes it a second (PERF-068).

/** The most members of one object a scanned body may have, and items of one array. */
export const JSON_MAX_MEMBERS = 1000
export const JSON_MAX_ITEMS = 10_000

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
/** The bytes scanned between two yields: well under a millisecond. */
const SLICE_BYTES = 256 * 1024

type Scan = {
  /** Per open object or array: whether it is an array, and its separators so far. */
  arrays: boolean[]
  commas: number[]
  /** Where the scan goes on: past the slice's end when a string or escape ran over it. */
  at: number
}

/** The scan of bytes[scan.at, end): a message for the first object or array over its limit, else null. */
function scanSlice(bytes: Uint8Array, end: number, scan: Scan): string | null {
  const { arrays, commas } = scan
  let i = scan.at
  for (; i < end; i++) {
    const b = bytes[i]!
    if (b === QUOTE) {
      // A string's end: the next quote after an even number of backslashes (found by indexOf).
      for (;;) {
        const close = bytes.indexOf(QUOTE, i + 1)
        if (close < 0) {
          i = bytes.length
          break
        }
        let backslashes = 0
        while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes++
        i = close
        if (backslashes % 2 === 0) break
      }
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      arrays.push(b === OPEN_ARRAY)
      commas.push(0)
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      arrays.pop()
      commas.pop()
    } else if (b === COMMA && commas.length > 0) {
      const top = commas.length - 1
      const members = ++commas[top]! + 1
      if (arrays[top] ? members > JSON_MAX_ITEMS : members > JSON_MAX_MEMBERS)
        return arrays[top]
          ? `The request body has an array of more than ${JSON_MAX_ITEMS.toLocaleString('en')} items; at most ${JSON_MAX_ITEMS.toLocaleString('en')} are read.`
          : `The request body has an object of more than ${JSON_MAX_MEMBERS.toLocaleString('en')} fields; at most ${JSON_MAX_MEMBERS.toLocaleString('en')} are read.`
    }
  }
  scan.at = i
  return null
}

/**
 * A message naming the first object with more than JSON_MAX_MEMBERS members, or array with more
 * than JSON_MAX_ITEMS items; null when none. Counts separators outside strings: text that is no
 * JSON is left for JSON.parse to refuse. Yields every SLICE_BYTES.
 */
export function* jsonShapeSteps(bytes: Uint8Array): Generator<void, string | null> {
  const scan: Scan = { arrays: [], commas: [], at: 0 }
  for (let end = SLICE_BYTES; ; end += SLICE_BYTES) {
    const over = scanSlice(bytes, Math.min(end, bytes.length), scan)
    if (over !== null) return over
    if (scan.at >= bytes.length) return null
    yield
  }
}
