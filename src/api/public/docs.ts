// GET /docs: the page every Query API error body links to (`docs: ".../docs#<CODE>"`), one section
// per code, its id the code. Made once, from PUBLIC_ERRORS: a code added there without a text
// here fails to compile. The OpenAPI document's error examples reuse these texts.
import { PUBLIC_ERRORS, type PublicErrorCode } from './errors'
import { MAX_LIMIT, MAX_RADIUS, MAX_SEARCH, MAX_TAGS, MAX_URL_LENGTH } from '../../core/limits'
import { cliCommand } from '../../core/cli-command'

/** When each code is answered, and what to do about it. */
export const PUBLIC_ERROR_GUIDE: Record<PublicErrorCode, { when: string; fix: string }> = {
  INVALID_TOKEN: {
    when: 'The locator token in the path (/public/v1/{token}/...) names no locator, or its locator is inactive.',
    fix: `Check the token against <code>${cliCommand('locator list')}</code>; tokens are case-sensitive.`,
  },
  API_NOT_ENABLED: {
    when: "The locator's Query API is switched off.",
    fix: `Turn it on with the locator's lct_ id: <code>${cliCommand('locator set lct_... --query-api on')}</code>.`,
  },
  REFERRER_NOT_ALLOWED: {
    when: "The locator has a referrer allowlist and the request's Origin or Referer is not on it, or names no site (none sent, Origin <code>null</code>).",
    fix: `Add the site to the list. <code>--referrers</code> replaces the whole list, so give the hosts listed now (<code>${cliCommand('locator show lct_...')}</code>) with the new one: <code>${cliCommand('locator set lct_... --referrers "shop.example.com,*.example.org,new.example.net"')}</code>.`,
  },
  MISSING_COORDINATES: {
    when: '<code>lat</code> or <code>lng</code> is missing from GET /locations, with no <code>near</code> or <code>bbox</code>, and <code>all</code> is not <code>true</code>.',
    fix: "Send both, or <code>near</code> with a place, <code>bbox</code> with a map's box, or <code>all=true</code> for every location by name.",
  },
  INVALID_COORDINATES: {
    when: '<code>lat</code> is outside -90 to 90, or <code>lng</code> outside -180 to 180.',
    fix: 'Send degrees in WGS 84, latitude first: <code>lat=48.8566&amp;lng=2.3522</code>.',
  },
  INVALID_PARAMETER: {
    when: `A parameter fails its check; the message names it (radius more than 0 and at most ${MAX_RADIUS} in its unit, limit 1 to ${MAX_LIMIT}, offset 0 or more, unit, sort, tagLogic, all, at most ${MAX_TAGS} tags, search at most ${MAX_SEARCH} characters, escapes whose bytes are UTF-8), or one other than <code>tags[]</code> (or <code>tags</code>) is given twice, or the URL (path and query string, as sent) is longer than ${MAX_URL_LENGTH.toLocaleString('en-US')} characters.`,
    fix: 'Correct the parameter the message names; for a URL too long, send fewer tags or a shorter search.',
  },
  LOCATION_NOT_FOUND: {
    when: 'GET /locations/{id} for an id that is not a published location of this locator.',
    fix: 'Use an id from a GET /locations answer; drafts are not public.',
  },
  CLUSTER_NOT_FOUND: {
    when: 'GET /clusters/{id}/leaves for an id no clusters answer gave, or one given before the clusters were built anew (after changes to the locations).',
    fix: 'Ask GET /clusters again and use an id from that answer.',
  },
  PLACE_NOT_FOUND: {
    when: 'The text in <code>near</code> (GET /locations) names no town, postcode or region the service knows.',
    fix: 'Offer the visitor the places GET /places suggests as they type, or send <code>lat</code> and <code>lng</code>.',
  },
  PLACES_UNAVAILABLE: {
    when: 'GET /places, or <code>near</code>, on a service started with <code>GEOCODER=none</code>: it has no place data.',
    fix: 'Start it with the embedded geocoder (the default) or an HTTP one, or send <code>lat</code> and <code>lng</code>.',
  },
  SECRET_KEY_EXPOSED: {
    when: 'A private Management API key (sk_...) was sent to the public API, in a header or the URL.',
    fix: `Remove it from the front end and rotate it now, with no grace period, so the leaked key stops working at once: <code>${cliCommand('key rotate KEY_ID --grace-hours 0')}</code>. The Query API needs no key.`,
  },
  RATE_LIMITED: {
    when: "More requests for the token in a minute than the locator's rate limit (1,000 by default), or from one address than the service's limit per address (CLIENT_RATE_LIMIT, 300 a minute unless its operator set another).",
    fix: 'Wait the seconds in <code>Retry-After</code>; the <code>RateLimit-*</code> headers of every answer say how much is left.',
  },
  NOT_FOUND: {
    when: 'No such endpoint: the Query API serves GET /locations, /locations/{id}, /clusters, /clusters/{id}/leaves, /filters and /places under /public/v1/{token}.',
    fix: 'Check the path and the method.',
  },
  METHOD_NOT_ALLOWED: {
    when: 'A method other than GET (POST, PUT, DELETE...) on one of those endpoints: the Query API is read-only. The <code>Allow</code> header lists the methods it takes.',
    fix: 'Send GET, with the parameters in the query string. Locations are written with the Management API (/admin/v1), from a server.',
  },
  UNAVAILABLE: {
    when: "The answer cannot be made at the moment: the locations kept changing while it was made (other processes writing), the database is busy with another write, or the locator's locations could not be loaded (the service tries again by itself).",
    fix: 'Retry after the seconds in <code>Retry-After</code>.',
  },
  INTERNAL_ERROR: {
    when: 'The service failed; the error was logged.',
    fix: 'Retry; if it persists, report it with the <code>X-Request-Id</code> header of the response.',
  },
}

function page(): string {
  const sections = (Object.keys(PUBLIC_ERROR_GUIDE) as PublicErrorCode[]).map(
    (code) => `<section id="${code}">
<h2>${code} <small>(HTTP ${PUBLIC_ERRORS[code].status})</small></h2>
<p>${PUBLIC_ERROR_GUIDE[code].when}</p>
<p><strong>What to do:</strong> ${PUBLIC_ERROR_GUIDE[code].fix}</p>
</section>`,
  )
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Query API errors</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}section:target{background:#fff8d6}code{background:#f2f2f2;padding:0 .2em}</style>
</head>
<body>
<h1>Query API errors</h1>
<p>Every error of <code>/public/v1/{token}/...</code> is <code>{ "success": false, "error": { "code", "message", "docs" } }</code>, with <code>Cache-Control: no-store</code>; <code>docs</code> links to the code's section below.</p>
<p>Every endpoint of both APIs, with its parameters, answers and errors: <a href="docs/api">the API reference</a>, and <a href="openapi.json">its OpenAPI document</a>.</p>
${sections.join('\n')}
</body>
</html>
`
}

let made: string | null = null

/** The page's HTML (made on first use). */
export function docsPage(): string {
  return (made ??= page())
}
