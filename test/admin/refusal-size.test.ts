// What a refusal quotes of a body is bounded: a value nested 60,000 deep, 700 unknown keys or a key
// of 100,000 characters get a 422 of a few KB that says what to fix, never a 500 or a 2 MB answer.
import { describe, expect, test } from 'bun:test'
import { storeBody } from '../helpers'
import { BASE, create, created, env, expectNoChange, update, withEnv } from './locations-fixture'

withEnv()

/** A JSON body whose `field` is `deep` (raw JSON text), the rest a valid location. */
const withRaw = (field: string, deep: string) => JSON.stringify(storeBody()).replace(/^\{/, `{"${field}":${deep},`)
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const send = (path: string, body: string) =>
  env.call('POST', path, { body, headers: { 'content-type': 'application/json' } })

describe('refusals quote what was sent within bounds', () => {
  test('a timezone nested 60,000 deep is "an array", on create, update and in bulk', async () => {
    const made = await created()
    for (const [path, body] of [
      [BASE, withRaw('timezone', nested(60_000))],
      [`${BASE}/${made.id}`, `{"timezone":${nested(60_000)}}`],
      [`${BASE}/bulk`, `{"locations":[${withRaw('timezone', nested(60_000))}]}`],
    ] as const) {
      const res = await expectNoChange(() => send(path, body))
      expect(res.status).toBe(422)
      expect(JSON.stringify(res.body.details)).toContain('must be a string or null; got an array.')
    }
  })

  test("a bulk item's id nested 60,000 deep is refused as no location's id", async () => {
    const res = await expectNoChange(() => send(`${BASE}/bulk`, `{"locations":[${withRaw('id', nested(60_000))}]}`))
    expect(res.status).toBe(422)
    expect(res.body.details['locations[0].id']).toEqual([
      'locations[0] ("Corner Store"): The id field must be a location\'s id, a text (loc_...); got an array.',
    ])
  })

  test('700 keys a map does not take: 20 fields listed, the last saying how many more', async () => {
    const hours = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`k${i}`, '9-5']))
    const res = await expectNoChange(() => create(storeBody({ hours })))
    expect(res.status).toBe(422)
    const fields = Object.keys(res.body.details)
    expect(fields).toHaveLength(20)
    expect(fields[0]).toBe('hours.k0')
    expect(res.body.details['hours.k19']).toEqual([
      'The hours.k19 field is not allowed; hours takes monday, ..., sunday.',
      'And 680 more fields are refused, not listed: fix those listed, then send it again to see the rest.',
    ])
    expect(JSON.stringify(res.body).length).toBeLessThan(5000)
  })

  test('a field with two problems past the 20 listed counts once', async () => {
    const custom_fields = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, 'x\u0001']))
    const res = await expectNoChange(() => create(storeBody({ custom_fields })))
    const fields = Object.keys(res.body.details)
    expect(fields).toHaveLength(20)
    expect(res.body.details[fields.at(-1)!].at(-1)).toBe(
      'And 5 more fields are refused, not listed: fix those listed, then send it again to see the rest.',
    )
  })

  test('a key or a text of 100,000 characters is cut where a message names it', async () => {
    const key = 'k'.repeat(100_000)
    const res = await expectNoChange(() =>
      create(storeBody({ custom_fields: { [key]: 'x' }, timezone: ['x'.repeat(100_000)] })),
    )
    expect(res.status).toBe(422)
    const cut = `custom_fields.${'k'.repeat(60)}…`
    expect(res.body.details[cut]).toEqual([
      `The ${cut} field is not a custom field of this locator (GET /custom_fields lists them: none are defined).`,
    ])
    expect(JSON.stringify(res.body).length).toBeLessThan(2000)
    const { id } = await created()
    const long = await expectNoChange(() => update(id, { timezone: 'x'.repeat(200_000) }))
    expect(long.body.details.timezone).toEqual([
      'The timezone field may not be greater than 64 characters.',
      `The timezone field must be an IANA time zone name, such as Europe/Berlin or America/New_York; got "${'x'.repeat(60)}…" (200000 characters). Leave it empty to take it from the coordinates.`,
    ])
  })

  test("fields a bulk item has that are not a location's are one warning, five named", async () => {
    const extra = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`x${i}`, 1]))
    const res = await env.call('POST', `${BASE}/bulk`, { body: { locations: [storeBody(extra)] } })
    expect(res.status).toBe(200)
    expect(res.body.results[0].warnings).toEqual([
      '"x0", "x1", "x2", "x3", "x4" and 695 more are not fields of a location, so not read (the fields: docs/management-api.md, The location).',
    ])
  })
})
