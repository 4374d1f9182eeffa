// PAGE_RATE_LIMIT: page requests under /l/ a minute per client address, in a count of their own:
// a crawler reads thousands of pages from one address, a visitor's finder few, so the Query
// API's count per address (CLIENT_RATE_LIMIT) would refuse the one or let the other flood.
import { type ClientCount, rateHeaders } from '../public/guards'
import { pathStart } from '../public/url'
import { errorPage, linkLang } from './deps'

/** The finder, store and directory pages and a locator's sitemap: what the limit counts. */
const isLimitedPage = (url: string) => url.startsWith('/l/', pathStart(url))

/**
 * Counts a page request of the client `count` names (null: the limit is off, or the client is not
 * known); the HTML 429 page, with Retry-After and the address's RateLimit-* headers, past it.
 */
export function pageRateRefusal(request: Request, count: ClientCount | null): Response | null {
  if (count === null || !isLimitedPage(request.url)) return null
  const d = count.limiter.take(count.key, count.limit)
  if (d.allowed) return null
  const refused = errorPage(429, d.resetSeconds, linkLang(request))
  for (const [name, value] of Object.entries(rateHeaders(d))) refused.headers.set(name, value)
  return refused
}
