// examples/sync.ts saying what it does in the file's terms, whatever the requests it cuts the list
// into: the rows changed in the order of the lines, the same for any STORELOC_SYNC_CHUNK; the
// progress and the summary of the dry runs counting the rows the sync refuses itself and those
// the service refuses, each row once; a request that fails named by the lines it held.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { reported, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

/** The sync of `text` through `url` (the server's unless given) with `key`, in requests of `chunk` rows; not spawnSync: a stand-in answers from this process. */
async function sync(chunk: string, text: string, flags: string[] = [], url = served.url, key = served.key) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: key, STORELOC_SYNC_CHUNK: chunk },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()])
  return reported({ code: await p.exited, stdout, stderr })
}

/** The locator's stores' ids, by name. */
async function ids(): Promise<Map<string, string>> {
  const res = await fetch(`${served.url}/admin/v1/locations/export?format=json`, {
    headers: { authorization: `Bearer ${served.key}` },
  })
  return new Map(((await res.json()) as any).locations.map((l: any) => [l.name, l.id]))
}

const HEAD = 'id,Store Code,Name,Address,Latitude,Longitude\n'
const line = (id: string, code: string, name: string, i: number, lat = `${40 + i / 10}`) =>
  `${id},${code},${name},"${i} Main St, Town",${lat},${-3 - i / 10}\n`
const NAMES = ['One', 'Two', 'Three', 'Four', 'Five', 'Six']
/** The six stores One to Six, S1 to S6 on lines 2 to 7. */
const FIRST = HEAD + NAMES.map((n, i) => line('', `S${i + 1}`, n, i + 1)).join('')

/**
 * A list of 8 rows: One, Two, Three and Four, by their ids, on lines 3, 5, 6 and 7, take
 * `codes`, each the one the next one gives up: a chain, sent from its end. In requests of 3
 * rows: line 2, then lines 5-7, then 3, 4 and 8, then 9.
 */
function chained(id: Map<string, string>, codes: string[]) {
  const [one, two, three, four] = codes.map((code, i) => line(id.get(NAMES[i]!)!, code, NAMES[i]!, i + 1))
  const [n1, n2] = [line('', 'N1', 'New one', 7), line('', 'N2', 'New two', 8)]
  return HEAD + n1 + one + n2 + two + three + four + line('', 'S5', 'Five again', 5) + line('', 'S6', 'Six', 6)
}

test('the rows changed are said in the order of the lines, the same whatever the size of the requests', async () => {
  expect((await sync('1000', FIRST)).code).toBe(0)
  const id = await ids()
  const list = chained(id, ['S2', 'S3', 'S4', 'S9'])
  const expected = [
    'would create N1',
    `would update S2 (${id.get('One')}): external_id`,
    'would create N2',
    `would update S3 (${id.get('Two')}): external_id`,
    `would update S4 (${id.get('Three')}): external_id`,
    `would update S9 (${id.get('Four')}): external_id`,
    `would update S5 (${id.get('Five')}): name`,
    'Dry run, nothing written: 2 created, 5 updated, 1 unchanged, 0 deleted.',
    '',
  ]
  for (const chunk of ['1000', '3', '2'])
    expect((await sync(chunk, list, ['--dry-run'])).stdout.split('\n')).toEqual(expected)
  const done = await sync('3', list)
  expect(done.code).toBe(0)
  const made = await ids()
  const written = expected
    .join('\n')
    .replaceAll('would update', 'updated')
    .replace('would create N1', `created N1 (${made.get('New one')})`)
    .replace('would create N2', `created N2 (${made.get('New two')})`)
    .replace('Dry run, nothing written: ', '')
  expect(done.stdout).toBe(written)
}, 60_000)

