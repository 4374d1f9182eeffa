#!/usr/bin/env node
// `storeloc`: runs src/storeloc.ts on the Bun this package depends on, so a machine with only
// Node.js and npm runs it (`npx storeloc serve`). Signals reach Bun; its exit is this one's.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const bun = join(dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe')
const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'storeloc.ts')
const child = spawn(bun, [entry, ...process.argv.slice(2)], { stdio: 'inherit' })
// A signal sent to this one alone is passed on. A terminal's Ctrl-C reaches both processes when
// this one is in the terminal's foreground group: passed on too, it would be a second Ctrl-C,
// which ends a stop at once.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => (signal === 'SIGINT' && inForeground() ? undefined : child.kill(signal)))

/** Whether this process is in its terminal's foreground process group (Linux: /proc/self/stat); false when it cannot tell. */
function inForeground() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // After the command's name: state, ppid, pgrp, session, tty_nr, tpgid (-1: no terminal).
    const [, , pgrp, , , tpgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return pgrp === tpgid
  } catch {
    return false
  }
}
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
