// The priority rule repository, through the store API.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store'
import type { PriorityRule } from '../../src/store/priority'
import { tempDir } from '../helpers'

let dir: string
let store: Store

beforeEach(() => {
  dir = tempDir()
  store = openStore(join(dir, 'store.db'))
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const newLocator = (name = 'A') => store.write(() => store.locators.insert(name)).id

const RULES: PriorityRule[] = [{ ids: ['loc_b', 'loc_a'] }, { tag: 'Flagship' }, { custom_field: 'tier', value: 'gold' }, { tag: 'kiosk' }]

test('a locator with no rules lists none', () => {
  expect(store.priority.list(newLocator())).toEqual([])
})

test('replace then list gives the rules back in rank order', () => {
  const a = newLocator()
  store.write(() => store.priority.replace(a, RULES))
  expect(store.priority.list(a)).toEqual(RULES)
})

test('replace deletes the previous rules of that locator only, and logs one priority change', () => {
  const a = newLocator('A')
  const b = newLocator('B')
  store.write(() => store.priority.replace(a, RULES))
  store.write(() => store.priority.replace(b, RULES))
  const seq = store.changes.lastSeq()
  store.write(() => store.priority.replace(a, [{ tag: 'kiosk' }]))
  expect(store.priority.list(a)).toEqual([{ tag: 'kiosk' }])
  expect(store.priority.list(b)).toEqual(RULES)
  expect(store.changes.since(seq)).toEqual([{ seq: seq + 1, locatorId: a, entity: 'priority', entityId: null, op: 'upsert' }])
  store.write(() => store.priority.replace(a, []))
  expect(store.priority.list(a)).toEqual([])
  expect(store.changes.since(seq)).toHaveLength(2)
})

test('a replace rolled back with its transaction leaves the old rules and no change row', () => {
  const a = newLocator()
  store.write(() => store.priority.replace(a, RULES))
  const seq = store.changes.lastSeq()
  expect(() =>
    store.write(() => {
      store.priority.replace(a, [])
      throw new Error('abort')
    }),
  ).toThrow('abort')
  expect(store.priority.list(a)).toEqual(RULES)
  expect(store.changes.lastSeq()).toBe(seq)
})
