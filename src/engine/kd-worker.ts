// Builds a KDBush and its nodes' boxes off the main thread (src/search/kd-build.ts sends the
// points, gets both buffers back, transferred): at a million points the sort takes about half a
// second and the boxes 10-20 ms, which the event loop would otherwise spend blocked.
import { buildKd } from './kd-build'

declare const self: Worker

self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { job, coords, nodeSize } = event.data
  const { kd, boxes } = buildKd(coords, nodeSize)
  self.postMessage({ job, data: kd.data, boxes: boxes.buffer }, [kd.data as ArrayBuffer, boxes.buffer])
}
