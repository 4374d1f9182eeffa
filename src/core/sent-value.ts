// How a message shows a JSON option of the wrong type, and says how to send the value meant.

/**
 * "; got ..." for `value`, sent where another type goes: a string that `read` takes (a query
 * string's reading: `"true"`, `"5"`) is the value meant, quoted; null says to leave the field
 * out, which means `absent`.
 */
export function gotInstead<T>(value: unknown, read: (sent: string) => T | null, absent: string): string {
  if (value === null) return `; got null: leave the field out instead (${absent}).`
  const meant = typeof value === 'string' ? read(value.trim()) : null
  if (meant !== null) return `; got ${JSON.stringify(value)}, a string: send ${meant}, without quotes.`
  const shown = JSON.stringify(value) ?? String(value)
  return `; got ${shown.length > 60 ? `${shown.slice(0, 60)}...` : shown}.`
}
