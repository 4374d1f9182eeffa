// GET /docs: the page every Query API error body links to, with a section for each code.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PUBLIC_ERRORS } from '../../src/api/public/errors'
import { makeFixture, send, type Fixture } from './fixture'
import { cliPrefix } from '../../src/core/cli-command'

describe('GET /docs', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  test("an error body's docs link leads to a section of that code on a page the service serves", async () => {
    for (const [path, code] of [
      [f.url('/locations', 'lat=95&lng=0'), 'INVALID_COORDINATES'],
      [f.url('/locations', 'lat=1&lng=1&limit=0'), 'INVALID_PARAMETER'],
      [f.url('/locations/loc_0000000000000000'), 'LOCATION_NOT_FOUND'],
      ['http://localhost/public/v1/no-such-token/locations?all=true', 'INVALID_TOKEN'],
    ] as const) {
      const error = await f.get(path)
      expect(error.body.error.code).toBe(code)
      // A full URL (on the request's origin, as links are), so a page on another site that calls the API does not read it against its own.
      const [page, anchor] = (error.body.error.docs as string).split('#')
      expect(page).toBe('http://localhost/docs')
      const res = await send(f.env.app, page!)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.text).toContain(`<section id="${anchor}">`)
    }
  })

  test('the page links to the API reference and the OpenAPI document, which link back', async () => {
    const docs = await send(f.env.app, 'http://localhost/docs')
    const links = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!)
    // Relative, so they hold under a proxy's path prefix (PUBLIC_BASE_URL's).
    const targets = links(docs.text).map((href) => new URL(href, 'http://localhost/docs').pathname)
    expect(targets).toEqual(['/docs/api', '/openapi.json'])
    for (const path of targets) expect((await send(f.env.app, `http://localhost${path}`)).status).toBe(200)
    const page = await send(f.env.app, 'http://localhost/docs/api')
    const back = links(page.text).map((href) => new URL(href, 'http://localhost/docs/api').pathname)
    expect(back).toContain('/docs')
    expect(back).toContain('/openapi.json')
  })

  test('the commands the page and the error messages give are in one form, as the service was started', async () => {
    // Here not by `npm start`: `storeloc ...` (test/cli/cli-command.test.ts starts it each way).
    const prefix = cliPrefix()
    const res = await send(f.env.app, 'http://localhost/docs')
    const said = [res.text, ...Object.values(PUBLIC_ERRORS).map((e) => e.message)]
    for (const text of said)
      expect(text.replaceAll(`${prefix} `, '')).not.toMatch(/npm run|bun run|npx|storeloc (locator|key)/)
    expect(res.text).toContain(`<code>${prefix} locator set lct_... --query-api on</code>`)
    // --referrers replaces the whole list: the guide says so, and keeps the hosts listed.
    const referrers = res.text.split('<section id="REFERRER_NOT_ALLOWED">')[1]!.split('</section>')[0]!
    expect(referrers).toContain('replaces the whole list')
    expect(referrers).toContain(`<code>${prefix} locator show lct_...</code>`)
  })

  test('INVALID_PARAMETER says a URL past the length the service reads is refused too', async () => {
    const res = await send(f.env.app, 'http://localhost/docs')
    const section = res.text.split('<section id="INVALID_PARAMETER">')[1]!.split('</section>')[0]!
    expect(section).toContain('longer than 16,384 characters')
  })

  test('every code the Query API answers with has its section, with its status', async () => {
    const res = await send(f.env.app, 'http://localhost/docs')
    const statuses = Object.entries(PUBLIC_ERRORS).map(([code, e]) => [code, e.status] as const)
    expect(statuses).toContainEqual(['INTERNAL_ERROR', 500])
    for (const [code, status] of statuses)
      expect(res.text).toContain(`<section id="${code}">\n<h2>${code} <small>(HTTP ${status})</small></h2>`)
  })
})
