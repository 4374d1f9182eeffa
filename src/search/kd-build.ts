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

/** Gets the KDBush, and whether the worker sorted it (false: built here). */
type Done = (kd: KDBush, inWorker: boolean) => void
type Job = { coords: Float64Array; nodeSize: number; done: Done }

let worker: Worker | null = null
let broken = false
let nextJob = 0
const waiting = new Map<number, Job>()
let script = new URL('./kd-worker.ts', import.meta.url).href

/**
 * Tests only: the next worker runs this script instead (one that fails, to prove the builds
 * come back without it). The current worker, if any, is let go first, its builds done here.
 */
export function useKdWorkerScript(url: string): void {
  failed(worker)
  broken = false
  script = url
}

/**
 * KDBush over coords, built in a worker thread (one per process, started on first use, not
 * keeping the process alive); `done` gets it on this thread. Without a worker (it failed to
 * start, errored, or closed with jobs pending), it is built here, on a later turn of the event
 * loop: a job is never left without its answer.
 */
export function buildKdInWorker(coords: Float64Array, nodeSize: number, done: Done): void {
  const w = kdWorker()
  if (w === null) {
    setTimeout(() => done(buildKd(coords, nodeSize), false), 0)
    return
  }
  const job = nextJob++
  // The worker gets a copy; these coords stay for a build here if the worker is lost.
  waiting.set(job, { coords, nodeSize, done })
  w.postMessage({ job, coords, nodeSize })
}

/**
 * Starts the worker thread now, if not yet started: starting one blocks this thread for about
 * 100 ms (measured in a 1M-location process), better spent while an index is built than during
 * a compaction.
 */
export function startKdWorker(): void {
  kdWorker()
}

function kdWorker(): Worker | null {
  if (worker !== null || broken) return worker
  let w: Worker
  try {
    w = new Worker(script)
  } catch {
    failed(null)
    return null
  }
  worker = w
  w.unref()
  w.onmessage = (event: MessageEvent<{ job: number; data: ArrayBuffer }>) => {
    const job = typeof event.data?.job === 'number' ? waiting.get(event.data.job) : undefined
    // A message that answers no job we sent: this worker cannot be trusted with the others.
    if (job === undefined) return failed(w)
    waiting.delete(event.data.job)
    let kd: KDBush
    let inWorker = true
    try {
      kd = KDBush.from(event.data.data)
    } catch {
      kd = buildKd(job.coords, job.nodeSize)
      inWorker = false
    }
    job.done(kd, inWorker)
  }
  w.onerror = () => failed(w)
  w.onmessageerror = () => failed(w)
  w.addEventListener('close', () => failed(w))
  return w
}

/**
 * The worker `w` is gone (null: none could start): no more are started, and the builds it held
 * run here instead. Events of a worker already let go change nothing.
 */
function failed(w: Worker | null): void {
  if (w !== worker) return
  broken = true
  worker = null
  w?.terminate()
  const pending = [...waiting.values()]
  waiting.clear()
  for (const { coords, nodeSize, done } of pending) setTimeout(() => done(buildKd(coords, nodeSize), false), 0)
}
