// Shared by the tests of the Query API's guards (guards-*.test.ts): the public fixture, made anew for
// each test, a centre to query near, and a locator switched off behind the app's back.
import { afterEach, beforeEach } from 'bun:test'
import { CENTER, makeFixture, type Fixture } from './fixture'

export const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`

export let f: Fixture

/** Registers, in the calling test file, the hooks that make the fixture for each test and close it after. */
export function useGuardsFixture(): void {
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())
}

export const deactivate = (id: string) => f.env.store.db.run('UPDATE locators SET active = 0 WHERE id = ?', [id])
