// What `locations import` prints: a progress line while a long import runs, then the summary of
// what it did (or a dry run would do), how addresses were geocoded, and what to look at.
import { unprintableChar } from '../core/text'
import { daysNamedTogether } from '../core/week-days'
import { writeStderr } from '../core/write-whole'
import type { BulkItem, BulkProgress, BulkReport, BulkResult } from '../locations/bulk'
import { problemParts } from '../locations/bulk-problems'
import { saysStoredRepeats } from '../locations/bulk-repeats'
import { type CsvRead, DAYS_FIELD } from '../locations/csv'
import { COUNTRY_CODE } from '../locations/csv-address'
import { columnField, fallbackField, fieldSaid, MORE_PHONES, meantColumn } from '../locations/csv-columns'
import { timeField } from '../locations/csv-times'
import { DAYS } from '../store/locations'

/** Progress shows only for imports that run longer than this (ms): short ones print the summary alone. */
const QUIET_MS = 1000
/** A terminal's progress line is redrawn at most this often (ms); plain lines come this far apart. */
const REDRAW_MS = 100
const LINE_MS = 5000
/** Locations listed at most in each part of the summary (warned, deleted); --json lists them all. */
const MAX_LISTED = 50

/**
 * Prints progress to standard error: one line redrawn on a terminal, plain lines otherwise, each
 * before the error lines that follow it (writeStderr). By default nothing with --json or for an
 * import shorter than QUIET_MS; `always` (--progress) from the start. `dryRun`: its end says
 * nothing written.
 */
export function progressPrinter(rows: number, json: boolean, always: boolean, dryRun: boolean) {
  const tty = process.stderr.isTTY === true
  const start = performance.now()
  let shownAt = 0
  let drawn = false
  let shown = ''
  const state = { geocoded: '', written: '', unplaced: 0 }
  const text = () => `${plural(rows, 'row')} read${state.geocoded}${state.written}`
  const show = () => {
    shown = text()
    if (tty) {
      writeStderr(`\r${shown}\x1b[K`)
      drawn = true
    } else writeStderr(`${shown}\n`)
  }
  return {
    update(p: BulkProgress): void {
      // Looked up, not geocoded: an address the geocoder cannot place is refused after the lookups.
      if (p.stage === 'geocoded') {
        if (p.at === undefined) state.unplaced++
        const unplaced = state.unplaced === 0 ? '' : `, ${state.unplaced} not placed`
        state.geocoded = `, ${p.done} of ${plural(p.total, 'address', 'addresses')} looked up${unplaced}`
      }
      if (p.stage === 'written') state.written = dryRun ? ', nothing written (dry run)' : `, ${p.done} written`
      const now = performance.now()
      const quiet = !always && (json || now - start < QUIET_MS)
      if (quiet || (now - shownAt < (tty ? REDRAW_MS : LINE_MS) && p.stage !== 'written' && shownAt !== 0)) return
      shownAt = now
      show()
    },
    /** Shows the last progress when a line was shown before it (a refused import ends here), and ends the terminal's line. */
    done(): void {
      if (shownAt !== 0 && shown !== text()) show()
      if (drawn) writeStderr('\n')
    },
  }
}

/** "1 row", "2 rows". */
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "line 7 (external_id "S-1")": where a result's row is, for a person. */
function where(items: BulkItem[], index: number | null, externalId: string | null): string {
  const key = index === null ? 'not in the file' : items[index]!.key
  return externalId === null ? key : `${key} (external_id ${JSON.stringify(externalId)})`
}

/**
 * How the addresses geocoded were placed: counts by precision, and the distinct points they stand
 * on (`points`, null when not counted) when fewer than the addresses.
 */
export function geocodingLine(
  report: { results: { geocoding: { precision: string } | null }[] },
  points: number | null,
): string | null {
  const geocoded = report.results.filter((r) => r.geocoding !== null)
  if (geocoded.length === 0) return null
  const byPrecision = new Map<string, number>()
  for (const r of geocoded) byPrecision.set(r.geocoding!.precision, (byPrecision.get(r.geocoding!.precision) ?? 0) + 1)
  const order = ['rooftop', 'street', 'postcode', 'city', 'region', 'country']
  const counts = [...byPrecision]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([precision, n]) => `${n} ${precision}`)
  const shared =
    points !== null && points > 0 && points < geocoded.length
      ? `, on ${plural(points, 'point')} (stores placed at one postcode or town stand on one point)`
      : ''
  const line = `Geocoded ${geocoded.length} address${geocoded.length === 1 ? '' : 'es'}: ${counts.join(', ')}${shared}.`
  // No point finer than a postcode's: the built-in geocoder's (it knows no streets), or a poor file.
  const fine = (byPrecision.get('rooftop') ?? 0) + (byPrecision.get('street') ?? 0)
  return fine > 0
    ? line
    : `${line} No address was placed at its street: for points at the door, fill in the coordinate columns, or use an HTTP geocoder that knows streets (docs/geocoding.md).`
}

