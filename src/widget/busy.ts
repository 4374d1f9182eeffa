// The status line while requests wait for a service that is starting or busy (api.ts's
// queryWhenReady): "busy, trying again" (a 503 asked again) or "still waiting" (unanswered, till a
// 503 comes) from the first one waited for that long till the last is over, then what the line
// said before, unless something else has been said meanwhile.
import type { Waiting } from './api'
import type { Texts } from './i18n'

/** An abort's reason: the request is ended for a newer one in its place, asked with `next`. */
type HandedOn = DOMException & { next: AbortSignal }

/** What a request is aborted with when a newer one, asked with `next`, takes its place (a question as the visitor types on). */
export function handedOn(next: AbortSignal): HandedOn {
  return Object.assign(new DOMException('A newer request in its place.', 'AbortError'), { next })
}

/**
 * `end` once `signal`'s request is over for good: aborted for a newer one (handedOn), once that
 * one's signal is aborted in turn; else at once.
 */
function whenOver(signal: AbortSignal | undefined, end: () => void): void {
  const next = (signal?.reason as Partial<HandedOn> | undefined)?.next
  if (next && !next.aborted) next.addEventListener('abort', () => whenOver(next, end), { once: true })
  else end()
}

export type Busy = {
  /**
   * The busy text in place of the line's. With `signal`, a request aborted for a newer one in its
   * place (handedOn) leaves it said till that one's signal is aborted too: the line does not go
   * back and forth, read out each time, as the visitor types on.
   */
  replacing: (signal?: AbortSignal) => Waiting
  /** The busy text in place of a search's "Searching…" alone, left when over: the search says what comes next. */
  searching: () => Waiting
  /** The busy text after the line's (a count of stores found): what it says stays in sight. `signal`: as for replacing. */
  after: (signal?: AbortSignal) => Waiting
}

/** The waits `status` tells of, in the finder's language (`texts()`). */
export function busyLine(status: HTMLElement, texts: () => Texts): Busy {
  let [saying, before, said] = [0, '', '']
  /** The words said after the line's, alone: taken away, the line is what it said before, unchanged. */
  let added: Text | null = null
  /** Asked again after a 503, or unanswered still: nothing is retried then till the visitor asks. */
  const busyText = (retrying: boolean) => (retrying ? texts().waiting : texts().stalled)
  /** `text`: what the line says for what it said (`now`), its busy text `busy`; null: nothing. */
  const waiting =
    (text: (now: string, busy: string) => string | null, signal?: AbortSignal, keep = false): Waiting =>
    (retrying) => {
      const now = status.textContent ?? ''
      // Said by a wait not over yet: it stays, and what came before it.
      if (saying === 0 || now !== said) {
        const next = text(now, busyText(retrying))
        if (next === null) return undefined
        ;[before, said] = [now, next]
        // After the line's words, only the words added change (the line's aria-atomic is false): a
        // screen reader reads them alone, not the count again.
        added = next.startsWith(now) ? new Text(next.slice(now.length)) : null
        if (added) status.append(added)
        else status.textContent = said
      } else if (retrying) {
        // A 503 after "still waiting" said (this wait's or another's): its words trying again now.
        const [stalled, busy] = [texts().stalled, texts().waiting]
        for (const words of status.childNodes)
          if (words.nodeValue?.includes(stalled)) words.nodeValue = words.nodeValue.replace(stalled, busy)
        said = status.textContent ?? ''
      }
      saying++
      return () =>
        whenOver(signal, () => {
          if (--saying > 0 || status.textContent !== said || keep) return
          if (added?.parentNode === status) added.remove()
          else status.textContent = before
        })
    }
  return {
    replacing: (signal) => waiting((_, busy) => busy, signal),
    // Busy words its filters said stay as they are: not read out anew, in other words, at once. Kept
    // when over: what the search says next (its count, its failure) replaces them, "Searching…" not read again.
    searching: () =>
      waiting(
        (now, busy) => (now === texts().loading ? busy : [texts().waiting, texts().stalled].includes(now) ? now : null),
        undefined,
        true,
      ),
    after: (signal) =>
      waiting((now, busy) => (now === '' ? busy : `${now}${/[.!?…:]$/.test(now) ? '' : '.'} ${busy}`), signal),
  }
}
