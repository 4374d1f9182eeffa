// Cells a spreadsheet spoilt before the file reached us: UTF-8 read as Windows-1252 and saved
// again ("CafÃ© MÃ¼ller"), a Mac's Mac Roman read as Windows-1252 ("Kšnigsallee"), letters
// Excel could not save, written as "?" ("Gda?sk"), formulas saved as their text ("=A2"), phone
// numbers in scientific notation ("4.93E+11"). Said per row, as warnings: the cells are imported
// as written, but for such a phone, which is not read.
import { ADDRESS_PARTS, COUNTRY_CODE } from './csv-address'

/** The bytes 0x80-0xBF (every UTF-8 continuation byte) as Windows-1252 reads them. */
const CONTINUATION = '\u0080-\u00BF€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'
/**
 * A UTF-8 lead byte of a Latin, Polish, Czech, Turkish or Cyrillic letter (C2-C5, D0, D1) read as
 * Windows-1252, before a continuation byte so read: no language writes "Ã©" or "Å‚". Also "â€"
 * (curly quotes and dashes) and U+FFFD, a character a conversion already lost.
 */
const MOJIBAKE = new RegExp(`[ÂÃÄÅÐÑ][${CONTINUATION}]|â€|\uFFFD`)
/** A "?" inside a word, or opening one: where Excel writes a letter its code page lacks ("Gda?sk", "?ódź"). */
const LOST_LETTER = /\p{L}\?\p{L}|(?:^|[\s(,/-])\?\p{L}/u
/** Fields of words, where a "?" is no URL's or email's. */
const WORD_FIELDS = new Set([
  'name',
  'address',
  'street',
  'street2',
  'sublocality',
  'city',
  'region',
  'country',
  'tags',
])

/** Windows-1252's bytes by the character it reads them as (the WHATWG table: 0x81 is U+0081). */
const CP1252_BYTES = new Map<string, number>()
{
  const decoder = new TextDecoder('windows-1252')
  for (let b = 0; b < 256; b++) CP1252_BYTES.set(decoder.decode(Uint8Array.of(b)), b)
}

/** The text a garbled one was before Windows-1252 read its UTF-8 bytes; null when it was not such text. */
export function ungarbled(text: string): string | null {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const b = CP1252_BYTES.get(text[i]!)
    if (b === undefined) return null
    bytes[i] = b
  }
  try {
    const before = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return before === text ? null : before
  } catch {
    return null
  }
}

/**
 * Letters a Mac's older exports (Mac Roman) write with bytes Windows-1252 reads as signs no word
 * holds: a capital inside a word ("LŠngengrad", "BŠckerei", "CafŽ" for ä, ä, é), "§" for ß and
 * others after a letter ("Stra§e"), "š" for ö after a word's capital ("Kšnigsallee"). Not "™"
 * or "•", which a name may hold as written.
 */
const MAC_ROMAN_SIGNS = 'ŠŽŸ§ˆ‡‰ƒ\u008D\u008F\u0090\u009D'
const MAC_ROMAN = new RegExp(
  `\\p{Ll}[ŠŽŸ]|\\p{L}[ŠŽŸ]\\p{Ll}|\\p{L}[${MAC_ROMAN_SIGNS.slice(3)}]|(?<!\\p{L})\\p{Lu}š\\p{Ll}`,
  'u',
)
/** Whether text reads as a Mac Roman file's read as Windows-1252. */
export const macRomanMisread = (text: string): boolean => MAC_ROMAN.test(text)

/**
 * Letters Excel's "CSV (MS-DOS)" (code page 850, or 437) writes with bytes Windows-1252 reads as
 * signs no word holds: "„" after a letter for ä ("B„ckerei"), "”" between letters for ö ("K”ln"),
 * U+0081, no character of Windows-1252, for ü; "‚" for é ("Caf‚"), "‡" for ç ("Fran‡ois"), and
 * "á" for ß in "straße", the word of most German addresses. No WHATWG encoding reads those.
 */
const DOS = /\p{L}„|\p{L}”\p{L}|\u0081|\p{L}[‚‡]|straáe/iu
/** Whether text reads as an MS-DOS code page's read as Windows-1252. */
export const dosMisread = (text: string): boolean => DOS.test(text)

