// GET /: what a person who opens the service's own address finds. No locator is named: a token
// shown here would tell every visitor of the address which locators exist.
import { htmlResponse } from './html'
import { cliCommand } from '../../core/cli-command'

const STYLE =
  'body{margin:0 auto;max-width:40rem;padding:1rem;font:16px/1.5 system-ui,sans-serif;color:#1f2328}code{font-size:.95em}'

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>storeloc</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>storeloc</h1>
<p>This is a storeloc service: store finders, and the APIs behind them.</p>
<ul>
<li>A locator's store finder is at <code>/l/{public token}</code>; its operator sees the tokens with <code>${cliCommand('locator list')}</code>.</li>
<li><a href="/docs/api">The API reference</a>, to try each endpoint; <a href="/openapi.json">its OpenAPI document</a>.</li>
<li><a href="/docs">The Query API's errors</a>, and what to do about each.</li>
</ul>
</main>
</body>
</html>
`

/** The page at GET /, the same for every request. */
export const homeResponse = (): Response =>
  htmlResponse(PAGE, 200, {
    'cache-control': 'public, max-age=3600',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  })
