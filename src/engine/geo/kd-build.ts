// KDBush built from (lng, lat) pairs, with the box each node's points fill, here or in a worker
// thread (kd-worker.ts).
import KDBush from 'kdbush'

/** A KDBush and its nodes' boxes (nodeBoxes). */
export type KdTree = { kd: KDBush; boxes: Float64Array<ArrayBuffer> }

/** KDBush over coords (lng, lat, lng, lat, ...) and its nodes' boxes, built on this thread. */
export function buildKd(coords: Float64Array, nodeSize: number): KdTree {
  const n = coords.length / 2
  const kd = new KDBush(n, nodeSize)
  for (let i = 0; i < n; i++) kd.add(coords[2 * i]!, coords[2 * i + 1]!)
  kd.finish()
  return { kd, boxes: nodeBoxes(kd) }
}

/** The kd nodes of n points (positions split down to nodeSize), numbered as nodeBoxes numbers them: one more than the highest number. */
function nodeCount(n: number, nodeSize: number): number {
  let nodes = 1
  const count = (left: number, right: number, node: number) => {
    nodes = Math.max(nodes, node + 1)
    if (right - left <= nodeSize) return
    const m = (left + right) >> 1
    count(left, m - 1, 2 * node + 1)
    count(m + 1, right, 2 * node + 2)
  }
  count(0, n - 1, 0)
  return nodes
}

/**
 * The box each kd node's points fill, at 4 × node: minX, minY, maxX, maxY (lng, lat). Nodes are
 * numbered as a heap, the root 0 and node i's children 2i + 1 (left) and 2i + 2 (right), split as
 * KDBush splits them: positions left..right, their median m between the children, down to
 * nodeSize. A number no node has holds an empty box (min above max).
 */
function nodeBoxes(kd: KDBush): Float64Array<ArrayBuffer> {
  const { coords, nodeSize } = kd
  const n = kd.ids.length
  const box = new Float64Array(4 * nodeCount(n, nodeSize))
  for (let o = 0; o < box.length; o += 4) {
    box[o] = box[o + 1] = Infinity
    box[o + 2] = box[o + 3] = -Infinity
  }
  /** Fills the node's box (children first), from its points' coordinates at positions left..right. */
  const fill = (left: number, right: number, node: number) => {
    const o = 4 * node
    let from = left
    let to = right
    if (right - left > nodeSize) {
      const m = (left + right) >> 1
      fill(left, m - 1, 2 * node + 1)
      fill(m + 1, right, 2 * node + 2)
      const l = 4 * (2 * node + 1)
      const r = l + 4
      box[o] = Math.min(box[l]!, box[r]!)
      box[o + 1] = Math.min(box[l + 1]!, box[r + 1]!)
      box[o + 2] = Math.max(box[l + 2]!, box[r + 2]!)
      box[o + 3] = Math.max(box[l + 3]!, box[r + 3]!)
      from = to = m
    }
    let minX = box[o]!
    let minY = box[o + 1]!
    let maxX = box[o + 2]!
    let maxY = box[o + 3]!
    for (let i = 2 * from; i <= 2 * to; i += 2) {
      const x = coords[i]!
      const y = coords[i + 1]!
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
    box[o] = minX
    box[o + 1] = minY
    box[o + 2] = maxX
    box[o + 3] = maxY
  }
  if (n > 0) fill(0, n - 1, 0)
  return box
}

/**
 * The tree a worker sent back: its KDBush buffer read, its boxes the size that KDBush's nodes
 * take. Throws on anything else (the job is then built here).
 */
function treeFrom(data: unknown, boxes: unknown): KdTree {
  const kd = KDBush.from(data as ArrayBuffer)
  if (!(boxes instanceof ArrayBuffer) || boxes.byteLength !== 32 * nodeCount(kd.ids.length, kd.nodeSize))
    throw new Error('kd worker: no node boxes for this tree')
  return { kd, boxes: new Float64Array(boxes) }
}

/** Gets the tree, and whether the worker sorted it (false: built here). */
type Done = (tree: KdTree, inWorker: boolean) => void
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
 * KDBush over coords and its nodes' boxes, built in a worker thread (one per process, started on
 * first use, not keeping the process alive); `done` gets them on this thread. Without a worker
 * (it failed to start, errored, or closed with jobs pending), they are built here, on a later turn
 * of the event loop: a job is never left without its answer.
 */
export function buildKdInWorker(coords: Float64Array, nodeSize: number, done: Done): void {
  const w = kdWorker()
  if (w === null) {
    setTimeout(() => done(buildKd(coords, nodeSize), false), 0)
    return
  }
  const job = nextJob++
  // The worker gets a copy, handed over (transferred), which blocks this thread for less than a
  // clone by postMessage would (PERF-010). These coords stay for a build here if the worker is lost.
  waiting.set(job, { coords, nodeSize, done })
  const copy = coords.slice()
  w.postMessage({ job, coords: copy, nodeSize }, [copy.buffer])
}

/**
 * Starts the worker thread now, if not yet started: starting one blocks this thread for a while,
 * better spent while an index is built than during a compaction.
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
  w.onmessage = (event: MessageEvent<{ job: number; data: ArrayBuffer; boxes: ArrayBuffer }>) => {
    const job = typeof event.data?.job === 'number' ? waiting.get(event.data.job) : undefined
    // A message that answers no job we sent: this worker cannot be trusted with the others.
    if (job === undefined) return failed(w)
    waiting.delete(event.data.job)
    let tree: KdTree
    let inWorker = true
    try {
      tree = treeFrom(event.data.data, event.data.boxes)
    } catch {
      tree = buildKd(job.coords, job.nodeSize)
      inWorker = false
    }
    job.done(tree, inWorker)
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
