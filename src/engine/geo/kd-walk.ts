// The walks over a KDBush tree with its nodes' boxes (kd-build.ts: nodeBoxes), with callbacks.
// Nodes are numbered as a heap, the root 0 and node i's children 2i + 1 (left) and 2i + 2
// (right): positions left..right, their median m = (left + right) >> 1 between the children,
// split down to nodeSize. KDBush keeps coord <= split on the left, >= on the right; the axis
// (0: lng, 1: lat) alternates with the depth.
import type KDBush from 'kdbush'
import { ensure } from '../arrays'

/** A visitor's answer for a node it is done with. */
export const SKIP = -1

/** What a depth-first walk does at each node. */
export interface KdVisitor {
  /**
   * Node `node` (positions left..right, the box its points fill, the flag its parent gave it):
   * SKIP when the visitor is done with it, else the flag its median and children get.
   */
  node(
    left: number,
    right: number,
    node: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    flag: number,
  ): number
  /** The median m of a node split, with the flag node() gave. */
  median(m: number, flag: number): void
}

/** A depth-first walk's stack, kept between walks: left, right, node number (-1: a median), flag. */
export class KdStack {
  items = new Int32Array(4 * 64)
}

/**
 * Walks the tree depth first. `inOrder`: positions ascending (left child, median, right child).
 * Otherwise nearest side first to (lng, lat), each split's median before its children: the near
 * side is walked first, so a heap fills with near points early.
 */
export function walkKd(
  kd: KDBush,
  boxes: Float64Array,
  stack: KdStack,
  v: KdVisitor,
  inOrder: boolean,
  lng: number,
  lat: number,
): void {
  const { coords } = kd
  let s = stack.items
  s[0] = 0
  s[1] = kd.ids.length - 1
  s[2] = 0
  s[3] = 0
  let sp = 4
  while (sp > 0) {
    sp -= 4
    const left = s[sp]!
    const right = s[sp + 1]!
    const node = s[sp + 2]!
    const flag = s[sp + 3]!
    if (node === -1) {
      v.median(left, flag)
      continue
    }
    if (left > right) continue
    const o = 4 * node
    const f = v.node(left, right, node, boxes[o]!, boxes[o + 1]!, boxes[o + 2]!, boxes[o + 3]!, flag)
    if (f === SKIP) continue
    if (sp + 12 > s.length) s = stack.items = ensure(s, sp + 12)
    const m = (left + right) >> 1
    // The stack is last in, first out: what is walked first is pushed last.
    if (inOrder) {
      sp = push(s, sp, m + 1, right, 2 * node + 2, f)
      sp = push(s, sp, m, m, -1, f)
      sp = push(s, sp, left, m - 1, 2 * node + 1, f)
      continue
    }
    v.median(m, f)
    const axis = (31 - Math.clz32(node + 1)) & 1
    if ((axis === 0 ? lng : lat) < coords[2 * m + axis]!) {
      sp = push(s, sp, m + 1, right, 2 * node + 2, f)
      sp = push(s, sp, left, m - 1, 2 * node + 1, f)
    } else {
      sp = push(s, sp, left, m - 1, 2 * node + 1, f)
      sp = push(s, sp, m + 1, right, 2 * node + 2, f)
    }
  }
}

function push(s: Int32Array, sp: number, left: number, right: number, node: number, flag: number): number {
  s[sp] = left
  s[sp + 1] = right
  s[sp + 2] = node
  s[sp + 3] = flag
  return sp + 4
}

/** What a best-first walk does. */
export interface KdBestFirstVisitor {
  /** How near a node's box may hold a point (a lower bound, lower first); -1 leaves the node out. */
  reach(minX: number, minY: number, maxX: number, maxY: number): number
  /** Whether a node of this rank and reach may hold a point worth taking; false ends the walk (every node left is as bad or worse). */
  open(rank: number, reach: number): boolean
  /** The point at position `at`. */
  point(at: number): void
}

/**
 * Walks the tree best first: nodes taken by their rank (nodeRank, per node number; lower first),
 * then their reach, so the nodes of the best ranks near the query come first.
 */
export function walkKdBestFirst(
  kd: KDBush,
  boxes: Float64Array,
  nodeRank: Int32Array,
  queue: KdQueue,
  v: KdBestFirstVisitor,
): void {
  const { nodeSize } = kd
  const enqueue = (left: number, right: number, node: number) => {
    if (left > right) return
    const o = 4 * node
    const reach = v.reach(boxes[o]!, boxes[o + 1]!, boxes[o + 2]!, boxes[o + 3]!)
    if (reach >= 0) queue.push(nodeRank[node]!, reach, left, right, node)
  }
  queue.size = 0
  enqueue(0, kd.ids.length - 1, 0)
  while (queue.size > 0) {
    const nodes = queue.nodes
    const reach = queue.reach[0]!
    const rank = nodes[0]!
    const left = nodes[1]!
    const right = nodes[2]!
    const node = nodes[3]!
    queue.pop()
    if (!v.open(rank, reach)) return
    if (right - left <= nodeSize) {
      for (let at = left; at <= right; at++) v.point(at)
      continue
    }
    const m = (left + right) >> 1
    v.point(m)
    enqueue(left, m - 1, 2 * node + 1)
    enqueue(m + 1, right, 2 * node + 2)
  }
}

/** Whether (rank a, reach a) comes strictly before (rank b, reach b): compared apart, so a tiny reach is not lost beside a rank. */
function first(rankA: number, reachA: number, rankB: number, reachB: number): boolean {
  return rankA < rankB || (rankA === rankB && reachA < reachB)
}

/** walkKdBestFirst's queue of nodes, a binary min-heap by (rank, reach), kept between walks. */
export class KdQueue {
  size = 0
  /** Per entry, its reach; and its rank, left, right and node number (4 numbers). */
  reach = new Float64Array(64)
  nodes = new Int32Array(4 * 64)

  push(rank: number, reach: number, left: number, right: number, node: number): void {
    const n = this.size
    if (n === this.reach.length) {
      const reaches = new Float64Array(2 * n)
      reaches.set(this.reach)
      this.reach = reaches
      const nodes = new Int32Array(8 * n)
      nodes.set(this.nodes)
      this.nodes = nodes
    }
    const reaches = this.reach
    const nodes = this.nodes
    let i = n
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!first(rank, reach, nodes[4 * parent]!, reaches[parent]!)) break
      reaches[i] = reaches[parent]!
      nodes.copyWithin(4 * i, 4 * parent, 4 * parent + 4)
      i = parent
    }
    reaches[i] = reach
    nodes[4 * i] = rank
    nodes[4 * i + 1] = left
    nodes[4 * i + 2] = right
    nodes[4 * i + 3] = node
    this.size = n + 1
  }

  /** Takes the first entry off (read it before). */
  pop(): void {
    const reaches = this.reach
    const nodes = this.nodes
    const n = --this.size
    const rank = nodes[4 * n]!
    const reach = reaches[n]!
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= n) break
      if (child + 1 < n && first(nodes[4 * child + 4]!, reaches[child + 1]!, nodes[4 * child]!, reaches[child]!))
        child++
      if (!first(nodes[4 * child]!, reaches[child]!, rank, reach)) break
      reaches[i] = reaches[child]!
      nodes.copyWithin(4 * i, 4 * child, 4 * child + 4)
      i = child
    }
    reaches[i] = reach
    nodes.copyWithin(4 * i, 4 * n, 4 * n + 4)
  }
}
