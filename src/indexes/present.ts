// A published location as the Query API shows it, computed once per write or load and kept
// pre-serialized in the index, with the keys the index sorts, filters and searches on.
import type { IndexDoc } from '../engine/locator-index'
import type { CustomField } from '../store/custom-fields'
import { tagLabel } from '../core/filter-groups'
import { DEFAULT_FILTER_GROUP, DEFAULT_GROUP_NAME, type FilterGroup, type FilterTag } from '../store/filters'
import type { IndexRow } from '../store/location-slicers'
import { approximatePoint, DAYS, type LocationRecord } from '../store/locations'
import type { PriorityRule } from '../store/priority'
import { nameOrderKey, searchKey } from '../core/text'
import { zoneOf } from '../core/zone'
import { openingHoursOf } from './opening-hours'

/** What presenting a locator's locations depends on besides the rows themselves. */
export type PresentContext = {
  groupOfTag: Map<string, { group: FilterGroup; tag: FilterTag }> // lowercased tag value -> its group
  defaultGroupName: string
  customFields: CustomField[]
  priority: PriorityRule[]
  /** Whether a priority rule looks at custom fields (else the index load need not read them). */
  rankReadsCustomFields: boolean
  /** Whether answers show each location's external_id (a locator setting). */
  showExternalId: boolean
}

export function presentContext(
  filters: FilterGroup[],
  customFields: CustomField[],
  priority: PriorityRule[],
  showExternalId = false,
): PresentContext {
  const groupOfTag = new Map<string, { group: FilterGroup; tag: FilterTag }>()
  for (const group of filters) for (const tag of group.tags) groupOfTag.set(tag.value.toLowerCase(), { group, tag })
  const defaultGroup = filters.find((g) => g.id === DEFAULT_FILTER_GROUP)
  return {
    groupOfTag,
    defaultGroupName: defaultGroup?.name ?? DEFAULT_GROUP_NAME,
    customFields,
    priority,
    rankReadsCustomFields: priority.some((rule) => 'custom_field' in rule),
    showExternalId,
  }
}

/**
 * "https://instagram.com/northwind_paris/" -> "northwind_paris"; a Facebook profile without a
 * user name ("https://www.facebook.com/profile.php?id=1234") -> its id, "1234"; "" when unset.
 */
export function socialHandle(url: string | undefined): string {
  if (!url) return ''
  try {
    const parsed = new URL(url)
    const parts = parsed.pathname.split('/').filter((p) => p !== '')
    const last = parts[parts.length - 1] ?? ''
    if (last === 'profile.php') return parsed.searchParams.get('id') ?? ''
    return last.replace(/^@/, '')
  } catch {
    return ''
  }
}

function tagsJson(tags: string[], ctx: PresentContext) {
  const out: Record<string, { name: string; items: { value: string; label: string; color?: string }[] }> = {}
  for (const value of tags) {
    const hit = ctx.groupOfTag.get(value.toLowerCase())
    const id = hit?.group.id ?? DEFAULT_FILTER_GROUP
    const group = (out[id] ??= { name: hit?.group.name ?? ctx.defaultGroupName, items: [] })
    const item: { value: string; label: string; color?: string } = {
      value: hit?.tag.value ?? value,
      label: hit?.tag.label ?? tagLabel(value),
    }
    if (hit?.tag.color) item.color = hit.tag.color
    group.items.push(item)
  }
  return out
}

function customFieldsJson(values: Record<string, string>, ctx: PresentContext) {
  const out: Record<string, string>[] = []
  for (const f of ctx.customFields) {
    // Own keys only: a field id such as "constructor" names an inherited member of every object.
    const value = Object.hasOwn(values, f.id) ? values[f.id] : undefined
    if (value === undefined || value === '') continue
    const item: Record<string, string> = { token: `cf_${f.id}`, key: f.id, name: f.name, type: f.type, value }
    if ((f.type === 'button' || f.type === 'badge') && f.label) item.label = f.label
    if (f.type === 'badge' && f.color) item.color = f.color
    out.push(item)
  }
  return out
}

