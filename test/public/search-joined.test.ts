// Words a store's text writes with a hyphen or an apostrophe are found written either way:
// "Pop-up" by "pop", "up" and "popup"; "E-Bikes" by "ebikes"; "Zoë's" by "zoes".
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
let token = ''
const ids: Record<string, string> = {}

beforeAll(async () => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  for (const [key, name, tags] of [
    ['popup', 'Pop-up Store Soho', ['E-Bikes']],
    ['kitchen', 'Popup Kitchen', []],
    ['zoe', "Zoë's Garage", ['Re-sale']],
    ['dash', 'Ski Hut - Repairs', []],
  ] as const) {
    const res = await env.call('POST', '/admin/v1/locations', {
      body: { name, address: '1 Dean Street, London', coordinates: { lat: 51.51, lng: -0.13 }, tags },
    })
    expect(res.status).toBe(201)
    ids[key] = res.body.location.id
  }
  token = env.store.locators.get(env.locatorId)!.publicToken!
})
afterAll(() => env.close())

async function found(search: string): Promise<string[]> {
  const res = await env.app.handle(
    new Request(`http://localhost/public/v1/${token}/locations?all=true&search=${encodeURIComponent(search)}`),
  )
  const body = (await res.json()) as { data: { locations: { id: string }[] } }
  const keys = body.data.locations.map((l) => Object.keys(ids).find((k) => ids[k] === l.id)!)
  return keys.sort()
}

test('a hyphenated word is found whole, in its parts, and joined', async () => {
  expect(await found('popup')).toEqual(['kitchen', 'popup'])
  expect(await found('pop-up')).toEqual(['popup'])
  expect(await found('pop up store')).toEqual(['popup'])
  expect(await found('ebikes')).toEqual(['popup'])
  expect(await found('ebike')).toEqual(['popup'])
  expect(await found('e-bikes')).toEqual(['popup'])
  expect(await found('resale')).toEqual(['zoe'])
  expect(await found('zoes')).toEqual(['zoe'])
  // A dash between words, spaced, joins nothing: "hut repairs" is two words, "hutrepairs" none.
  expect(await found('hut repairs')).toEqual(['dash'])
  expect(await found('hutrepairs')).toEqual([])
})
