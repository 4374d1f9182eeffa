// Shared by the tests of caching and CORS on the Query API (caching-*.test.ts): the public fixture,
// made anew for each test, and the URLs of its endpoints that answer 200.
import { afterEach, beforeEach } from 'bun:test'
import { CENTER, makeFixture, type Fixture } from './fixture'

export const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`

export let f: Fixture

/** Registers, in the calling test file, the hooks that make the fixture for each test and close it after. */
export function useCachingFixture(): void {
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())
}

export const urls = () => [
  f.url('/locations', 'all=true'),
  f.url('/locations', NEAR),
  f.url(`/locations/${f.ids.velo}`),
  f.url('/filters'),
]