test("the dry runs' progress counts the rows the service refuses, up to the list's", async () => {
  const before = await ids()
  // In requests of 2: lines 2-3 refused (a latitude of 95), 4-5 checked, 6-7 refused (-95).
  const list =
    HEAD +
    line('', 'N1', 'New one', 7, '95') +
    line('', 'N2', 'New two', 8) +
    line('', 'S5', 'Five', 5) +
    line('', 'S6', 'Six', 6) +
    line('', 'S7', 'Seven', 9, '-95') +
    line('', 'S8', 'Eight', 10)
  const dry = await sync('2', list, ['--dry-run'])
  expect(dry.code).toBe(1)
  expect(dry.stderr.split('\n').filter((l) => l.startsWith('checked:'))).toEqual([
    'checked: 2 of 6 rows (1 refused by the service)',
    'checked: 4 of 6 rows (1 refused by the service)',
    'checked: 6 of 6 rows (2 refused by the service)',
  ])
  expect(dry.stderr).toEndWith(
    'sync: 2 of 6 rows of the list cannot be written as sent, 2 refused by the service (lines 2, 6); nothing was written.\n',
  )
  expect(await ids()).toEqual(before)
}, 60_000)

test('the progress counts every row of the list: those the sync refuses itself, sent in no request, as refused', async () => {
  const before = await ids()
  // Line 3 repeats line 2 and line 5 is short of a cell: neither is sent. In requests of 2: lines
  // 2 and 4 checked, 6-7 refused (a latitude of 95), 8 checked.
  const list =
    HEAD +
    line('', 'S5', 'Five', 5) +
    line('', 'S5', 'Five', 5) +
    line('', 'S6', 'Six', 6) +
    ',S7,Seven,"9 Main St, Town",40.9\n' +
    line('', 'S8', 'Eight', 10, '95') +
    line('', 'S9', 'Nine', 11) +
    line('', 'S10', 'Ten', 12)
  const dry = await sync('2', list, ['--dry-run'])
  expect(dry.code).toBe(1)
  expect(dry.stderr.split('\n').filter((l) => l.startsWith('checked:'))).toEqual([
    'checked: 4 of 7 rows (2 refused by the sync)',
    'checked: 6 of 7 rows (2 refused by the sync, 1 by the service)',
    'checked: 7 of 7 rows (2 refused by the sync, 1 by the service)',
  ])
  expect(dry.stderr).toEndWith(
    'sync: 3 of 7 rows of the list cannot be written as sent, 2 refused by the sync (lines 3, 5) and 1 by the service (line 6); nothing was written.\n',
  )
  expect(await ids()).toEqual(before)
}, 60_000)

test('a row sent with a cell the sync cannot read is refused by the sync, though the service checks it', async () => {
  const before = await ids()
  // In requests of 2: lines 2-3 (line 2's latitude unread, line 3's 95), then line 4 (its latitude
  // unread and its name missing: one row, the sync's), then line 5.
  const list =
    HEAD +
    line('', 'S5', 'Five', 5, 'north') +
    line('', 'S6', 'Six', 6, '95') +
    line('', 'S7', '', 7, 'south') +
    line('', 'S8', 'Eight', 8)
  const dry = await sync('2', list, ['--dry-run'])
  expect(dry.code).toBe(1)
  expect(dry.stderr.split('\n').filter((l) => l.startsWith('checked:'))).toEqual([
    // Line 4 is counted once the progress reaches it, not before: no more refused than checked.
    'checked: 2 of 4 rows (1 refused by the sync, 1 by the service)',
    'checked: 4 of 4 rows (2 refused by the sync, 1 by the service)',
  ])
  expect(dry.stderr).toEndWith(
    'sync: 3 of 4 rows of the list cannot be written as sent, 2 refused by the sync (lines 2, 4) and 1 by the service (line 3); nothing was written.\n',
  )
  expect(dry.stderr).toContain('  line 4 (external_id "S7"): The "Name" column is required.\n')
  expect(await ids()).toEqual(before)
}, 60_000)