/** The text Mac Roman bytes were before Windows-1252 read them; null when it holds a character Windows-1252 has no byte for. */
function asMacRoman(text: string): string | null {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const b = CP1252_BYTES.get(text[i]!)
    if (b === undefined) return null
    bytes[i] = b
  }
  return new TextDecoder('macintosh').decode(bytes)
}

/** The characters any garbled text holds: a cell without one is not looked at further. */
const SUSPECT_CHARS = `ÂÃÄÅÐÑâ\uFFFD?š„”\u0081‚‡á${MAC_ROMAN_SIGNS}`
const SUSPECT = new RegExp(`[${SUSPECT_CHARS}]`)
export const maybeGarbled = (text: string): boolean => SUSPECT.test(text)
/** SUSPECT's characters in UTF-8. */
const SUSPECT_BYTES = [...SUSPECT_CHARS].map((c) => Buffer.from(c))

/** Whether a file holds any of SUSPECT's characters: a file without one (most) has no cell looked at. */
export function fileMaybeGarbled(input: string | Uint8Array): boolean {
  if (typeof input === 'string') return SUSPECT.test(input)
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  return SUSPECT_BYTES.some((c) => bytes.includes(c))
}

/**
 * A cell of a row as its column names it. `formula`: the cell as written starts with "=" (not
 * "'=", a guarded text: csv-cells.ts). `error`: it is an error Excel showed in place of a value (excelError).
 */
export type NamedCell = { header: string; field: string; text: string; formula?: boolean; error?: boolean }

/**
 * The errors Excel shows, and saves, in place of a formula's value, in the languages whose TRUE
 * and FALSE a status reads (English, German, French, Spanish, Italian, Portuguese, Dutch,
 * Swedish, Danish, Norwegian, Polish), Google Sheets' #ERROR! and LibreOffice's "Err:509": a
 * phone typed "+44 131 496 0000" is run as a formula and saved as "#NULL!" ("#NUL!" in French).
 */
const EXCEL_ERRORS = [
  ...['NULL!', 'DIV/0!', 'VALUE!', 'REF!', 'NAME?', 'NUM!', 'N/A', 'SPILL!', 'CALC!', 'GETTING_DATA', 'ERROR!'],
  ...['WERT!', 'BEZUG!', 'ZAHL!', 'NV', 'ÜBERLAUF!', 'NUL!', 'VALEUR!', 'NOM?', 'NOMBRE!', 'PROPAGATION!'],
  ...['¡NULO!', '¡DIV/0!', '¡VALOR!', '¡REF!', '¿NOMBRE?', '¡NUM!', 'NULLO!', 'VALORE!', 'RIF!', 'NOME?', 'N/D'],
  ...['NULO!', 'VALOR!', 'NÚM!', 'LEEG!', 'DEEL/0!', 'WAARDE!', 'VERW!', 'NAAM?', 'GETAL!', 'N/B'],
  ...['SKÄRNING!', 'DIVISION/0!', 'VÄRDEFEL!', 'REFERENS!', 'NAMN?', 'OGILTIGT!', 'SAKNAS!'],
  ...['VÆRDI!', 'REFERENCE!', 'NAVN?', 'I/T', 'VERDI!', 'ZERO!', 'DZIEL/0!', 'ARG!', 'ADR!'],
  ...['NAZWA?', 'LICZBA!', 'N/D!'],
]
const EXCEL_ERROR = new Set(EXCEL_ERRORS.map((e) => `#${e.toLowerCase()}`))
const LIBREOFFICE_ERROR = /^Err:\d{3}$/
/** Whether a cell is an error Excel saved in place of its value: no value of any field, not read. */
export const excelError = (cell: string): boolean => {
  const text = cell.trim()
  return EXCEL_ERROR.has(text.toLowerCase()) || LIBREOFFICE_ERROR.test(text)
}

/** Whether a row's cells Excel saved as errors (NamedCell.error) include one of the fields `of` picks. */
export const errorIn = (cells: readonly NamedCell[], of: (field: string) => boolean): boolean =>
  cells.some((c) => c.error === true && of(c.field))

