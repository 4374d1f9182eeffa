// The change log written with every location write: one row per write, none for a write that
// changes nothing or is refused, and one transaction with the row.
import { test, expect, describe } from 'bun:test'
import { addCustomField, setLocatorSettings } from '../../src/operator'
import { storeBody } from '../helpers'
import {
  withEnv,
  env,
  BASE,
  WHITE_HOUSE,
  type Res,
  create,
  update,
  get,
  remove,
  created,
  snapshot,
  locationChanges,
  expectNoChange,
} from './locations-fixture'

withEnv()

describe('the change log', () => {
  test('create, update and delete each append one row for the location', async () => {
    expect(locationChanges()).toEqual([])
    const l = await created()
    const row = { locator_id: env.locatorId, entity: 'location', entity_id: l.id }
    expect(locationChanges()).toEqual([{ ...row, op: 'upsert' }])
    await update(l.id, { name: 'Changed' })
    expect(locationChanges()).toEqual([
      { ...row, op: 'upsert' },
      { ...row, op: 'upsert' },
    ])
    await remove(l.id)
    expect(locationChanges()).toEqual([
      { ...row, op: 'upsert' },
      { ...row, op: 'upsert' },
      { ...row, op: 'delete' },
    ])
  })

  test('an update that changes nothing (a record sent back as GET gave it, or a field sent as it is) writes nothing: updated_at, the change log and the public ETag stay', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const l = await created(
      storeBody({
        tags: ['Coffee', 'Tea'],
        contact: { phone: '1', email: 'a@example.com' },
        hours: { monday: 'closed' },
        custom_fields: { floor: '2' },
      }),
    )
    const etag = async () =>
      (await env.call('GET', `/public/v1/${token}/locations?all=true`, { key: null })).headers.get('etag')
    const before = { etag: await etag(), changes: locationChanges().length }
    await Bun.sleep(2) // so a new updated_at would differ
    const { id, created_at, updated_at, geocoding, ...whole } = l
    for (const body of [
      whole,
      { name: l.name },
      { tags: ['Coffee', 'Tea'] },
      { contact: { email: 'a@example.com', phone: '1' } },
      { status: 'published', hours: { monday: 'closed', friday: '' } },
    ]) {
      const res = await update(l.id, body)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ success: true, location: l })
    }
    expect({ etag: await etag(), changes: locationChanges().length }).toEqual(before)
    // A change of one of them is a change: written, logged, a new ETag.
    const changed = await update(l.id, { tags: ['Tea', 'Coffee'] })
    expect(changed.body.location.updated_at > l.updated_at).toBe(true)
    expect(locationChanges().length).toBe(before.changes + 1)
    expect(await etag()).not.toBe(before.etag)
  })

  test('an address sent again is geocoded again; the same point found writes nothing a response shows (updated_at, change log), only the new geocoding time', async () => {
    const l = await created({ name: 'Geocoded', address: WHITE_HOUSE })
    const geocodedAt = () => env.store.locations.get(env.locatorId, l.id)!.geocodedAt
    env.store.db.run('DELETE FROM geocode_cache') // so the geocoder is asked again, not the cache
    env.store.db.run("UPDATE locations SET geocoded_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", [l.id])
    const changes = locationChanges().length
    const res = await update(l.id, { address: WHITE_HOUSE })
    expect(res.body).toEqual({ success: true, location: l })
    expect(env.geocoder.calls).toEqual([WHITE_HOUSE, WHITE_HOUSE])
    expect(locationChanges().length).toBe(changes)
    expect(geocodedAt()! > '2020-01-01T00:00:00.000Z').toBe(true)
  })

  test('change seqs increase with every write', async () => {
    const { changes } = env.store
    const start = changes.lastSeq()
    const l = await created()
    const seqs = [changes.lastSeq()]
    for (const name of ['x', 'y']) {
      expect((await update(l.id, { name })).status).toBe(200)
      seqs.push(changes.lastSeq())
    }
    // Each write's change is the newest in the log when it is made, and the log holds the three in that order.
    expect([start, ...seqs].every((seq, i, all) => i === 0 || seq > all[i - 1]!)).toBe(true)
    expect(
      changes
        .since(start)
        .filter((c) => c.entity === 'location' && c.entityId === l.id)
        .map((c) => c.seq),
    ).toEqual(seqs)
  })

  test('rejected requests append nothing and change no row', async () => {
    const l = await created()
    const refused: (() => Promise<Res>)[] = [
      () => create({ name: 'No address' }),
      () => create({ name: 'X', address: 'Unknown place 999' }),
      () => create(storeBody({ description: 'x'.repeat(300 * 1024) })),
      () => env.call('POST', BASE, { body: '{', headers: { 'content-type': 'application/json' } }),
      () => env.call('POST', BASE, { body: storeBody(), key: null }),
      () => update(l.id, {}),
      () => update(l.id, { image_url: 'nope' }),
      () => update(l.id, { address: 'Unknown place 999' }),
      () => update('loc_doesnotexist0000', { name: 'x' }),
      () => remove('loc_doesnotexist0000'),
    ]
    for (const run of refused) await expectNoChange(run)
  })

  test('the row and its change are one transaction: a failing change-log append undoes the write', async () => {
    const l = await created()
    const before = snapshot()
    env.store.db.exec(
      "CREATE TRIGGER refuse_changes BEFORE INSERT ON changes BEGIN SELECT RAISE(ABORT, 'change log unavailable'); END",
    )

    const results = [
      await create(storeBody({ name: 'Never' })),
      await update(l.id, { name: 'Never' }),
      await remove(l.id),
    ]
    for (const res of results) {
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ success: false, error: 'error', message: expect.any(String) })
      expect(JSON.stringify(res.body)).not.toContain('change log unavailable')
    }
    expect(snapshot()).toEqual(before)

    env.store.db.exec('DROP TRIGGER refuse_changes')
    expect((await get(l.id)).body.location).toEqual(l)
  })
})
