// Filter groups and their tags, per locator: what GET /public/v1/{token}/filters returns and how
// location tags are grouped. A location tag matches a group tag's `value` case-insensitively; tags in
// no group belong to the `_default` group.

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

export const DEFAULT_FILTER_GROUP = '_default'
