// Query strings (and urlencoded bodies): parameters given at most once, escapes that are UTF-8.
import { utf8Text } from './text'

/**
 * A flag as a query string writes it: true or 1 is true, false or 0 false, in any case; else null.
 * Nothing after "=" is null too: a bare "?dry_run" could mean either, and a write is not guessed.
 */
export function flagValue(sent: string): boolean | null {
  const raw = sent.trim().toLowerCase()
  return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : null
}

/**
 * Whether two values of one form field are an HTML form's hidden field and its checkbox, ticked: a
 * false-ish value (false, 0 or off, in any case) then a true-ish one (true, 1 or on, a box's value
 * without one). Browsers send both, and Rails and PHP keep the last, the box's. The other order
 * (ASP.NET MVC's box, then its hidden field) is kept first by its framework: it is no such pair.
 */
export function isCheckedBox(first: string, then: string): boolean {
  const word = (sent: string) => sent.trim().toLowerCase()
  return ['false', '0', 'off'].includes(word(first)) && ['true', '1', 'on'].includes(word(then))
}

/** The values flagValue reads, as a refusal names them. */
export const FLAG_VALUES = 'true, false, 1 or 0 (in any case)'

/** A whole number of 0 or more as text writes it ("12", " 12 "), or null for anything else. */
export function wholeNumber(sent: string): number | null {
  const n = /^\s*\d+\s*$/.test(sent) ? Number(sent) : Number.NaN
  return Number.isSafeInteger(n) ? n : null
}

/**
 * A parameter's value, or null when it is not given. Given more than once it is refused, the same
 * value too, whichever the sender meant: `refuse` makes the error from the message's end, which
 * names each value ("may be given once; got it 2 times ("5", "x")."), so each API words its own.
 */
export function single(
  params: Pick<URLSearchParams, 'getAll'>,
  name: string,
  refuse: (tail: string) => Error,
): string | null {
  const values = params.getAll(name)
  if (values.length > 1) throw refuse(givenOnce(values))
  return values.length === 0 ? null : values[0]!
}

/** The end of the refusal of a parameter or field given `count` times, naming its first values. */
export const givenOnce = (values: string[], count = values.length): string =>
  `may be given once; got it ${count} times (${values.slice(0, 5).map(quoted).join(', ')}${count > 5 ? ', ...' : ''}).`

/** A value as an error quotes it: its first 50 characters. */
const quoted = (value: string) => `"${value.length > 50 ? `${value.slice(0, 50)}...` : value}"`

const UTF8 = new TextEncoder()

/**
 * Whether the escapes of urlencoded text (a query string's or a form body's pair, well-formed
 * UTF-16 as the URL parser and TextDecoder make it) make UTF-8 bytes, where URLSearchParams would
 * read those that do not as U+FFFD. A "%" without two hex digits after it is a character as
 * typed, as URLSearchParams reads it.
 */
function escapesAreUtf8(pair: string): boolean {
  const bytes: number[] = []
  for (let i = 0; i < pair.length; i++) {
    const c = pair.charCodeAt(i)
    if (c === 0x25 && /^[0-9a-f]{2}$/i.test(pair.slice(i + 1, i + 3))) {
      bytes.push(parseInt(pair.slice(i + 1, i + 3), 16))
      i += 2
    } else if (c < 0x80) bytes.push(c)
    else {
      // A character as sent (UTF-8 already): its bytes, a surrogate pair whole.
      const wide = c >= 0xd800 && c < 0xdc00 ? 2 : 1
      bytes.push(...UTF8.encode(pair.slice(i, i + wide)))
      i += wide - 1
    }
  }
  return utf8Text(new Uint8Array(bytes)) !== null
}

/** An escape of a byte above 0x7F: only those can make bytes that are not UTF-8. */
const HIGH_ESCAPE = /%[89a-f][0-9a-f]/i

/**
 * The first name=value pair of urlencoded text whose escapes are not UTF-8 (escapesAreUtf8), of a
 * name `judged` takes; null when there is none. Its name is read as URLSearchParams reads a pair's
 * name after another (a "?" of its own kept). Without an escape of a byte above 0x7F (a query
 * string's %20 and %5B, most bodies) nothing is decoded or made.
 */
export function firstBrokenPair(
  text: string,
  judged: (name: string) => boolean = () => true,
): { name: string; value: string } | null {
  if (!HIGH_ESCAPE.test(text)) return null
  try {
    decodeURIComponent(text)
    return null // every escape is UTF-8 (a quick test for the usual case: "v%C3%A9lo")
  } catch {}
  for (const pair of text.split('&')) {
    if (escapesAreUtf8(pair)) continue
    const eq = pair.indexOf('=')
    const name = [...new URLSearchParams(`?_=&${eq === -1 ? pair : pair.slice(0, eq)}=`).keys()][1] ?? ''
    if (judged(name)) return { name, value: eq === -1 ? '' : pair.slice(eq + 1) }
  }
  return null
}
