// Builds a KDBush off the main thread (src/search/kd-build.ts sends the points, gets the index's
// buffer back, transferred): at a million points the sort takes about half a second, which the
// event loop would otherwise spend blocked.
import KDBush from 'kdbush'

declare const self: Worker

self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { job, coords, nodeSize } = event.data
  const n = coords.length / 2
  const kd = new KDBush(n, nodeSize)
  for (let i = 0; i < n; i++) kd.add(coords[2 * i]!, coords[2 * i + 1]!)
  kd.finish()
  self.postMessage({ job, data: kd.data }, [kd.data as ArrayBuffer])
}