test('a request that fails while writing is named by the lines it held', async () => {
  // The stand-in for the service answers the third write with `failure`, the others as the
  // service answers their dry runs: it writes nothing, so each run finds the stores as they are.
  let failure: () => Response = () => new Response()
  let writes = 0
  const standIn = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const sent = request.method === 'POST' ? await request.text() : undefined
      if (sent?.includes('"dry_run":false') && ++writes === 3) return failure()
      const body = sent?.replace('"dry_run":false', '"dry_run":true')
      const headers = new Headers(request.headers)
      headers.delete('idempotency-key')
      const { pathname, search } = new URL(request.url)
      return fetch(`${served.url}${pathname}${search}`, { method: request.method, headers, body })
    },
  })
  const through = `http://127.0.0.1:${standIn.port}`
  try {
    // Back along the chain: One takes S3, Two S4, Three S9, Four T9; the third request holds lines 3, 4 and 8.
    const list = chained(await ids(), ['S3', 'S4', 'S9', 'T9'])
    failure = () =>
      Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
    const failed = await sync('3', list, [], through)
    expect(failed.stderr).toContain('sent: 4 of 8 rows (3 updated, 1 unchanged)\n')
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      'sync: part of the list may be written, the request under way (lines 3-4, 8) too. Run the sync again: it writes only what is not in step yet.\n',
    )
    // Refused, as by a store changed between the dry run and the write: its rows are not written.
    writes = 0
    const problem = { 'locations[2].name': ['locations[2] (external_id "S5"): Name is refused by the stand-in.'] }
    failure = () =>
      Response.json(
        { success: false, error: 'validation_error', message: 'Validation failed.', details: problem },
        { status: 422 },
      )
    const refused = await sync('3', list, [], through)
    expect(refused.code).toBe(3)
    expect(refused.stderr.split('\n').filter((l) => !/^(checked|sent):/.test(l))).toEqual([
      '  line 8 (external_id "S5"): Name is refused by the stand-in.',
      'sync: The request of lines 3-4, 8 was refused: Validation failed.',
      'sync: the requests before it are written: 4 of 8 rows sent (3 updated, 1 unchanged). Run the sync again: it writes only what is not in step yet.',
      '',
    ])
  } finally {
    standIn.stop(true)
  }
  expect((await sync('3', chained(await ids(), ['S3', 'S4', 'S9', 'T9']))).code).toBe(0)
}, 60_000)

test('a write refused whole without details is named by its lines, and said not written', async () => {
  // A stand-in passes every request on, but for the second write: `answer` answers it (`on` passes it on).
  let answer: (on: () => Promise<Response>) => Response | Promise<Response> = (on) => on()
  let writes = 0
  // The writes from the second up to `last` are answered so (a 409 is sent again, refused again).
  let last = 2
  const standIn = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const sent = request.method === 'POST' ? await request.text() : undefined
      const { pathname, search } = new URL(request.url)
      const on = () =>
        fetch(`${served.url}${pathname}${search}`, { method: request.method, headers: request.headers, body: sent })
      return sent?.includes('"dry_run":false') && ++writes >= 2 && writes <= last ? answer(on) : on()
    },
  })
  const through = `http://127.0.0.1:${standIn.port}`
  // One to Six hold S1 to S6 again: the second write holds lines 5-7.
  expect((await sync('1000', FIRST)).code).toBe(0)
  const list = chained(await ids(), ['S2', 'S3', 'S4', 'S9'])
  try {
    // The service's words for a store changed while the request geocoded: a 409 without details,
    // naming the item by its place in the request (the third: line 7), to each try.
    last = Number.POSITIVE_INFINITY
    answer = () =>
      Response.json(
        {
          success: false,
          error: 'conflict',
          message:
            'locations[2]: the external_id "S9" became that of location loc_aaaaaaaaaaaaaaaa meanwhile; nothing was written.',
        },
        { status: 409 },
      )
    const conflict = await sync('3', list, [], through)
    expect(conflict.code).toBe(3)
    expect(conflict.stderr.split('\n').filter((l) => !/^(checked|sent):/.test(l))).toEqual([
      'sync: The request of lines 5-7 was refused: line 7: the external_id "S9" became that of location loc_aaaaaaaaaaaaaaaa meanwhile; nothing was written.',
      'sync: the requests before it are written: 1 of 8 rows sent (1 created). Run the sync again: it writes only what is not in step yet.',
      '',
    ])
    // A key revoked between the first write and the second: the service refuses the second with a 401.
    const locator = served.json('locator', 'list')[0].id
    const key = served.json('key', 'create', locator)
    writes = 0
    last = 2
    answer = (on) => {
      served.json('key', 'revoke', key.id)
      return on()
    }
    const revoked = await sync('3', list, [], through, key.secret_key)
    expect(revoked.code).toBe(3)
    expect(revoked.stderr).toContain('sync: The request of lines 5-7 was refused: API key inactive')
    expect(revoked.stderr).toEndWith(
      'sync: the requests before it are written: 1 of 8 rows sent (1 unchanged). Run the sync again: it writes only what is not in step yet.\n',
    )
  } finally {
    standIn.stop(true)
  }
}, 60_000)

