// A location's updated_at moves forward with every write that changes it, even in the millisecond
// of the last (or with the clock set back), so a bulk delete's if_updated_at sees every change.
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { join } from 'node:path'
import { cli } from '../../src/cli/main'
import { all, bulk, env, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()
afterEach(() => setSystemTime())

type Listed = { id: string; external_id: string | null; updated_at: string }
const read = async (code: string) => ((await all()) as Listed[]).find((l) => l.external_id === code)!
const edit = (id: string, body: Record<string, unknown>) => env.call('POST', `/admin/v1/locations/${id}`, { body })
const NOW = Date.parse('2026-12-07T14:00:00.500Z')

describe('updated_at, written in the millisecond of the last change', () => {
  test("an update's updated_at is one ms past the last; a delete with the one read is refused", async () => {
    setSystemTime(new Date(NOW))
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    expect(s1.updated_at).toBe('2026-12-07T14:00:00.500Z')
    const first = await edit(s1.id, { name: 'Edited by hand' })
    expect([first.status, first.body.location.updated_at]).toEqual([200, '2026-12-07T14:00:00.501Z'])
    const second = await edit(s1.id, { name: 'Edited again' })
    expect(second.body.location.updated_at).toBe('2026-12-07T14:00:00.502Z')
    // Sent again as it is, nothing changes: updated_at stays.
    const same = await edit(s1.id, { name: 'Edited again' })
    expect(same.body.location.updated_at).toBe('2026-12-07T14:00:00.502Z')
    const res = await bulk({ locations: [{ id: s1.id, delete: true, if_updated_at: s1.updated_at }] })
    expect([res.status, res.body.error]).toEqual([412, 'precondition_failed'])
    expect((await read('S1')).updated_at).toBe('2026-12-07T14:00:00.502Z')
  })

  test('a bulk update in the same millisecond moves it too, and so does one with the clock set back', async () => {
    setSystemTime(new Date(NOW))
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    await bulk({ locations: [store('S1', { name: 'Renamed' })] })
    expect((await read('S1')).updated_at).toBe('2026-12-07T14:00:00.501Z')
    setSystemTime(new Date(NOW - 60_000))
    const back = await edit(s1.id, { name: 'Renamed again' })
    expect(back.body.location.updated_at).toBe('2026-12-07T14:00:00.502Z')
    const res = await bulk({ locations: [{ external_id: 'S1', delete: true, if_updated_at: s1.updated_at }] })
    expect(res.status).toBe(412)
  })

  test('with the clock on, an update takes its own time', async () => {
    setSystemTime(new Date(NOW))
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    setSystemTime(new Date(NOW + 1234))
    expect((await edit(s1.id, { name: 'Later' })).body.location.updated_at).toBe('2026-12-07T14:00:01.734Z')
  })

  test('a custom field removed (storeloc custom-field remove) moves the updated_at of each location it clears', async () => {
    const run = (...argv: string[]) =>
      cli(
        argv,
        { DATABASE_PATH: join(env.dir, 'test.db') },
        () => {},
        () => {},
      )
    expect(
      await run('custom-field', 'add', env.locatorId, '--id', 'parking', '--name', 'Parking', '--type', 'text'),
    ).toBe(0)
    setSystemTime(new Date(NOW))
    await bulk({ locations: [store('S1', { custom_fields: { parking: 'Free' } })] })
    const s1 = await read('S1')
    expect(await run('custom-field', 'remove', env.locatorId, '--id', 'parking')).toBe(0)
    const after = (await env.call('GET', `/admin/v1/locations/${s1.id}`)).body.location
    expect([after.custom_fields, after.updated_at]).toEqual([{}, '2026-12-07T14:00:00.501Z'])
    const res = await bulk({ locations: [{ id: s1.id, delete: true, if_updated_at: s1.updated_at }] })
    expect(res.status).toBe(412)
  })
})
