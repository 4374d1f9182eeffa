// A CSV file as records: its bytes checked as UTF-8 (or read in the encoding named), its
// separator found, its cells trimmed, each record with the line it starts on. What the records
// mean is csv.ts's to read.
import { isUtf8 } from 'node:buffer'
import { Parser } from 'csv-parse'
import {
  encodingNamed,
  isAsciiLabel,
  pythonCodecLabel,
  singleQuoted,
  singleQuotedRefused,
  utf8Marked,
} from '../core/charset'
import { clipped } from '../core/text'
import { dosMisread, macRomanMisread } from './csv-garbled'

/**
 * A CSV that cannot be read: unclosed quote, a row with more/fewer cells than the header, two
 * columns for one field, not UTF-8, no header. The message starts "line N: " when `line` is set.
 */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message)
    this.name = 'CsvError'
  }
}

const LF = 0x0a
const CR = 0x0d
/** Separators a header may use; on a tie the first wins. */
const DELIMITERS = [',', ';', '\t', '|'] as const

/**
 * Both quote styles Excel and hand edits produce are read: a quote inside an unquoted cell is kept
 * (relax_quotes), and spaces around a quoted cell are dropped (trim). Any mix of CRLF, LF and CR
 * ends a record, as files edited in two programs have.
 */
const READ_OPTIONS = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  trim: true,
}

/**
 * A record's trimmed cells, the line it starts on, and `next`: the line after its last, where the
 * record below starts when no empty line is between them.
 */
export type RawRecord = { cells: string[]; line: number; next: number }

/** A record's cells that hold text. */
export const filledCells = (r: RawRecord) => r.cells.filter((cell) => cell.trim() !== '')
/** A line as a note quotes it: its filled cells, cut at 60 characters. */
export const lineShown = (r: RawRecord) => JSON.stringify(clipped(filledCells(r).join(', ')))

export const at = (line: number, message: string) => new CsvError(`line ${line}: ${message}`, line)

/** Spreadsheet column letters: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnLetter(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

export const delimiterName = (delimiter: string) => (delimiter === '\t' ? 'a tab' : `"${delimiter}"`)

/**
 * Line numbers of byte offsets, asked in increasing order. A line ends at CRLF, LF or a lone CR,
 * inside quotes too, as a text editor counts them.
 */
function lineCounter(bytes: Uint8Array): (offset: number) => number {
  let at = 0
  let line = 1
  return (offset) => {
    for (; at < offset; at++) {
      const b = bytes[at]
      if (b === CR || (b === LF && bytes[at - 1] !== CR)) line++
    }
    return line
  }
}

/** A label as TextDecoder's types take it: Bun's list a few, TextDecoder knows the Encoding Standard's every one. */
type Encoding = ConstructorParameters<typeof TextDecoder>[0]

/** White space as csv-parse's trim takes it (JavaScript's \s): a line of only such is skipped as empty. */
const BLANK = /^\s/u
const utf8Text = new TextDecoder()

/**
 * The offset of the first byte at or after `offset` that is neither a line break nor white space:
 * where a record's text starts, past the empty and blank lines csv-parse skipped without a record.
 */
function skipBlanks(bytes: Uint8Array, offset: number): number {
  for (;;) {
    const b = bytes[offset]
    if (b === undefined) return offset
    if (b < 0x80) {
      if (!BLANK.test(String.fromCharCode(b))) return offset
      offset++
      continue
    }
    // A character of several bytes: NBSP, the ideographic space...
    const char = String.fromCodePoint(utf8Text.decode(bytes.subarray(offset, offset + 4)).codePointAt(0)!)
    if (!BLANK.test(char)) return offset
    offset += Buffer.byteLength(char)
  }
}

