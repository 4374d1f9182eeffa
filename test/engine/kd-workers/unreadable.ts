// A KDBush worker that answers each job with a buffer KDBush cannot read (test/engine/kd-build.test.ts).
declare const self: Worker
self.onmessage = (event: MessageEvent<{ job: number }>) => {
  self.postMessage({ job: event.data.job, data: new ArrayBuffer(8) })
}

export {}
