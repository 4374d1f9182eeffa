// Every name of region-towns.ts as a visitor types it into GET /places: its region first, shown
// by that name, or a town of the name when one of 10,000 people or more bears it (the town is
// meant then).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { countryLabel } from '../../src/geocode/countries'
import { REGION_TOWNS } from '../../src/geocode/embedded/region-towns'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
let token = ''
beforeAll(() => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  token = env.store.locators.get(env.locatorId)!.publicToken!
})
afterAll(() => env.close())

test("each region's every name finds the region first, or a town of that name", async () => {
  const missed: string[] = []
  for (const [country, regions] of Object.entries(REGION_TOWNS))
    for (const [, names] of regions) {
      for (const name of names) {
        // Shown by the name typed ("Bayern, Germany").
        const label = `${name}, ${countryLabel(country)}`
        const res = await env.app.handle(
          new Request(`http://localhost/public/v1/${token}/places?q=${encodeURIComponent(name)}&limit=1`),
        )
        const [first] = ((await res.json()) as { data: { places: { label: string; precision: string }[] } }).data.places
        const town = first?.precision === 'city' && first.label.split(',')[0] === name
        if (!(first?.label === label && first.precision === 'region') && !town)
          missed.push(`${name}: ${first ? `${first.label} (${first.precision})` : 'nothing'}`)
      }
    }
  expect(missed).toEqual([])
})