/** How workbooks begin: a ZIP archive (.xlsx, .ods, .numbers) and an OLE compound file (.xls). */
const WORKBOOKS = [
  [0x50, 0x4b, 0x03, 0x04],
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
]
/** How UTF-16 text begins, little- and big-endian: Excel's "Unicode Text". */
const UTF16_MARKS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
]

/** The first bytes looked at for NULs, which say the file is no text. */
const BINARY_SNIFF = 8192

/**
 * Whether the input is no text: a NUL in its first 16 bytes (images' and most binary formats'
 * headers have one), or more than 8 NULs and 1% of its first 8 KiB. A stray NUL in a text export
 * is left to the cell's check, which names its line and column.
 */
function binary(input: Uint8Array): boolean {
  const sniff = input.subarray(0, BINARY_SNIFF)
  if (sniff.subarray(0, 16).includes(0)) return true
  let nuls = 0
  for (const byte of sniff) if (byte === 0) nuls++
  return nuls > 8 && nuls * 100 > sniff.length
}

/**
 * The UTF-16 a file without its byte order mark is in, or null: nine in ten of its first 8 KiB's
 * odd bytes NUL and almost none of its even ones (little-endian), or the reverse (big-endian), as
 * the letters of Western text are in UTF-16.
 */
function utf16Unmarked(input: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.floor(Math.min(input.length, BINARY_SNIFF) / 2)
  if (pairs < 2) return null
  let even = 0
  let odd = 0
  for (let i = 0; i < pairs * 2; i += 2) {
    if (input[i] === 0) even++
    if (input[i + 1] === 0) odd++
  }
  if (odd * 10 >= pairs * 9 && even * 10 <= pairs) return 'utf-16le'
  if (even * 10 >= pairs * 9 && odd * 10 <= pairs) return 'utf-16be'
  return null
}

const startsWith = (input: Uint8Array, marks: number[][]) => marks.some((m) => m.every((b, i) => input[i] === b))

/** How a file is read: in UTF-8 unless `encoding` names another. */
export type ReadOptions = {
  /** A label TextDecoder knows (windows-1252, iso-8859-2, macintosh); null or absent for UTF-8. */
  encoding?: string | null
  /** How the refusal of bytes not UTF-8 says to name their encoding (`label`): the CLI's option by default. */
  nameEncoding?: (label: string) => string
  /** How a refusal says to name none, so UTF-8 is read: leave out the CLI's option by default. */
  nameNoEncoding?: string
  /**
   * The most rows of locations a caller takes (the bulk route's 1,000): reading stops at the row
   * after them, so a body of millions of short rows costs what its first rows do.
   */
  maxRows?: number
  /** The separator the file's type names (text/tab-separated-values, a .tsv file): read by it when its first lines split by it. */
  typedSeparator?: string
}

export const CLI_NAME_ENCODING = (label: string) => `give its encoding: --encoding ${label}`
const CLI_NO_ENCODING = 'leave out --encoding'

/** How refusals say to name an encoding (`encoding`), or none (`none`). */
type Naming = { encoding: (label: string) => string; none: string }

/**
 * The text of bytes in the encoding `label` names; UTF-8 bytes as they are, for utf8Bytes to
 * check. An encoding TextDecoder does not know is refused, with names it does.
 */
