// The filter group of the tags no group of a locator's holds: its id, its name until the
// operator gives one, and that name as a visitor's page shows it. Shared by the service and the
// widget's bundle.

export const DEFAULT_FILTER_GROUP = '_default'
/** The default group's name and label while the operator gives it none. */
export const DEFAULT_GROUP_NAME = 'Other'

/** A group's name as a page in a visitor's language shows it: the default group, unnamed by the operator, as `other`. */
export const shownGroupName = (id: string, name: string, other: string): string =>
  id === DEFAULT_FILTER_GROUP && name === DEFAULT_GROUP_NAME ? other : name

/**
 * A tag's label while its locator gives it none: a slug or words in lower case ("dog-friendly",
 * "wheelchair_access", "café") read as words starting a sentence ("Dog friendly", "Café"); a tag
 * with a capital letter or other signs is shown as written.
 */
export function tagLabel(tag: string): string {
  if (!/^[\p{Ll}\d]+(?:[-_ ][\p{Ll}\d]+)*$/u.test(tag)) return tag
  const words = tag.replace(/[-_]/g, ' ')
  return words[0]!.toUpperCase() + words.slice(1)
}
