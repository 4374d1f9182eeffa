import { afterEach, beforeEach, expect, test } from 'bun:test'
import { makeEnv, storeBody, type TestEnv } from './helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

test('a created location can be read back', async () => {
  const created = await env.call('POST', '/admin/v1/locations', { body: storeBody() })
  expect(created.status).toBe(201)
  const read = await env.call('GET', `/admin/v1/locations/${created.body.location.id}`)
  expect(read.body.location).toEqual(created.body.location)
})
