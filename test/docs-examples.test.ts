// The "Real examples" of the docs' error sections, sent to the service as written: each answer is
// the one the docs print, word for word. A message reworded in the code and not in the docs fails
// here.
import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setLocatorSettings } from '../src/operator'
import { makeEnv } from './helpers'

const env = makeEnv()
afterAll(() => env.close())

/** The requests and answers of the `jsonc` block after "Real examples:" in the section `heading` of `page`. */
function examples(page: string, heading: string): { request: string; answer: unknown }[] {
  const text = readFileSync(join(import.meta.dir, '..', 'docs', page), 'utf8')
  const section = text.slice(text.indexOf(`\n${heading}\n`))
  const block = /Real examples:\n\n```jsonc\n([\s\S]*?)```/.exec(section)![1]!
  return block.split(/^(?=\/\/ )/m).map((chunk) => {
    const [comment, ...json] = chunk.split('\n')
    // The docs show a service on port 3000; the test's answers name the request's own host.
    return { request: comment!.slice(3), answer: JSON.parse(json.join('\n').replaceAll('localhost:3000', 'localhost')) }
  })
}

test("query-api.md's error examples are the answers the Query API gives", async () => {
  const token = env.store.locators.get(env.locatorId)!.publicToken!
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  const found = examples('query-api.md', '## Errors')
  expect(found.length).toBe(3)
  for (const { request, answer } of found) {
    const [method, path] = request.split(' ')
    const res = await env.call(method!, `/public/v1/${token}${path}`, { key: null })
    expect({ request, body: res.body }).toEqual({ request, body: answer })
  }
})

test("management-api.md's error examples are the answers the Management API gives", async () => {
  const found = examples('management-api.md', '## Errors')
  let sent = 0
  for (const { request, answer } of found) {
    const asked = /^(\d{3}): (GET|POST) (\S+)(?: with (.+))?$/.exec(request)
    const unauthenticated = /^401: no Authorization header$/.test(request)
    // Said in words: the address is the one the message quotes, which the test's geocoder does not know.
    const ungeocoded = /^422: an address that cannot be geocoded, sent without coordinates$/.test(request)
      ? JSON.stringify({
          name: 'Shop',
          address: /^The address "(.+?)"/.exec((answer as { message: string }).message)![1],
        })
      : null
    const [, status, method, path, body] =
      asked ??
      (unauthenticated ? ['', '401', 'GET', '/locations', undefined] : ['', '422', 'POST', '/locations', ungeocoded!])
    const res = await env.call(method!, `/admin/v1${path}`, {
      body: body === undefined ? undefined : JSON.parse(body),
      key: unauthenticated ? null : undefined,
    })
    expect({ request, status: res.status, body: res.body }).toEqual({ request, status: Number(status), body: answer })
    sent++
  }
  expect(sent).toBe(4)
})
