// The timing loop: every engine warms up, then answers its part of a type's timed queries in each
// round, the engines taking turns.
import type { QueryType } from '../scenario'
import type { PeerStat } from './types'

function stat(samples: number[], hits: number): PeerStat {
  const s = [...samples].sort((a, b) => a - b)
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!
  return { n: s.length, median: q(0.5), p99: q(0.99), max: s[s.length - 1]!, meanHits: hits / s.length }
}

export type Budget = { n: number; warm: number; warmMs: number; budgetMs: number }

/** The query strings of one type: the warm-up ones, then the timed ones (as bench/query.ts draws them: WARM_QUERIES, then 2000). */
export type TypeQueries = { type: QueryType; warm: string[]; timed: string[] }

/** One engine as the timing loop sees it: its budget, and its answer to a query string (the number of rows or the total it counts). */
export type Timed = { budget: Budget; answer: (qs: string) => number | Promise<number> }

/** The parts each type's timed queries are cut into, the engines taking turns on each (measureTogether). */
export const ROUNDS = 4

/** Warm-up: at most `warm` of the type's warm-up queries, stopping after `warmMs`. */
async function warmUp(queries: TypeQueries, e: Timed): Promise<void> {
  const t0 = performance.now()
  for (const qs of queries.warm.slice(0, e.budget.warm)) {
    const r = e.answer(qs)
    if (r instanceof Promise) await r
    if (performance.now() - t0 > e.budget.warmMs) break
  }
}

/**
 * Times the engines on one type's queries, taking turns. Each warms up, then the first `n` timed
 * queries are cut into `rounds` parts; in each round every engine answers its part, the order of
 * the engines turned by one each round, stopping after budgetMs / rounds (having timed at least
 * 50 / rounds). Timed one engine after the other, ours could be timed in one of this shared
 * machine's slow stretches, which come and go over minutes, and a peer in a fast one (or the
 * other way round), and their ratio moved with it.
 */
export async function measureTogether(
  queries: TypeQueries,
  engines: Timed[],
  rounds: number,
  oursAt: number,
): Promise<PeerStat[]> {
  for (const e of engines) await warmUp(queries, e)
  const samples = engines.map(() => [] as number[])
  /** Per engine, the index of the query each sample timed. */
  const asked = engines.map(() => [] as number[])
  const hits = engines.map(() => 0)
  const least = Math.ceil(50 / rounds)
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < engines.length; j++) {
      const i = (j + round) % engines.length
      const { budget, answer } = engines[i]!
      const part = Math.ceil(Math.min(budget.n, queries.timed.length) / rounds)
      const to = Math.min(budget.n, queries.timed.length, (round + 1) * part)
      const t0 = performance.now()
      for (let k = round * part, taken = 1; k < to; k++, taken++) {
        const qs = queries.timed[k]!
        const s = performance.now()
        let r = answer(qs)
        if (r instanceof Promise) r = await r
        samples[i]!.push((performance.now() - s) * 1000)
        asked[i]!.push(k)
        hits[i]! += r
        if (taken >= least && performance.now() - t0 > budget.budgetMs / rounds) break
      }
    }
  }
  const oursByQuery = new Map<number, number>()
  if (oursAt >= 0) asked[oursAt]!.forEach((k, j) => oursByQuery.set(k, samples[oursAt]![j]!))
  return engines.map((_, i) => {
    const s = stat(samples[i]!, hits[i]!)
    if (oursAt < 0 || i === oursAt) return s
    const same = asked[i]!.map((k) => oursByQuery.get(k)).filter((us): us is number => us !== undefined)
    if (same.length === 0) return s
    const o = stat(same, 0)
    return { ...s, ours: { n: o.n, median: o.median, p99: o.p99 } }
  })
}
