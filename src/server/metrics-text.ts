// Metric families as plain data (they cross the workers' IPC channel as they are), their sum over
// processes, and Prometheus's text exposition format (version 0.0.4) of them.

export type Labels = Record<string, string>

/** A counter's or a gauge's series. */
export type Series = { labels: Labels; value: number }

/** A histogram's series: the observations per bucket (not cumulative; the last is past every bound), and their sum. */
export type HistogramSeries = { labels: Labels; counts: number[]; sum: number }

/**
 * A family of series of one name. `process`: the series are each process's own (memory, index
 * sizes...), shown with a `worker` label; otherwise they are summed over the processes.
 */
export type Family =
  | { name: string; help: string; type: 'counter' | 'gauge'; process?: boolean; series: Series[] }
  | { name: string; help: string; type: 'histogram'; bounds: readonly number[]; series: HistogramSeries[] }

/** One process's families, and the `worker` label of its per-process series ("0": the process that serves /metrics). */
export type ProcessFamilies = { worker: string; families: Family[] }

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Label names in a fixed order, so one label set always gives one key. */
const keyOf = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000')

/**
 * The families of every process as one list: series of the same name and labels summed (counters,
 * histograms), per-process ones each with its process's `worker` label. A name keeps the place of
 * its first appearance, a series the place it was first seen.
 */
export function mergeFamilies(processes: readonly ProcessFamilies[]): Family[] {
  const out = new Map<string, Family>()
  const index = new Map<string, Map<string, Series | HistogramSeries>>()
  for (const { worker, families } of processes) {
    for (const family of families) {
      let merged = out.get(family.name)
      if (merged === undefined) {
        merged = { ...family, series: [] } as Family
        out.set(family.name, merged)
        index.set(family.name, new Map())
      }
      const seen = index.get(family.name)!
      if (merged.type === 'histogram') {
        for (const s of family.series as HistogramSeries[]) {
          const key = keyOf(s.labels)
          const had = seen.get(key) as HistogramSeries | undefined
          if (had === undefined) {
            const copy = { labels: s.labels, counts: [...s.counts], sum: s.sum }
            seen.set(key, copy)
            merged.series.push(copy)
          } else {
            for (let i = 0; i < had.counts.length; i++) had.counts[i]! += s.counts[i] ?? 0
            had.sum += s.sum
          }
        }
        continue
      }
      for (const s of family.series as Series[]) {
        const labels = merged.process ? { worker, ...s.labels } : s.labels
        const key = keyOf(labels)
        const had = seen.get(key) as Series | undefined
        if (had === undefined) {
          const copy = { labels, value: s.value }
          seen.set(key, copy)
          merged.series.push(copy)
        } else had.value += s.value
      }
    }
  }
  return [...out.values()]
}

/** The summed families only (counters and histograms), per-process ones left out: what a retired worker leaves behind. */
export function summedOnly(families: readonly Family[]): Family[] {
  return families.filter((f) => f.type === 'histogram' || !f.process)
}

/** A label value as the format writes it: backslash, double quote and line feed escaped. */
export const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

/** A sample value as the format writes it (Go's ParseFloat reads +Inf, -Inf and NaN). */
function number(value: number): string {
  if (Number.isFinite(value)) return String(value)
  return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'
}

function labelText(labels: Labels, le?: string): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`)
  if (le !== undefined) parts.push(`le="${le}"`)
  return parts.length === 0 ? '' : `{${parts.join(',')}}`
}

/** The families in the text format: HELP and TYPE before each family's samples; a histogram's buckets cumulative, +Inf last, then _sum and _count. */
export function exposition(families: readonly Family[]): string {
  const lines: string[] = []
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`)
    if (family.type !== 'histogram') {
      for (const s of family.series) lines.push(`${family.name}${labelText(s.labels)} ${number(s.value)}`)
      continue
    }
    for (const s of family.series) {
      let cumulative = 0
      for (let i = 0; i <= family.bounds.length; i++) {
        cumulative += s.counts[i] ?? 0
        const le = i < family.bounds.length ? number(family.bounds[i]!) : '+Inf'
        lines.push(`${family.name}_bucket${labelText(s.labels, le)} ${cumulative}`)
      }
      lines.push(`${family.name}_sum${labelText(s.labels)} ${number(s.sum)}`)
      lines.push(`${family.name}_count${labelText(s.labels)} ${cumulative}`)
    }
  }
  return `${lines.join('\n')}\n`
}
