// The young generation collected every ANSWERS_PER_EDEN answers made or sent from the answer cache.
//
// JavaScriptCore lets the young generation (eden) grow with the whole heap before collecting it:
// with an index loaded, hundreds of MB of fresh memory, into which every answer's garbage (its
// heap, hits and views; a server's Request, Response and headers) is written, and which the
// kernel maps in page by page, now and then thousands of pages for one answer. Collected this
// often, it stays at tens of MB, reused while mapped: fewer page faults, less CPU a request, no
// such outliers (PERF-034, PERF-036). A collection's cost is mostly fixed, small once spread over
// the answers (PERF-035); it waits for a full collection under way (a risk PERF-034 measures).
import { edenGC } from 'bun:jsc'

export const ANSWERS_PER_EDEN = 1000

/** A function that calls `collect` on every `every`-th call. */
export function everyNth(every: number, collect: () => void): () => void {
  let count = 0
  return () => {
    if (++count < every) return
    count = 0
    collect()
  }
}

/** Counts an answer about to be made or sent from the cache: every ANSWERS_PER_EDEN, the young generation is collected first. */
export const countAnswer = everyNth(ANSWERS_PER_EDEN, () => {
  edenGC()
})
