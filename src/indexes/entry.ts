// A locator's index in this process, with its public JSON and what its upkeep needs to know.
import type { IndexEntry, LocatorIndex } from '../engine/locator-index'
import type { Store } from '../store'
import { tagLabel } from '../core/filter-groups'
import { nameKey } from '../core/text'
import { DEFAULT_FILTER_GROUP, type FilterGroup } from '../store/filters'
import type { LocationRecord } from '../store/locations'
import { JsonArena } from './json-arena'
import { type PresentContext, presentContext, publicJson, searchDoc, tagLabels } from './present'

export type Entry = {
  index: LocatorIndex
  ctx: PresentContext
  filters: FilterGroup[]
  /** The locations' public JSON; an index entry's `json` is its slot here. */
  arena: JsonArena
  /** Whether every location's public JSON is filled in (see entry()). */
  jsonReady: boolean
  /** Settings changed since (apply()): ranks to take again (priority rules), JSON to make again (filters, custom fields); see refresh(). */
  stale: { ranks: boolean; json: boolean } | null
  /** Whether background tasks are laying the JSON written since the fill out in space order (reorderJson()). */
  reordering: boolean
  /** Queried since evictIdle() last looked (set by version(), which every public request asks). */
  used: boolean
  /** When evictIdle() last saw it used, or when it was built (performance.now()). */
  usedAt: number
  /** When a change was last applied to its index, or when it was built (performance.now()): settleDeltas(). */
  writtenAt: number
}

/** The entry of an index just built, its JSON to fill (none when it has no location). */
export function builtEntry(
  index: LocatorIndex,
  ctx: PresentContext,
  filters: FilterGroup[],
  arena = new JsonArena(),
): Entry {
  const now = performance.now()
  const jsonReady = index.size === 0
  return {
    index,
    ctx,
    filters,
    arena,
    jsonReady,
    stale: null,
    reordering: false,
    used: false,
    usedAt: now,
    writtenAt: now,
  }
}

/** The locator's filters, and the context its locations are presented in (present.ts), as committed now. */
export function entrySettings(store: Store, locatorId: string): { filters: FilterGroup[]; ctx: PresentContext } {
  const filters = store.filters.list(locatorId)
  return {
    filters,
    ctx: presentContext(
      filters,
      store.customFields.list(locatorId),
      store.priority.list(locatorId),
      store.locators.get(locatorId)?.publicExternalId ?? false,
    ),
  }
}

/**
 * The entry brought up to date after its locator's settings changed (apply()), its index kept.
 * New priority rules: every rank taken again, from the index's tags, the rules' ids, and for a
 * custom field rule the ids of the published rows with its value (a table triggers keep).
 * New tag labels: null, the index to be built again (its search text holds them).
 * New filters or custom fields: every location's JSON made again, in the background and on
 * demand, as after a build (a new entry, so a fill under way for the old one stops): the
 * registry keeps the new entry and fills its JSON in `order`. Either
 * reaches the next answer far sooner than a rebuild of the index would (PERF-005, PERF-036).
 */
export function refreshedEntry(
  store: Store,
  locatorId: string,
  old: Entry,
): { entry: Entry | null; order: IndexEntry[] | null } {
  const { ranks, json } = old.stale!
  // The settings as committed now: a change by another process since the last sync may be among
  // them (say new filters after a priority change); the next sync marks it, and the refresh
  // after makes the JSON, the part not made here, again.
  const { filters, ctx } = entrySettings(store, locatorId)
  // Tag labels are searched (searchDoc): new ones need the index built again (null).
  if (json && labelsDiffer(ctx, old.ctx)) return { entry: null, order: null }
  if (ranks) {
    // As priorityRank takes them (present.ts), a custom field's value read for its rule alone.
    old.index.rankBy(
      ctx.priority.map((rule) =>
        'tag' in rule
          ? { tag: rule.tag.toLowerCase() }
          : {
              ids:
                'ids' in rule
                  ? rule.ids
                  : store.locations.idsWithCustomFieldValue(locatorId, rule.custom_field, rule.value),
            },
      ),
    )
  }
  if (!json) {
    Object.assign(old, { ctx, filters, stale: null })
    return { entry: old, order: null }
  }
  const order = old.index.entriesInSpaceOrder()
  old.index.clearJson()
  const entry: Entry = {
    index: old.index,
    ctx,
    filters,
    arena: new JsonArena(),
    jsonReady: order.length === 0,
    stale: null,
    reordering: false,
    used: old.used,
    usedAt: old.usedAt,
    writtenAt: old.writtenAt,
  }
  return { entry, order }
}

