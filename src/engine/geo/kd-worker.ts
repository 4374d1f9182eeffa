// Builds a KDBush and its nodes' boxes off the main thread (kd-build.ts sends the points, gets
// both buffers back, transferred): a large sort would otherwise block the event loop (PERF-010).
import { buildKd } from './kd-build'

declare const self: Worker

self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { job, coords, nodeSize } = event.data
  const { kd, boxes } = buildKd(coords, nodeSize)
  self.postMessage({ job, data: kd.data, boxes: boxes.buffer }, [kd.data as ArrayBuffer, boxes.buffer])
}
