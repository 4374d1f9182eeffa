import { postcodePattern } from '../geocode/countries'
import type { BulkItem, BulkReport } from './bulk'
import { paddedInAddress, paddedPostcode, type PostcodeMemo } from './placement'
import type { AdminDeps } from './service'

/** The rows a note names before "and N more". */
const ROWS_NAMED = 5

/**
 * The items with a CSV row's four-digit postcode that lost its leading zero put back in their
 * address, when their town confirms it (paddedPostcode; paddedInAddress for a row without a
 * postcode column), and a note saying so.
 */
export async function withPaddedPostcodes(deps: AdminDeps, items: BulkItem[]): Promise<BulkItem[]> {
  const out: BulkItem[] = []
  const memo: PostcodeMemo = new Map()
  for (const item of items) {
    const raw = item.raw as Record<string, unknown> | null
    if (item.columns !== undefined && !item.postcode?.trim() && typeof raw?.address === 'string') {
      const mended = await paddedInAddress(deps, raw.address, item, memo)
      if (mended === null) out.push(item)
      else {
        const note = `The postcode ${mended.written} in the address was read as ${mended.postcode}, ${mended.city}'s postcode: its leading zero was lost, as Excel drops it from a postcode read as a number.`
        const notes = [...(item.notes ?? []), note]
        out.push({ ...item, raw: { ...raw, address: mended.address }, notes, postcodeNote: note })
      }
      continue
    }
    const padded = typeof raw?.address === 'string' ? await paddedPostcode(deps, item) : null
    const written = postcodePattern(item.postcode ?? '', 'u')
    if (padded === null || written === null || !written.test(raw!.address as string)) {
      out.push(item)
      continue
    }
    const column = item.columns?.get('postcode') ?? 'postcode'
    const note = `The postcode ${item.postcode} was read as ${padded.postcode}, ${item.city}'s postcode: Excel drops leading zeros; format the "${column}" column as text.`
    out.push({
      ...item,
      raw: { ...raw, address: (raw!.address as string).replace(written, padded.postcode) },
      postcode: padded.postcode,
      country: padded.country,
      ...(item.parts && { parts: { ...item.parts, postcode: padded.postcode } }),
      notes: [...(item.notes ?? []), note],
      postcodeNote: note,
    })
  }
  return out
}

/**
 * The report with the postcode notes of its unchanged rows taken out of their warnings and said
 * once, in a note naming the first few rows: a file imported every day writes those rows as
 * before, and its warnings are about what this import writes. Null when no unchanged row has one.
 */
export function unchangedPostcodesNote(items: readonly BulkItem[], report: BulkReport): string | null {
  const asBefore: AsBefore = { keys: [], columns: new Set() }
  for (const result of report.results) {
    const item = result.index === null ? undefined : items[result.index]
    if (item !== undefined)
      result.warnings = withoutNoteAsBefore(asBefore, item.key, item, result.action, result.warnings)
  }
  return asBefore.keys.length === 0 ? null : postcodesAsBefore(asBefore.keys, asBefore.columns)
}

/** The unchanged rows whose postcode notes are said once (postcodesAsBefore): their keys and postcode columns. */
export type AsBefore = { keys: string[]; columns: Set<string> }

/**
 * `warnings` without the postcode note of `item` when its row (`key`) is unchanged and says it
 * again; the row is then counted in `asBefore`. Else `warnings` as they are.
 */
export function withoutNoteAsBefore(
  asBefore: AsBefore,
  key: string,
  item: BulkItem | undefined,
  action: BulkReport['results'][number]['action'],
  warnings: string[],
): string[] {
  const note = item?.postcodeNote
  if (action !== 'unchanged' || note === undefined || !warnings.includes(note)) return warnings
  asBefore.keys.push(key)
  asBefore.columns.add(item!.columns?.get('postcode') ?? 'postcode')
  return warnings.filter((w) => w !== note)
}

/**
 * What is said once of the unchanged rows (`keys`: "line 7") whose postcodes were given back their
 * leading zero as before, read from `columns`.
 */
export function postcodesAsBefore(keys: readonly string[], columns: ReadonlySet<string>): string {
  const one = keys.length === 1
  const named =
    keys.slice(0, ROWS_NAMED).join(', ') + (keys.length > ROWS_NAMED ? ` and ${keys.length - ROWS_NAMED} more` : '')
  const column = [...columns].map((c) => `"${c}"`).join(' and ')
  return `${keys.length} unchanged ${one ? 'row' : 'rows'} (${named}) ${one ? 'carries' : 'carry'} the same postcode warning as before: ${one ? 'its postcode' : 'each postcode'} lost its leading zero in Excel and was read with it, as stored. Format the ${column} column as text to stop this warning.`
}
