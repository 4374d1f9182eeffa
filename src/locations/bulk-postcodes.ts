import { postcodePattern } from '../geocode/countries'
import type { BulkItem } from './bulk'
import { paddedInAddress, paddedPostcode, type PostcodeMemo } from './placement'
import type { AdminDeps } from './service'

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
        out.push({ ...item, raw: { ...raw, address: mended.address }, notes: [...(item.notes ?? []), note] })
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
    })
  }
  return out
}
