// POST /admin/v1/locations/bulk: how items are matched to locations, by id, then external_id,
// and items that name one location twice or another location's external_id.
import { describe, expect, test } from 'bun:test'
import { all, bulk, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

describe('bulk upsert, matching', () => {
  test('an id matches first; the same body twice changes nothing the second time', async () => {
    const made = (await bulk({ locations: [store('S1')] })).body.results[0]
    const res = await bulk({ locations: [{ id: made.id, external_id: 'S1-new', name: 'Renamed' }] })
    expect(res.body).toMatchObject({ updated: 1 })
    expect(res.body.results[0]).toMatchObject({ id: made.id, external_id: 'S1-new', action: 'updated' })
    const before = snapshot()
    const same = await bulk({ locations: [{ id: made.id, external_id: 'S1-new', name: 'Renamed' }] })
    expect(same.body).toMatchObject({ unchanged: 1, updated: 0 })
    expect(snapshot()).toEqual(before)
    // An id with blanks around it (a spreadsheet's cell pasted) is the id, as an external_id is trimmed.
    const padded = await bulk({ locations: [{ id: ` ${made.id}\t`, external_id: 'S1-b', name: 'Renamed' }] })
    expect(padded.status).toBe(200)
    expect(padded.body.results[0]).toMatchObject({ id: made.id, external_id: 'S1-b', action: 'updated' })
  })

  test('two items for one location are said once, not also as one external_id twice', async () => {
    await bulk({ locations: [store('CG1')] })
    const res = await bulk({ locations: [store('CG1', { name: 'A' }), store('CG1', { name: 'B' })] })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.details)).toEqual(['locations[1]'])
    // Matched by its id, the item's other external_id is still checked.
    const [a, b] = (await bulk({ locations: [store('X1'), store('X2')] })).body.results.map((r: { id: string }) => r.id)
    const byId = await bulk({ locations: [{ id: a }, { id: a, external_id: 'X2' }] })
    expect(byId.body.details['locations[1].external_id'][0]).toContain(`already the store code of location ${b}`)
    expect(byId.body.details['locations[1]'][0]).toContain(`the same location (${a})`)
    // An item repeated whole, its id and external_id: said once.
    const twice = await bulk({
      locations: [
        { id: a, external_id: 'X1' },
        { id: a, external_id: 'X1' },
      ],
    })
    expect(twice.body.details).toEqual({
      'locations[1]': ['locations[1] (external_id "X1"): repeats locations[0]; give each store once.'],
    })
  })

  test('a new item taking the code another item moves its store from is told which code moved where, either order', async () => {
    const two = (await bulk({ locations: [store('S2')] })).body.results[0].id
    const before = snapshot()
    const moved = { id: two, external_id: 'S5' }
    const newcomer = store('S2', { name: 'Newcomer' })
    const advice =
      'Items without an id are matched by the codes held before the request: to create a new store with "S2", send'
    const first = await bulk({ locations: [newcomer, moved] })
    expect([first.status, first.body.details]).toEqual([
      422,
      {
        'locations[1]': [
          `locations[1] (external_id "S5"): locations[0] has no id, so its store code "S2" matches it to location ${two} ("Store S2"), which this item moves to "S5". ${advice} locations[0] in a later request (or import) than this item; if it is that store, give the store once.`,
        ],
      },
    ])
    const second = await bulk({ locations: [moved, newcomer] })
    expect([second.status, second.body.details]).toEqual([
      422,
      {
        'locations[1]': [
          `locations[1] (external_id "S2"): it has no id, so its store code "S2" matches it to location ${two} ("Store S2"), which locations[0] moves to "S5". ${advice} this item in a later request (or import) than locations[0]; if it is that store, give the store once.`,
        ],
      },
    ])
    expect(snapshot()).toEqual(before)
    // As the advice says: the move first, the new store after it.
    expect((await bulk({ locations: [moved] })).status).toBe(200)
    expect((await bulk({ locations: [newcomer] })).body.results[0]).toMatchObject({
      action: 'created',
      external_id: 'S2',
    })
  })

  test('an external id held by another location is a problem of that item', async () => {
    const [a] = (await bulk({ locations: [store('A'), store('B')] })).body.results
    const res = await bulk({ locations: [store('B', { external_id: 'A' })].map((x) => ({ ...x, external_id: 'A' })) })
    // Matched by external_id "A": that is location A itself, so no clash; renamed only.
    expect(res.status).toBe(200)
    const b = (await all()).find((l: { external_id: string }) => l.external_id === 'B')
    const clash = await bulk({ locations: [{ id: b.id, external_id: 'A' }] })
    expect(clash.status).toBe(422)
    expect(clash.body.details['locations[0].external_id'][0]).toContain(`already the store code of location ${a.id}`)
  })
})

describe('bulk upsert, codes as the request leaves them', () => {
  const codes = async () =>
    Object.fromEntries((await all()).map((l: { id: string; external_id: string }) => [l.id, l.external_id]))

  test('two stores matched by id swap their codes in one request, dry run or not; the answer names both changes', async () => {
    const [a, b, c] = (await bulk({ locations: [store('A'), store('B'), store('C')] })).body.results.map(
      (r: { id: string }) => r.id,
    )
    const swap = [
      { id: a, external_id: 'B' },
      { id: b, external_id: 'A' },
    ]
    const before = snapshot()
    const dry = await bulk({ locations: swap, dry_run: true })
    expect(dry.status).toBe(200)
    expect(snapshot()).toEqual(before)
    const res = await bulk({ locations: swap })
    expect(res.status).toBe(200)
    expect(res.body.results).toEqual(dry.body.results.map((r: object) => ({ ...r })))
    expect(res.body.results.map((r: { action: string; changes: string[] }) => [r.action, r.changes])).toEqual([
      ['updated', ['external_id']],
      ['updated', ['external_id']],
    ])
    expect(await codes()).toEqual({ [a]: 'B', [b]: 'A', [c]: 'C' })
    // A chain, and a code freed by a delete item.
    const chain = await bulk({
      locations: [
        { id: a, external_id: 'C' },
        { external_id: 'A', delete: true },
        { id: c, external_id: 'A' },
      ],
    })
    expect(chain.status).toBe(200)
    expect(chain.body).toMatchObject({ created: 0, updated: 2, deleted: 1 })
    expect(await codes()).toEqual({ [a]: 'C', [c]: 'A' })
  })

  test('a code stays taken when its store keeps it in the request; all or nothing', async () => {
    const [a, b, c] = (await bulk({ locations: [store('A'), store('B'), store('C')] })).body.results.map(
      (r: { id: string }) => r.id,
    )
    const before = snapshot()
    // B named, but its code not changed. (B not named, delete_missing frees it: bulk-delete.test.ts.)
    const res = await bulk({
      locations: [
        { id: a, external_id: 'B' },
        { id: b, name: 'Still B' },
      ],
      delete_missing: true,
    })
    expect(res.status).toBe(422)
    expect(res.body.details['locations[0].external_id']).toEqual([
      `locations[0] (external_id "B"): already the store code of location ${b} ("Store B"); external ids are unique within a locator. To give it this location, give that one another code in the same request.`,
    ])
    // Two items ending with one code are refused, whichever gave it up.
    const both = await bulk({
      locations: [
        { id: a, external_id: 'B' },
        { id: b, external_id: 'A' },
        { id: c, external_id: 'A' },
      ],
    })
    expect(both.status).toBe(422)
    expect(Object.keys(both.body.details)).toEqual(['locations[2].external_id'])
    expect(snapshot()).toEqual(before)
  })
})
