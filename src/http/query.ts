// Query string parameters that may be given at most once.

/**
 * A parameter's value, or null when it is not given. Given more than once it is refused, the same
 * value too, whichever the sender meant: `refuse` makes the error from the message's end, which
 * names each value ("may be given once; got it 2 times ("5", "x")."), so each API words its own.
 */
export function single(params: Pick<URLSearchParams, 'getAll'>, name: string, refuse: (tail: string) => Error): string | null {
  const values = params.getAll(name)
  if (values.length > 1) throw refuse(`may be given once; got it ${values.length} times (${values.slice(0, 5).map(quoted).join(', ')}${values.length > 5 ? ', ...' : ''}).`)
  return values.length === 0 ? null : values[0]!
}

/** A value as an error quotes it: its first 50 characters. */
const quoted = (value: string) => `"${value.length > 50 ? `${value.slice(0, 50)}...` : value}"`
