// The servers the test helpers start. One that a failed test leaves running would outlive the run,
// holding its port and its deleted folder's files: test/setup.ts stops those still running at the end.
const running = new Set<Bun.Subprocess>()

/** `proc`, held until it exits. */
export function tracked<T extends Bun.Subprocess>(proc: T): T {
  running.add(proc)
  proc.exited.then(() => running.delete(proc))
  return proc
}

/** Sends SIGTERM to every tracked process still running. */
export function stopRunning(): void {
  for (const proc of running) proc.kill()
  running.clear()
}
