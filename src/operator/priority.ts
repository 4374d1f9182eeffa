// Priority rules: which locations sort=priority puts first.
import { Type as t } from '@sinclair/typebox'
import { LOCATION_ID } from '../core/ids'
import type { Store } from '../store'
import type { PriorityRule } from '../store/priority'
import { trimStrings } from '../core/validation'
import { refuse, schemaProblems } from './problems'
import { OperatorError, requireLocator, writeFor } from './shared'

// A priority rule is exactly one of these three shapes.
const TagRule = t.Object({ tag: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false })
const CustomFieldRule = t.Object(
  { custom_field: t.String({ minLength: 1, maxLength: 64 }), value: t.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
)
const IdsRule = t.Object(
  { ids: t.Array(t.String({ pattern: LOCATION_ID.source }), { minItems: 1, maxItems: 10_000 }) },
  { additionalProperties: false },
)

const RULE_SHAPES =
  'each rule is exactly one of {"tag": "..."}, {"custom_field": "...", "value": "..."} or {"ids": ["loc_...", ...]}'

/**
 * The rules `json` describes, or an OperatorError listing every problem. `customFields` are the
 * locator's defined custom field ids: a custom_field rule must name one of them.
 */
export function parsePriorityRules(json: unknown, customFields: readonly string[]): PriorityRule[] {
  const value = trimStrings(json)
  if (!Array.isArray(value))
    throw new OperatorError(
      `The priority rules were not changed: they must be a JSON array in rank order; ${RULE_SHAPES}.`,
    )
  if (value.length > 1000) refuse('priority rules', [`priority may have at most 1000 rules; got ${value.length}.`])
  const problems: string[] = []
  const rules: PriorityRule[] = []
  value.forEach((rule: unknown, i) => {
    const at = `priority[${i}]`
    if (!rule || typeof rule !== 'object' || Array.isArray(rule)) {
      problems.push(`${at} must be an object: ${RULE_SHAPES}.`)
      return
    }
    const r = rule as Record<string, unknown>
    const kind =
      'tag' in r ? TagRule : 'custom_field' in r || 'value' in r ? CustomFieldRule : 'ids' in r ? IdsRule : null
    if (kind === null) {
      problems.push(`${at} is not a rule: ${RULE_SHAPES}.`)
      return
    }
    const found = schemaProblems(kind, r, at, (field) => `${field} is not allowed here: ${RULE_SHAPES}.`)
    if (found.length > 0) {
      problems.push(...found)
      return
    }
    if (kind === TagRule) rules.push({ tag: r.tag as string })
    else if (kind === CustomFieldRule) {
      const id = r.custom_field as string
      if (!customFields.includes(id)) {
        const known = customFields.length > 0 ? customFields.join(', ') : 'none are defined'
        problems.push(`${at}.custom_field ${JSON.stringify(id)} is not a custom field of this locator (${known}).`)
      }
      rules.push({ custom_field: id, value: r.value as string })
    } else rules.push({ ids: [...new Set(r.ids as string[])] })
  })
  if (problems.length > 0) refuse('priority rules', problems)
  return rules
}

/** Replaces a locator's priority rules (all of them, or nothing on a problem). */
export function setPriorityRules(store: Store, locatorId: string, json: unknown): PriorityRule[] {
  requireLocator(store, locatorId)
  return writeFor(store, locatorId, () => {
    // Inside the transaction: a custom field removed meanwhile cannot slip through.
    const rules = parsePriorityRules(
      json,
      store.customFields.list(locatorId).map((f) => f.id),
    )
    store.priority.replace(locatorId, rules)
    return store.priority.list(locatorId)
  })
}
