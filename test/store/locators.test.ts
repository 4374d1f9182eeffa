// The locator repository's settings and token writes, through the store API.
import { expect, test } from 'bun:test'
import { PUBLIC_TOKEN } from '../../src/core/ids'
import { StoreError } from '../../src/store/db'
import { withTempStore } from '../helpers'

const env = withTempStore()

const newLocator = (name = 'A') => env.store.write(() => env.store.locators.insert(name))
const sleep = (ms: number) => Bun.sleepSync(ms)

test('byToken finds the locator its public token names, and nothing else', () => {
  const a = newLocator('A')
  const b = newLocator('B')
  expect(env.store.locators.byToken(a.publicToken)).toEqual(a)
  expect(env.store.locators.byToken(b.publicToken)?.id).toBe(b.id)
  expect(env.store.locators.byToken('pk_000000000000000000000000')).toBeNull()
  // Tokens are case-sensitive: the same letters in the other case name nothing.
  const swapped = [...a.publicToken].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')
  expect(env.store.locators.byToken(swapped)).toBeNull()
})

test('a lookup by public_token is answered from its UNIQUE index, not a table scan', () => {
  const plan = env.store.db
    .query<{ detail: string }, []>("EXPLAIN QUERY PLAN SELECT * FROM locators WHERE public_token = 'pk_x'")
    .all()
  expect(plan.map((r) => r.detail).join(' ')).toMatch(/USING INDEX/)
})

test('updateSettings changes only the fields in the patch, sets updated_at and logs a locator change', () => {
  const before = newLocator('Shops')
  const seq = env.store.changes.lastSeq()
  sleep(2)
  const after = env.store.write(() =>
    env.store.locators.updateSettings(before.id, {
      queryApiEnabled: true,
      referrers: ['example.com', '*.shop.example.com'],
      rateLimit: 50,
    }),
  )
  expect(after).toEqual({
    ...before,
    queryApiEnabled: true,
    referrers: ['example.com', '*.shop.example.com'],
    rateLimit: 50,
    updatedAt: after.updatedAt,
  })
  expect(after.updatedAt > before.updatedAt).toBe(true)
  expect(env.store.locators.get(before.id)).toEqual(after)
  expect(env.store.changes.since(seq)).toEqual([
    {
      seq: seq + 1,
      locatorId: before.id,
      entity: 'locator',
      entityId: before.id,
      op: 'upsert',
      at: expect.any(String),
    },
  ])

  const second = env.store.write(() =>
    env.store.locators.updateSettings(before.id, {
      defaultRadius: 12.5,
      defaultUnit: 'km',
      name: 'Renamed',
      queryApiEnabled: false,
    }),
  )
  expect(second).toMatchObject({
    name: 'Renamed',
    defaultRadius: 12.5,
    defaultUnit: 'km',
    queryApiEnabled: false,
    referrers: ['example.com', '*.shop.example.com'],
    rateLimit: 50,
  })
  const cleared = env.store.write(() =>
    env.store.locators.updateSettings(before.id, { defaultRadius: null, referrers: [] }),
  )
  expect(cleared).toMatchObject({ defaultRadius: null, referrers: [], defaultUnit: 'km', name: 'Renamed' })
  expect(env.store.changes.since(seq)).toHaveLength(3)
})

test('updateSettings leaves other locators alone and refuses an unknown id', () => {
  const a = newLocator('A')
  const b = newLocator('B')
  env.store.write(() => env.store.locators.updateSettings(a.id, { rateLimit: 7 }))
  expect(env.store.locators.get(b.id)).toEqual(b)
  const seq = env.store.changes.lastSeq()
  expect(() => env.store.write(() => env.store.locators.updateSettings('lct_nope', { rateLimit: 7 }))).toThrow(
    StoreError,
  )
  expect(env.store.changes.lastSeq()).toBe(seq)
})

test('a settings change rolled back with its transaction leaves no trace', () => {
  const a = newLocator('A')
  const seq = env.store.changes.lastSeq()
  expect(() =>
    env.store.write(() => {
      env.store.locators.updateSettings(a.id, { rateLimit: 7 })
      throw new Error('abort')
    }),
  ).toThrow('abort')
  expect(env.store.locators.get(a.id)).toEqual(a)
  expect(env.store.changes.lastSeq()).toBe(seq)
})

test('rotateToken issues a new pk_ token at once; the old one names nothing', () => {
  const a = newLocator('A')
  const seq = env.store.changes.lastSeq()
  sleep(2)
  const rotated = env.store.write(() => env.store.locators.rotateToken(a.id))
  expect(rotated.publicToken).toMatch(PUBLIC_TOKEN)
  expect(rotated.publicToken).not.toBe(a.publicToken)
  expect(rotated).toEqual({ ...a, publicToken: rotated.publicToken, updatedAt: rotated.updatedAt })
  expect(rotated.updatedAt > a.updatedAt).toBe(true)
  expect(env.store.locators.byToken(a.publicToken)).toBeNull()
  expect(env.store.locators.byToken(rotated.publicToken)).toEqual(rotated)
  expect(env.store.changes.since(seq)).toEqual([
    { seq: seq + 1, locatorId: a.id, entity: 'locator', entityId: a.id, op: 'upsert', at: expect.any(String) },
  ])
  expect(() => env.store.write(() => env.store.locators.rotateToken('lct_nope'))).toThrow(StoreError)
})