function inEncoding(input: Uint8Array, label: string, naming: Naming): string | Uint8Array {
  const encoding = encodingNamed(label)
  if (encoding === null) {
    const unquoted = singleQuoted(label)
    const python = pythonCodecLabel(label)
    const named = (meant: string) => naming.encoding(meant).replace(/^./, (c) => c.toUpperCase())
    throw new CsvError(
      unquoted !== null
        ? singleQuotedRefused(label, naming.encoding(unquoted))
        : python !== null
          ? `The encoding ${JSON.stringify(label.slice(0, 40))} is not one this service knows: it is Python's name for what the WHATWG Encoding Standard names ${python}. ${named(python)}.`
          : `The encoding ${JSON.stringify(label.slice(0, 40))} is not one this service knows. Name it as the WHATWG Encoding Standard does, such as windows-1252 (Western Europe, also read for iso-8859-1), windows-1250 (Central Europe), iso-8859-2, windows-1251 or macintosh; or leave it out for UTF-8.`,
      null,
    )
  }
  // A UTF-8 byte order mark says the file is UTF-8 whatever it is named (as the WHATWG decode
  // steps read it): an export named windows-1252 by habit reads right.
  if (encoding === 'utf-8' || utf8Marked(input)) return input
  // A NUL beside each ASCII letter is UTF-16, which no 8-bit encoding writes: read so, no field is named.
  const utf16 = utf16Unmarked(input)
  if (utf16 !== null && encoding !== utf16)
    throw new CsvError(
      `The file is named ${JSON.stringify(label.slice(0, 40))}, but it is UTF-16 text without its byte order mark (a NUL byte beside each ASCII letter). Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and ${naming.none}. Or ${naming.encoding(utf16)}.`,
      null,
    )
  // UTF-16 writes a NUL byte beside each comma, digit and line break: bytes with none are 8-bit
  // text, which decoded as UTF-16 would be no letter sent. ASCII is read as it is, as in a JSON body.
  const beyondAscii = input.some((b) => b >= 0x80)
  if (encoding.startsWith('utf-16') && !input.includes(0)) {
    if (!beyondAscii) return input
    throw misnamed(
      input,
      `named UTF-16 (${JSON.stringify(label.slice(0, 40))}), but it is not: UTF-16 writes a NUL byte beside each comma, digit and line break, and it has none`,
      naming,
    )
  }
  // The Encoding Standard reads "us-ascii" as windows-1252: bytes beyond ASCII named so are in a charset not said.
  if (isAsciiLabel(label) && beyondAscii)
    throw misnamed(
      input,
      `named ASCII (${JSON.stringify(label.slice(0, 40))}), but it holds bytes beyond ASCII`,
      naming,
    )
  // x-user-defined is a browser's way to read bytes as they are, each beyond ASCII a private-use character.
  if (encoding === 'x-user-defined' && beyondAscii)
    throw misnamed(
      input,
      `named ${JSON.stringify(label.slice(0, 40))}, which is no text's encoding: each byte beyond ASCII would be read as a private-use character, not a letter`,
      naming,
    )
  try {
    return new TextDecoder(encoding as Encoding, { fatal: true }).decode(input)
  } catch {
    // As a UTF-8 file's bytes that are not UTF-8 are: refused, never read as U+FFFD.
    const line = encoding.startsWith('utf-16') ? null : undecodableLine(input, encoding)
    const named = `named ${JSON.stringify(label.slice(0, 40))}, but ${line === null ? 'it' : 'this line'} holds bytes that are no ${encoding} text`
    throw misnamed(input, named, naming, line)
  }
}

/** The refusal of bytes whose encoding is named wrong (`named`: how, and why they are not in it), in `line` when set. */
function misnamed(input: Uint8Array, named: string, naming: Naming, line: number | null = null): CsvError {
  const fix = isUtf8(input)
    ? `Its bytes are UTF-8, which is read when no encoding is named: ${naming.none}.`
    : `Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and ${naming.none}. Or, if it is Windows-1252 (most back offices in the West), ${naming.encoding('windows-1252')}.`
  return line === null ? new CsvError(`The file is ${named}. ${fix}`, null) : at(line, `the file is ${named}. ${fix}`)
}

