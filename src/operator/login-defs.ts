// What /etc/login.defs says of the uids useradd gives people, read as shadow's useradd reads it
// (lib/getdef.c): a line is a key, then its value after spaces, tabs and quotes, up to the next
// quote; the last line of a key counts; a number is written as C writes one (strtoul, base 0),
// and useradd keeps it in a uid_t.

/** useradd's own UID_MIN and UID_MAX, where login.defs gives none it can read. */
const PEOPLE_UIDS: [number, number] = [1000, 60000]

/** A whole value as C's strtoul reads it in base 0: "1000", hex "0x3E8", octal "01750". */
const C_NUMBER = /^\+?(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/

/** The largest unsigned long of a 64-bit Linux: strtoul says ERANGE past it. */
const ULONG_MAX = 2n ** 64n - 1n

/** The value of each key of login.defs' `text`, the last line of a key's. */
function valuesOf(text: string): Map<string, string> {
  const values = new Map<string, string>()
  for (const line of text.split('\n')) {
    // C's isspace at the end (CR of a CR LF too), not Unicode's: "2000\u00a0" is no number.
    const trimmed = line.replace(/^[ \t]+/, '').replace(/[ \t\n\v\f\r]+$/, '')
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
 * read ("1000 # people", "08", past ULONG_MAX), as useradd then uses its own. One it reads is cut
 * to a uid_t's 32 bits, as useradd casts it: 4294968296 is 1000.
 */
function numberOf(values: Map<string, string>, key: string, otherwise: number): number {
  const value = values.get(key)
  if (value === undefined || !C_NUMBER.test(value)) return otherwise
  const digits = value.replace(/^\+/, '')
  const number = BigInt(/^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits)
  return number > ULONG_MAX ? otherwise : Number(BigInt.asUintN(32, number))
}

/** UID_MIN and UID_MAX of login.defs' `text`: the uids useradd gives people, 1000 to 60000 where it says none. */
export function peopleUidsIn(text: string): [number, number] {
  const values = valuesOf(text)
  return [numberOf(values, 'UID_MIN', PEOPLE_UIDS[0]), numberOf(values, 'UID_MAX', PEOPLE_UIDS[1])]
}
