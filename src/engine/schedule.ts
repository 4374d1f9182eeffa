// The default schedule of the index's background work (compaction steps, the FlexSearch fill).
import { redactSecrets } from '../core/ids'
import type { Schedule } from './types'

/** Runs a task on the next turn of the event loop, without keeping the process alive for it. */
export const defaultSchedule: Schedule = (task) => {
  const timer = setTimeout(() => {
    try {
      task()
    } catch (e) {
      // Thrown in a timer, it would end the process (every locator's queries with it): logged
      // instead, as every log line is, with anything shaped like a secret key taken out.
      const error = (e as Error)?.message ?? String(e)
      console.error(
        JSON.stringify({
          level: 'error',
          message: 'a background task failed',
          error: redactSecrets(error),
          stack: redactSecrets((e as Error)?.stack ?? ''),
        }),
      )
    }
  }, 0)
  ;(timer as { unref?: () => void }).unref?.()
}