/** The bytes of a UTF-8 input; anything else (Latin-1) names its first bad line. */
function utf8Bytes(input: Uint8Array, nameEncoding: (label: string) => string): Buffer {
  const advice =
    'In Excel, save the file as "CSV UTF-8 (Comma delimited)"; in Google Sheets or LibreOffice, download or export it as CSV with the UTF-8 character set.'
  if (startsWith(input, WORKBOOKS))
    throw new CsvError(`The file is a spreadsheet workbook (Excel or OpenDocument), not CSV. ${advice}`, null)
  const utf16 = utf16Unmarked(input)
  if (utf16 !== null)
    throw new CsvError(
      `The file is UTF-16 text without its byte order mark, which says so. ${advice} Or ${nameEncoding(utf16)}.`,
      null,
    )
  if (binary(input))
    throw new CsvError(
      `The file is not text: it holds NUL bytes, as an image, a PDF or an archive does (or UTF-16 text without its byte order mark). Give the CSV file itself. ${advice}`,
      null,
    )
  // Checked without decoding: the text itself is read by csv-parse, a cell at a time.
  if (!isUtf8(input)) {
    const line = undecodableLine(input, 'utf-8')
    // A back office's export is most often in its system's code page: Windows-1252 in the West;
    // a Mac's older exports are Mac Roman, whose letters Windows-1252 reads as signs ("LŠngengrad").
    // Excel's "CSV (MS-DOS)" is in code page 850 (or 437), which no encoding named here reads.
    const western = new TextDecoder('windows-1252').decode(input)
    const mac = macRomanMisread(western)
    const dos = !mac && dosMisread(western)
    const [label, who] = mac
      ? ['macintosh', "Mac Roman (a Mac's export)"]
      : ['windows-1252', 'Windows-1252 (most back offices in the West)']
    const named = dos
      ? 'Or, if it is an MS-DOS code page (Excel\'s "CSV (MS-DOS)"), which this service cannot read, save it as "CSV UTF-8 (Comma delimited)".'
      : `Or, if it is ${who}, ${nameEncoding(label)}.`
    const script = dos
      ? 'From a script, if it is code page 850: iconv -f CP850 -t UTF-8 FILE > FILE-utf8.csv'
      : `From a script, if it is ${mac ? 'Mac Roman' : 'Windows-1252'}: iconv -f ${label.toUpperCase()} -t UTF-8 FILE > FILE-utf8.csv`
    throw line === null
      ? new CsvError(`The file is not UTF-8 text. ${advice} ${named} ${script}`, null)
      : at(line, `this line is not UTF-8 text. ${advice} ${named} ${script}`)
  }
  return Buffer.from(input.buffer, input.byteOffset, input.byteLength)
}

/**
 * The line holding the first bytes that are no text in `encoding`, null when none: one in which
 * CR and LF bytes are only ever line breaks (UTF-8, Shift_JIS, EUC-JP, Big5, 8-bit encodings).
 */
function undecodableLine(bytes: Uint8Array, encoding: string): number | null {
  const decoder = new TextDecoder(encoding as Encoding, { fatal: true })
  const lineAt = lineCounter(bytes)
  let start = 0
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== LF && bytes[i] !== CR) continue
    try {
      // Streamed with its line break: a character cut short by the break fails in its own line.
      decoder.decode(bytes.subarray(start, i + 1), { stream: i < bytes.length })
    } catch {
      return lineAt(start)
    }
    start = i + 1
  }
  return null
}

/**
 * The separator an Excel "sep=;" first line names (null: none), with the bytes to read: that
 * line blanked in a copy, so it reads as an empty line and the lines after keep their numbers.
 */
function separatorLine(bytes: Buffer): { delimiter: string | null; bytes: Buffer } {
  const start = utf8Marked(bytes) ? 3 : 0
  const m = /^sep=([,;\t|])(?=\r|\n|$)/i.exec(bytes.subarray(start, start + 6).toString('latin1'))
  if (m === null) return { delimiter: null, bytes }
  const copy = Buffer.from(bytes)
  copy.fill(0x20, start, start + 5)
  return { delimiter: m[1]!, bytes: copy }
}

/** DOS's end of file mark (Ctrl-Z), which old exports and back offices' dumps still end with. */
const DOS_END = 0x1a

