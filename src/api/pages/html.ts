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

/** What a page of no locator may load (a 404, a 503): nothing; nothing runs, no form is sent. */
const BARE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'"

/**
 * An HTML page's response: cached briefly by browsers, revalidated after; never sniffed as another
 * type; loading nothing unless `headers` give it a policy (pagePolicy).
 */
/**
 * The Open Graph tags of a page (`property`, value; those without a value left out), then the
 * Twitter card that shows them: what a link to the page shows where it is shared.
 */
export const openGraphTags = (tags: [string, string | null | undefined][]): string =>
  [
    ...tags.filter(([, v]) => v).map(([p, v]) => `<meta property="${p}" content="${escapeHtml(v!)}">`),
    '<meta name="twitter:card" content="summary">',
  ].join('\n')

export const htmlResponse = (html: string, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=60',
      'x-content-type-options': 'nosniff',
      'content-security-policy': BARE_POLICY,
      ...headers,
    },
  })

/**
 * A locator page's Content-Security-Policy. Scripts only from the service (the page's own origin,
 * and `base`'s, where its files come from: "" for none other), and only on pages that run the
 * widget (`scripts`), so a value
 * that slipped past escaping runs nothing. Styles inline too (the page's own, the map's), images
 * from anywhere (tiles, store photos).
 *
 * Framed only by the sites of the locator's referrer allowlist (and its own), when it has one:
 * else a page of another site could frame them, as their requests count as allowed. Each host on
 * either scheme and any port, as the allowlist matches it (a CSP host without them means the
 * page's scheme and the default port).
 */
export function pagePolicy(base: string, referrers: readonly string[], scripts: boolean): Record<string, string> {
  const service = base === '' ? "'self'" : `'self' ${new URL(base).origin}`
  const policy = [
    "default-src 'none'",
    ...(scripts ? [`script-src ${service}`, `connect-src ${service}`] : []),
    `style-src ${service} 'unsafe-inline'`,
    `img-src ${service} data: https: http:`,
    "base-uri 'none'",
    scripts ? "form-action 'self'" : "form-action 'none'",
  ]
  if (referrers.length > 0)
    policy.push(`frame-ancestors 'self' ${referrers.flatMap((h) => [`https://${h}:*`, `http://${h}:*`]).join(' ')}`)
  return { 'content-security-policy': policy.join('; ') }
}
