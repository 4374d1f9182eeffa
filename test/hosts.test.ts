// Requests whatever their Host header says: a short host name (a container's, such as "api").
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { makeFixture, send, type Fixture } from './public/fixture'

let f: Fixture
beforeEach(async () => {
  f = await makeFixture()
})
afterEach(() => f.env.close())

const auth = () => ({ authorization: `Bearer ${f.env.key}` })

test('a host of 1 to 3 characters (a container named "api" on port 80) reaches every route', async () => {
  for (const host of ['a', 'db', 'api', 'app:80']) {
    const at = (path: string) => `http://${host}${path}`
    expect((await send(f.env.app, at('/admin/v1/locations?limit=1'), { headers: auth() })).body.pagination.total).toBeGreaterThan(0)
    expect((await send(f.env.app, at('/admin/v1/custom_fields'), { headers: auth() })).status).toBe(200)
    expect((await send(f.env.app, at(`/public/v1/${f.token}/filters`))).status).toBe(200)
    expect((await send(f.env.app, at(`/public/v1/${f.token}/locations/${f.ids.velo}`))).body.data.location.id).toBe(f.ids.velo)
    const page = await send(f.env.app, at(`/public/v1/${f.token}/locations?all=true&limit=1`))
    expect(page.body.data.pagination.next).toBe(`http://${host.replace(':80', '')}/public/v1/${f.token}/locations?all=true&limit=1&offset=1`)
    expect((await send(f.env.app, at('/readyz'))).status).toBe(200)
  }
})
