// Two syncs of one locator at once, each deleting what its own list lacks: each looks at the
// locator before its deletes and again once done, so one whose look came before the other's
// deletes still says the locator is not in step with its list, and exits 3.
import { expect, test } from 'bun:test'
import { runSync, standIn, syncServer } from './sync-server'

const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, i: number) => `${code},Store ${code},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`
const codes = async (key = served.key) => {
  const answer = await fetch(`${served.url}/admin/v1/locations/export`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return ((await answer.json()) as { locations: { external_id: string }[] }).locations.map((l) => l.external_id).sort()
}

test("a sync whose deletes come after another's whole run says the other's deletes, and exits 3", async () => {
  expect(
    (await runSync(served, served.url, HEADER + row('K1', 1) + row('K2', 2) + row('K3', 3) + row('K4', 4))).code,
  ).toBe(0)
  // A lacks K4, B lacks K3. B runs whole while A's delete of K4 waits: B's looks find no change.
  let other: Awaited<ReturnType<typeof runSync>> | undefined
  const proxy = standIn(served, async (body, on) => {
    if (other === undefined && body?.includes('"delete":true') && !body.includes('"dry_run":true'))
      other = await runSync(served, served.url, HEADER + row('K1', 1) + row('K2', 2) + row('K4', 4))
    return on(body)
  })
  try {
    const run = await runSync(served, proxy.url, HEADER + row('K1', 1) + row('K2', 2) + row('K3', 3))
    expect([other?.code, other?.stdout.split('\n').at(-2)]).toEqual([
      0,
      '0 created, 0 updated, 3 unchanged, 1 deleted.',
    ])
    expect(run.stdout).toMatch(/^deleted K4 \(loc_\w+\)\n$/)
    expect(run.stderr).toMatch(
      /^sync: Another write changed the locator while this sync ran: "K3" \(loc_\w+\) deleted\. Another sync of this locator, or someone editing it: run one sync a locator at a time, as each deletes what its own list lacks\. The list is written and the 1 store the list lacks deleted, but the locator is not in step with it\. Run the sync again once the other write is done\.\n$/,
    )
    expect(run.code).toBe(3)
  } finally {
    proxy.stop()
  }
  expect(await codes()).toEqual(['K1', 'K2'])
}, 60_000)

test('a store another write makes after the last write of a list with nothing to delete: exit 3, not in step', async () => {
  const list = HEADER + row('K1', 1) + row('K2', 2) + row('M1', 3)
  expect((await runSync(served, served.url, list)).code).toBe(0)
  let made = false
  // The other write lands as the list's rows are written: the sync had nothing to delete.
  const proxy = standIn(served, async (body, on) => {
    const answer = await on(body)
    if (!made && body?.includes('"dry_run":false')) {
      made = true
      expect((await runSync(served, served.url, list + row('M2', 4))).code).toBe(0)
    }
    return answer
  })
  try {
    const run = await runSync(served, proxy.url, list)
    expect(run.stderr).toMatch(
      /: "M2" \(loc_\w+\) made at \S+\. .* The list is written, but the locator is not in step with it\./,
    )
    expect(run.code).toBe(3)
  } finally {
    proxy.stop()
  }
}, 60_000)

test('two syncs of one list at once, one whole while the other writes: both in step, exit 0', async () => {
  // A locator of its own: the list lacks only L4, not the stores the tests before left.
  const key = served.json('locator', 'create', '--name', 'Cron').key.secret_key
  const env = { STORELOC_KEY: key }
  const before = HEADER + row('L1', 1) + row('L2', 2) + row('L3', 3) + row('L4', 4)
  expect((await runSync(served, served.url, before, [], env)).code).toBe(0)
  // One list renames L2 and lacks L4: a sync run again before the last one ended, as from a cron.
  const list = HEADER + row('L1', 1) + row('L2', 2).replace('Store L2', 'Shop L2') + row('L3', 3)
  let other: Awaited<ReturnType<typeof runSync>> | undefined
  const proxy = standIn(served, async (body, on) => {
    if (other === undefined && body?.includes('"dry_run":false'))
      other = await runSync(served, served.url, list, [], env)
    return on(body)
  })
  try {
    const run = await runSync(served, proxy.url, list, [], env)
    expect(other?.stdout.split('\n').at(-2)).toBe('0 created, 1 updated, 2 unchanged, 1 deleted.')
    expect([run.stderr, run.stdout.split('\n').slice(-3)]).toEqual([
      '',
      [expect.stringMatching(/^already gone L4 \(loc_\w+\)$/), '0 created, 0 updated, 3 unchanged, 0 deleted.', ''],
    ])
    expect(run.code).toBe(0)
  } finally {
    proxy.stop()
  }
  expect(await codes(key)).toEqual(['L1', 'L2', 'L3'])
}, 60_000)

test('a store the sync updated that another write deletes before its last look is named by its code', async () => {
  const key = served.json('locator', 'create', '--name', 'Gone after').key.secret_key
  const env = { STORELOC_KEY: key }
  const headers = { authorization: `Bearer ${key}` }
  expect((await runSync(served, served.url, HEADER + row('N1', 1) + row('N2', 2), [], env)).code).toBe(0)
  let deleted = false
  // The other write lands once the list's rows are written: N2, just renamed, deleted.
  const proxy = standIn(served, async (body, on) => {
    const answer = await on(body)
    if (!deleted && body?.includes('"dry_run":false')) {
      deleted = true
      const exported = await (await fetch(`${served.url}/admin/v1/locations/export`, { headers })).json()
      const n2 = (exported as { locations: { id: string; external_id: string }[] }).locations.find(
        (l) => l.external_id === 'N2',
      )!
      expect(
        (await fetch(`${served.url}/admin/v1/locations/${n2.id}/delete`, { method: 'POST', headers })).status,
      ).toBe(200)
    }
    return answer
  })
  try {
    const run = await runSync(
      served,
      proxy.url,
      HEADER + row('N1', 1) + row('N2', 2).replace('Store N2', 'Shop N2'),
      [],
      env,
    )
    expect(run.stderr).toMatch(/this sync ran: "N2" \(loc_\w+\) deleted\. /)
    expect(run.code).toBe(3)
  } finally {
    proxy.stop()
  }
}, 60_000)

test('a store without a code made by hand while a sync runs is left as it is: in step, exit 0', async () => {
  const key = served.json('locator', 'create', '--name', 'By hand').key.secret_key
  const env = { STORELOC_KEY: key }
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const list = HEADER + row('P1', 1) + row('P2', 2)
  expect((await runSync(served, served.url, list + row('P3', 3), [], env)).code).toBe(0)
  let made = false
  // Someone adds a store without a code as the list's rows are written: no list's store.
  const proxy = standIn(served, async (body, on) => {
    const answer = await on(body)
    if (!made && body?.includes('"dry_run":false')) {
      made = true
      const store = { name: 'Pop-up', address: '9 Fair St, Town', coordinates: { lat: 41, lng: -4 } }
      const body = JSON.stringify(store)
      expect((await fetch(`${served.url}/admin/v1/locations`, { method: 'POST', headers, body })).status).toBe(201)
    }
    return answer
  })
  try {
    const run = await runSync(served, proxy.url, list, [], env)
    expect([run.stderr, run.stdout.split('\n').at(-2)]).toEqual(['', '0 created, 0 updated, 2 unchanged, 1 deleted.'])
    expect(run.code).toBe(0)
  } finally {
    proxy.stop()
  }
}, 60_000)

test('a look for other writes the service refuses says the refusal and what is written, blaming no write', async () => {
  const locator = served.json('locator', 'create', '--name', 'Refused look').key.locator_id
  const key = served.json('key', 'create', locator)
  const env = { STORELOC_KEY: key.secret_key }
  const list = HEADER + row('R1', 1) + row('R2', 2)
  expect((await runSync(served, served.url, list + row('R3', 3), [], env)).code).toBe(0)
  // The look's dry runs come after the writes: `refuse` answers the first of them.
  let refuse: (on: () => Promise<Response>) => Response | Promise<Response> = (on) => on()
  let wrote = false
  const proxy = standIn(served, (body, on) => {
    if (body?.includes('"dry_run":false')) wrote = true
    if (!wrote || !body?.includes('"dry_run":true')) return on()
    const answer = refuse(on)
    refuse = (on) => on()
    return answer
  })
  const renamed = list.replace('Store R2', 'Shop R2')
  try {
    // A proxy's limit on the look's dry run alone, before the deletes: R3 is kept.
    refuse = () =>
      Response.json({ success: false, error: 'payload_too_large', message: 'Too large for the proxy' }, { status: 413 })
    const limited = await runSync(served, proxy.url, renamed, [], env)
    expect(limited.stderr).toBe(
      "sync: The service refused the sync's look for other writes before its deletes (413 payload_too_large): Too large for the proxy. The 1 store the list lacks is not deleted; the rest of the list is written. Run the sync again once that is mended: it writes only what is not in step yet.\n",
    )
    expect(limited.code).toBe(3)
    // The key revoked as the look once done begins (nothing to delete): its export is refused too.
    wrote = false
    refuse = (on) => {
      served.json('key', 'revoke', key.id)
      return on()
    }
    const revoked = await runSync(served, proxy.url, list + row('R3', 3), [], env)
    expect(revoked.stderr).toStartWith(
      "sync: The service refused the sync's look for other writes once its writes and deletes were done (401 ",
    )
    expect(revoked.stderr).toContain(
      ': API key inactive: it has been revoked. Create a new key with `storeloc key create LOCATOR_ID`. The list is written; whether another write changed the locator meanwhile is not known.',
    )
    expect(revoked.stderr).not.toContain('part of the list')
    expect(revoked.code).toBe(3)
  } finally {
    proxy.stop()
  }
}, 60_000)

test("two first syncs at once: one refused for the other's stores (409) sends its request again", async () => {
  const key = served.json('locator', 'create', '--name', 'Empty').key.secret_key
  const env = { STORELOC_KEY: key }
  const list = HEADER + row('F1', 1) + row('F2', 2)
  const conflict = () =>
    Response.json(
      {
        success: false,
        error: 'conflict',
        message: `locations[0]: the external_id "F1" became that of location loc_aaaaaaaaaaaaaaaa meanwhile; nothing was written.`,
      },
      { status: 409 },
    )
  // The other sync runs whole as this one's write geocodes: the service refuses that write, as
  // when both requests overlap; `again` says whether a write sent again is refused too.
  let other: Awaited<ReturnType<typeof runSync>> | undefined
  let again = false
  let writes = 0
  const proxy = standIn(served, async (body, on) => {
    if (!body?.includes('"dry_run":false')) return on()
    writes++
    if (other === undefined) other = await runSync(served, served.url, list, [], env)
    return writes === 1 || again ? conflict() : on()
  })
  try {
    const run = await runSync(served, proxy.url, list, [], env)
    expect(other?.code).toBe(0)
    expect([run.stderr, run.stdout.split('\n').at(-2), run.code]).toEqual([
      '',
      '0 created, 0 updated, 2 unchanged, 0 deleted.',
      0,
    ])
    // Refused each time: nothing of this run is written, and it says so.
    again = true
    writes = 0
    const refused = await runSync(served, proxy.url, list.replace('Store F2', 'Shop F2'), [], env)
    expect(writes).toBeGreaterThan(1)
    expect(refused.stderr).toMatch(
      /^sync: The request of lines 2-3 was refused: line 2: the external_id "F1" became that of location \S+ meanwhile; nothing was written\.\nsync: nothing is written\. Run the sync again: it writes only what is not in step yet\.\n$/,
    )
    expect(refused.code).toBe(3)
  } finally {
    proxy.stop()
  }
  expect(await codes(key)).toEqual(['F1', 'F2'])
}, 60_000)