/** Whether the locator's committed settings give its tags other searched labels than `old`'s index holds. */
export function labelsChanged(store: Store, locatorId: string, old: Entry): boolean {
  return labelsDiffer(entrySettings(store, locatorId).ctx, old.ctx)
}

/** Whether two settings give the tags other searched labels (searchedLabels). */
function labelsDiffer(a: PresentContext, b: PresentContext): boolean {
  return searchedLabels(a) !== searchedLabels(b)
}

/** The tag labels searchDoc adds to the locations' text (tagLabels), as one string to compare. */
function searchedLabels(ctx: PresentContext): string {
  const values = [...ctx.groupOfTag.keys()].sort()
  const labelled = values.map((value) => ({ value, labels: tagLabels([value], ctx) }))
  return JSON.stringify(labelled.filter(({ labels }) => labels.length > 0))
}

/** tagWords of an index, kept until a location is written or the settings (ctx) are new. */
const wordsOfIndex = new WeakMap<LocatorIndex, { writes: number; ctx: PresentContext; words: Set<string> }>()

/** The nameKeys of the locator's tags, by value and by label: words that name no place (GET /places). */
export function tagWords(entry: Pick<Entry, 'index' | 'ctx'>): ReadonlySet<string> {
  const { index, ctx } = entry
  const kept = wordsOfIndex.get(index)
  if (kept !== undefined && kept.writes === index.writes && kept.ctx === ctx) return kept.words
  const words = new Set<string>()
  for (const { spelt } of index.tagSpellings()) words.add(nameKey(spelt))
  for (const [value, { tag }] of ctx.groupOfTag) words.add(nameKey(value)).add(nameKey(tag.label))
  wordsOfIndex.set(index, { writes: index.writes, ctx, words })
  return words
}

/**
 * Brings one location of an index up to date with its row (null: deleted): put in, with its
 * public JSON, when published; taken out otherwise. Its JSON before is freed.
 */
export function putRow(at: Pick<Entry, 'index' | 'arena' | 'ctx'>, id: string, row: LocationRecord | null): void {
  const doc = at.index.get(id)
  const old = doc === null ? null : at.index.json(doc)
  if (row && row.status === 'published')
    at.index.upsert({ ...searchDoc(row, at.ctx), json: at.arena.add(publicJson(row, at.ctx)) })
  else at.index.remove(id)
  if (old !== null) at.arena.free(old)
}

/** The filter groups as GET /filters shows them: the configured ones, then tags in no group. */
export function publicFilters(entry: Entry): FilterGroup[] {
  // Tags in no group, by the spelling most locations have (as their own tags show it).
  const ungrouped = entry.index.tagSpellings().filter(({ tag }) => !entry.ctx.groupOfTag.has(tag))
  const groups = entry.filters.filter((g) => g.id !== DEFAULT_FILTER_GROUP)
  const configuredDefault = entry.filters.find((g) => g.id === DEFAULT_FILTER_GROUP)
  if (ungrouped.length === 0 && !configuredDefault) return groups
  const extra = ungrouped
    .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    .map(({ spelt }) => ({ value: spelt, label: tagLabel(spelt) }))
  const base = configuredDefault ?? {
    id: DEFAULT_FILTER_GROUP,
    name: entry.ctx.defaultGroupName,
    label: entry.ctx.defaultGroupName,
    singleSelect: false,
    inline: false,
    hidden: false,
    hideInLocationDetails: false,
    tags: [],
  }
  return [...groups, { ...base, tags: [...base.tags, ...extra] }]
}
