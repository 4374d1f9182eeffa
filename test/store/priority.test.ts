// The priority rule repository, through the store API.
import { expect, test } from 'bun:test'
import type { PriorityRule } from '../../src/store/priority'
import { withTempStore } from '../helpers'

const env = withTempStore()

const newLocator = (name = 'A') => env.store.write(() => env.store.locators.insert(name)).id

const RULES: PriorityRule[] = [
  { ids: ['loc_b', 'loc_a'] },
  { tag: 'Flagship' },
  { custom_field: 'tier', value: 'gold' },
  { tag: 'kiosk' },
]

test('a locator with no rules lists none', () => {
  expect(env.store.priority.list(newLocator())).toEqual([])
})

test('replace then list gives the rules back in rank order', () => {
  const a = newLocator()
  env.store.write(() => env.store.priority.replace(a, RULES))
  expect(env.store.priority.list(a)).toEqual(RULES)
})

test('replace deletes the previous rules of that locator only, and logs one priority change', () => {
  const a = newLocator('A')
  const b = newLocator('B')
  env.store.write(() => env.store.priority.replace(a, RULES))
  env.store.write(() => env.store.priority.replace(b, RULES))
  const seq = env.store.changes.lastSeq()
  env.store.write(() => env.store.priority.replace(a, [{ tag: 'kiosk' }]))
  expect(env.store.priority.list(a)).toEqual([{ tag: 'kiosk' }])
  expect(env.store.priority.list(b)).toEqual(RULES)
  expect(env.store.changes.since(seq)).toEqual([
    { seq: seq + 1, locatorId: a, entity: 'priority', entityId: null, op: 'upsert', at: expect.any(String) },
  ])
  env.store.write(() => env.store.priority.replace(a, []))
  expect(env.store.priority.list(a)).toEqual([])
  expect(env.store.changes.since(seq)).toHaveLength(2)
})

test('a replace rolled back with its transaction leaves the old rules and no change row', () => {
  const a = newLocator()
  env.store.write(() => env.store.priority.replace(a, RULES))
  const seq = env.store.changes.lastSeq()
  expect(() =>
    env.store.write(() => {
      env.store.priority.replace(a, [])
      throw new Error('abort')
    }),
  ).toThrow('abort')
  expect(env.store.priority.list(a)).toEqual(RULES)
  expect(env.store.changes.lastSeq()).toBe(seq)
})
