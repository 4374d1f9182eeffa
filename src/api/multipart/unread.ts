// The parts of a multipart/form-data body that FormData drops or reads otherwise than sent, and
// why it reads no field of a body at all, each said as a refusal's reason.
import { mediaTypeOf, paramOf } from '../content-type'
import { dispositionOf, type MultipartText, type Part, partHeader, utf8Of } from './parts'

/** What RFC 7578 lets a part's Content-Transfer-Encoding be: its bytes as they are. */
const AS_IS = ['7bit', '8bit', 'binary']

/**
 * Why FormData does not read a text part (`index`, from 1) as sent, and how to send it, null when
 * it does: with no Content-Disposition, or one that is not form-data or names no field, it drops
 * the part (`lost`); it reads an encoded part (base64, quoted-printable) as its encoded text, and
 * a nested multipart (RFC 2388's several files in one field) as the text of its parts.
 */
export function partNotRead(part: Part, index: number): NotRead | null {
  // Most parts are one line, form-data first: read without a header's search.
  const oneLine = !part.headers.includes('\n')
  const disposition =
    oneLine && FORM_DATA.test(part.headers) ? 'form-data' : partHeader(part.headers, 'content-disposition')
  const lost = (why: string): NotRead => ({
    why: `${why}: its text would be lost.`,
    fix: 'Give each part a Content-Disposition of form-data; name="..." (its field), or send JSON.',
    lost: true,
  })
  if (disposition === null) {
    const spaced = SPACED_DISPOSITION.exec(part.headers)
    if (spaced === null) return lost(`part ${index} has no Content-Disposition, which names its field`)
    const where = spaced[2] === '' ? 'before its name' : 'before its ":"'
    return lost(
      `part ${index}'s header line ${JSON.stringify(utf8Of(spaced[0]).slice(0, 100))} has a space ${where}, which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field`,
    )
  }
  const shown = () => JSON.stringify(utf8Of(dispositionOf(part.headers)).slice(0, 100))
  if (mediaTypeOf(disposition) !== 'form-data')
    return lost(`part ${index}'s Content-Disposition (${shown()}) is not form-data`)
  if (!part.name) return lost(`part ${index}'s Content-Disposition (${shown()}) names no field`)
  if (oneLine) return null
  const field = () => JSON.stringify(utf8Of(part.name!).slice(0, 60))
  const encoding = partHeader(part.headers, 'content-transfer-encoding')?.toLowerCase()
  if (encoding !== undefined && !AS_IS.includes(encoding))
    return {
      why: `the field ${field()} is sent with Content-Transfer-Encoding: ${JSON.stringify(encoding.slice(0, 40))}, which forms do not use (RFC 7578) and is not decoded: its encoded text would be stored.`,
      fix: 'Send its text as it is, or send JSON.',
      lost: false,
    }
  if (part.type !== null && mediaTypeOf(part.type).startsWith('multipart/'))
    return {
      why: `the field ${field()} holds parts of its own (${JSON.stringify(mediaTypeOf(part.type).slice(0, 40))}, as RFC 2388 sent several files in one field); location fields are text.`,
      fix: '',
      lost: false,
    }
  return null
}

/** Why a part is not read as sent, and how to send it ('' when the why says it); `lost`: FormData drops it. */
export type NotRead = { why: string; fix: string; lost: boolean }

/** A NotRead as a refusal's reason: why, then how to send it. */
export const notReadReason = ({ why, fix }: NotRead): string => (fix === '' ? why : `${why} ${fix}`)

/** A Content-Disposition line but for spaces or tabs before its name or its ":": FormData reads no header so. */
const SPACED_DISPOSITION = /^([ \t]*)content-disposition([ \t]*):[^\r\n]*/im

/** A Content-Disposition line of form-data, with its parameters after. */
const FORM_DATA = /^content-disposition:[ \t]*form-data[ \t]*;/i

/**
 * Why FormData reads no field of a multipart body whose boundary is named and not miswritten, when
 * it can be told: it has no closing delimiter (cut short, or never closed), or a part's header
 * lines are not ended by a blank line or hold a line without a ":" (folds unfolded first). Null else.
 */
export function whyNoFields({ text, contentType }: MultipartText): string | null {
  const boundary = paramOf(contentType, 'boundary')
  if (!boundary || !text.startsWith(`--${boundary}\r\n`)) return null
  if (!text.includes(`--${boundary}--`))
    return `it has no closing delimiter line (--${utf8Of(boundary).slice(0, 70)}--) after its last part: it was cut short, or not closed.`
  const delimiter = `\r\n--${boundary}\r\n`
  for (let at = -2, index = 1; at !== -1; at = text.indexOf(delimiter, at + 1), index++) {
    const start = at + delimiter.length
    if (text.startsWith('\r\n', start))
      return `part ${index} has no header lines, so no Content-Disposition, which names its field.`
    const end = text.indexOf('\r\n\r\n', start)
    const next = text.indexOf(`\r\n--${boundary}`, start)
    if (end === -1 || (next !== -1 && next < end))
      return `part ${index}'s header lines end in no blank line, which comes between a part's headers and its value.`
    const lines = text.slice(start, end).split('\r\n')
    if (lines.some((line) => line !== '' && !line.includes(':')))
      return `part ${index} has a header line without ":" (text before the blank line), and each header line is a name, ":" and its value, or a space or tab then more of the line before it.`
  }
  return null
}
