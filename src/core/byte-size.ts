// A size in bytes as the operator reads it, in the binary units the rest of the text uses (the
// 8 MiB body limit, the 64 MiB -wal): MiB below a GiB, GiB from there, one decimal.

export const byteSize = (bytes: number): string =>
  bytes < 1024 ** 3 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : `${(bytes / 1024 ** 3).toFixed(1)} GiB`
