// Shared by the tests of index preloading and upkeep (preload-*.test.ts): a test environment made anew
// for each test, and locations seeded straight into its store.
import { afterEach, beforeEach } from 'bun:test'
import { defaultSchedule } from '../../src/engine/locator-index'
import { locationRecord, makeEnv, type TestEnv } from '../helpers'

export let env: TestEnv

/** Registers, in the calling test file, the hooks that make the environment for each test and close it after. */
export function usePreloadEnv(): void {
  beforeEach(() => (env = makeEnv()))
  afterEach(() => env.close())
}

/** More locations than one page of the background JSON fill (1000), so preload waits across several tasks. */
export const SIZE = 2500

export function seed(locatorId: string, n: number): void {
  env.store.write(() => {
    for (let i = 0; i < n; i++) {
      const body = {
        name: `Store ${i}`,
        address: `${i} Main Street, Paris`,
        coordinates: { lat: 48.85 + (i % 50) * 0.001, lng: 2.35 + Math.floor(i / 50) * 0.001 },
        tags: ['repair'],
        status: 'published',
      }
      env.store.locations.insert(locationRecord(locatorId, body))
    }
  })
}

/**
 * Resolves once the background tasks queued so far on the default schedule (an app's) have run:
 * it runs them in order. Those they queue run later.
 */
export const queuedTasksRun = () => new Promise<void>((done) => defaultSchedule(done))
