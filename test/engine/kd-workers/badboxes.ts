// A KDBush worker that sorts the points right but answers with node boxes of the wrong size (test/engine/kd-build.test.ts).
import { buildKd } from '../../../src/engine/geo/kd-build'

declare const self: Worker
self.onmessage = (event: MessageEvent<{ job: number; coords: Float64Array; nodeSize: number }>) => {
  const { kd } = buildKd(event.data.coords, event.data.nodeSize)
  self.postMessage({ job: event.data.job, data: kd.data, boxes: new ArrayBuffer(32) })
}
