// Text made safe for HTML: the service's own pages are written as strings, so every value that
// came from a location or a locator goes through these.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an element's content or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)

/**
 * JSON inside a <script> element: "<" written as \u003c, so no "</script>" or "<!--" in a value
 * ends or bends the element; U+2028 and U+2029 as escapes too.
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/** An HTML page's response: cached briefly by browsers, revalidated after; never sniffed as another type. */
export const htmlResponse = (html: string, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=60',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  })

/**
 * A locator's pages may be framed only by the sites of its referrer allowlist (and its own), when
 * it has one: else a page of another site could frame them, as their requests count as allowed.
 * Each host on either scheme and any port, as the allowlist matches it (a CSP host without them
 * means the page's scheme and the default port).
 */
export const framedBy = (referrers: readonly string[]): Record<string, string> =>
  referrers.length === 0
    ? {}
    : {
        'content-security-policy': `frame-ancestors 'self' ${referrers.flatMap((h) => [`https://${h}:*`, `http://${h}:*`]).join(' ')}`,
      }
