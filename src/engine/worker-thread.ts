// The worker thread of worker-jobs.ts: builds a compaction's KDBush and its nodes' boxes, or the
// cluster levels, off the main thread, and hands the buffers back (transferred): a large sort would
// otherwise block the event loop (PERF-010).
import { setPriority } from 'node:os'
import { clusterJob } from './clusters/build'
import { buildKd } from './geo/kd-build'

declare const self: Worker

// The lowest priority, for this thread alone (Linux): on a core it shares with the event loop's
// thread, the sort runs when requests do not need the core (PERF-041).
try {
  setPriority(19)
} catch {
  // Not allowed here: the sort runs at the process's priority.
}

type Message =
  | { job: number; kind: 'kd'; coords: Float64Array; nodeSize: number }
  | {
      job: number
      kind: 'clusters'
      lng: Float64Array
      lat: Float64Array
      hash: Uint32Array
      keyAt: Int32Array
      keyCount: number
    }

self.onmessage = (event: MessageEvent<Message>) => {
  const m = event.data
  if (m.kind === 'clusters') {
    const { answer, transfer } = clusterJob(m.lng, m.lat, m.hash, m.keyAt, m.keyCount)
    self.postMessage({ job: m.job, ...answer }, transfer)
    return
  }
  const { kd, boxes } = buildKd(m.coords, m.nodeSize)
  self.postMessage({ job: m.job, data: kd.data, boxes: boxes.buffer }, [kd.data as ArrayBuffer, boxes.buffer])
}