test('a write refused after a try of it went unanswered may be written, and is said so', async () => {
  // A stand-in passes every request on, but the tries of the write numbered `target`: `answer`
  // answers the try numbered `n` (from 1), `on` passing it on; `undefined` cuts it off unanswered.
  let answer: (n: number, on: () => Promise<Response>) => Promise<Response | undefined> = (_, on) => on()
  let [target, writes, tries] = [2, 0, 0]
  let lastKey: string | undefined
  const standIn = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const sent = req.method === 'POST' ? Buffer.concat(chunks).toString() : undefined
    // A write's tries share its Idempotency-Key: a new key is the next write.
    const key = req.headers['idempotency-key'] as string | undefined
    const write = sent?.includes('"dry_run":false') === true
    if (write && key !== lastKey) {
      lastKey = key
      writes++
      tries = 0
    }
    const headers = Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')
    const on = () =>
      fetch(`${served.url}${req.url}`, { method: req.method, headers: headers as [string, string][], body: sent })
    const response = write && writes === target ? await answer(++tries, on) : await on()
    if (response === undefined) return req.socket.destroy()
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((listening) => standIn.listen(0, '127.0.0.1', listening))
  const through = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`
  const again = 'Run the sync again: it writes only what is not in step yet.'
  const maybe = (n: number) =>
    `This one may be written too: it was sent ${n} times, and a try before its refusal may have gone through. ${again}\n`
  const limited = () =>
    Response.json({ success: false, error: 'rate_limited', message: 'Too many requests.' }, { status: 429 })
  const run = async (key = served.key) => {
    expect((await sync('1000', FIRST)).code).toBe(0)
    writes = 0
    lastKey = undefined
    const id = await ids()
    return { id, ran: await sync('3', chained(id, ['S2', 'S3', 'S4', 'S9']), [], through, key) }
  }
  try {
    // Made at its first try, whose answer is lost; its key revoked before the second.
    const locator = served.json('locator', 'list')[0].id
    const key = served.json('key', 'create', locator)
    answer = async (n, on) => {
      if (n === 1) return void (await on())
      served.json('key', 'revoke', key.id)
      return on()
    }
    const revoked = await run(key.secret_key)
    expect(revoked.ran.code).toBe(3)
    expect(revoked.ran.stderr).toContain('sync: The request of lines 5-7 was refused: API key inactive')
    expect(revoked.ran.stderr).toEndWith(
      `sync: the requests before it are written: 1 of 8 rows sent (1 created). ${maybe(2)}`,
    )
    // It was: Four took S9 (line 7).
    const res = await fetch(`${served.url}/admin/v1/locations/${revoked.id.get('Four')}`, {
      headers: { authorization: `Bearer ${served.key}` },
    })
    expect(((await res.json()) as any).location.external_id).toBe('S9')
    // A limit's 429 to the tries after the lost one: the client's 4 tries spent.
    answer = async (n, on) => (n === 1 ? void (await on()) : limited())
    expect((await run()).ran.stderr).toEndWith(`1 of 8 rows sent (1 created). ${maybe(4)}`)
    // Every try answered 429 keeps no decision: none made the write.
    answer = async () => limited()
    expect((await run()).ran.stderr).toEndWith(
      `sync: the requests before it are written: 1 of 8 rows sent (1 created). ${again}\n`,
    )
    // The first write so: nothing before it.
    target = 1
    answer = async (n, on) => (n === 1 ? void (await on()) : limited())
    expect((await run()).ran.stderr).toEndWith(`sync: no request before it is written. ${maybe(4)}`)
  } finally {
    standIn.close()
  }
}, 90_000)
