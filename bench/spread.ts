// A figure across runs, as every bench reports it: the median of the runs' values (the mean of the
// middle two for an even count), their min and max, and each run's value.

export type Spread = { median: number; min: number; max: number; runs: number[] }

export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b)
  const mid = (s.length - 1) / 2
  return { median: (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2, min: s[0]!, max: s[s.length - 1]!, runs: xs }
}
