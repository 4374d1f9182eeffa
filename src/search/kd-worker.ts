// Builds a KDBush off the main thread (src/search/kd-build.ts sends the points, gets the index's
// buffer back, transferred): at a million points the sort takes about half a second, which the
// event loop would otherwise spend blocked.
import { buildKd } from './kd-build'

declare const self: Worker

self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { job, coords, nodeSize } = event.data
  const kd = buildKd(coords, nodeSize)
  self.postMessage({ job, data: kd.data }, [kd.data as ArrayBuffer])
}
