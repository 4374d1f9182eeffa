// What /etc/login.defs says of the uids useradd gives people, read as shadow's useradd reads it
// (lib/getdef.c): a line is a key, then its value after spaces, tabs and quotes, up to the next
// quote; the last line of a key counts; a number is written as C writes one (strtoul, base 0).

/** useradd's own UID_MIN and UID_MAX, where login.defs gives none it can read. */
const PEOPLE_UIDS: [number, number] = [1000, 60000]

/** A whole value as C's strtoul reads it in base 0: "1000", hex "0x3E8", octal "01750". */
const C_NUMBER = /^\+?(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/

/** The value of each key of login.defs' `text`, the last line of a key's. */
function valuesOf(text: string): Map<string, string> {
  const values = new Map<string, string>()
  for (const line of text.split('\n')) {
    const trimmed = line.replace(/^[ \t]+/, '').replace(/\s+$/, '')
    if (trimmed === '' || trimmed.startsWith('#')) continue
    const at = trimmed.search(/[ \t]/)
    if (at < 0) continue // a key with no value: useradd skips the line
    const value = trimmed.slice(at + 1).replace(/^[ \t"]+/, '')
    values.set(trimmed.slice(0, at), value.split('"')[0]!)
  }
  return values
}

/**
 * `key`'s number in login.defs' `text`, or `otherwise` where it gives none or one useradd cannot
 * read ("1000 # people", "08"), as useradd then uses its own.
 */
function numberOf(values: Map<string, string>, key: string, otherwise: number): number {
  const value = values.get(key)
  if (value === undefined || !C_NUMBER.test(value)) return otherwise
  const digits = value.replace(/^\+/, '')
  if (/^0[xX]/.test(digits)) return Number.parseInt(digits.slice(2), 16)
  return digits.length > 1 && digits.startsWith('0') ? Number.parseInt(digits, 8) : Number(digits)
}

/** UID_MIN and UID_MAX of login.defs' `text`: the uids useradd gives people, 1000 to 60000 where it says none. */
export function peopleUidsIn(text: string): [number, number] {
  const values = valuesOf(text)
  return [numberOf(values, 'UID_MIN', PEOPLE_UIDS[0]), numberOf(values, 'UID_MAX', PEOPLE_UIDS[1])]
}
