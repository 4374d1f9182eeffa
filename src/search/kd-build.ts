// KDBush built from (lng, lat) pairs, here or in a worker thread (src/search/kd-worker.ts).
import KDBush from 'kdbush'

/** KDBush over coords (lng, lat, lng, lat, ...), built on this thread. */
export function buildKd(coords: Float64Array, nodeSize: number): KDBush {
  const n = coords.length / 2
  const kd = new KDBush(n, nodeSize)
  for (let i = 0; i < n; i++) kd.add(coords[2 * i]!, coords[2 * i + 1]!)
  kd.finish()
  return kd
}

type Job = { coords: Float64Array; nodeSize: number; done: (kd: KDBush) => void }

let worker: Worker | null = null
let broken = false
let nextJob = 0
const waiting = new Map<number, Job>()

/**
 * KDBush over coords, built in a worker thread (one per process, started on first use, not
 * keeping the process alive); `done` gets it on this thread. Without a worker (it failed to
 * start, or died with jobs pending), it is built here, on a later turn of the event loop.
 */
export function buildKdInWorker(coords: Float64Array, nodeSize: number, done: (kd: KDBush) => void): void {
  const w = kdWorker()
  if (w === null) {
    setTimeout(() => done(buildKd(coords, nodeSize)), 0)
    return
  }
  const job = nextJob++
  // The worker gets a copy; these coords stay for a build here if the worker dies.
  waiting.set(job, { coords, nodeSize, done })
  w.postMessage({ job, coords, nodeSize })
}

function kdWorker(): Worker | null {
  if (worker !== null || broken) return worker
  try {
    worker = new Worker(new URL('./kd-worker.ts', import.meta.url).href)
    worker.unref()
    worker.onmessage = (event: MessageEvent<{ job: number; data: ArrayBuffer }>) => {
      const job = waiting.get(event.data.job)
      waiting.delete(event.data.job)
      job?.done(KDBush.from(event.data.data))
    }
    worker.onerror = () => failed()
  } catch {
    failed()
  }
  return worker
}

/** The worker is gone: no more are started, and the builds it held run here instead. */
function failed(): void {
  broken = true
  worker?.terminate()
  worker = null
  const pending = [...waiting.values()]
  waiting.clear()
  for (const { coords, nodeSize, done } of pending) setTimeout(() => done(buildKd(coords, nodeSize)), 0)
}
