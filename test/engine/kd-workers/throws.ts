// A KDBush worker that fails on its first job (test/engine/kd-build.test.ts).
declare const self: Worker
self.onmessage = () => {
  throw new Error('kd worker failure (test)')
}

export {}
