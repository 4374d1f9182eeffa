// A request's Content-Type as read: its parameters and its charset.

/** The parameter `name` of a Content-Type, unquoted; null when none. */
export function paramOf(contentType: string, name: string): string | null {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=')
    if (eq !== -1 && param.slice(0, eq).trim().toLowerCase() === name)
      return param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
  }
  return null
}

/**
 * The charset parameter of a Content-Type, lowercased, unquoted, trimmed; null when none. An
 * empty one (`charset=`, a template's unfilled blank) names nothing, so is none: UTF-8 is read.
 */
export const charsetOf = (contentType: string): string | null =>
  paramOf(contentType, 'charset')?.trim().toLowerCase() || null

/** Whether bytes start with UTF-8's byte order mark, which says they are UTF-8 whatever the charset named. */
export const utf8Marked = (bytes: Uint8Array): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
