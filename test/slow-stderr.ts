// A command run with its standard error a non-blocking pipe that is full when it starts and read
// slowly, as a supervisor that sets O_NONBLOCK on its pipes and reads them late gives it; or a pipe
// whose reader is gone. The pipe is made with libc's pipe2 and fcntl (Linux) through bun:ffi.
import { closeSync, readSync, writeSync } from 'node:fs'

const O_NONBLOCK = 0o4000
const O_CLOEXEC = 0o2000000
const O_WRONLY = 1
const F_SETFL = 4
const F_SETPIPE_SZ = 1031
/** The pipe holds one page: read partly, it takes no more until read whole. */
const PAGE = 4096

const libc = () => {
  const { dlopen, FFIType, ptr } = require('bun:ffi')
  const { symbols } = dlopen('libc.so.6', {
    pipe2: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  })
  return { ...symbols, ptr }
}

/** pipe2(2): [read end, write end], non-blocking and closed on exec (Bun.spawn hands the write end on as fd 2). */
function nonBlockingPipe(): [number, number] {
  const { pipe2, fcntl, ptr } = libc()
  const fds = new Int32Array(2)
  if (pipe2(ptr(fds), O_NONBLOCK | O_CLOEXEC) !== 0) throw new Error('pipe2 failed')
  if (fcntl(fds[1], F_SETPIPE_SZ, PAGE) < 0) throw new Error('F_SETPIPE_SZ failed')
  return [fds[0]!, fds[1]!]
}

/** The write end non-blocking again: Bun.spawn clears O_NONBLOCK of a descriptor it hands on, and the child shares the flag. */
function nonBlocking(fd: number): void {
  const { fcntl } = libc()
  if (fcntl(fd, F_SETFL, O_WRONLY | O_NONBLOCK) !== 0) throw new Error('F_SETFL failed')
}

/**
 * Runs `command` with stdout a pipe and stderr the slow pipe: filled before the command starts,
 * not read for `holdMs`, then read 64 bytes at a time every 10 ms. `gone`: the read end is closed
 * before the command starts instead (writes fail with EPIPE). `stderr` is what the command wrote.
 */
export async function runWithSlowStderr(
  command: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; holdMs?: number; gone?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [r, w] = nonBlockingPipe()
  let filled = 0
  const filler = Buffer.alloc(PAGE, '.')
  for (;;) {
    try {
      filled += writeSync(w, filler, 0, PAGE - (filled % PAGE))
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') break
      throw e
    }
  }
  if (options.gone) closeSync(r)
  const p = Bun.spawn(command, { cwd: options.cwd, env: options.env, stdout: 'pipe', stderr: w })
  nonBlocking(w)
  closeSync(w)
  const stdout = new Response(p.stdout).text()
  if (options.gone) return { code: await p.exited, stdout: await stdout, stderr: '' }
  await Bun.sleep(options.holdMs ?? 1500)
  const chunks: Buffer[] = []
  const piece = Buffer.alloc(64)
  for (;;) {
    let n: number
    try {
      n = readSync(r, piece)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e
      n = -1
    }
    if (n === 0) break
    if (n > 0) chunks.push(Buffer.from(piece.subarray(0, n)))
    await Bun.sleep(10)
  }
  closeSync(r)
  const stderr = Buffer.concat(chunks).subarray(filled).toString()
  return { code: await p.exited, stdout: await stdout, stderr }
}
