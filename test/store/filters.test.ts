// The filter group repository, through the store API.
import { expect, test } from 'bun:test'
import type { FilterGroup } from '../../src/store/filters'
import { withTempStore } from '../helpers'

const env = withTempStore()

const newLocator = (name = 'A') => env.store.write(() => env.store.locators.insert(name)).id
const count = (table: string, locatorId: string) =>
  env.store.db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE locator_id = ?`).get(locatorId)!
    .n

const group = (id: string, over: Partial<FilterGroup> = {}): FilterGroup => ({
  id,
  name: `${id} name`,
  label: `${id} label`,
  singleSelect: false,
  inline: false,
  hidden: false,
  hideInLocationDetails: false,
  tags: [],
  ...over,
})

const GROUPS: FilterGroup[] = [
  group('zeta', {
    singleSelect: true,
    hideInLocationDetails: true,
    tags: [
      { value: 'z2', label: 'Z two', color: '#fff' },
      { value: 'z1', label: 'Z one', image: 'https://example.com/z1.png' },
      { value: 'z0', label: 'Z zero', color: '#123456', image: 'https://example.com/z0.png' },
    ],
  }),
  group('_default', { inline: true, hidden: true, tags: [{ value: 'other', label: 'Other' }] }),
  group('alpha'),
]

test('a locator with no filters lists none', () => {
  expect(env.store.filters.list(newLocator())).toEqual([])
})

test('replace then list gives the groups and tags back in their order, absent color and image left out', () => {
  const id = newLocator()
  env.store.write(() => env.store.filters.replace(id, GROUPS))
  const listed = env.store.filters.list(id)
  expect(listed).toEqual(GROUPS)
  expect(listed.map((g) => g.id)).toEqual(['zeta', '_default', 'alpha'])
  expect(Object.keys(listed[0]!.tags[1]!)).toEqual(['value', 'label', 'image'])
  expect(Object.keys(listed[1]!.tags[0]!)).toEqual(['value', 'label'])
  expect(JSON.stringify(listed)).not.toContain('null')
})

test('replace deletes the previous groups and tags of that locator only, and logs one filters change', () => {
  const a = newLocator('A')
  const b = newLocator('B')
  env.store.write(() => env.store.filters.replace(a, GROUPS))
  env.store.write(() => env.store.filters.replace(b, GROUPS))
  const seq = env.store.changes.lastSeq()
  const next = [group('alpha', { tags: [{ value: 'z1', label: 'Moved' }] })]
  env.store.write(() => env.store.filters.replace(a, next))
  expect(env.store.filters.list(a)).toEqual(next)
  expect(count('filter_groups', a)).toBe(1)
  expect(count('filter_tags', a)).toBe(1)
  expect(env.store.filters.list(b)).toEqual(GROUPS)
  expect(env.store.changes.since(seq)).toEqual([
    { seq: seq + 1, locatorId: a, entity: 'filters', entityId: null, op: 'upsert', at: expect.any(String) },
  ])

  env.store.write(() => env.store.filters.replace(a, []))
  expect(env.store.filters.list(a)).toEqual([])
  expect(count('filter_tags', a)).toBe(0)
  expect(env.store.changes.since(seq)).toHaveLength(2)
})

test('a replace rolled back with its transaction leaves the old filters and no change row', () => {
  const a = newLocator()
  env.store.write(() => env.store.filters.replace(a, GROUPS))
  const seq = env.store.changes.lastSeq()
  expect(() =>
    env.store.write(() => {
      env.store.filters.replace(a, [group('only')])
      throw new Error('abort')
    }),
  ).toThrow('abort')
  expect(env.store.filters.list(a)).toEqual(GROUPS)
  expect(env.store.changes.lastSeq()).toBe(seq)
})

test('filters of a locator that does not exist are refused by the foreign key', () => {
  expect(() => env.store.write(() => env.store.filters.replace('lct_nope', GROUPS))).toThrow(/FOREIGN KEY/)
  expect(env.store.changes.lastSeq()).toBe(0)
})