/** What is said of a row's cells Excel saved as errors of the fields `of` picks, to say beside a refusal; null for none. */
export function errorsSaid(cells: readonly NamedCell[], of: (field: string) => boolean): string | null {
  const lost = cells.filter((c) => c.error === true && of(c.field))
  return lost.length === 0 ? null : lost.map((c) => excelErrorSaid(c, '')).join(' ')
}

/** Whether a field is one of those a row's address is joined from (its country code column's too). */
export const addressField = (field: string): boolean => ADDRESS_FIELDS.has(field) || field === COUNTRY_CODE

/** What a row says of its cell that is an Excel error (excelError), and what to do. */
export const excelErrorSaid = ({ header, text, field }: NamedCell, kept: string) =>
  `${JSON.stringify(text)} in the "${header}" column is an error Excel saved in place of the value${field === 'contact.phone' ? ' (a phone typed with its "+" is run as a formula)' : ''}: it is not read${kept}. In the spreadsheet, format the column as Text, type the value again, and save.`

/** A number Excel wrote in scientific notation ("4.93E+11", "4,93E+11"): digits past the third are lost. */
const SCIENTIFIC = /^\d(?:[.,]\d+)?E\+\d+$/i
/** Whether a phone cell is a number Excel wrote in scientific notation, its digits lost: not read. */
export const lostDigits = (phone: string): boolean => SCIENTIFIC.test(phone)

/** Months as spreadsheets write them short in English, German, French, Spanish, Italian and Dutch ("Mrz", "juil."). */
const MONTHS = [
  'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec',
  'mär|mrz|mai|okt|dez',
  'janv|févr|fév|mars|avr|juin|juil|août|sept|déc',
  'ene|abr|ago|dic',
  'gen|mag|giu|lug|set|ott',
  'mrt|mei',
].join('|')
/** Hours a spreadsheet took for a date and wrote so: "9-5" as "5-Sep" or "Sep-05", "9-18" as "18. Sep". */
const HOURS_AS_DATE = new RegExp(String.raw`^(?:\d{1,2}[-. ]\s*(?:${MONTHS})\.?|(?:${MONTHS})\.?[-. ]\d{1,2})$`, 'iu')
/** Whether an hours cell is a date a spreadsheet made of hours: kept as written, and warned of. */
export const hoursAsDate = (cell: string): boolean => HOURS_AS_DATE.test(cell.trim())

const OPEN_RIGHT =
  'In Excel, open the original file with Data > From Text/CSV, File origin "65001: Unicode (UTF-8)", then save it as "CSV UTF-8 (Comma delimited)"; or correct the text.'

/** A cell as a warning names it, with the text it most likely was. */
const cellSaid = ({ header, text }: NamedCell, meant: string | null) =>
  `${JSON.stringify(text)} in the "${header}" column${meant === null ? '' : ` (most likely ${JSON.stringify(meant)})`}`
const UTF8_MISREAD = 'UTF-8 text read as Windows-1252, as Excel reads a CSV file it opens'
const MAC_ENCODING =
  "in its encoding, macintosh (the CLI's --encoding macintosh; over HTTP, Content-Type: text/csv; charset=macintosh)"
const MAC_MISREAD = "as a Mac file's text (Mac Roman) read as Windows-1252"
const DOS_MISREAD = `as an MS-DOS file's text (Excel's "CSV (MS-DOS)", code page 850) read as Windows-1252`
const DOS_UTF8 = 'the file as "CSV UTF-8 (Comma delimited)" and import that'
/** Cells garbled from UTF-8, said: "... is" or "... are". */
const utf8Said = (cells: readonly NamedCell[]) =>
  `${cells.map((c) => cellSaid(c, ungarbled(c.text))).join(' and ')} ${cells.length === 1 ? 'is' : 'are'}`
/** Cells of Mac Roman read as Windows-1252, said with the text each most likely was. */
const macSaid = (cells: readonly NamedCell[]) => cells.map((c) => cellSaid(c, asMacRoman(c.text))).join(' and ')

/** The fields a row's address is made of. */
const ADDRESS_FIELDS = new Set(['address', ...ADDRESS_PARTS])

