// Builds that would block the event loop (a compaction's KDBush, the cluster levels), run in one
// worker thread per process (worker-thread.ts); each job is built here instead whenever that
// worker cannot do it: a job is never left without its answer.

/** A job: what the worker is sent, how its answer is read (throws: not to be trusted), how it is built here, and who gets it. */
type Job<T> = {
  message: Record<string, unknown>
  transfer: ArrayBuffer[]
  read: (data: Record<string, unknown>) => T
  local: () => T
  done: (result: T, inWorker: boolean) => void
}

let worker: Worker | null = null
let broken = false
let nextJob = 0
const waiting = new Map<number, Job<unknown>>()
let script = new URL('./worker-thread.ts', import.meta.url).href

/**
 * Tests only: the next worker runs this script instead (one that fails, to prove the builds come
 * back without it). The current worker, if any, is let go first, its builds done here.
 */
export function useWorkerScript(url: string): void {
  failed(worker)
  broken = false
  script = url
}

/** Runs a job in the worker thread (started on first use, not keeping the process alive); without one, here, on a later turn of the event loop. */
export function inWorker<T>(job: Job<T>): void {
  const w = startWorker()
  if (w === null) {
    setTimeout(() => job.done(job.local(), false), 0)
    return
  }
  const id = nextJob++
  waiting.set(id, job as Job<unknown>)
  w.postMessage({ ...job.message, job: id }, job.transfer)
}

/**
 * The worker thread, started now if not yet: starting one blocks this thread for a while, better
 * spent while an index is built than during a compaction. null when none can run.
 */
export function startWorker(): Worker | null {
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
  w.onmessage = (event: MessageEvent<Record<string, unknown>>) => {
    const id = event.data?.job
    const job = typeof id === 'number' ? waiting.get(id) : undefined
    // A message that answers no job we sent: this worker cannot be trusted with the others.
    if (job === undefined) return failed(w)
    waiting.delete(id as number)
    let result: unknown
    let built = true
    try {
      result = job.read(event.data)
    } catch {
      result = job.local()
      built = false
    }
    job.done(result, built)
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
  for (const job of pending) setTimeout(() => job.done(job.local(), false), 0)
}
