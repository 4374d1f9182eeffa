// A size in bytes as the operator reads it, in the binary units the rest of the text uses (the
// 8 MiB body limit, the 64 MiB -wal): the largest unit it is at least one of, one decimal.

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB']

export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  let value = bytes / 1024
  let unit = 0
  // Moves up once the rounded figure would read 1024.0: 1 GiB less one byte is "1.0 GiB".
  while (Math.round(value * 10) >= 1024 * 10 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`
}

/**
 * Sizes compared in one sentence, each as byteSize reads it, or all in exact bytes ("1,048,577
 * bytes") when two would read the same: "(1.0 MiB) was over the 1.0 MiB" tells the reader nothing.
 */
export function byteSizes(...sizes: number[]): string[] {
  const read = sizes.map(byteSize)
  if (new Set(read).size === read.length) return read
  return sizes.map((bytes) => `${bytes.toLocaleString('en-US')} bytes`)
}