/**
 * What the refusal of a row's address that cannot be placed adds when its address cells are
 * garbled: the text they most likely were and how to read them so; null when none is.
 */
export function garbledAddress(cells: readonly NamedCell[]): string | null {
  const address = cells.filter((c) => ADDRESS_FIELDS.has(c.field))
  const garbled = address.filter((c) => MOJIBAKE.test(c.text))
  if (garbled.length > 0) return `${utf8Said(garbled)} garbled: ${UTF8_MISREAD}. ${OPEN_RIGHT}`
  const mac = address.filter((c) => macRomanMisread(c.text))
  if (mac.length > 0)
    return `${macSaid(mac)} ${mac.length === 1 ? 'reads' : 'read'} ${MAC_MISREAD}: import the file again ${MAC_ENCODING}.`
  const dos = address.filter((c) => dosMisread(c.text))
  if (dos.length === 0) return null
  return `${dos.map((c) => cellSaid(c, null)).join(' and ')} ${dos.length === 1 ? 'reads' : 'read'} ${DOS_MISREAD}: save ${DOS_UTF8}.`
}

/** The warnings of a row's cells whose text was garbled, one for each cause; none for clean cells. */
export function garbledNotes(cells: readonly NamedCell[]): string[] {
  const notes: string[] = []
  const garbled = cells.filter((c) => MOJIBAKE.test(c.text))
  if (garbled.length > 0)
    notes.push(`${utf8Said(garbled)} garbled: ${UTF8_MISREAD}, and saved so. Imported as written. ${OPEN_RIGHT}`)
  const mac = cells.filter((c) => !MOJIBAKE.test(c.text) && macRomanMisread(c.text))
  if (mac.length > 0)
    notes.push(
      `${macSaid(mac)} read ${MAC_MISREAD}. Imported as written. If the file is from a Mac, import it again ${MAC_ENCODING}.`,
    )
  const dos = cells.filter((c) => !MOJIBAKE.test(c.text) && !macRomanMisread(c.text) && dosMisread(c.text))
  if (dos.length > 0)
    notes.push(
      `${dos.map((c) => cellSaid(c, null)).join(' and ')} read ${DOS_MISREAD}. Imported as written. Save ${DOS_UTF8}.`,
    )
  const lost = cells.filter(
    (c) => WORD_FIELDS.has(c.field) && !c.formula && !c.error && !MOJIBAKE.test(c.text) && LOST_LETTER.test(c.text),
  )
  if (lost.length > 0) {
    const said = lost.map(({ header, text }) => `${JSON.stringify(text)} in the "${header}" column`)
    notes.push(
      `A "?" stands for a letter in ${said.join(' and ')}: Excel writes "?" for a letter the file's encoding cannot hold (Polish "ń" in Windows-1252), and the letter is lost. Imported as written: type the letters again, and save as "CSV UTF-8 (Comma delimited)", which keeps every letter.`,
    )
  }
  const dates = cells.filter((c) => c.field.startsWith('hours') && hoursAsDate(c.text))
  if (dates.length > 0) {
    const said = dates.map(({ header, text }) => `${JSON.stringify(text)} in the "${header}" column`)
    notes.push(
      `${said.join(' and ')} ${dates.length === 1 ? 'is a date' : 'are dates'} a spreadsheet made of hours typed as "9-5": kept as written, their hours unknown. Format those columns as Text, type the hours again with their minutes ("09:00-17:00"), and save.`,
    )
  }
  for (const cell of cells) {
    const { header, text, field, formula } = cell
    if (cell.error) notes.push(excelErrorSaid(cell, ' (a value stored before stays)'))
    else if (formula)
      notes.push(
        `${JSON.stringify(text)} in the "${header}" column is a spreadsheet formula, not its value: imported as written. In the spreadsheet, copy the column and paste it as values, then save the file again.`,
      )
    else if (field === 'contact.phone' && lostDigits(text))
      notes.push(
        `${JSON.stringify(text)} in the "${header}" column is a phone number Excel wrote in scientific notation: its last digits are lost, so it was not read (a phone stored before stays). In Excel, format the column as Text, type the numbers again, and save.`,
      )
  }
  return notes
}
