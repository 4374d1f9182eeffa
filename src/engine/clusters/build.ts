// The cluster levels of an index's live points, built in the worker thread (worker-jobs.ts) or
// here, in one canonical order: by Web Mercator x, then y (as kept), then a hash of the id, so
// processes that hold the same points make the same clusters, with the same seeds (and so the same
// cluster ids). The hash, not the id: 100,000 ids cost the event loop 0.1 s to send a worker.
import { CLUSTER_READ_SLICE } from '../tuning'
import type { Schedule } from '../types'
import { inWorker } from '../worker-jobs'
import type { KeyTable } from '../keys'
import { buildLevels, type ClusterLevels, encode, levelBuffers, MAX_CLUSTER_ZOOM, mercX, mercY } from './levels'
import { ClusterTree } from './tree'

/**
 * What a build answers: the points' order (tree point -> input position), the levels with each
 * zoom's items by key (not by point), and each key's Web Mercator x and y as kept, side by side.
 */
export type ClusterAnswer = { order: Int32Array; levels: ClusterLevels; xy: Int32Array; keyOfPoint: Int32Array }

/** A location id's FNV-1a hash: the order of points on one spot. */
export function idHash(id: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * The levels of the points given (their ids' idHash, their keys, below keyCount), in the
 * canonical order, read by key; and the buffers to hand back.
 */
export function clusterJob(
  lng: Float64Array,
  lat: Float64Array,
  hash: Uint32Array,
  keyAt: Int32Array,
  keyCount: number,
): { answer: ClusterAnswer; transfer: ArrayBuffer[] } {
  const n = lng.length
  const x = new Int32Array(n)
  const y = new Int32Array(n)
  const xy = new Int32Array(2 * keyCount)
  for (let i = 0; i < n; i++) {
    x[i] = xy[2 * keyAt[i]!] = encode(mercX(lng[i]!))
    y[i] = xy[2 * keyAt[i]! + 1] = encode(mercY(lat[i]!))
  }
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => x[a]! - x[b]! || y[a]! - y[b]! || hash[a]! - hash[b]! || a - b,
  )
  const px = new Int32Array(n)
  const py = new Int32Array(n)
  for (let p = 0; p < n; p++) {
    px[p] = x[order[p]!]!
    py[p] = y[order[p]!]!
  }
  const levels = buildLevels(px, py)
  // Each zoom's items by key: requests read them by key, in key order for large boxes.
  levels.member = levels.member.map((byPoint) => {
    const byKey = new Int32Array(keyCount).fill(-1)
    for (let p = 0; p < n; p++) byKey[keyAt[order[p]!]!] = byPoint[p]!
    return byKey
  })
  const keyOfPoint = Int32Array.from(order, (i) => keyAt[i]!)
  const transfer = [order, xy, keyOfPoint].map((a) => a.buffer as ArrayBuffer)
  return { answer: { order, levels, xy, keyOfPoint }, transfer: [...transfer, ...levelBuffers(levels)] }
}

/** Reads a worker's answer; throws on anything but levels of every zoom over the points and keys sent. */
function answerFrom(data: Record<string, unknown>, n: number, keyCount: number): ClusterAnswer {
  const { order, levels, xy, keyOfPoint } = data as Partial<ClusterAnswer>
  const ok =
    order instanceof Int32Array &&
    order.length === n &&
    keyOfPoint instanceof Int32Array &&
    keyOfPoint.length === n &&
    xy instanceof Int32Array &&
    xy.length === 2 * keyCount &&
    levels !== undefined &&
    levels.member?.length === MAX_CLUSTER_ZOOM + 1 &&
    levels.member.every((m) => m instanceof Int32Array && m.length === keyCount) &&
    levels.expansion?.length === MAX_CLUSTER_ZOOM + 1 &&
    levels.expansion.every((e, z) => e instanceof Uint8Array && e.length === levels.count[z]?.length)
  if (!ok) throw new Error('cluster worker: no levels for these points')
  return { order, levels, xy, keyOfPoint }
}

/** The live keys' points by input position, and the KeyTable.writes they were read at. */
type LivePoints = {
  lng: Float64Array
  lat: Float64Array
  ids: string[]
  hash: Uint32Array
  keyAt: Int32Array
  keyCount: number
  builtAt: number
}

/**
 * Reads the live keys' points as they were at builtAt: each call reads the next `slice` keys, and
 * returns the points once every key is read, else null. A key written while they are read is left
 * out: it was written after builtAt, so the tree does not count it as built (ClusterTree.holds).
 */
function livePointsReader(keys: KeyTable, slice: number): () => LivePoints | null {
  const n = keys.live
  const keyCount = keys.entries.length
  const points: LivePoints = {
    lng: new Float64Array(n),
    lat: new Float64Array(n),
    ids: new Array(n),
    hash: new Uint32Array(n),
    keyAt: new Int32Array(n),
    keyCount,
    builtAt: keys.writes,
  }
  const { lng, lat, ids, hash, keyAt } = points
  let key = 0
  let i = 0
  return () => {
    const { entries, writtenAt } = keys
    const stop = Math.min(keyCount, key + slice)
    for (; key < stop; key++) {
      const entry = entries[key]
      // A key written since the start is not the tree's (ClusterTree.holds): at most n are left.
      if (entry === null || entry === undefined || writtenAt[key]! > points.builtAt) continue
      lng[i] = keys.lng[key]!
      lat[i] = keys.lat[key]!
      ids[i] = entry.id
      hash[i] = idHash(entry.id)
      keyAt[i++] = key
    }
    if (key < keyCount) return null
    if (i === n) return points
    // Keys written while they were read: the arrays cut to those read.
    return {
      ...points,
      lng: lng.slice(0, i),
      lat: lat.slice(0, i),
      ids: ids.slice(0, i),
      hash: hash.slice(0, i),
      keyAt: keyAt.slice(0, i),
    }
  }
}

/** The cluster tree of the live keys as they are now, built here, now. */
export function clusterTreeNow(keys: KeyTable): ClusterTree {
  const { lng, lat, ids, hash, keyAt, keyCount, builtAt } = livePointsReader(keys, Number.POSITIVE_INFINITY)()!
  return new ClusterTree(clusterJob(lng, lat, hash, keyAt, keyCount).answer, ids, builtAt)
}

/**
 * Builds the cluster tree of the live keys in the worker thread, their points read `slice` keys a
 * task of `schedule`; `done` gets it on this thread. Without a worker, or if it fails, the tree is
 * built here, later, of the keys as they are then.
 */
export function buildClusterTree(
  keys: KeyTable,
  schedule: Schedule,
  done: (tree: ClusterTree) => void,
  slice = CLUSTER_READ_SLICE,
): void {
  const read = livePointsReader(keys, slice)
  const step = () => {
    const points = read()
    if (points === null) return schedule(step)
    const { lng, lat, ids, hash, keyAt, keyCount, builtAt } = points
    // The arrays go whole, not copied (24 MB at 1M): a build here reads the keys again.
    inWorker({
      message: { kind: 'clusters', lng, lat, hash, keyAt, keyCount },
      transfer: [lng, lat, hash, keyAt].map((a) => a.buffer as ArrayBuffer),
      read: (data) => new ClusterTree(answerFrom(data, ids.length, keyCount), ids, builtAt),
      local: () => clusterTreeNow(keys),
      done,
    })
  }
  schedule(step)
}
