// What a person wrote that JSON does not allow, found where a parser's own message names only a
// token: a comment, a comma after the last item, a string in single quotes (JSONC, JSON5 and
// JavaScript take them), or NaN and Infinity (Python's json.dumps writes them).

/** "it has a comment (line 1, column 3)..." for the first such fault outside strings; else null. */
export function jsonFault(text: string): string | null {
  let inString = false
  // The open objects and arrays, and the last two characters outside strings but spaces: a value's place.
  const open: string[] = []
  let last = ''
  let prior = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    const [before, beforeThat] = [last, prior]
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') [prior, last] = [last, c]
    if (c === '{' || c === '[') open.push(c)
    else if (c === '}' || c === ']') open.pop()
    if (c === '"') inString = true
    // Named here, as a "//" or ",]" inside it is its text, not a comment or a trailing comma.
    else if (c === "'")
      return `it has a single quote outside a string (${where(text, i)}): JSON's strings take double quotes.`
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))
      return `it has a comment (${where(text, i)}), and JSON has none. Take it out.`
    else if (c === 'N' || c === 'I') {
      const value = text.startsWith('NaN', i) ? 'NaN' : text.startsWith('Infinity', i) ? 'Infinity' : null
      if (value === null) continue
      const at = value === 'Infinity' && text[i - 1] === '-' ? i - 1 : i
      if (!valuePlace(at === i ? before : beforeThat, open.at(-1))) continue
      return `it has ${text.slice(at, i + value.length)} (${where(text, at)}), which is no JSON number (Python's json.dumps writes float('nan') and float('inf') so). Send a number, or leave the field out.`
    } else if (c === ',') {
      const next = text.slice(i + 1).search(/\S/)
      const closer = next < 0 ? undefined : text[i + 1 + next]
      if (closer === '}' || closer === ']')
        return `a comma comes before "${closer}" (${where(text, i)}): JSON has none after the last item. Take it out.`
    }
  }
  return null
}

/**
 * Whether a token after `before` (its last character outside strings but spaces, '' for none)
 * stands where a value does, in the object or array `container` opened: not where a name does.
 */
const valuePlace = (before: string, container: string | undefined): boolean =>
  before === '' || before === ':' || before === '[' || (before === ',' && container === '[')

/** "line L, column C" of index `at`, both from 1. */
function where(text: string, at: number): string {
  const before = text.slice(0, at)
  const line = before.split('\n').length
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`
}
