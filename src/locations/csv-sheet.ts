// Lines of a sheet below its header that are no stores: the header again, as a second sheet pasted
// below with its own; another sheet's header; totals rows at the bottom. Each is skipped and said,
// or refused naming what it is.
import { nameKey } from '../core/text'
import { daysNamedTogether } from '../core/week-days'
import { columnField, daysColumn } from './csv-columns'
import { countLine, rulerLine } from './csv-dump'
import type { Column } from './csv-header'
import { at, type CsvError, columnLetter, filledCells, lineShown, type RawRecord } from './csv-records'

/** Whether a line repeats the header: the same cells, whatever their case and spacing. */
export const repeatsHeader = (r: RawRecord, header: RawRecord) =>
  filledCells(r).length > 0 &&
  r.cells.length >= filledCells(header).length &&
  header.cells.every((cell, i) => nameKey(cell) === nameKey(r.cells[i] ?? ''))

/**
 * The note of lines that repeat the header: skipped, not read as stores. `only`: no line below
 * the header is a store, as in files of a header alone joined into one.
 */
export function repeatedNote(lines: readonly RawRecord[], header: readonly RawRecord[], only = false): string {
  const which =
    lines.length === 1 ? `Line ${lines[0]!.line} repeats` : `Lines ${lines.map((r) => r.line).join(', ')} repeat`
  const at = header.length === 1 ? `line ${header[0]!.line}` : `lines ${header.map((r) => r.line).join(' and ')}`
  if (only)
    return `${which} the header (${at}), as files of a header alone joined into one do: read as no store. No line below the header is a store, so nothing is imported: export the sheet again with its rows.`
  return `${which} the header (${at}), as a second sheet pasted below the first does: read as no store.`
}

/** The note of a header with no line below it: nothing imported, said as repeatedNote says it. */
export function headerAloneNote(header: readonly RawRecord[]): string {
  const which =
    header.length === 1 ? `Line ${header[0]!.line} is` : `Lines ${header.map((r) => r.line).join(' and ')} are`
  return `${which} the header, and no line below it holds a store, so nothing is imported: export the sheet again with its rows.`
}

/**
 * The refusal of a line below the header that names three fields or more, and mostly fields, as a
 * header does: another sheet's rows pasted below, read in this header's columns; null for a row.
 */
export function otherHeader(r: RawRecord, header: RawRecord): CsvError | null {
  const cells = filledCells(r)
  const named: string[] = []
  const fields = new Set<string>()
  // Most rows name no field in their first cells: they are let go as soon as most cannot.
  for (let i = 0; i < cells.length; i++) {
    // "x" and "y" name coordinates in a header, but in a row they are Google's closed days.
    const field = cells[i]!.length < 2 ? null : columnField(cells[i]!)
    if (field !== null) {
      named.push(cells[i]!)
      fields.add(field)
    }
    if ((i + 1 - named.length) * 2 > cells.length) return null
  }
  if (fields.size < 3) return null
  // Days alone are a header's second line (a merged "Opening hours" cell above them), not another sheet's.
  if ([...fields].every((field) => field.startsWith('hours.')))
    return at(
      r.line,
      `this line names days (${named.join(', ')}) as the second line of a header does, below rows of stores. A header is one line, at the top: write each day's name in the header (line ${header.line}), over the column of its hours, and delete line ${r.line}; or, if the header names them already, delete line ${r.line}.`,
    )
  return at(
    r.line,
    `this line names columns (${named.join(', ')}) as a header does: another sheet's rows pasted below this one's, read in the columns of the header on line ${header.line}. Put every row under one header, in its columns, or import each sheet as a file of its own.`,
  )
}

