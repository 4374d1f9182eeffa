// The locator a page's log line names (onLocator) is the one its token named as the request came,
// though a change read while the page is made (a token rotated, any locator's settings) empties
// the registry's cache of tokens, where the line's locator is otherwise read.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rotatePublicToken } from '../../src/operator'
import { type PagesFixture, makePagesFixture, pagesApp } from './fixture'

let f: PagesFixture
beforeAll(async () => {
  f = await makePagesFixture()
})
afterAll(() => f.env.close())

test('a store page that waits for its index while its token is rotated names its locator', async () => {
  const named: string[] = []
  const app = pagesApp({ ...f.deps, onLocator: (_request, locatorId) => named.push(locatorId) })
  const { registry } = f.deps
  // The page waits for the locator's index, as it does for a large one being built.
  let asked!: () => void
  const waiting = new Promise<void>((resolve) => (asked = resolve))
  let built!: () => void
  const gate = new Promise<void>((resolve) => (built = resolve))
  const whenBuilt = registry.whenBuilt.bind(registry)
  registry.whenBuilt = () => {
    registry.whenBuilt = whenBuilt
    asked()
    return gate
  }
  try {
    const page = f.page(`/l/${f.token}/${f.locs[0]!.id}`, {}, app)
    await waiting
    rotatePublicToken(f.env.store, f.env.locatorId)
    registry.sync() // read by this process meanwhile, as another request would
    built()
    // Looked up again once built, the old token names no page.
    expect((await page).status).toBe(404)
    expect(named).toEqual([f.env.locatorId])
  } finally {
    registry.whenBuilt = whenBuilt
  }
})