/** The line after a list cut at MAX_LISTED, if it was. */
const more = (n: number): string[] =>
  n > MAX_LISTED ? [`  ... and ${n - MAX_LISTED} more (--json lists them all).`] : []

/** The summary `locations import` prints without --json. */
export function importSummary(
  file: string,
  locatorId: string,
  items: BulkItem[],
  report: BulkReport,
  unknownColumns: string[],
  columns: CsvRead['columns'] = [],
  notes: CsvRead['notes'] = [],
  points: number | null = null,
): string {
  const { created, updated, unchanged, deleted, absent } = report
  // Only a JSON file's delete items can name no location: a file without them is not told of it.
  const none = absent > 0 ? `, ${absent} absent` : ''
  const lines = [
    report.dry_run
      ? `Dry run of ${file} on ${locatorId}, nothing written: ${created} to create, ${updated} to update, ${unchanged} unchanged, ${deleted} to delete${none}.`
      : `Imported ${file} into ${locatorId}: ${created} created, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted${none}.`,
    ...notes,
  ]
  const geocoding = geocodingLine(report, points)
  if (geocoding !== null) lines.push(geocoding)
  const warned = report.results.filter((r) => r.warnings.length > 0)
  if (warned.length > 0) {
    lines.push(`Check ${warned.length} location${warned.length === 1 ? '' : 's'}:`)
    lines.push(...checkLines(items, warned))
  }
  // What changes in each store updated: a dry run is a preview of the diff.
  const updates = report.results.filter((r) => r.action === 'updated')
  if (updates.length > 0) {
    lines.push(`${report.dry_run ? 'To update' : 'Updated'}:`)
    for (const r of updates.slice(0, MAX_LISTED))
      lines.push(`  ${where(items, r.index, r.external_id)}: ${(r.changes ?? []).join(', ')}`)
    lines.push(...more(updates.length))
  }
  // What is deleted is named, what the file's delete items name apart from what --delete-missing
  // finds (no item, index null): a dry run is where a wrong file shows.
  const deletions = report.results.filter((r) => r.action === 'deleted')
  for (const [gone, why] of [
    [deletions.filter((r) => r.index !== null), 'delete items of the file'],
    [deletions.filter((r) => r.index === null), 'external_id not in the file'],
  ] as const) {
    if (gone.length === 0) continue
    lines.push(`${report.dry_run ? 'To delete' : 'Deleted'} (${why}):`)
    for (const r of gone.slice(0, MAX_LISTED))
      lines.push(
        `  ${r.name} (${r.id}${r.external_id === null ? '' : `, external_id ${JSON.stringify(r.external_id)}`})`,
      )
    lines.push(...more(gone.length))
  }
  // A dry run is where a column read as another field than meant shows.
  const read = report.dry_run ? readColumns(columns) : null
  if (read !== null) lines.push(read)
  lines.push(...unreadColumns(unknownColumns, columns))
  // Said once: a file repeating stored stores says so with the count under the counts. Rows that
  // repeat each other (repeatedRowsNote) say nothing of importing the file again: this does.
  if (created > 0 && !saysStoredRepeats(report.notes) && items.every((i) => !matchable(i.raw))) lines.push(NO_CODES)
  return lines.join('\n')
}

/** The geocoder's warning of an address placed only at its town (or coarser): `(where)` names the place. */
const COARSE_WARNING = /^The address was placed only at ([a-z]+) level(?: \((.+)\))?: check it, or send coordinates\.$/

/** The warnings of the locations to check, under "Check N locations:" (see warningLines). */
function checkLines(items: BulkItem[], warned: BulkResult[]): string[] {
  const rows = warned.map((r) => ({
    key: r.index === null ? 'not in the file' : items[r.index]!.key,
    who: where(items, r.index, r.external_id),
    warnings: r.warnings,
  }))
  return warningLines(rows, { most: MAX_LISTED, all: '--json lists them all' }).map((line) => `  ${line}`)
}

/** A row's warnings: `key` names it in a group ("line 7"), `who` on a line of its own ("line 7 (external_id "S-1")"). */
export type RowWarnings = { key: string; who: string; warnings: string[] }

/**
 * Rows' warnings as lines "<row>: <warning>", one per row and warning, but a warning that many
 * rows share once, where it first occurs, naming a few of its rows; and the coarse placing that
 * many rows share (a file of addresses without coordinates, placed by the built-in geocoder) once
 * at the end: the warnings particular to a row stay in sight. A row's days of one unread hours
 * text are one warning. `most`: rows listed at most; `all`: where the rest are seen, if anywhere.
 * The CLI's summary and examples/sync.ts print them so.
 */
