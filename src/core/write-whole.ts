// Text written to a standard stream at once and whole, in order with console.error's lines:
// writeSync alone throws EAGAIN on a non-blocking pipe its reader has not emptied (a supervisor's),
// and process.stderr.write holds such a line back while console.error's lines pass it.
import { writeSync } from 'node:fs'

/** Writes all of `text` to `fd`, waiting while a non-blocking pipe is full; throws the system's other errors. */
export function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(fd, bytes, done)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e
      // console.error waits for the reader too: a line waits no longer than the next error line would.
      Bun.sleepSync(1)
    }
  }
}

/**
 * Writes `text` to standard error plain (console.error draws red on a terminal) and in order with
 * console.error's lines. A standard error no one reads any more (EPIPE) loses it, as it loses
 * console.error's lines, and the program goes on.
 */
export function writeStderr(text: string): void {
  try {
    writeWhole(2, text)
  } catch {
    // Progress and notices only: the work goes on without them.
  }
}
