#!/usr/bin/env node
// `storeloc`: runs src/storeloc.ts on the Bun this package depends on, so a machine with only
// Node.js and npm runs it (`npx storeloc serve`). Signals reach Bun; its exit is this one's.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const bun = join(dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe')
const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'storeloc.ts')
const child = spawn(bun, [entry, ...process.argv.slice(2)], { stdio: 'inherit' })
// Every signal is passed on: one that reached the service too (a terminal's Ctrl-C, a signal to
// the process group) arrives again within ms, which the service takes for the same stop.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('error', (e) => {
  console.error(`storeloc: cannot run Bun at ${bun}: ${e.message}. Run npm install in ${join(dirname(entry), '..')}.`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  if (signal === null) process.exit(code ?? 1)
  // Ended by a signal: this process ends by the same one, not by its own handler (an exit 0).
  process.removeAllListeners(signal)
  process.kill(process.pid, signal)
})