/**
 * The bytes with a DOS end of file mark after the last line blanked (in a copy), so it is no
 * row; a Ctrl-Z elsewhere is a cell's text.
 */
function dosEndBlanked(bytes: Buffer): Buffer {
  let i = bytes.length
  while (i > 0 && (bytes[i - 1] === CR || bytes[i - 1] === LF || bytes[i - 1] === DOS_END)) i--
  if (bytes.indexOf(DOS_END, i) < 0) return bytes
  const copy = Buffer.from(bytes)
  for (let j = i; j < copy.length; j++) if (copy[j] === DOS_END) copy[j] = 0x20
  return copy
}

/** How much of the file the separator is told from: a header's worth, or its first 64 KiB. */
const DELIMITER_SNIFF = 64 * 1024

/**
 * The cells of the header in `head` with this separator, 0 when it is not CSV with it. A header
 * cut at DELIMITER_SNIFF (`whole` false) counts its cells so far: read as ended, a cut inside a
 * quoted cell would fail with every separator.
 */
function headerCells(head: Buffer, whole: boolean, delimiter: string): number {
  let cells = 0
  const { api, state } = rawParser({ ...READ_OPTIONS, delimiter, to: 1 })
  const push = (record: unknown) => {
    cells = (record as unknown[]).length
  }
  if (api.parse(head, whole, push, () => {}) !== undefined) return 0
  return cells > 0 || whole ? cells : state.record.length + 1
}

/** How many lines below a first line of one cell are looked at for the separator. */
const TITLE_SNIFF = 10

/**
 * The cells of each of the first `lines` records below the first in `head` with this separator,
 * as far as they read as CSV with it.
 */
function cellsBelow(head: Buffer, whole: boolean, delimiter: string, lines: number): number[] {
  const cells: number[] = []
  const { api } = rawParser({ ...READ_OPTIONS, delimiter, from: 2, to: lines + 1 })
  api.parse(
    head,
    whole,
    (record) => cells.push((record as unknown[]).length),
    () => {},
  )
  return cells
}

/**
 * The separator the header line uses most outside quotes: the one that splits it into the most
 * cells. A first line of one cell whatever the separator (a sheet's title, Numbers' table name)
 * says none: the first line below it that one splits does.
 */
function detectDelimiter(bytes: Buffer): string {
  let best: string = DELIMITERS[0]
  let most = 0
  const head = bytes.subarray(0, DELIMITER_SNIFF)
  const whole = head.length === bytes.length
  for (const delimiter of DELIMITERS) {
    const cells = headerCells(head, whole, delimiter)
    if (cells > most) {
      best = delimiter
      most = cells
    }
  }
  if (most > 1) return best
  return belowTitle(head, whole) ?? best
}

/** The separator that splits a line below a first line of one cell most: the first such line's (null: none splits). */
function belowTitle(head: Buffer, whole: boolean): string | null {
  const below = DELIMITERS.map((delimiter) => cellsBelow(head, whole, delimiter, TITLE_SNIFF))
  for (let line = 0; line < TITLE_SNIFF; line++) {
    const split = below.map((cells) => cells[line] ?? 0)
    const widest = Math.max(...split)
    if (widest > 1) return DELIMITERS[split.indexOf(widest)]!
  }
  return null
}

/**
 * Whether the header in the file's head splits by `delimiter`, or, below a title of one cell
 * whatever the separator, the first line that splits does so most by it: a tab in a quoted cell
 * of a comma CSV's row is text.
 */
function splitsBy(bytes: Buffer, delimiter: string): boolean {
  const head = bytes.subarray(0, DELIMITER_SNIFF)
  const whole = head.length === bytes.length
  if (headerCells(head, whole, delimiter) > 1) return true
  if (DELIMITERS.some((other) => headerCells(head, whole, other) > 1)) return false
  return belowTitle(head, whole) === delimiter
}

