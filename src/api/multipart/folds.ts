// A multipart body's folded part header lines read as one line each, as RFC 5322 (2.2.3) reads a
// MIME header: Python's email package and JavaMail fold a long Content-Disposition so.
import { partSpans } from './parts'

/**
 * A line that reads as a header (`\tContent-Disposition: ...`) after its space or tab: no fold, as
 * an indented header is likelier than a value going on with `name:`, but within a quoted string left
 * open, which Python's email package (compat32) folds at a ", ". FormData reads such a line apart,
 * and partNotRead names an indented Content-Disposition.
 */
const HEADER_LIKE = /^[ \t]+[!#$%&'*+.^_`|~0-9a-z-]+[ \t]*:/i

/**
 * The text with each part's header lines unfolded: a CRLF before a space or tab dropped, the space
 * kept (RFC 5322 unfolding, the inverse of folding). A part's header lines run from its delimiter
 * line, found as formDataParts finds it (partSpans), to their first blank line; a part whose next
 * delimiter comes first, or a text without a closing delimiter, is left as it is (FormData reads no
 * fields then, and whyNoFields says why). The text itself when no header line is folded.
 */
export function unfolded(text: string, boundary: string): string {
  if (!text.includes('\r\n ') && !text.includes('\r\n\t')) return text
  let out = ''
  let from = 0
  for (const [start, end] of partSpans(text, boundary) ?? []) {
    // Sought within the part alone: parts without a blank line would each be searched to the end.
    const piece = text.slice(start, end)
    const blank = piece.indexOf('\r\n\r\n')
    // The headers start after the delimiter's line break: a space first starts no fold.
    const headers = blank === -1 ? '' : piece.slice(0, blank)
    if (!headers.includes('\r\n ') && !headers.includes('\r\n\t')) continue
    out += text.slice(from, start) + joined(headers)
    from = start + blank
  }
  return from === 0 ? text : out + text.slice(from)
}

/** Header lines with each fold's CRLF dropped: a line starting with a space or tab continues the one before. */
function joined(headers: string): string {
  const lines = headers.split('\r\n')
  let out = lines[0]!
  let quoted = openQuote(out, false)
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    const fold = (line[0] === ' ' || line[0] === '\t') && (quoted || !HEADER_LIKE.test(line))
    if (!fold) {
      out += '\r\n'
      quoted = false
    }
    out += line
    quoted = openQuote(line, quoted)
  }
  return out
}

/**
 * Whether a quoted string is open after `line`, given whether one was before it. Browsers, curl,
 * Bun and Node write a name's `\` as it is and its `"` as %22 (`filename="C:\dir\"`), so a `\"`
 * before a ";" or the line's end closes the string; elsewhere a backslash escapes the next
 * character, as Python's email package and curl --form-escape write `\\` and `\"`.
 */
function openQuote(line: string, open: boolean): boolean {
  for (let i = 0; i < line.length; i++) {
    if (open && line[i] === '\\' && !(line[i + 1] === '"' && closesAt(line, i + 2))) i++
    else if (line[i] === '"') open = !open
  }
  return open
}

/** What follows a quoted string's closing quote in a header line: its next parameter, or the line's end. */
const CLOSED = /[ \t]*(?:;|$)/y

/** Whether a quote before `at` closes its string (CLOSED), read in place: a line of many `\"` is not copied for each. */
function closesAt(line: string, at: number): boolean {
  CLOSED.lastIndex = at
  return CLOSED.test(line)
}