/** The index of the first rule the location matches; the number of rules when none. */
export function priorityRank(r: Pick<LocationRecord, 'id' | 'tags' | 'customFields'>, rules: PriorityRule[]): number {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!
    if ('tag' in rule && r.tags.some((t) => t.toLowerCase() === rule.tag.toLowerCase())) return i
    if ('custom_field' in rule && r.customFields[rule.custom_field] === rule.value) return i
    if ('ids' in rule && rule.ids.includes(r.id)) return i
  }
  return rules.length
}

export function publicLocation(r: LocationRecord, ctx: PresentContext) {
  return {
    id: r.id,
    ...(ctx.showExternalId ? { external_id: r.externalId } : {}),
    name: r.name,
    // Only a point placed near the store says so: every other answer stays as the contract writes it.
    coordinates: approximatePoint(r.geocoding)
      ? { lat: r.lat, lng: r.lng, approximate: true as const }
      : { lat: r.lat, lng: r.lng },
    address: { formatted: r.address, ...r.addressParts },
    contact: { phone: r.contact.phone ?? '', email: r.contact.email ?? '', website: r.contact.website ?? '' },
    social: {
      instagram: socialHandle(r.social.instagram),
      facebook: socialHandle(r.social.facebook),
      twitter: socialHandle(r.social.twitter),
    },
    hours: Object.fromEntries(DAYS.map((d) => [d, r.hours[d] ?? ''])),
    timezone: zoneOf(r),
    tags: tagsJson(r.tags, ctx),
    customFields: customFieldsJson(r.customFields, ctx),
    image: r.imageUrl,
    description: r.description,
  }
}

/**
 * The searchable text, as searchKey makes it (its words are nameKey's; ASCII text keeps its
 * punctuation, so it is for cutting into words, not for reading). Apostrophes and hyphens split
 * words ("d'Orsay" is found by "orsay", "pop-up" by "pop") and, where there are any, the text is
 * indexed a second time with them dropped ("Zoë's" is found by "zoes", "pop-up" by "popup",
 * "E-Bikes" by "ebikes").
 */
export function searchText(parts: string[]): string {
  const text = parts.join(' ')
  const split = searchKey(text)
  return JOINERS.test(text) ? `${split} ${searchKey(text.replace(JOINED, ''))}` : split
}

/** Apostrophes, and hyphens between letters or digits: words written either joined or apart. */
const JOINERS = /['’`´]|[\p{L}\p{N}][-‐‑][\p{L}\p{N}]/u
const JOINED = /['’`´]|(?<=[\p{L}\p{N}])[-‐‑](?=[\p{L}\p{N}])/gu

/** The public JSON of a published location as answers use it: open, without its closing "}" (see IndexDoc.json). */
export function publicJson(r: LocationRecord, ctx: PresentContext): string {
  const json = JSON.stringify(publicLocation(r, ctx))
  return json.slice(0, -1)
}

/**
 * The labels the operator gave the location's tags: a visitor searches by the words the filters
 * show. A label that only spells out its value (tagLabel) adds no word, and is left out.
 */
export function tagLabels(tags: string[], ctx: PresentContext): string[] {
  const labels: string[] = []
  for (const value of tags) {
    const label = ctx.groupOfTag.get(value.toLowerCase())?.tag.label.toLowerCase()
    if (label && label !== value.toLowerCase() && label !== tagLabel(value).toLowerCase()) labels.push(label)
  }
  return labels
}

/**
 * The index entry for a published location from the columns search needs, without its public JSON
 * (null): a locator's index loads from these, and the JSON is filled in afterwards (registry.ts).
 */
export function searchDoc(r: Omit<IndexRow, 'seq'>, ctx: PresentContext): IndexDoc {
  return {
    id: r.id,
    lat: r.lat,
    lng: r.lng,
    json: null,
    nameSort: nameOrderKey(r.name),
    name: r.name,
    rank: priorityRank({ id: r.id, tags: r.tags, customFields: r.customFields ?? {} }, ctx.priority),
    tags: r.tags,
    text: searchText([r.name, r.address, r.description, ...r.tags, ...tagLabels(r.tags, ctx)]),
    places: r.townNames ?? '',
    hours: openingHoursOf(r),
  }
}
