// GET /docs/api: Swagger UI over GET /openapi.json. Swagger UI's files come from swagger-ui-dist,
// read once at start and served from /docs/assets/, so the page asks no other host. Links are
// relative, so the pages work under a proxy's path prefix too.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The page's own script: no inline script, so a Content-Security-Policy without 'unsafe-inline' holds. */
const INIT_SCRIPT = `// Swagger UI over this server's OpenAPI document; it sends requests to this server only.
window.ui = SwaggerUIBundle({
  url: new URL('../openapi.json', window.location.href).href,
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  // Its default sends the document to validator.swagger.io for a badge.
  validatorUrl: null,
  // ?url= and ?configUrl= would load a document from another host.
  queryConfigEnabled: false,
})
`

/** What the page may load: this server's files, and data: images (Swagger UI's icons). Nothing inline. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const HTML_TYPE = 'text/html; charset=utf-8'
/** Cached as the /docs page is. */
const PAGE_CACHE = 'public, max-age=3600'
/** Assets are linked with their content's hash (?v=), so a cached copy is never stale. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

type Asset = { body: Uint8Array; type: string; version: string }

/** A file of swagger-ui-dist, its source map comment dropped (the maps are not served). */
function distFile(name: string): Uint8Array {
  const text = readFileSync(fileURLToPath(import.meta.resolve(`swagger-ui-dist/${name}`)), 'utf8')
  return Buffer.from(text.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$|\/\/# sourceMappingURL=\S*\s*$/, ''))
}

function asset(body: Uint8Array, type: string): Asset {
  return { body, type, version: Bun.hash(body).toString(36) }
}

function page(assets: Map<string, Asset>): string {
  const href = (name: string) => `assets/${name}?v=${assets.get(name)!.version}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>storeloc API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${href('swagger-ui.css')}">
</head>
<body>
<div class="swagger-ui"><div class="wrapper"><p>
The Management API and the Query API, from <a href="../openapi.json">the OpenAPI document</a>.
What each Query API error means: <a href="../docs">the error guide</a>.
</p></div></div>
<div id="swagger-ui"></div>
<script src="${href('swagger-ui-bundle.js')}"></script>
<script src="${href('api-page.js')}"></script>
</body>
</html>
`
}

type ApiDocs = { html: string; assets: Map<string, Asset> }

let loaded: ApiDocs | null = null

/** The page and its assets, read on the first call: the service app makes it when it is built. */
export function apiDocs(): ApiDocs {
  if (loaded === null) {
    const assets = new Map<string, Asset>([
      ['swagger-ui-bundle.js', asset(distFile('swagger-ui-bundle.js'), 'text/javascript; charset=utf-8')],
      ['swagger-ui.css', asset(distFile('swagger-ui.css'), 'text/css; charset=utf-8')],
      ['api-page.js', asset(Buffer.from(INIT_SCRIPT), 'text/javascript; charset=utf-8')],
    ])
    loaded = { html: page(assets), assets }
  }
  return loaded
}

/** GET /docs/api. */
export function apiPageResponse(): Response {
  return new Response(apiDocs().html, {
    headers: { 'content-type': HTML_TYPE, 'cache-control': PAGE_CACHE, 'content-security-policy': PAGE_CSP },
  })
}

/** GET /docs/assets/{name}; null for a name that is none of them. */
export function apiAssetResponse(name: string): Response | null {
  const found = apiDocs().assets.get(name)
  if (!found) return null
  return new Response(found.body, {
    headers: { 'content-type': found.type, 'cache-control': ASSET_CACHE, 'x-content-type-options': 'nosniff' },
  })
}
