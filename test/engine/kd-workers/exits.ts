// A KDBush worker that exits on its first job (test/engine/kd-build.test.ts).
declare const self: Worker
self.onmessage = () => {
  process.exit(0)
}

export {}
