// Bulk upsert: warnings for rows that would make a store a second time (a file without store
// codes imported again, or codes that lost their leading zeros in a spreadsheet).
import { nameKey } from '../core/text'
import type { Plan } from './bulk-check'
import type { AdminDeps } from './service'

/**
 * Warns each row that creates a location without an external_id when the locator has one of its
 * name at its address already: a file without store codes imported twice makes every store twice.
 */
export function noteRepeats(deps: AdminDeps, locatorId: string, plans: Plan[]): void {
  const creates = plans.filter((p) => p.target === null && !p.patch.externalId)
  if (creates.length === 0) return
  const key = (name: string, address: string) => `${nameKey(name)}\u0000${nameKey(address)}`
  const held = new Map<string, string>()
  for (const r of deps.store.locations.namesAndAddresses(locatorId)) held.set(key(r.name, r.address), r.id)
  for (const plan of creates) {
    const id = held.get(key(plan.patch.name ?? '', plan.patch.address ?? ''))
    if (id !== undefined)
      plan.warnings.push(
        `Location ${id} has this name and address already: this row makes a second one. Give each row its store code as external_id, and imports update the stores they match.`,
      )
  }
}

/** The most leading zeros looked for before a new row's store code of digits. */
const ZEROS_LOOKED_FOR = 4
/** A store code of digits led by as many zeros: its digits after them. */
const ZERO_LED = new RegExp(`^0{1,${ZEROS_LOOKED_FOR}}([1-9]\\d{0,11})$`)

/**
 * Warns each row that creates a location with a code of digits ("12") when the locator has that
 * code with leading zeros ("0012"): a sheet saved again in Excel lost them, and imported so it
 * makes every store a second time; and the other way round, when an earlier import lost them.
 * Indexed lookups, a few a row: no scan of the locator.
 */
export function noteLostZeros(deps: AdminDeps, locatorId: string, plans: Plan[]): void {
  for (const plan of plans) {
    const code = plan.patch.externalId
    if (plan.target !== null || typeof code !== 'string') continue
    const bare = ZERO_LED.exec(code)?.[1]
    const held = bare === undefined ? null : deps.store.locations.holderOf(locatorId, bare)
    if (held !== null)
      plan.warnings.push(
        `Location ${held} has the external_id "${bare}": if this row is that store, an earlier import lost the code's leading zeros (Excel reads ${code} as ${bare}), and the row makes a second one. Give the row the code "${bare}", or that location the code "${code}".`,
      )
    if (!/^[1-9]\d{0,11}$/.test(code)) continue
    for (let zeros = 1; zeros <= ZEROS_LOOKED_FOR; zeros++) {
      const padded = `${'0'.repeat(zeros)}${code}`
      const id = deps.store.locations.holderOf(locatorId, padded)
      if (id === null) continue
      plan.warnings.push(
        `Location ${id} has the external_id "${padded}": if this row is that store, its code lost its leading zeros (Excel reads ${padded} as ${code}), and the row makes a second one. Format the column as text and give the code as "${padded}".`,
      )
      break
    }
  }
}
