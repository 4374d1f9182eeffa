// Cutting a request's full URL (as Bun's request.url gives it) without parsing it again.

/** Where the Query API lives; the app sends every request under it to this API (its fast path, then its app). */
export const PUBLIC_PREFIX = '/public/v1'

/**
 * An http(s) URL's origin and path, with the "?" after them, and its query string (without "?"),
 * as its getters give them (origin + pathname + "?", search without "?"), from its href (as URL
 * writes it): cut from it, which is those and the fragment, unless it names a user (not in its
 * origin): cheaper than the three getters (PERF-036).
 */
export function beforeAndQuery(href: string): [string, string] {
  const path = pathStart(href)
  if (!(href.startsWith('https://') || href.startsWith('http://')) || href.lastIndexOf('@', path) !== -1) {
    const url = new URL(href)
    return [`${url.origin}${url.pathname}?`, url.search.slice(1)]
  }
  const hash = href.indexOf('#', path)
  const end = hash === -1 ? href.length : hash
  const q = href.indexOf('?', path)
  if (q === -1 || q > end) return [`${href.slice(0, end)}?`, '']
  return [href.slice(0, q + 1), href.slice(q + 1, end)]
}

/**
 * Elysia reads a request's path from the first "/" after the URL's 11th character by default, as if
 * every host were 4 characters or more ("a.bc"): under a host such as "api" or "app" (a container's
 * name, on port 80) every route would be missed (404). Read from the 7th ("http://"), every host
 * works.
 */
export const SHORT_HOSTS = { standardHostname: false }

/** "/public/v1/...?..." of a full URL, as the request sent it. */
export function pathAndQuery(href: string): string {
  return href.slice(pathStart(href))
}

/** Where a full URL's path starts (the "/" after its host). */
export function pathStart(href: string): number {
  return href.indexOf('/', href.indexOf('//') + 2)
}

/**
 * Whether a full URL's origin (its href up to `path`) is one URL parses. Bun.serve writes a Host
 * header it cannot use as no host (the path alone), but passes some that URL refuses ("x:99999",
 * "a%b", "[zz]"), and every reader of the URL here parses it. The last few origins that parsed are
 * kept: a request from one of them costs a startsWith.
 */
export function originCheck(keep = 4): (href: string, path: number) => boolean {
  const good: string[] = []
  return (href, path) => {
    for (const known of good) if (known.length === path && href.startsWith(known)) return true
    const origin = href.slice(0, path)
    if (!URL.canParse(`${origin}/`)) return false
    if (good.length === keep) good.shift()
    good.push(origin)
    return true
  }
}

/**
 * A request URL's path without its query, whether Bun.serve gave a full URL or, for a Host it
 * cannot use, the path alone; for the listeners that answer before the app's check of the Host.
 */
export function pathOf(url: string): string {
  const start = url.charCodeAt(0) === 0x2f ? 0 : pathStart(url)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  return url.slice(start, query === -1 ? url.length : query)
}
