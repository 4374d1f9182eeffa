// What a failed request tells the visitor, in the widget's language; the service's own words go to
// the console, for the site's developer.
import { ApiError } from './api'
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
