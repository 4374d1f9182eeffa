// The young generation collected every ANSWERS_PER_EDEN answers made or sent from the answer cache.
//
// JavaScriptCore lets the young generation (eden) grow in proportion to the whole heap before it
// collects it: with an index of 100k locations (a ~220 MB heap) hundreds of MB of fresh memory
// between two collections, more at 1M. An answer's garbage (its heap, hits, views and closures;
// a server's Request and Response) is written into memory the process has not touched
// yet, or gave back since, so the kernel maps it in page by page: at 1M about one page fault a
// request over HTTP. And now and then, in process at 1M, one answer took thousands of faults at
// once (2-15 ms), after 8.4k, 12.6k, 19.0k, 28.4k, 42.6k and 64.0k queries: intervals growing
// by half, as a table of the runtime's that grows by half would. Collected every 1000 answers,
// the young generation stays at tens of MB (JSC's logGC in process at 100k: ~60 MB freed a
// collection), reused while it is mapped.
//
// Measured on b2e75fe with this collection behind a switch (AMD EPYC VM, 2 cores, Bun 1.4.5; the
// service pinned to one core, wrk on the other, distinct typical radius paths):
// - 100k, 50 connections, one server with the collections switched off and on in 8 pairs of 3 s
//   slices: 41.6 against 43.7 µs of CPU a request (lower in all 8 pairs); page faults 0.065
//   against 0.23 a request.
// - 1M, 4 connections, 20 s a server (three servers each way): p99 1.8-2.0 ms against 4.8-5.3
//   ms, max 5-10 ms against 21 ms, page faults 0.09 against 1.0-1.25 a request, CPU 62-68
//   against 65-70 µs a request.
// - In process at 1M, 72,000 queries (a collection every 2000): no answer above 1 ms after the
//   first, against 2-15 ms for one in a few thousand without.
// A forced collection took 0.84 ms each every 250 answers and ~1 ms every 1000 in the bench's
// loops at 100k, and 0.12-0.29 ms timed alone later (nothing, or 1000 answers, allocated since:
// bench/HISTORY.md, the work after 261e5e5), so every 1000 costs ~0.1-1 µs an answer. It waits for a
// collection under way: asked while a full collection is being marked beside the program, the
// answer waits for its end. No full collection ran in the 20 s runs above; with old objects
// churned so that 4-5 ran (in process, 100k, 120,000 answers, twice each way), the longest answer
// took 2.0-2.4 ms with these collections and 2.4-2.7 ms without (p999 0.2-0.4 ms against 0.07:
// the collections' own pauses, one answer in 1000).
//
// Answers sent from the answer cache count too (their Request, Response and headers are the
// garbage): one query repeated at 100k, 50 connections, one server switched off and on in 8 pairs
// of 3 s slices, page faults 0.009 against 0.139 a request, CPU 13.37 against 13.51 µs a request
// (lower in 6 of 8 pairs).
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
