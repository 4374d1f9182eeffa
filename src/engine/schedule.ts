// The default schedule of the index's background work (compaction steps, the FlexSearch fill, the
// name order, the JSON fill, background builds): one queue, run in turns of at most TURN_MS,
// each turn a timer of its own, so requests are read between turns rather than after every task
// that came due together; while requests come, a rest between turns leaves the core to the
// process's other threads (the GC's, the kd worker) when no request needs it (PERF-041).
import { jsonLine } from '../core/log-line'
import { redactSecrets } from '../core/ids'
import { REST_MS, REST_WHILE_SERVING_MS, STEP_MS, TURN_MS } from './tuning'
import type { Schedule } from './types'

/** Tasks not yet run, in the order they were scheduled; `head` is the next. */
const queue: (() => void)[] = []
let head = 0
let pending = false
/** When the turn running now ends (performance.now()); 0 outside a turn. */
let turnEnds = 0
/** When the process last took a request (performance.now(); requestSeen()). */
let requestAt = Number.NEGATIVE_INFINITY

/**
 * The server calls this for each request it takes: for REST_WHILE_SERVING_MS after one, the
 * schedule rests REST_MS between turns; otherwise (a start's preload) turns follow each other.
 */
export function requestSeen(): void {
  requestAt = performance.now()
}

/**
 * When a task that works in slices stops (performance.now()): the end of the turn it runs in,
 * so a turn's tasks together hold the event loop about TURN_MS; STEP_MS from now outside a turn
 * (a schedule of a test's own). At least one slice is done whatever the time.
 */
export const stepEnd = (): number => (turnEnds === 0 ? performance.now() + STEP_MS : turnEnds)

/** Runs a task in a later turn of the event loop, without keeping the process alive for it. */
export const defaultSchedule: Schedule = (task) => {
  queue.push(task)
  if (!pending) nextTurn()
}

function nextTurn(): void {
  pending = true
  const serving = performance.now() - requestAt < REST_WHILE_SERVING_MS
  const timer = setTimeout(turn, serving ? REST_MS : 0)
  ;(timer as { unref?: () => void }).unref?.()
}

/** Runs queued tasks, the first whatever its length, until TURN_MS have passed; tasks they schedule wait for a later turn. */
function turn(): void {
  turnEnds = performance.now() + TURN_MS
  const end = queue.length
  do runSafely(queue[head++]!)
  while (head < end && performance.now() < turnEnds)
  turnEnds = 0
  if (head === queue.length) {
    queue.length = 0
    head = 0
  } else if (head > 1024 && head * 2 > queue.length) {
    queue.splice(0, head)
    head = 0
  }
  pending = false
  if (head < queue.length) nextTurn()
}

function runSafely(task: () => void): void {
  try {
    task()
  } catch (e) {
    // Thrown in a timer, it would end the process (every locator's queries with it): logged
    // instead, as every log line is, with anything shaped like a secret key taken out.
    const error = (e as Error)?.message ?? String(e)
    console.error(
      jsonLine({
        level: 'error',
        message: 'a background task failed',
        error: redactSecrets(error),
        stack: redactSecrets((e as Error)?.stack ?? ''),
      }),
    )
  }
}
