// A form's text fields as a body's object: nested by their brackets, each field given once.
import { givenOnce, isCheckedBox } from '../core/urlencoded'
import { LOCATION_FIELDS } from '../locations/model'

/** The fields as an object (`value`), or why they are not read (`refused`), for a form's refusal. */
export type FormFields = { value: Record<string, unknown> } | { refused: string }

/** A field's name: `head`, `head[]` (a list's item) or `head[sub]` (an object's key). */
const FIELD_NAME = /^([^[\]]+)(?:\[([^[\]]*)\])?$/

/**
 * `tags[]=a&tags[]=b&contact[phone]=1` -> `{ tags: ['a', 'b'], contact: { phone: '1' } }`. A
 * field given twice but a list's item (`name=A&name=B`, as a query parameter is refused), or one
 * name given as a value and as a list or object (`tags=A&tags[]=B`), is refused: which was meant
 * is not guessed. A hidden field and its ticked checkbox (isCheckedBox) are the box's value, in a
 * field that may be a box (mayBeBox). Names of other shapes (`a[b][c]`) are no field of a location, and left out.
 */
export function formFields(entries: URLSearchParams | readonly [string, string][]): FormFields {
  const out: Record<string, unknown> = Object.create(null)
  const firstAs = new Map<string, string>()
  // Each name but a list item's, and its value; null once a hidden field and its checkbox gave it.
  const given = new Map<string, string | null>()
  for (const [key, value] of entries) {
    const m = FIELD_NAME.exec(key)
    if (!m) continue
    const [, head, sub] = m as unknown as [string, string, string | undefined]
    const first = firstAs.get(head)
    if (first === undefined) firstAs.set(head, key)
    else if (shapeOf(first) !== shapeOf(key)) return { refused: givenTwoWays(head, first, key) }
    if (sub !== '') {
      const before = given.get(key)
      if (before === null || (before !== undefined && !(mayBeBox(head) && isCheckedBox(before, value))))
        return { refused: givenTwice(entries, key) }
      given.set(key, before === undefined ? value : null)
    }
    if (sub === undefined) {
      out[head] = value
    } else if (sub === '') {
      const list = (out[head] ??= []) as unknown[]
      list.push(value)
    } else {
      const obj = (out[head] ??= Object.create(null)) as Record<string, unknown>
      obj[sub] = value
    }
  }
  return { value: { ...out } }
}

/** A custom field or a flag (dry_run): a location's other fields hold text, a number or a list, no checkbox's value. */
const mayBeBox = (head: string): boolean =>
  head === 'custom_fields' || !(LOCATION_FIELDS as readonly string[]).includes(head)

/** Why a form that gives the field `name` more than once is refused: how often, and its first values. */
function givenTwice(entries: Iterable<[string, string]>, name: string): string {
  const values: string[] = []
  let count = 0
  for (const [key, value] of entries) if (key === name && ++count <= 5) values.push(value)
  return `the field ${shown(name)} ${givenOnce(values, count)} Send each field once (a list's items each with [] after its name, as tags[]=A&tags[]=B), or send JSON.`
}

/** Whether a field's name gives a value, a list's item or an object's key. */
const shapeOf = (key: string): 'value' | 'list' | 'object' =>
  !key.endsWith(']') ? 'value' : key.endsWith('[]') ? 'list' : 'object'

const shown = (name: string): string => JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name)

const givenTwoWays = (head: string, first: string, then: string): string =>
  `the field ${shown(head)} is given both as ${shown(first)} and as ${shown(then)}, and one of them would be lost. Give it one way, or send JSON.`
