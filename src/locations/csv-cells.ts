// How a locations CSV's cells hold what a spreadsheet would read otherwise: formulas, and the
// dates of the special hours cell. Shared by the reader (csv.ts) and the writer (csv-write.ts).

/**
 * A text a spreadsheet runs as a formula starts with one of = + - @ tab CR. So does a part of a
 * cell after a ";", a ",", a tab or a line break: a spreadsheet that splits on one (Excel splits on
 * its locale's list separator, whatever the file's) reads it as a cell of its own, quotes or not.
 * Written, each such start, and one that is only quotes before such a start, gains a "'"; read,
 * one "'" is taken off each, so reading gives back what was written.
 */
/** Where such a start is: after a separator, or (`at` "^|") the cell's start too; `mark`, the "'" written before it. */
const formulaStarts = (at: '^|' | '', mark: "'" | '') =>
  new RegExp(`(${at}[;,\\t\\n\\r])${mark}(?='*[=+\\-@\\t\\r])`, 'g')
const FORMULA_WRITTEN = formulaStarts('^|', '')
const FORMULA_READ = formulaStarts('^|', "'")
export const guardCell = (text: string) => text.replace(FORMULA_WRITTEN, "$1'")
export const unguardCell = (cell: string) => cell.replace(FORMULA_READ, '$1')

/**
 * An hours text the import reads as closed when typed so ("x", a dash alone: spreadsheets write a
 * day closed so), after any number of "'". The export writes such a text with one "'" more, as a
 * spreadsheet keeps a text as typed ("'-"), in the day columns and the special hours; the import
 * takes that one off and keeps the rest as it is.
 */
const CLOSED_WHEN_BARE = /^'*(?:x|[-\u2010-\u2015\u2212]+)$/i

/** An hours text as the export writes it: one "'" more before a CLOSED_WHEN_BARE text. */
export const markKept = (text: string) => (CLOSED_WHEN_BARE.test(text) ? `'${text}` : text)

/** The text markKept wrote after a "'" ("'-": "-"), to keep as it is; null for any other. */
export const keptText = (written: string): string | null =>
  written.startsWith("'") && CLOSED_WHEN_BARE.test(written) ? written.slice(1) : null

/** guardCell's "'" after a separator only: a kept day's cell starts with a "'" of its own. */
const FORMULA_WRITTEN_INNER = formulaStarts('', '')
const FORMULA_READ_INNER = formulaStarts('', "'")

/**
 * A day's text as a day column's cell to keep as written: a "'" first, and guardCell's after each
 * separator. The export writes so every text the import would read otherwise ("x", "-", a note of
 * other days' hours, a text starting with "'" or a formula's sign): a spreadsheet keeps a text
 * typed after a "'" as typed.
 */
export const keptDayCell = (text: string) => `'${text.replace(FORMULA_WRITTEN_INNER, "$1'")}`

/** The text of a day column's cell that starts with a "'" (keptDayCell's), kept as written; null for any other. */
export const keptDayText = (written: string): string | null =>
  written.startsWith("'") ? written.slice(1).replace(FORMULA_READ_INNER, '$1') : null

/** A date as the special hours cell writes it, not within a longer run of digits. */
export const DATE_AT = /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g
/** Separators left between one date's hours and the next date. */
export const SPECIAL_TRAILING = /[\s;,|]+$/
/** What may stand between a date and its hours: Google Business Profile writes "2026-12-24: x". */
export const SPECIAL_LEADING = /^\s*:/

/**
 * Between tags a cell holds with no "|", ";" or ",": a slash with spaces around it ("Repairs /
 * Rentals"); one without ("24/7", "A/C") is part of a tag.
 */
export const TAG_SLASH = /\s+\/\s+/

/** A formula of one text, as back offices write codes for Excel to keep their leading zeros: ="01067". */
const TEXT_FORMULA = /^="((?:[^"]|"")*)"$/

/** The text of a cell that is a formula of one text (="01067": 01067), else null. */
export function formulaText(cell: string): string | null {
  const m = TEXT_FORMULA.exec(cell)
  return m === null ? null : m[1]!.replaceAll('""', '"').trim()
}

/**
 * A cell's text as its row reads it (csv-row.ts): a formula of one text is that text, a guarded
 * cell is read without its guards. A column judged by its cells judges them so.
 */
export const cellText = (cell: string): string => formulaText(cell) ?? unguardCell(cell)
