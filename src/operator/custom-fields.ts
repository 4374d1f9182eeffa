// Custom field definitions of a locator.
import { codePoints } from '../core/text'
import type { Store } from '../store'
import { CUSTOM_FIELD_ID, CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldType } from '../store/custom-fields'
import { cleanText, OperatorError, printable, requireLocator, writeFor } from './shared'
import { cliCommand } from '../core/cli-command'

export const HEX_COLOR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/

export function addCustomField(
  store: Store,
  locatorId: string,
  field: { id: string; name: string; type: string; label?: string | null; color?: string | null },
): CustomField {
  requireLocator(store, locatorId)
  if (!CUSTOM_FIELD_ID.test(field.id)) {
    throw new OperatorError(
      `--id must start with a lowercase letter and hold only a-z, 0-9 and _ (64 at most); got ${JSON.stringify(field.id)}.`,
    )
  }
  const name = cleanText(field.name)
  const label = field.label === undefined || field.label === null ? null : cleanText(field.label)
  if (name === '' || codePoints(name) > 100) throw new OperatorError('--name must be 1 to 100 characters.')
  printable(name, '--name')
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(field.type)) {
    throw new OperatorError(
      `--type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}; got ${JSON.stringify(field.type)}.`,
    )
  }
  // Only a button shows a label (its text), only a badge a label and a colour (docs/cli.md, design.md):
  // anything else would be kept and never shown.
  const hasLabel = field.label !== undefined && field.label !== null
  const hasColor = field.color !== undefined && field.color !== null
  if (hasLabel && field.type !== 'button' && field.type !== 'badge')
    throw new OperatorError(
      `--label is for button and badge fields (the text they show); a ${field.type} field shows its value alone.`,
    )
  if (hasColor && field.type !== 'badge')
    throw new OperatorError(`--color is for badge fields; a ${field.type} field has no colour.`)
  if (field.color !== undefined && field.color !== null && !HEX_COLOR.test(field.color)) {
    throw new OperatorError(
      `--color must be a hex colour, #RRGGBB or #RGB, such as #1a7f37; got ${JSON.stringify(field.color)}.`,
    )
  }
  if (label !== null) {
    if (label === '' || codePoints(label) > 100) throw new OperatorError('--label must be 1 to 100 characters.')
    printable(label, '--label')
  }
  if (store.customFields.get(locatorId, field.id))
    throw new OperatorError(`Locator ${locatorId} already has a custom field ${JSON.stringify(field.id)}.`)
  return writeFor(store, locatorId, () =>
    store.customFields.insert(locatorId, {
      id: field.id,
      name,
      type: field.type as CustomFieldType,
      label,
      color: field.color ?? null,
    }),
  )
}

/** Removes a definition and, in the same transaction, its values from every location. */
export function removeCustomField(store: Store, locatorId: string, fieldId: string): { clearedLocations: number } {
  requireLocator(store, locatorId)
  return writeFor(store, locatorId, () => {
    // Inside the transaction: rules set meanwhile (another process) cannot come to name a field gone.
    if (!store.customFields.get(locatorId, fieldId))
      throw new OperatorError(`Locator ${locatorId} has no custom field ${JSON.stringify(fieldId)}.`)
    const naming = store.priority
      .list(locatorId)
      .flatMap((rule, i) => ('custom_field' in rule && rule.custom_field === fieldId ? [i + 1] : []))
    if (naming.length > 0) {
      throw new OperatorError(
        `Priority rule${naming.length > 1 ? 's' : ''} ${naming.join(', ')} of locator ${locatorId} name${naming.length > 1 ? '' : 's'} the custom field ${JSON.stringify(fieldId)}: change the rules first (${cliCommand(`priority set ${locatorId} --file RULES.json`)}), then remove the field.`,
      )
    }
    const clearedLocations = store.locations.dropCustomField(locatorId, fieldId)
    store.customFields.remove(locatorId, fieldId)
    return { clearedLocations }
  })
}
