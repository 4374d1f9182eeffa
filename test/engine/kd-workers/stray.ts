// A KDBush worker that answers with a message naming no job (test/engine/kd-build.test.ts).
declare const self: Worker
self.onmessage = () => {
  self.postMessage('hello')
}

export {}
