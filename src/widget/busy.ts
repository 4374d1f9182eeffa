// The status line while requests wait for a service that is starting or busy (api.ts's
// queryWhenReady): "busy, trying again" from the first one waited for that long till the last is
// over, then what the line said before, unless something else has been said meanwhile.
import type { Waiting } from './api'

/**
 * The `waiting` of requests whose waits `status` tells: `only`, when given, is the one text the
 * busy text replaces (a search's "Searching…": once it is answered, it says more than that).
 */
export function busyLine(status: HTMLElement, busy: () => string): (only?: string) => Waiting {
  let [saying, before] = [0, '']
  return (only) => () => {
    const [now, text] = [status.textContent ?? '', busy()]
    // Said already: by a wait not over, else at once by a search made as its filters waited long.
    if (now === text) before = saying === 0 ? (only ?? now) : before
    else if (only !== undefined && now !== only) return undefined
    else before = now
    saying++
    status.textContent = text
    return () => {
      if (--saying === 0 && status.textContent === text) status.textContent = before
    }
  }
}
