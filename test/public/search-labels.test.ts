// A tag's label, as the filters show it, is found by the words box as its value is: a visitor
// types the word they read ("Werkstatt"), not the value the spreadsheet wrote ("repair").
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { setFilters, setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
let token = ''
const ids: Record<string, string> = {}

beforeAll(async () => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  for (const [key, name, tags] of [
    ['garage', 'Radhaus Mitte', ['repair']],
    ['shop', 'Radhaus Nord', ['rental']],
  ] as const) {
    const res = await env.call('POST', '/admin/v1/locations', {
      body: { name, address: 'Torstraße 1, Berlin', coordinates: { lat: 52.53, lng: 13.4 }, tags },
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
  expect(res.status).toBe(200)
  const body = (await res.json()) as { data: { locations: { id: string }[] } }
  return body.data.locations.map((l) => Object.keys(ids).find((k) => ids[k] === l.id)!).sort()
}

test('a tag is found by its label, whole, as a prefix and with a typo, and by its value', async () => {
  setFilters(env.store, env.locatorId, [
    {
      id: 'services',
      name: 'Services',
      label: 'Leistungen',
      tags: [
        { value: 'repair', label: 'Werkstatt' },
        { value: 'rental', label: 'Verleih' },
      ],
    },
  ])
  expect(await found('Werkstatt')).toEqual(['garage'])
  expect(await found('werks')).toEqual(['garage'])
  expect(await found('Werkstat')).toEqual(['garage'])
  expect(await found('Verleih')).toEqual(['shop'])
  expect(await found('repair')).toEqual(['garage'])
  expect(await found('radhaus werkstatt')).toEqual(['garage'])
})

test('a label changed in the filters finds by its new words, not its old ones', async () => {
  setFilters(env.store, env.locatorId, [
    { id: 'services', name: 'Services', label: 'Leistungen', tags: [{ value: 'repair', label: 'Reparatur' }] },
  ])
  expect(await found('Reparatur')).toEqual(['garage'])
  expect(await found('Werkstatt')).toEqual([])
})
