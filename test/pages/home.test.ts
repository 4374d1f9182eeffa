// GET /: a person who opens the service's address finds where its finders and references are,
// and no locator's token.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeFixture, type Fixture } from '../public/fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

test('GET / is a page that links the API reference, the OpenAPI document and the error guide', async () => {
  const res = await f.env.app.handle(new Request('http://localhost/'))
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  const html = await res.text()
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1])
  expect(links).toEqual(['/docs/api', '/openapi.json', '/docs'])
  for (const link of links) expect((await f.env.app.handle(new Request(`http://localhost${link}`))).status).toBe(200)
  expect(html).toContain('<code>/l/{public token}</code>')
  expect(html).not.toContain(f.token)
  // Other paths outside the APIs stay 404.
  expect((await f.env.app.handle(new Request('http://localhost/index.html'))).status).toBe(404)
})
