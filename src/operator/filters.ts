// Filter groups: the tags a locator's visitors filter by, grouped and labelled.
import { Type as t } from '@sinclair/typebox'
import type { Store } from '../store'
import type { FilterGroup, FilterTag } from '../store/filters'
import { isFullUrl, trimStrings } from '../core/validation'
import { HEX_COLOR } from './custom-fields'
import { refuse, schemaProblems, shown } from './problems'
import { requireLocator, unprintable, writeFor } from './shared'

const FilterTagInput = t.Object(
  {
    value: t.String({ minLength: 1, maxLength: 100 }),
    label: t.String({ minLength: 1, maxLength: 200 }),
    color: t.Optional(t.String({ pattern: HEX_COLOR.source })),
    image: t.Optional(t.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
)

const FilterGroupInput = t.Object(
  {
    id: t.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$' }),
    name: t.String({ minLength: 1, maxLength: 200 }),
    label: t.String({ minLength: 1, maxLength: 200 }),
    singleSelect: t.Optional(t.Boolean()),
    inline: t.Optional(t.Boolean()),
    hidden: t.Optional(t.Boolean()),
    hideInLocationDetails: t.Optional(t.Boolean()),
    tags: t.Optional(t.Array(FilterTagInput, { maxItems: 1000 })),
  },
  { additionalProperties: false },
)

/** A filters file: the groups as GET /filters returns them; booleans default to false, tags to []. */
export const FiltersInput = t.Array(FilterGroupInput, { maxItems: 100 })
export type FiltersInput = typeof FiltersInput.static

/** The groups `json` describes, or an OperatorError listing every problem (path and fix). */
export function parseFilters(json: unknown): FilterGroup[] {
  const value = trimStrings(json)
  const problems = schemaProblems(FiltersInput, value, 'filters')
  if (problems.length > 0) refuse('filters', problems)
  const input = value as FiltersInput
  const groupAt = new Map<string, number>()
  const tagAt = new Map<string, string>()
  const groups = input.map((g, i): FilterGroup => {
    const seenGroup = groupAt.get(g.id)
    if (seenGroup !== undefined)
      problems.push(
        `filters[${i}].id ${JSON.stringify(g.id)} is already the id of filters[${seenGroup}]; group ids must be unique.`,
      )
    else groupAt.set(g.id, i)
    for (const field of ['name', 'label'] as const) {
      const problem = unprintable(g[field])
      if (problem !== null) problems.push(`filters[${i}].${field} ${problem}.`)
    }
    const tags = (g.tags ?? []).map((tag, j): FilterTag => {
      const at = `filters[${i}].tags[${j}]`
      const key = tag.value.toLowerCase()
      const first = tagAt.get(key)
      if (first !== undefined)
        problems.push(
          `${at}.value ${JSON.stringify(tag.value)} is already used at ${first}; tag values must be unique within a locator, ignoring case.`,
        )
      else tagAt.set(key, at)
      if (tag.image !== undefined && !isFullUrl(tag.image))
        problems.push(`${at}.image must be a full URL including the protocol (https://...); got ${shown(tag.image)}.`)
      const badLabel = unprintable(tag.label)
      if (badLabel !== null) problems.push(`${at}.label ${badLabel}.`)
      const out: FilterTag = { value: tag.value, label: tag.label }
      if (tag.color !== undefined) out.color = tag.color
      if (tag.image !== undefined) out.image = tag.image
      return out
    })
    return {
      id: g.id,
      name: g.name,
      label: g.label,
      singleSelect: g.singleSelect ?? false,
      inline: g.inline ?? false,
      hidden: g.hidden ?? false,
      hideInLocationDetails: g.hideInLocationDetails ?? false,
      tags,
    }
  })
  if (problems.length > 0) refuse('filters', problems)
  return groups
}

/** Replaces a locator's filter groups with those `json` describes (all of them, or nothing on a problem). */
export function setFilters(store: Store, locatorId: string, json: unknown): FilterGroup[] {
  requireLocator(store, locatorId)
  const groups = parseFilters(json)
  return writeFor(store, locatorId, () => {
    store.filters.replace(locatorId, groups)
    return store.filters.list(locatorId)
  })
}
