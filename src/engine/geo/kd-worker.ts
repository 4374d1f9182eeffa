// Builds a KDBush and its nodes' boxes off the main thread (kd-build.ts sends the points, gets
// both buffers back, transferred): a large sort would otherwise block the event loop (PERF-010).
import { setPriority } from 'node:os'
import { buildKd } from './kd-build'

declare const self: Worker

// The lowest priority, for this thread alone (Linux): on a core it shares with the event loop's
// thread, the sort runs when requests do not need the core (PERF-041).
try {
  setPriority(19)
} catch {
  // Not allowed here: the sort runs at the process's priority.
}

self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { job, coords, nodeSize } = event.data
  const { kd, boxes } = buildKd(coords, nodeSize)
  self.postMessage({ job, data: kd.data, boxes: boxes.buffer }, [kd.data as ArrayBuffer, boxes.buffer])
}
