// GET /docs (the Query API's error guide), /docs/api (Swagger UI), its files and /openapi.json:
// made from the code alone, so a start answers them by these routes before the database is open
// (server/starting-answers.ts), as the app does after.
import { Elysia, NotFoundError } from 'elysia'
import { trailingSlashRedirect } from '../pages/deps'
import { htmlResponse } from '../pages/html'
import { docsPage } from '../public/docs'
import { openApiResponse } from './document'
import { apiAssetResponse, apiDocs, apiPageResponse } from './page'

export function docsRoutes() {
  apiDocs() // Swagger UI's files, read now: a missing package fails the start, not a later request
  return (
    new Elysia()
      // The page the Query API's error bodies link to (docs: "/docs#<CODE>").
      .get(
        '/docs',
        ({ request }) =>
          trailingSlashRedirect(request.url) ??
          htmlResponse(docsPage(), 200, {
            'cache-control': 'public, max-age=3600',
            'content-security-policy':
              "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
          }),
      )
      .get('/openapi.json', () => openApiResponse())
      .get('/docs/api', ({ request }) => trailingSlashRedirect(request.url) ?? apiPageResponse())
      .get('/docs/assets/:name', ({ params }) => {
        const found = apiAssetResponse(params.name)
        if (found === null) throw new NotFoundError()
        return found
      })
  )
}
