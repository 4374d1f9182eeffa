// Filter groups and their tags, per locator: what GET /public/v1/{token}/filters returns and how
// location tags are grouped. A location tag matches a group tag's `value` case-insensitively; tags in
// no group belong to the `_default` group.
import type { Database } from 'bun:sqlite'
import type { ChangeLog } from './changes'

export type FilterTag = { value: string; label: string; color?: string; image?: string }

export type FilterGroup = {
  id: string
  name: string
  label: string
  singleSelect: boolean
  inline: boolean
  hidden: boolean
  hideInLocationDetails: boolean
  tags: FilterTag[]
}

export { DEFAULT_FILTER_GROUP, DEFAULT_GROUP_NAME } from '../core/filter-groups'

type GroupRow = {
  id: string
  name: string
  label: string
  single_select: number
  inline: number
  hidden: number
  hide_in_location_details: number
}
type TagRow = { group_id: string; value: string; label: string; color: string | null; image: string | null }

/** A locator's filter groups, replaced as a whole (the CLI sets them from one file). */
export function filterRepo(db: Database, changes: ChangeLog) {
  const groups = db.prepare<GroupRow, [string]>(
    'SELECT id, name, label, single_select, inline, hidden, hide_in_location_details FROM filter_groups WHERE locator_id = ? ORDER BY position',
  )
  const tags = db.prepare<TagRow, [string]>(
    'SELECT group_id, value, label, color, image FROM filter_tags WHERE locator_id = ? ORDER BY position',
  )
  const removeTags = db.prepare<unknown, [string]>('DELETE FROM filter_tags WHERE locator_id = ?')
  const removeGroups = db.prepare<unknown, [string]>('DELETE FROM filter_groups WHERE locator_id = ?')
  const insertGroup = db.prepare<
    unknown,
    {
      locator_id: string
      id: string
      name: string
      label: string
      single_select: number
      inline: number
      hidden: number
      hide_in_location_details: number
      position: number
    }
  >(
    `INSERT INTO filter_groups (locator_id, id, name, label, single_select, inline, hidden, hide_in_location_details, position)
     VALUES ($locator_id, $id, $name, $label, $single_select, $inline, $hidden, $hide_in_location_details, $position)`,
  )
  const insertTag = db.prepare<
    unknown,
    {
      locator_id: string
      group_id: string
      value: string
      label: string
      color: string | null
      image: string | null
      position: number
    }
  >(
    'INSERT INTO filter_tags (locator_id, group_id, value, label, color, image, position) VALUES ($locator_id, $group_id, $value, $label, $color, $image, $position)',
  )
  return {
    /** Groups in their set order, each with its tags in order; absent color and image are left out. */
    list(locatorId: string): FilterGroup[] {
      const byGroup = new Map<string, FilterTag[]>()
      for (const r of tags.all(locatorId)) {
        const tag: FilterTag = { value: r.value, label: r.label }
        if (r.color !== null) tag.color = r.color
        if (r.image !== null) tag.image = r.image
        let list = byGroup.get(r.group_id)
        if (!list) byGroup.set(r.group_id, (list = []))
        list.push(tag)
      }
      return groups.all(locatorId).map((g) => ({
        id: g.id,
        name: g.name,
        label: g.label,
        singleSelect: g.single_select === 1,
        inline: g.inline === 1,
        hidden: g.hidden === 1,
        hideInLocationDetails: g.hide_in_location_details === 1,
        tags: byGroup.get(g.id) ?? [],
      }))
    },
    /** Deletes the locator's groups and tags and writes `next` in their place; call inside a write transaction. */
    replace(locatorId: string, next: FilterGroup[]): void {
      removeTags.run(locatorId)
      removeGroups.run(locatorId)
      next.forEach((g, position) => {
        insertGroup.run({
          locator_id: locatorId,
          id: g.id,
          name: g.name,
          label: g.label,
          single_select: g.singleSelect ? 1 : 0,
          inline: g.inline ? 1 : 0,
          hidden: g.hidden ? 1 : 0,
          hide_in_location_details: g.hideInLocationDetails ? 1 : 0,
          position,
        })
        g.tags.forEach((t, tagPosition) => {
          insertTag.run({
            locator_id: locatorId,
            group_id: g.id,
            value: t.value,
            label: t.label,
            color: t.color ?? null,
            image: t.image ?? null,
            position: tagPosition,
          })
        })
      })
      changes.append(locatorId, 'filters', null, 'upsert')
    },
  }
}
export type FilterRepo = ReturnType<typeof filterRepo>
