// How examples/sync.ts says what a list changed (or would), and what is worth a look in it: in the
// list's order, whatever requests cut it, each row's warnings in its file's words.
import type { BulkReport } from 'storeloc/client'
// The CLI import's own wording of warnings: one that many rows share once, naming a few of them.
import { warningLines } from '../src/cli/import-report'
import { codeSaid, excelReads, lostZeroPairs } from '../src/locations/bulk-codes'
import { hoursInColumns } from '../src/locations/bulk-problems'
import { type AsBefore, postcodesAsBefore, withoutNoteAsBefore } from '../src/locations/bulk-postcodes'
import type { Row, Stored } from './sync-parts'

/** A row's warnings in its words: a CSV row's hours not read name their columns. */
const warningsSaid = (row: Row, warnings: string[]) =>
  row.item === undefined ? warnings : hoursInColumns(warnings, row.item.hoursColumns, row.item.specialColumn)

/**
 * " 3 codes of the list differ ..." when rows the list would create have the codes of stores it
 * would delete but for leading zeros ("1" for "0001": the sheet was saved in Excel); else "".
 */
export function lostZeros(planned: BulkReport[], gone: { external_id: string }[]): string {
  const created = planned
    .flatMap((report) => report.results)
    .flatMap((r) => (r.action === 'created' && r.external_id !== null ? [r.external_id] : []))
  const pairs = lostZeroPairs(gone.map((g) => g.external_id), created)
  const [first] = pairs
  if (first === undefined) return ''
  const codes =
    pairs.length === 1
      ? 'One code of the list differs from a stored one'
      : `${pairs.length} codes of the list differ from stored ones`
  // Either side may be the one a spreadsheet spoilt: an earlier import from Excel stored "7".
  return ` ${codes} only in leading zeros (${codeSaid(first[0])} in the list, ${codeSaid(first[1])} stored): a spreadsheet drops them (Excel reads ${excelReads(first)}). Format the column as text, give the codes as stored, and run the sync again.`
}

/** The stores created and updated (`results`, in the list's order), then those deleted: done, or in a dry run to do. */
export function printChanges(results: BulkReport['results'], gone: Stored[], goneAlready: Set<string>, dryRun = false): void {
  const verb = dryRun ? { created: 'would create', updated: 'would update', deleted: 'would delete' } : undefined
  for (const r of results)
    if (r.action === 'created' || r.action === 'updated') {
      const what = r.changes ? `: ${r.changes.join(', ')}` : ''
      console.log(`${verb?.[r.action] ?? r.action} ${r.external_id}${r.id ? ` (${r.id})` : ''}${what}`)
    }
  for (const g of gone)
    console.log(`${goneAlready.has(g.id) ? 'already gone' : (verb?.deleted ?? 'deleted')} ${g.external_id} (${g.id})`)
}

/**
 * The reports' results in the order of their rows in the list `rows`, not as sent (a chain goes
 * from its end, rows linked go together): the same whatever STORELOC_SYNC_CHUNK cuts.
 */
export function inListOrder(reports: BulkReport[], requests: Row[][], rows: Row[]): BulkReport['results'] {
  const place = new Map(rows.map((r, i) => [r, i]))
  const placed = reports.flatMap((report, chunk) =>
    report.results.map((r) => ({ r, at: place.get(requests[chunk]![r.index!]!) ?? rows.length })),
  )
  return placed.toSorted((a, b) => a.at - b.at).map((p) => p.r)
}

/** The warnings as the report prints them, the note of postcodes as before first. */
export function printWarnings({ asBefore, lines }: { asBefore: AsBefore; lines: string[] }): void {
  if (asBefore.keys.length > 0) console.log(postcodesAsBefore(asBefore.keys, asBefore.columns))
  for (const line of lines) console.log(`check ${line}`)
}

/**
 * What is worth a look in the rows of the first `sent` requests (all of them unless given), in the
 * order of the list: what reading the file took otherwise than written (a postcode's lost zero, a
 * phone Excel spoilt), an address placed only roughly, hours not read, an unknown field. A
 * postcode given back its zero in a row left unchanged was said before: said once, counted.
 */
export function warningsOf(rows: Row[], requests: Row[][], planned: BulkReport[], sent = requests.length) {
  const inSent = new Set(requests.slice(0, sent).flat())
  const warnings = new Map(
    rows.filter((r) => inSent.has(r)).map((r) => [r, { key: r.label, who: r.label, warnings: [...r.notes] }]),
  )
  const asBefore: AsBefore = { keys: [], columns: new Set() }
  // The dry runs' warnings, in a real run too: all checked before any write, as one request of the
  // whole list would be, they do not hang on which request wrote a code first (lost leading zeros).
  planned.slice(0, sent).forEach((report, chunk) => {
    for (const r of report.results) {
      const row = requests[chunk]![r.index!]!
      const said = warnings.get(row)
      if (said === undefined) continue
      said.warnings = withoutNoteAsBefore(asBefore, row.label, row.item, r.action, said.warnings)
      said.warnings.push(...warningsSaid(row, r.warnings))
    }
  })
  return { asBefore, lines: warningLines([...warnings.values()]) }
}
