// WORKERS > 1: the primary serves /metrics and, at each scrape, asks every worker for its families
// over the IPC channel Bun.spawn opened with it. Counters and histograms are summed over the
// workers; each worker's gauges keep a worker="N" label (its slot, 1 to N, the same across restarts).
// A worker started again after a crash counts from zero: the last counts its predecessor gave are
// kept and added, so the sums never go down (a reset would read as a burst to rate()).
import { jsonLine } from '../core/log-line'
import type { Subprocess } from 'bun'
import { processFamilies } from './metrics'
import { type Family, mergeFamilies, type ProcessFamilies, type Series, summedOnly } from './metrics-text'

/** The longest a scrape waits for a worker's answer; one that has not answered by then is shown with its last counts. */
const GATHER_MS = 2000

type Request = { type: 'metrics'; id: number }
type Reply = { type: 'metrics'; id: number; families: Family[] }

/** In a worker: answers the primary's requests for its families. */
export function answerMetricRequests(families: () => Family[]): void {
  process.on('message', (message: unknown) => {
    const asked = message as Partial<Request> | null
    if (asked?.type !== 'metrics') return
    // A failure here must not end the worker (an uncaught error would): the primary shows its last counts.
    try {
      const reply: Reply = { type: 'metrics', id: asked.id!, families: families() }
      process.send!(reply)
    } catch (e) {
      console.error(jsonLine({ level: 'error', message: 'metrics not gathered', error: (e as Error)?.message }))
    }
  })
}

/** In the primary: the workers' families, gathered for each scrape (see the top of the file). */
export function workerMetrics(gatherMs = GATHER_MS) {
  /** Per slot: the last families its process gave, and that process. */
  const last = new Map<number, { pid: number; families: Family[] }>()
  /** The summed families of processes gone (crashed and started again). */
  let retired: Family[] = []
  const waiting = new Map<string, (families: Family[]) => void>()
  let nextId = 0

  const ask = (slot: number, proc: Subprocess, id: number) =>
    new Promise<Family[] | null>((resolve) => {
      const key = `${slot} ${id}`
      const timer = setTimeout(() => {
        waiting.delete(key)
        resolve(null)
      }, gatherMs)
      waiting.set(key, (families) => {
        clearTimeout(timer)
        waiting.delete(key)
        resolve(families)
      })
      try {
        proc.send({ type: 'metrics', id } satisfies Request)
      } catch {
        waiting.get(key)?.([]) // the channel is closed: the process is on its way out
      }
    })

  return {
    /** A message from the worker in `slot`: a reply to a scrape's request is taken (true), anything else left (false). */
    onMessage(slot: number, message: unknown): boolean {
      const reply = message as Partial<Reply> | null
      if (reply?.type !== 'metrics') return false
      waiting.get(`${slot} ${reply.id}`)?.(reply.families ?? [])
      return true
    },

    /** Every process's families for one scrape: the primary's own (worker "0"), each worker's, and the retired counts. */
    async gather(workers: readonly { slot: number; proc: Subprocess }[]): Promise<ProcessFamilies[]> {
      const id = ++nextId
      const replies = await Promise.all(
        workers.map(async ({ slot, proc }) => ({ slot, pid: proc.pid, families: await ask(slot, proc, id) })),
      )
      const up: Series[] = []
      const answered = new Set<number>()
      for (const { slot, pid, families } of replies) {
        const had = last.get(slot)
        if (had !== undefined && had.pid !== pid) {
          retired = mergeFamilies([{ worker: '', families: [...retired, ...summedOnly(had.families)] }])
          last.delete(slot)
        }
        if (families !== null && families.length > 0) {
          last.set(slot, { pid, families })
          answered.add(slot)
        }
        up.push({ labels: { worker: String(slot + 1) }, value: answered.has(slot) ? 1 : 0 })
      }
      const workerUp: Family = {
        name: 'storeloc_worker_up',
        help: 'Whether the worker answered this scrape (1) or not (0: its last counts are shown, its gauges left out).',
        type: 'gauge',
        series: up,
      }
      return [
        { worker: '0', families: [...processFamilies(), workerUp] },
        ...[...last].map(([slot, l]) => ({
          worker: String(slot + 1),
          families: answered.has(slot) ? l.families : summedOnly(l.families),
        })),
        { worker: '', families: retired },
      ]
    },
  }
}
