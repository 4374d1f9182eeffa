// A location's readable URL slug, the same on its store page and in the widget's link to it.
import { nameKey } from './text'

const SLUG_MAX = 60

/**
 * A readable URL slug: "Zoë's Garage, Paris 4e" -> "zoes-garage-paris-4e". Folded as keyword
 * search folds names (letters of every script kept), apostrophes dropped so a word stays whole,
 * cut at a hyphen near SLUG_MAX; "location" when nothing is left.
 */
export function slugOf(name: string): string {
  let slug = nameKey(name.replace(/['’`´]/g, '')).replace(/ /g, '-')
  const chars = Array.from(slug)
  if (chars.length > SLUG_MAX) {
    slug = chars.slice(0, SLUG_MAX + 1).join('')
    const cut = slug.lastIndexOf('-')
    slug = cut >= SLUG_MAX / 2 ? slug.slice(0, cut) : chars.slice(0, SLUG_MAX).join('')
  }
  slug = slug.replace(/^-+|-+$/g, '')
  return slug === '' ? 'location' : slug
}
