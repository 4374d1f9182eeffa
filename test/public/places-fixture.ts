// What the place search's tests share: a locator with stores in London and Köln (their ties
// broken towards them), a second with one in Portland, Maine; GET on the Query API, and
// GET /places's places for a text.
import { afterAll, beforeAll, expect } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'

export let env: TestEnv
export let token = ''
/** A second locator, with a store in Portland, Maine. */
export let maine = ''
export const ids: Record<string, string> = {}

const STORES = [
  { key: 'soho', lat: 51.5136, lng: -0.1365 },
  { key: 'camden', lat: 51.539, lng: -0.1426 },
  { key: 'croydon', lat: 51.3762, lng: -0.0982 },
  { key: 'koeln', lat: 50.9375, lng: 6.9603 },
]

/** Registers, in the calling file, the hooks that make the locators and close them after. */
export function usePlacesEnv(): void {
  beforeAll(async () => {
    env = makeEnv()
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    for (const s of STORES) {
      const res = await env.call('POST', '/admin/v1/locations', {
        body: { name: `Store ${s.key}`, address: `${s.key} road`, coordinates: { lat: s.lat, lng: s.lng } },
      })
      expect(res.status).toBe(201)
      ids[s.key] = res.body.location.id
    }
    token = env.store.locators.get(env.locatorId)!.publicToken!
    const other = createLocator(env.store, 'Maine stores')
    setLocatorSettings(env.store, other.locator.id, { queryApi: 'on' })
    const res = await env.call('POST', '/admin/v1/locations', {
      key: other.secret,
      body: { name: 'Old Port', address: 'Fore Street', coordinates: { lat: 43.6567, lng: -70.2546 } },
    })
    expect(res.status).toBe(201)
    maine = other.locator.publicToken!
  })
  afterAll(() => env.close())
}

export async function get(
  path: string,
  headers: Record<string, string> = {},
  app: { handle: typeof env.app.handle } = env.app,
) {
  const res = await app.handle(new Request(`http://localhost/public/v1/${path}`, { headers }))
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) }
}
export const places = async (q: string, more = '', tok = token) =>
  (await get(`${tok}/places?q=${encodeURIComponent(q)}${more}`)).body.data.places as any[]