/** What a totals row's name cell starts with, in the languages the headers are read in. */
const TOTAL = /^(?:grand\s+)?(?:totals?|sum|summe|gesamt|insgesamt|total\s+général|totale|totaal|somme|suma)\b/iu
/** A sum as a sheet writes it: digits with separators, a sign, a currency or a percent. */
const NUMBER = /^[-+]?[\p{Sc}]?\s?\d[\d.,'\s]*\s?[\p{Sc}%]?$/u
/** The fields a store is found or placed by, every address part: a totals row fills none of them. */
const PLACE_FIELDS =
  /^(?:id|external_id|address|street|house_number|street2|city|postcode|region|country|country_code|coordinates(?:\..*)?)$/

/**
 * Whether a row names no store, as a totals row does: no id, address part or coordinates, no
 * store code but "Total" beside an empty name and sums in columns not read, and an empty name or
 * one such as "Total".
 */
export function totalsRow(columns: readonly Column[]): (r: RawRecord) => boolean {
  const nameAt = columns.findIndex((c) => c.field === 'name')
  const codeAt = columns.findIndex((c) => c.field === 'external_id')
  return (r) => {
    const name = r.cells[nameAt] ?? ''
    // "Total" in the store code column, a sheet's first, with no name is its sum too, when its
    // numbers are beside it in columns not read: a code with digits ("TOTAL-7"), a phone, or the
    // code alone is a store's row.
    const code = codeAt >= 0 ? (r.cells[codeAt] ?? '') : ''
    const sumsUnread =
      filledCells(r).length > 1 &&
      r.cells.every((cell, i) => i === codeAt || cell.trim() === '' || columns[i]?.field == null)
    const totalAt = name === '' && TOTAL.test(code) && !/\d/.test(code) && sumsUnread ? codeAt : -1
    // A sum's row: "Total" in its name cell, or else nothing but numbers ("10", "1.234,50 €") and such words.
    const summed =
      name === '' ? filledCells(r).every((cell) => NUMBER.test(cell) || TOTAL.test(cell)) : TOTAL.test(name)
    return (
      summed &&
      filledCells(r).length > 0 &&
      columns.every(
        ({ field }, i) => i === totalAt || field === null || (r.cells[i] ?? '') === '' || !PLACE_FIELDS.test(field),
      )
    )
  }
}

/**
 * Whether line `i` below the header names no store: a totals row, or a dump's ruler or count of
 * the rows above it (totalsFrom's). A read cut at maxRows reads on past such lines.
 */
export function noStoreLine(columns: readonly Column[]): (r: RawRecord, i: number) => boolean {
  const totals = totalsRow(columns)
  const counts = columns.length > 1
  return (r, i) => totals(r) || rulerLine(r) || (counts && countLine(r, i))
}

/** Where the totals rows at the bottom start (records.length when none): rows below the first that name no store. */
export function totalsFrom(records: readonly RawRecord[], columns: readonly Column[]): number {
  const totals = totalsRow(columns)
  let from = records.length
  // A dump's last lines, below any totals row: a ruler, or a line counting the rows above it. In a
  // file of one column (store codes kept by delete_missing) each line is one cell: none counts.
  const counts = columns.length > 1
  while (from > 1 && (rulerLine(records[from - 1]!) || (counts && countLine(records[from - 1]!, from - 1)))) from--
  // A totals row sums the stores above it: a file's only row is read as a store, and refused as one.
  while (from > 1 && totals(records[from - 1]!)) from--
  return from
}

/**
 * The note of the totals rows skipped, in a list (none when the lines are rulers alone): what they
 * held, so a store among them is seen.
 */
export function totalsNote(skipped: readonly RawRecord[]): string[] {
  const lines = skipped.filter((r) => !rulerLine(r))
  if (lines.length === 0) return []
  if (lines.length === 1)
    return [
      `Line ${lines[0]!.line} (${lineShown(lines[0]!)}) at the bottom names no store: read as a totals row, not a store. If it is one, give it its name and its address or coordinates.`,
    ]
  return [
    `Lines ${lines.map((r) => r.line).join(', ')} (${lines.map(lineShown).join(', ')}) at the bottom name no store: read as totals rows, not stores. If one is a store, give it its name and its address or coordinates.`,
  ]
}

/** The address parts a merged cell spans rows of (a region's or a city's stores, one under another), finest first. */
const MERGED_FIELDS = ['city', 'region', 'country']

/**
 * What a row's refusal of its address adds when its city, region or country cell is empty below
 * one filled, as the rows under a merged cell's first are; null when none is. Fed every row in
 * order. A merged cell spans adjacent lines: an empty line, or a line read as no store, between
 * two rows ends it.
 */
export function mergedLeftovers(columns: readonly Column[]): (r: RawRecord) => string | null {
  const rank = (i: number) => MERGED_FIELDS.indexOf(columns[i]!.field ?? '')
  const at = columns.flatMap((_, i) => (rank(i) >= 0 ? [i] : []))
  const above = new Map<number, RawRecord>()
  let next: number | null = null
  // A cell merged over rows lies within one region and country: a row that fills a coarser part
  // otherwise than the row above it is under no merged cell of a finer one. Compared folded: "USA"
  // under "usa " is the same country.
  const within = (r: RawRecord, i: number) =>
    at.every(
      (j) => rank(j) <= rank(i) || r.cells[j] === '' || nameKey(r.cells[j]!) === nameKey(above.get(i)!.cells[j] ?? ''),
    )
  return (r) => {
    if (r.line !== next) above.clear()
    next = r.next
    const empty = at.filter((i) => r.cells[i] === '' && above.has(i) && within(r, i))
    for (const i of at) if (r.cells[i] !== '') above.set(i, r)
    if (empty.length === 0) return null
    const lines = new Map<number, string[]>()
    for (const i of empty) {
      const { line, cells } = above.get(i)!
      lines.set(line, [...(lines.get(line) ?? []), JSON.stringify(cells[i])])
    }
    const had = [...lines].map(([line, cells]) => `line ${line} has ${cells.join(' and ')}`).join('; ')
    const named = empty.map((i) => `"${columns[i]!.header}"`).join(' and ')
    return `Its ${named} ${empty.length === 1 ? 'cell is' : 'cells are'} empty (${had}), as the rows below a merged cell's first are: in the spreadsheet, unmerge the cells and fill each row's in.`
  }
}

/**
 * The refusal of a first row that only names columns, one under an empty header cell or past
 * the header at least: the second line of a header whose merged cell spans columns; null for a row.
 */
export function headerSecondLine(r: RawRecord, header: RawRecord): CsvError | null {
  const filledAt = r.cells.flatMap((cell, i) => (cell === '' ? [] : [i]))
  const names = (i: number) => r.cells[i]!.length >= 2 && columnField(r.cells[i]!) !== null
  if (filledAt.length === 0 || !filledAt.every(names) || filledAt.every((i) => (header.cells[i] ?? '') !== ''))
    return null
  const where = filledAt.map((i) => `${r.cells[i]} in column ${columnLetter(i)}`).join(', ')
  return at(
    r.line,
    `this line names columns (${filledAt.map((i) => r.cells[i]).join(', ')}) below the header, as a merged cell above them leaves: a header is one line. Write each column's name in line ${header.line} (${where}) and delete line ${r.line}.`,
  )
}

/** Whether a cell names days as a column of their hours is headed: "Monday", "Mo", "Mo-Fr", "Samstag". */
const namesDays = (cell: string) =>
  cell.length >= 2 && (daysColumn(cell) !== null || !!columnField(cell)?.startsWith('hours.'))

/**
 * The header completed by the line below it when that line names days over the columns of their
 * hours, as a merged "Opening hours" cell above them exports (`Name,Address,Opening hours,,` then
 * `,,Monday,Tuesday,...`): the header's cells with the day names in place of those above them.
 * Null when `r` is no such line: it names fewer than two columns of days, a day twice but below
 * one merged cell, or cells other than days that do not repeat the header's above them. Refused
 * when a day stands below a column of another field: which column is meant is the person's to
 * say; and when such other cells are fewer than its days and a day stands under an empty header
 * cell, as in a line of days with a stray cell (`,,Mo-Fr,Sa,So,Mobil`): the rows below could not
 * fill those columns.
 */
export function daysBelow(r: RawRecord, header: RawRecord, columns: readonly Column[]): RawRecord | CsvError | null {
  const filledAt = r.cells.flatMap((cell, i) => (cell === '' ? [] : [i]))
  const dayAt = filledAt.filter((i) => namesDays(r.cells[i]!))
  if (dayAt.length < 2) return null
  // A cell naming its column again ("Store name" below "Name") is the header's second line too.
  const repeats = (i: number) =>
    nameKey(r.cells[i]!) === nameKey(header.cells[i] ?? '') ||
    (columns[i]?.field != null && columnField(r.cells[i]!) === columns[i]!.field)
  const others = filledAt.filter((i) => !dayAt.includes(i) && !repeats(i))
  const days = daysNamedTogether(dayAt.map((i) => r.cells[i]!)).flat()
  if (days.length === 0) return null
  // A day named twice ("Sa-So" and "Sonntag") is a line of days only below one merged cell, the
  // header written above its first day and empty above the rest, and with no other cell (a store's
  // name): the header's reading then says which of the two columns holds that day's hours.
  const merged = (header.cells[dayAt[0]!] ?? '') !== '' && dayAt.slice(1).every((i) => (header.cells[i] ?? '') === '')
  if (new Set(days).size < days.length && !(merged && others.length === 0)) return null
  const fieldAt = (i: number) => columns[i]?.field ?? null
  // Days below columns of days are rows of a sheet that names them twice: not the header's to mend.
  if (dayAt.some((i) => fieldAt(i)?.startsWith('hours') && fieldAt(i) !== 'hours')) return null
  const where = dayAt.map((i) => `${r.cells[i]} in column ${columnLetter(i)}`).join(', ')
  if (others.length > 0) {
    // Days under a column the header leaves unnamed, which a row may not fill, and fewer other
    // cells than days (a row has its name and address), are a line of days with a stray cell.
    if (others.length >= dayAt.length || !dayAt.some((i) => (header.cells[i] ?? '') === '')) return null
    const stray = others.map((i) => `${r.cells[i]} in column ${columnLetter(i)}`).join(', ')
    const cells = others.map((i) => r.cells[i]).join(' and ')
    return at(
      r.line,
      `this line names days below the header (${where})${mergedAbove(dayAt, header)}, but also ${stray}, which ${others.length === 1 ? 'is no day' : 'are no days'}. Delete ${cells} from line ${r.line}, and its days head those columns' hours; or write each day's name in line ${header.line}, over the column of its hours, and delete line ${r.line}.`,
    )
  }
  const under = dayAt.filter((i) => fieldAt(i) !== null && fieldAt(i) !== 'hours')
  if (under.length > 0)
    return at(
      r.line,
      `this line names days (${where}) below the header, but ${under.map((i) => `${r.cells[i]} is below "${columns[i]!.header}"`).join(', ')}, a column of another field. A header is one line: write each day's name in line ${header.line}, over the column of its hours, and delete line ${r.line}.`,
    )
  const cells = Array.from({ length: Math.max(header.cells.length, r.cells.length) }, (_, i) =>
    dayAt.includes(i) ? r.cells[i]! : (header.cells[i] ?? ''),
  )
  return { cells, line: header.line, next: r.next }
}

/** Whether a line names the days a line of days (daysBelow) names, in its columns: "Mon" for "Monday". */
export function repeatsDays(r: RawRecord, days: RawRecord): boolean {
  const filledAt = (x: RawRecord) => x.cells.flatMap((cell, i) => (cell === '' ? [] : [i]))
  const at = filledAt(r)
  const them = filledAt(days)
  if (at.length !== them.length || at.some((i, k) => i !== them[k])) return false
  const named = (x: RawRecord) => daysNamedTogether(at.map((i) => x.cells[i]!)).map((d) => d.join())
  const theirs = named(days)
  return named(r).every(
    (d, k) => d === theirs[k] && (d !== '' || nameKey(r.cells[at[k]!]!) === nameKey(days.cells[at[k]!]!)),
  )
}

/** The note of a line of days read as the second line of the header. */
export function daysBelowNote(r: RawRecord, header: RawRecord): string {
  const dayAt = r.cells.flatMap((cell, i) => (namesDays(cell) ? [i] : []))
  return `Line ${r.line} names days below the header (${dayAt.map((i) => `${r.cells[i]} in column ${columnLetter(i)}`).join(', ')}): read as the headers of those columns' hours${mergedAbove(dayAt, header)}, not as a store.`
}

/** What a line of days' note says of the header cells above its days: the merged cell they were exported from. */
function mergedAbove(dayAt: readonly number[], header: RawRecord): string {
  const above = [...new Set(dayAt.map((i) => header.cells[i] ?? '').filter((cell) => cell !== ''))]
  return above.length === 0
    ? ''
    : `, as a merged ${above.map((cell) => `"${cell}"`).join(' and ')} cell above them exports`
}