export function warningLines(
  warned: RowWarnings[],
  { most = Number.POSITIVE_INFINITY, all }: { most?: number; all?: string } = {},
): string[] {
  const rows = warned.map((row) => ({ ...row, warnings: joinedDays(row.warnings) }))
  const coarse = new Map<string, string[]>()
  for (const { key, warnings } of rows)
    for (const w of warnings) {
      const m = COARSE_WARNING.exec(w)
      if (m === null) continue
      // The town alone ("Portland, Oregon": Portland): the rows' places are listed apart by commas.
      const town = m[2]?.split(', ')[0]
      coarse.set(m[1]!, [...(coarse.get(m[1]!) ?? []), town === undefined ? key : `${key}: ${town}`])
    }
  const grouped = (w: string) => (coarse.get(COARSE_WARNING.exec(w)?.[1] ?? '')?.length ?? 0) >= GROUP_FROM
  const own = rows
    .map((row) => ({ ...row, warnings: row.warnings.filter((w) => !grouped(w)) }))
    .filter((row) => row.warnings.length > 0)
  const sharedBy = new Map<string, string[]>()
  for (const { key, warnings } of own) for (const w of warnings) sharedBy.set(w, [...(sharedBy.get(w) ?? []), key])
  const printed = new Set<string>()
  const lines = own.slice(0, most).flatMap(({ who, warnings }) =>
    warnings.flatMap((w) => {
      const keys = sharedBy.get(w)!
      if (keys.length < GROUP_FROM) return [`${who}: ${w}`]
      if (printed.has(w)) return []
      printed.add(w)
      return [`${rowsNamed(keys, all)}: ${w}`]
    }),
  )
  if (own.length > most) lines.push(`... and ${own.length - most} more${all === undefined ? '' : ` (${all})`}.`)
  for (const [precision, keys] of coarse)
    if (keys.length >= GROUP_FROM)
      lines.push(
        `${rowsNamed(keys, all)}: The address was placed only at ${precision} level: check them, or send coordinates.`,
      )
  return lines
}

/** "4 rows (line 2, line 3, line 4 and 1 more; --json lists them all)": a group of rows, its first few named. */
function rowsNamed(keys: string[], all: string | undefined): string {
  const rest =
    keys.length > GROUP_NAMES ? ` and ${keys.length - GROUP_NAMES} more${all === undefined ? '' : `; ${all}`}` : ''
  return `${keys.length} rows (${keys.slice(0, GROUP_NAMES).join(', ')}${rest})`
}

/** An unread day's warning (locations/opening.ts): the day, then its text and what was made of it. */
const DAY_WARNING = /^hours\.(monday|tuesday|wednesday|thursday|friday|saturday|sunday) (.+)$/

/** A row's warnings, those of its days with one text joined: `hours.monday-friday "auf Zuruf" could not be read ...`. */
function joinedDays(warnings: string[]): string[] {
  const daysOf = new Map<string, number[]>()
  for (const w of warnings) {
    const m = DAY_WARNING.exec(w)
    if (m !== null) daysOf.set(m[2]!, [...(daysOf.get(m[2]!) ?? []), DAYS.indexOf(m[1] as (typeof DAYS)[number])])
  }
  return warnings.flatMap((w) => {
    const m = DAY_WARNING.exec(w)
    if (m === null) return [w]
    const days = daysOf.get(m[2]!)
    if (days === undefined) return [] // told with the first of its days
    daysOf.delete(m[2]!)
    return [days.length === 1 ? w : `hours.${daysLabel(days)} ${m[2]}`]
  })
}

/** Whether an item can match a stored location again: it has an id or an external id. */
function matchable(raw: unknown): boolean {
  const { id, external_id } = (raw ?? {}) as { id?: unknown; external_id?: unknown }
  return (typeof id === 'string' && id !== '') || (typeof external_id === 'string' && external_id !== '')
}

/** Said when no row can match: the next import of the file would create every store a second time. */
const NO_CODES =
  'No row has an external_id, so importing this file again creates every store again. Give each row its store code in an external_id column ("Store Code" is read as one): later imports update the stores they match.'

/**
 * The line naming the columns of a file that were not read, each with the column it most likely
 * meant when misspelt: in the summary, and when the file is refused.
 */
