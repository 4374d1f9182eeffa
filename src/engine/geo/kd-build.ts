// KDBush built from (lng, lat) pairs, with the box each node's points fill, here or in the worker
// thread (worker-jobs.ts).
import KDBush from 'kdbush'
import { inWorker } from '../worker-jobs'

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

/**
 * KDBush over coords and its nodes' boxes, built in the worker thread (worker-jobs.ts); `done`
 * gets them on this thread. Without the worker, they are built here, on a later turn.
 */
export function buildKdInWorker(coords: Float64Array, nodeSize: number, done: Done): void {
  // The worker gets a copy, handed over (transferred), which blocks this thread for less than a
  // clone by postMessage would (PERF-010). These coords stay for a build here if the worker is lost.
  const copy = coords.slice()
  inWorker({
    message: { kind: 'kd', coords: copy, nodeSize },
    transfer: [copy.buffer],
    read: (data) => treeFrom(data.data, data.boxes),
    local: () => buildKd(coords, nodeSize),
    done,
  })
}
