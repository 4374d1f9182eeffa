// The status line while requests wait for a service that is starting or busy (api.ts's
// queryWhenReady): "busy, trying again" from the first one waited for that long till the last is
// over, then what the line said before, unless something else has been said meanwhile.
import type { Waiting } from './api'
import type { Texts } from './i18n'

export type Busy = {
  /** The busy text in place of the line's. */
  replacing: () => Waiting
  /** The busy text in place of a search's "Searching…" alone: once answered, the line says more than that. */
  searching: () => Waiting
  /** The busy text after the line's (a count of stores found): what it says stays in sight. */
  after: () => Waiting
}

/** The waits `status` tells of, in the finder's language (`texts()`). */
export function busyLine(status: HTMLElement, texts: () => Texts): Busy {
  let [saying, before, said] = [0, '', '']
  const busy = () => texts().waiting
  /** `text`: what the line says for what it said (`now`); null: nothing. */
  const waiting =
    (text: (now: string) => string | null): Waiting =>
    () => {
      const now = status.textContent ?? ''
      // Said by a wait not over yet: it stays, and what came before it.
      if (saying === 0 || now !== said) {
        const next = text(now)
        if (next === null) return undefined
        ;[before, said] = [now, next]
      }
      saying++
      status.textContent = said
      return () => {
        if (--saying === 0 && status.textContent === said) status.textContent = before
      }
    }
  return {
    replacing: () => waiting(busy),
    searching: () => waiting((now) => (now === texts().loading || now === busy() ? busy() : null)),
    after: () => waiting((now) => (now === '' ? busy() : `${now}${/[.!?…:]$/.test(now) ? '' : '.'} ${busy()}`)),
  }
}
