// What a failed request tells the visitor, in the widget's language; the service's own words go to
// the console, for the site's developer.
import { ApiError } from './api'
import { h } from './dom'
import { t, type Texts } from './i18n'

/**
 * Answers that no search on this site can change: the token is wrong (a secret key among them),
 * or not enabled here.
 */
export const UNUSABLE = ['INVALID_TOKEN', 'SECRET_KEY_EXPOSED', 'REFERRER_NOT_ALLOWED', 'API_NOT_ENABLED']

/** The message a failed request shows the visitor. */
export function failureText(texts: Texts, e: unknown, place: string): string {
  const code = e instanceof ApiError ? e.code : ''
  // The visitor reads the short text; the site's developer finds the service's own words here.
  if (code !== '' && code !== 'PLACE_NOT_FOUND') console.warn(`storeloc: ${code}: ${(e as Error).message}`)
  if (code === 'INVALID_TOKEN' || code === 'SECRET_KEY_EXPOSED') return texts.badToken
  if (code === 'REFERRER_NOT_ALLOWED') return texts.notAllowed
  if (code === 'API_NOT_ENABLED') return texts.switchedOff
  if (code === 'RATE_LIMITED') return texts.busy
  // Digits: most likely a postcode of a country the place data lacks ("SW1A 1AA", "1012 AB").
  if (code === 'PLACE_NOT_FOUND') return t(texts, /\d/.test(place) ? 'postcodeNotFound' : 'notFound', { place })
  return texts.failed
}

/**
 * `alert` says why the request failed; when the service is out of reach or failing, it says what
 * was not loaded (`notLoaded`: the stores unless told) and a button in it asks again (`again`).
 * `place`: the text searched near, for a place not found.
 */
export function sayFailure(
  alert: HTMLElement,
  texts: Texts,
  e: unknown,
  place: string,
  again: () => void,
  notLoaded = texts.notLoaded,
): void {
  const text = failureText(texts, e, place)
  if (text !== texts.failed) return void (alert.textContent = text)
  const retry = h('button', { type: 'button', class: 'sl-button sl-retry', onclick: again }, texts.retry)
  alert.replaceChildren(`${notLoaded} `, retry)
}

/**
 * A "Try again" button's action: `alert` emptied (the button goes), then `ask`. The focus, when it
 * was on the button, waits on the status line `status`, which stays when empty.
 */
export const tryAgain = (alert: HTMLElement, status: HTMLElement, ask: () => void) => () => {
  const focused = alert.contains(document.activeElement)
  alert.textContent = ''
  ask()
  if (!focused) return
  status.tabIndex = -1
  status.focus()
}

/**
 * GET /filters failed: an alert in `slot`, where they would be, says so as a failed search does,
 * its button asking again (`ask`); searches go on without them, each asking for them again. Said
 * once while they keep failing the same way: an alert already there stays, not read out at every
 * search. A rate limit names the filters too: the search's alert may say the same beside it.
 */
export function sayFiltersFailed(slot: HTMLElement, status: HTMLElement, texts: Texts, e: unknown, ask: () => void) {
  const busy = failureText(texts, e, '') === texts.busy
  const how = busy ? 'busy' : 'failed'
  if (slot.querySelector(`.sl-error[data-failed="${how}"]`)) return
  const alert = h('p', { class: 'sl-error', role: 'alert', 'data-failed': how })
  const again = tryAgain(alert, status, () => {
    alert.remove() // a failure again is said in a new alert
    ask()
  })
  if (busy) alert.textContent = `${texts.filtersNotLoaded} ${texts.busy}`
  else sayFailure(alert, texts, e, '', again, texts.filtersNotLoaded)
  slot.replaceChildren(alert)
}

/**
 * A failure no search can change (UNUSABLE) shown before any search: a token that is wrong or not
 * enabled. Nothing a visitor does can work then: `alert` stays alone among the finder's `parts`
 * (shown yet or not), not beside a form to fill. False for any other failure, asked again at the
 * next search.
 */
export function sayUnusable(parts: HTMLElement[], alert: HTMLElement, texts: Texts, e: unknown): boolean {
  if (!(e instanceof ApiError && UNUSABLE.includes(e.code))) return false
  if (alert.textContent === '') alert.textContent = failureText(texts, e, '')
  for (const part of parts) if (part !== alert) part.hidden = true
  return true
}