/** Whether text/tab-separated-values reads `text` by tabs: as splitsBy, its header (or the line below a title) splits by them. */
export const splitsByTabs = (text: string): boolean => splitsBy(Buffer.from(text, 'utf8'), '\t')

function parseFailure(e: unknown, line: number): unknown {
  switch ((e as { code?: unknown } | null)?.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return at(
        line,
        'a cell opens a double quote (") that is never closed. Add the closing quote, or remove the stray one.',
      )
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return at(
        line,
        'a quoted cell has text after its closing quote. Inside a quoted cell, write each double quote twice ("").',
      )
    default:
      return e
  }
}

/** Thrown from inside the parse to end it once `maxRecords` are read. */
const ENOUGH = Symbol('enough records')

/** Excel's own limit of a cell: no spreadsheet wrote a longer one, and the cell's readers take time by its length. */
export const MAX_CELL_CHARS = 32_767

/**
 * The bytes csv-parse reads between two yields: a few milliseconds of the slowest text (about a
 * microsecond a cell: a row of empty cells is 2 bytes each).
 */
const CHUNK_BYTES = 8 * 1024

/**
 * csv-parse's parser underneath its stream, which its own sync parse drives the same way: its
 * `api` and `state` are not documented, and are read here alone (the lock file pins the version).
 */
type RawParser = {
  api: { parse(buf: Buffer | undefined, end: boolean, push: (record: unknown) => void, close: () => void): unknown }
  state: { record: unknown[]; expectedRecordLength: number }
}
const rawParser = (options: ConstructorParameters<typeof Parser>[0]) => new Parser(options) as unknown as RawParser

/**
 * The records that hold any text (at most `maxRecords`), cells trimmed, each with the line it
 * starts on. Read CHUNK_BYTES at a time, yielding between chunks: a caller may let other work run.
 */
function* parseRecords(bytes: Buffer, delimiter: string, maxRecords: number): Generator<void, RawRecord[]> {
  const lineAt = lineCounter(bytes)
  const records: RawRecord[] = []
  let end = 0 // where the last record read ends, its line break included
  const on_record = (record: string[], info: { bytes: number }) => {
    // Each record of another length than the one before it makes csv-parse build (and, relaxed,
    // drop) an error with a stack and a JSON copy of the record: 10 µs or more a row of padding.
    state.expectedRecordLength = record.length
    const start = skipBlanks(bytes, end)
    const line = lineAt(start)
    end = info.bytes
    const cells = record.map((cell) => cell.trim())
    const long = cells.findIndex((cell) => cell.length > MAX_CELL_CHARS)
    if (long >= 0)
      throw at(
        line,
        `the cell in column ${columnLetter(long)} has ${cells[long]!.length.toLocaleString('en')} characters; a cell may have at most ${MAX_CELL_CHARS.toLocaleString('en')} (a spreadsheet's own limit). Look for a double quote (") that opens a cell and is never closed where it should be.`,
      )
    // A row of empty cells (",,," as spreadsheets pad) is skipped like an empty line.
    if (cells.some((cell) => cell !== '')) records.push({ cells, line, next: lineAt(end) })
    if (records.length >= maxRecords) throw ENOUGH
    return null
  }
  const { api, state } = rawParser({ ...READ_OPTIONS, delimiter, on_record })
  for (let from = 0; ; from += CHUNK_BYTES) {
    const last = from + CHUNK_BYTES >= bytes.length
    const error = api.parse(
      bytes.subarray(from, from + CHUNK_BYTES),
      last,
      () => {},
      () => {},
    )
    if (error === ENOUGH) return records
    if (error !== undefined) throw parseFailure(error, lineAt(skipBlanks(bytes, end)))
    if (last) return records
    yield
  }
}

/** The pairs looked at together for the step a UTF-16 text's ASCII characters keep. */
const STEP_WINDOW = 8