export function unreadColumns(unknownColumns: string[], columns: CsvRead['columns']): string[] {
  // A spelling read only when no other column gives its field ("sl_store" beside "name") names a
  // field: said with the column read instead.
  const readFor = (name: string) => {
    const field = fallbackField(name)
    return field === null
      ? undefined
      : columns.find((c) => c.field === field || (field === 'country' && c.field === COUNTRY_CODE))
  }
  const repeating = unknownColumns.filter((name) => readFor(name) !== undefined)
  // An id column left unread beside store codes is said of the file (csv-id-column.ts foreignIds).
  const none = unknownColumns.filter((name) => readFor(name) === undefined && columnField(name) !== 'id')
  return [
    ...(none.length === 0
      ? []
      : [
          `Columns not read (no location field has these names; docs/cli.md lists the columns): ${none.map(unreadColumn).join(', ')}.`,
        ]),
    ...(repeating.length === 0
      ? []
      : [
          `Columns not read (another column gives their field, and is read): ${repeating.map((name) => `${headerText(name)} (${fieldSaid(fallbackField(name)!)}: "${headerText(readFor(name)!.header)}" is read)`).join(', ')}.`,
        ]),
  ]
}

/**
 * The columns a file's header names, each with its field where the header is not the field's own
 * name; null when every header is (a file of this service's own column names says nothing new).
 */
export function readColumns(columns: CsvRead['columns']): string | null {
  const key = (text: string) => text.toLowerCase().replace(/[\s_.-]/g, '')
  // Columns of days read together, as the week is: "Di" beside "Lu-Ve" is Sunday.
  const dayFields = columns.flatMap(({ field }) => (field?.startsWith(DAYS_FIELD) ? [field] : []))
  const together = daysNamedTogether(dayFields.map((field) => field.slice(DAYS_FIELD.length)))
  const read = columns.flatMap(({ header, field }) => {
    if (field === null) return []
    const label = field.startsWith(DAYS_FIELD) ? daysLabel(together[dayFields.indexOf(field)]!) : fieldLabel(field)
    return [key(header) === key(label) ? headerText(header) : `${headerText(header)} as ${label}`]
  })
  return read.some((column) => column.includes(' as ')) ? `Columns read: ${read.join(', ')}.` : null
}

/** A field as docs/cli.md names its column: "lat", "phone", "monday", "custom.wifi", "monday-friday open". */
function fieldLabel(field: string): string {
  if (field.startsWith('custom_fields.')) return `custom.${field.slice('custom_fields.'.length)}`
  // A code column beside the country column is a country column for the rows whose country cell is empty.
  if (field === COUNTRY_CODE) return 'country'
  // Further numbers give the phone of the rows whose phone cell is empty.
  if (field === MORE_PHONES) return 'phone'
  const time = timeField(field)
  if (time !== null) return `${daysLabel([...time.days])} ${time.end}${time.pair === 1 ? '' : ` ${time.pair}`}`
  return field.slice(field.indexOf('.') + 1)
}

/** The days a column of some days' hours fills: "monday-friday", "saturday & sunday"; "hours" if none. */
function daysLabel(days: number[]): string {
  if (days.length === 0) return 'hours'
  const run = days.every((d, i) => i === 0 || d === (days[i - 1]! + 1) % 7)
  if (run && days.length > 2) return `${DAYS[days[0]!]}-${DAYS[days.at(-1)!]}`
  return days.map((d) => DAYS[d]).join(' & ')
}

function unreadColumn(name: string): string {
  const meant = meantColumn(name)
  return meant === null ? headerText(name) : `${headerText(name)} (did you mean ${meant}?)`
}

/** A header cell as the terminal is shown it: as written, or quoted with escapes when it holds a control character (an escape sequence would act on the terminal). */
const headerText = (name: string): string => (unprintableChar(name) === null ? name : JSON.stringify(name))

/** A problem shared by more rows than this is printed once, with the rows it concerns. */
const GROUP_FROM = 3
/** How many of a group's rows its line names. */
const GROUP_NAMES = 3

/**
 * A refused import's problems, one per line in the order given (the file's): one line per row
 * and problem, but a problem many rows share (a custom field not defined, a column of bad numbers)
 * once, where it first occurs, naming a few of its rows.
 */
export function problemLines(messages: string[]): string[] {
  const parts = messages.map((message) => {
    const m = problemParts(message)
    // Not an item's problem: a group of its own.
    return { message, key: m?.key ?? message, text: m?.text ?? `\0${message}` }
  })
  const keysOf = new Map<string, string[]>()
  for (const { key, text } of parts) {
    const keys = keysOf.get(text)
    if (keys === undefined) keysOf.set(text, [key])
    else keys.push(key)
  }
  const printed = new Set<string>()
  return parts.flatMap(({ message, text }) => {
    const keys = keysOf.get(text)!
    if (keys.length < GROUP_FROM || text.startsWith('\0')) return [message]
    if (printed.has(text)) return []
    printed.add(text)
    const more = keys.length > GROUP_NAMES ? ` and ${keys.length - GROUP_NAMES} more` : ''
    return [`${keys.length} rows (${keys.slice(0, GROUP_NAMES).join(', ')}${more}): ${text}`]
  })
}
