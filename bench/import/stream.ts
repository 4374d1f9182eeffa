// The live step's client: public queries sent at a steady pace whatever the answers (an open loop,
// so a server that stalls is seen in every query sent meanwhile), and a probe that asks, one query
// after the other, until an answer holds the import's probe location.

/** One query: when it was sent (performance.now()), how long its answer took, its status. */
export type Sample = { sentAt: number; ms: number; status: number }

/** Latency figures of a set of answers, in ms. */
export type Latency = { n: number; p50: number; p99: number; max: number; errors: number }

/** The nearest-rank percentile of sorted values. */
const rank = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

export function latency(samples: Sample[]): Latency {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  if (ms.length === 0) return { n: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN, errors: 0 }
  return {
    n: ms.length,
    p50: rank(ms, 0.5),
    p99: rank(ms, 0.99),
    max: ms[ms.length - 1]!,
    errors: samples.filter((s) => s.status !== 200).length,
  }
}

/**
 * Sends GET base + paths[i] (round the list) every 1000 / rate ms from start() until stop(), each
 * on its due time however many are still waiting for their answer. stop() resolves with every
 * answer, once the last sent has come back. `late` counts sends more than 5 ms behind their due
 * time (this process was busy): the pace was not kept then.
 */
export function queryStream(base: string, paths: string[], rate: number) {
  const samples: Sample[] = []
  const pending = new Set<Promise<void>>()
  let stopped = false
  let late = 0
  const send = (path: string) => {
    const sentAt = performance.now()
    const p = fetch(base + path, { headers: { 'accept-encoding': 'identity' } })
      .then(async (r) => {
        await r.arrayBuffer()
        samples.push({ sentAt, ms: performance.now() - sentAt, status: r.status })
      })
      .catch(() => {
        samples.push({ sentAt, ms: performance.now() - sentAt, status: 0 })
      })
      .finally(() => pending.delete(p))
    pending.add(p)
  }
  const loop = async () => {
    const interval = 1000 / rate
    const t0 = performance.now()
    for (let i = 0; !stopped; i++) {
      const due = t0 + i * interval
      const wait = due - performance.now()
      if (wait > 0) await Bun.sleep(wait)
      else if (wait < -5) late++
      if (!stopped) send(paths[i % paths.length]!)
    }
  }
  const running = loop()
  return {
    async stop(): Promise<{ samples: Sample[]; late: number }> {
      stopped = true
      await running
      await Promise.all([...pending])
      return { samples: samples.sort((a, b) => a.sentAt - b.sentAt), late }
    },
  }
}

/** What the probe saw: the first answer holding the probe location, and the last one without it. */
export type ProbeResult = {
  /** When the first answer holding it came back (performance.now()); null when none did. */
  foundAt: number | null
  /** That query's own time, ms. */
  foundMs: number | null
  /** When the last query whose answer lacked it was sent. */
  lastMissSentAt: number | null
  asked: number
}

/**
 * Asks `path` one query after the other (pausing `pauseMs` between) until an answer lists a
 * location, or stop() is called. The path is a small circle around the import's probe location,
 * where nothing else is.
 */
export function probe(base: string, path: string, pauseMs = 5) {
  const result: ProbeResult = { foundAt: null, foundMs: null, lastMissSentAt: null, asked: 0 }
  let stopped = false
  const running = (async () => {
    while (!stopped && result.foundAt === null) {
      const sentAt = performance.now()
      result.asked++
      try {
        const r = await fetch(base + path)
        const body = (await r.json()) as { data?: { locations?: unknown[] } }
        if (r.status === 200 && (body.data?.locations?.length ?? 0) > 0) {
          result.foundAt = performance.now()
          result.foundMs = result.foundAt - sentAt
          break
        }
        result.lastMissSentAt = sentAt
      } catch {
        // not answered: asked again
      }
      await Bun.sleep(pauseMs)
    }
  })()
  return {
    /** Resolves once an answer held it (or stop() was called). */
    found: running.then(() => result),
    stop(): Promise<ProbeResult> {
      stopped = true
      return running.then(() => result)
    },
  }
}
