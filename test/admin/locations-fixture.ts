// The environment, request helpers and checks shared by the locations-*.test.ts files of the
// Management API location resource.
import { afterEach, beforeEach, expect } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

export let env: TestEnv

/** A fresh environment (store, app, locator and key) for each test of the calling file (hooks registered here). */
export function withEnv(): void {
  beforeEach(() => {
    env = makeEnv()
  })
  afterEach(() => env.close())
}

export const BASE = '/admin/v1/locations'
export const WHITE_HOUSE = '1600 Pennsylvania Avenue NW, Washington, DC 20500'
export const DOWNING = '10 Downing Street, London SW1A 2AA'
export const ID = /^loc_[0-9a-z]{16}$/
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

export type Res = Awaited<ReturnType<TestEnv['call']>>

export const create = (body: unknown) => env.call('POST', BASE, { body })
export const update = (id: string, body: unknown) => env.call('POST', `${BASE}/${id}`, { body })
export const get = (id: string) => env.call('GET', `${BASE}/${id}`)
export const remove = (id: string) => env.call('POST', `${BASE}/${id}/delete`)

export async function created(body: unknown = storeBody()) {
  const res = await create(body)
  expect(res.status).toBe(201)
  return res.body.location
}

/** Raw bytes with no Content-Type header at all (a string body would get text/plain). */
export function rawRequest(method: string, path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return env.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${env.key}`, ...headers },
      body: bytes,
    }),
  )
}

export const form = (path: string, body: string) =>
  env.call('POST', path, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })

/** Every row of the tables a write touches, to prove a refused request changed nothing. */
export const snapshot = () => ({
  locations: env.store.db.query('SELECT * FROM locations ORDER BY seq').all(),
  changes: env.store.db.query('SELECT * FROM changes ORDER BY seq').all(),
})

export const locationChanges = () =>
  env.store.db
    .query<{ locator_id: string; entity: string; entity_id: string; op: string }, []>(
      "SELECT locator_id, entity, entity_id, op FROM changes WHERE entity = 'location' ORDER BY seq",
    )
    .all()

export const EMPTY_CONTACT = { phone: '', email: '', website: '' }
export const EMPTY_SOCIAL = { instagram: '', facebook: '', twitter: '' }
export const EMPTY_HOURS = {
  monday: '',
  tuesday: '',
  wednesday: '',
  thursday: '',
  friday: '',
  saturday: '',
  sunday: '',
}

/** A 422 validation_error whose details name exactly these fields, each with at least one message. */
export function expectValidation(res: Res, fields: string[]) {
  expect(res.status).toBe(422)
  expect(res.body).toEqual({
    success: false,
    error: 'validation_error',
    message: expect.any(String),
    details: expect.any(Object),
  })
  expect(Object.keys(res.body.details).sort()).toEqual([...fields].sort())
  for (const f of fields) {
    expect(Array.isArray(res.body.details[f])).toBe(true)
    expect(res.body.details[f].length).toBeGreaterThan(0)
    for (const m of res.body.details[f]) expect(typeof m).toBe('string')
  }
}

/** Runs a request that must be refused and checks it left every row as it was. */
export async function expectNoChange(run: () => Promise<Res>): Promise<Res> {
  const before = snapshot()
  const res = await run()
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(snapshot()).toEqual(before)
  return res
}

export function defineAllCustomFieldTypes() {
  addCustomField(env.store, env.locatorId, { id: 'note', name: 'Note', type: 'text' })
  addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
  addCustomField(env.store, env.locatorId, { id: 'menu', name: 'Menu', type: 'url' })
  addCustomField(env.store, env.locatorId, { id: 'mail', name: 'Mail', type: 'email' })
  addCustomField(env.store, env.locatorId, { id: 'tel', name: 'Phone', type: 'phone' })
  addCustomField(env.store, env.locatorId, { id: 'order', name: 'Order', type: 'button', label: 'Order online' })
  addCustomField(env.store, env.locatorId, {
    id: 'promo',
    name: 'Promo',
    type: 'badge',
    label: 'New',
    color: '#1a7f37',
  })
}