/**
 * The refusal of UTF-16 text of an odd number of bytes: a byte lost inside it, in the line where
 * its ASCII characters (a NUL high byte) fall out of step, or else one too many at its end.
 */
function oddUtf16(input: Uint8Array, le: boolean): CsvError {
  const said = `the file is UTF-16 text (its byte order mark says so), but of an odd number of bytes (${input.length})`
  // In step, an ASCII character's NUL is its high byte; a byte lost before it puts the NUL in the low.
  const high = le ? 1 : 0
  const inStep = (i: number) => input[i + high] === 0 && input[i + 1 - high] !== 0
  const outOfStep = (i: number) => input[i + 1 - high] === 0 && input[i + high] !== 0
  for (let i = 2; i + 2 * STEP_WINDOW <= input.length; i += 2) {
    if (!outOfStep(i)) continue
    let out = 0
    let step = 0
    for (let j = i; j < i + 2 * STEP_WINDOW; j += 2) {
      if (outOfStep(j)) out++
      else if (inStep(j)) step++
    }
    if (out < STEP_WINDOW / 2 || step > 0) continue
    const before = Buffer.from(new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(input.subarray(0, i)))
    const line = lineCounter(before)(before.length)
    return at(
      line,
      `${said}: a byte is lost in this line, and every character after it is misread. Save the file again from the spreadsheet.`,
    )
  }
  return new CsvError(
    `The ${said.slice(4)}: its last byte is half a character. The file was cut short, or a byte was added at its end (as a line added in another encoding is). Save the file again from the spreadsheet.`,
    null,
  )
}

/**
 * The text of a CSV file: a string as it is; bytes in the encoding their byte order mark names
 * (UTF-16, Excel's "Unicode Text", whatever else is named, as the WHATWG decode steps read it),
 * else in the encoding named, else checked as UTF-8 (with or without BOM).
 */
export function csvText(input: string | Uint8Array, options: ReadOptions = {}): string | Buffer {
  if (typeof input === 'string') return input
  const marked = startsWith(input, UTF16_MARKS) ? (input[0] === 0xff ? 'utf-16le' : 'utf-16be') : null
  if (marked !== null && input.length % 2 === 1) throw oddUtf16(input, marked === 'utf-16le')
  const label = marked ?? options.encoding
  const nameEncoding = options.nameEncoding ?? CLI_NAME_ENCODING
  const naming = { encoding: nameEncoding, none: options.nameNoEncoding ?? CLI_NO_ENCODING }
  const text = label ? inEncoding(input, label, naming) : input
  return typeof text === 'string' ? text : utf8Bytes(text, nameEncoding)
}

/**
 * The records of a CSV's text (csvText) that hold any text, separated by `separator` when given,
 * else by the one a "sep=" line names, else by `typed` (the file type's) when the first lines split
 * by it, else by ',', ';', tab or '|' (the one the header uses most), CRLF or LF; `named` when a
 * "sep=" line or the type names it. At most `maxRecords`: the rest of the text is not read.
 * Yields between slices of the reading (core/slices.ts).
 */
export function* readRecords(
  input: string | Buffer,
  maxRecords = Number.POSITIVE_INFINITY,
  separator?: string,
  typed?: string,
): Generator<void, { records: RawRecord[]; delimiter: string; named: boolean }> {
  const given = separatorLine(dosEndBlanked(typeof input === 'string' ? Buffer.from(input, 'utf8') : input))
  const { bytes } = given
  const named = given.delimiter ?? (typed !== undefined && splitsBy(bytes, typed) ? typed : null)
  const delimiter = separator ?? named ?? detectDelimiter(bytes)
  return { records: yield* parseRecords(bytes, delimiter, maxRecords), delimiter, named: named !== null }
}

/** The separators other than `delimiter` a file may use, in the order a tie takes them. */
export const otherDelimiters = (delimiter: string) => DELIMITERS.filter((d) => d !== delimiter)
