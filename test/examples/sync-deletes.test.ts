// examples/sync.ts deleting what left the list while another client deletes some of it: a store
// already gone when the sync's delete items reach the service is not said or counted as deleted.
// A request of deletes alone is named by its stores, and moves the progress no further; so is a
// dropped store's delete in a problem the service finds with it.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, i: number) => `${code},Store ${code},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${served.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' },
  })

/** The sync run against `base` (a proxy in front of the server), without blocking this process; `flags` after the file. */
async function sync(base: string, text: string, flags: string[] = [], env: Record<string, string> = {}) {
  const file = join(served.dir, 'stores.csv')
  writeFileSync(file, text)
  const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: base, STORELOC_KEY: served.key, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()])
  return { code: await p.exited, stdout, stderr }
}

test('a store deleted by another client before the sync deletes it is said already gone, not deleted', async () => {
  const first = await sync(served.url, HEADER + row('S1', 1) + row('S2', 2) + row('S3', 3))
  expect(first.code).toBe(0)
  const listed = (await (await api('/admin/v1/locations')).json()) as {
    locations: { id: string; external_id: string }[]
  }
  const id = (code: string) => listed.locations.find((l) => l.external_id === code)!.id
  // Forwards to the server; before the first request carrying delete items, deletes S3 itself.
  let raced = false
  const proxy = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const body = req.method === 'POST' ? await req.text() : undefined
      if (!raced && body?.includes('"delete":true')) {
        raced = true
        expect((await api(`/admin/v1/locations/${id('S3')}/delete`, { method: 'POST' })).status).toBe(200)
      }
      const headers = new Headers(req.headers)
      headers.delete('host')
      return fetch(`${served.url}${path}${new URL(req.url).search}`, { method: req.method, headers, body })
    },
  })
  try {
    const run = await sync(`http://127.0.0.1:${proxy.port}`, HEADER + row('S1', 1))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      `deleted S2 (${id('S2')})`,
      `already gone S3 (${id('S3')})`,
      '0 created, 0 updated, 1 unchanged, 1 deleted.',
      '',
    ])
  } finally {
    proxy.stop(true)
  }
  expect(raced).toBe(true)
}, 30_000)

test('a request of deletes alone is named by its stores, and its progress is not said again', async () => {
  expect((await sync(served.url, HEADER + row('S1', 1) + row('D1', 2) + row('D2', 3))).code).toBe(0)
  const { locations } = (await (await api('/admin/v1/locations')).json()) as {
    locations: { id: string; external_id: string }[]
  }
  const id = (code: string) => locations.find((l) => l.external_id === code)!.id
  // D1's store takes D2, whose store the list drops: a request of a row each, the delete of D2's
  // store alone between N1's and D1's.
  const list = `id,${HEADER},${row('N1', 4)}${id('D1')},${row('D2', 2)},${row('S1', 1)}`
  const chunk = { STORELOC_SYNC_CHUNK: '1' }
  const progress = (verb: string) => `${verb}: 1 of 3 rows\n${verb}: 2 of 3 rows\n${verb}: 3 of 3 rows\n`
  const checked = await sync(served.url, list, ['--dry-run'], chunk)
  expect([checked.code, checked.stderr]).toEqual([0, progress('checked')])
  // A stand-in answers the write of that delete with `failure`, and passes the rest on.
  let failure = () => new Response()
  const standIn = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = req.method === 'POST' ? await req.text() : undefined
      if (body?.includes('"dry_run":false') && body.includes('"delete":true')) return failure()
      const { pathname, search } = new URL(req.url)
      return fetch(`${served.url}${pathname}${search}`, { method: req.method, headers: req.headers, body })
    },
  })
  const through = `http://127.0.0.1:${standIn.port}`
  const deleting = `deleting "D2" (${id('D2')})`
  try {
    failure = () =>
      Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
    const failed = await sync(through, list, [], chunk)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      `sync: part of the list may be written, the request under way (${deleting}) too. Run the sync again: it writes only what is not in step yet.\n`,
    )
    failure = () =>
      Response.json({ success: false, error: 'conflict', message: 'Refused by the stand-in.' }, { status: 409 })
    const refused = await sync(through, list, [], chunk)
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain(`sync: The request ${deleting} was refused: Refused by the stand-in.\n`)
  } finally {
    standIn.stop(true)
  }
  const done = await sync(served.url, list, [], chunk)
  expect([done.code, done.stderr]).toEqual([0, progress('checked') + progress('written')])
  expect(done.stdout).toContain(`deleted D2 (${id('D2')})\n`)
}, 60_000)

test("a problem with a dropped store's delete names it as a request of deletes is named", async () => {
  expect((await sync(served.url, HEADER + row('S1', 1) + row('E1', 5) + row('E2', 6))).code).toBe(0)
  const { locations } = (await (await api('/admin/v1/locations')).json()) as {
    locations: { id: string; external_id: string }[]
  }
  const id = (code: string) => locations.find((l) => l.external_id === code)!.id
  // E1's store takes E2, whose store the list drops: its delete goes in E1's request.
  const list = `id,${HEADER},${row('S1', 1)}${id('E1')},${row('E2', 5)}`
  // A stand-in refuses the delete item in the dry run, as the service words an item's problem.
  const standIn = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = req.method === 'POST' ? await req.text() : undefined
      const items = body === undefined ? [] : ((JSON.parse(body) as any).locations ?? [])
      const at = items.findIndex((i: any) => i.delete === true)
      if (at >= 0) {
        const problem = `locations[${at}]: The stand-in keeps this store.`
        const message = `1 of ${items.length} locations cannot be written as sent; nothing was written.`
        const details = { [`locations[${at}]`]: [problem] }
        return Response.json({ success: false, error: 'validation_error', message, details }, { status: 422 })
      }
      const { pathname, search } = new URL(req.url)
      return fetch(`${served.url}${pathname}${search}`, { method: req.method, headers: req.headers, body })
    },
  })
  try {
    const dry = await sync(`http://127.0.0.1:${standIn.port}`, list, ['--dry-run'])
    expect([dry.code, dry.stdout]).toEqual([1, ''])
    expect(dry.stderr.split('\n')).toEqual([
      `  deleting "E2" (${id('E2')}): The stand-in keeps this store.`,
      'sync: The list cannot be written as sent; nothing was written.',
      '',
    ])
  } finally {
    standIn.stop(true)
  }
  expect((await sync(served.url, list, ['--dry-run'])).code).toBe(0)
}, 60_000)

test('the deletes sent last, refused or failing, are named by their stores', async () => {
  expect((await sync(served.url, HEADER + row('S1', 1) + row('G1', 7) + row('G2', 8))).code).toBe(0)
  const { locations } = (await (await api('/admin/v1/locations')).json()) as {
    locations: { id: string; external_id: string }[]
  }
  const id = (code: string) => locations.find((l) => l.external_id === code)!.id
  const deleting = `deleting "G1" (${id('G1')}), "G2" (${id('G2')})`
  // A stand-in answers the write of the deletes with `failure`, and passes the rest on.
  let failure = () => new Response()
  const standIn = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = req.method === 'POST' ? await req.text() : undefined
      if (body?.includes('"delete":true') && !body.includes('"dry_run":true')) return failure()
      const { pathname, search } = new URL(req.url)
      return fetch(`${served.url}${pathname}${search}`, { method: req.method, headers: req.headers, body })
    },
  })
  const through = `http://127.0.0.1:${standIn.port}`
  const again = 'Run the sync again: it writes only what is not in step yet.'
  try {
    failure = () =>
      Response.json(
        {
          success: false,
          error: 'validation_error',
          message: '1 of 2 locations cannot be written as sent; nothing was written.',
          details: { 'locations[1]': ['locations[1]: The stand-in keeps this store.'] },
        },
        { status: 422 },
      )
    const refused = await sync(through, HEADER + row('S1', 1))
    expect(refused.code).toBe(3)
    expect(refused.stderr.split('\n')).toEqual([
      `  deleting "G2" (${id('G2')}): The stand-in keeps this store.`,
      `sync: The request ${deleting} was refused: 1 of 2 locations cannot be written as sent; nothing was written.`,
      `sync: part of the list may be written. ${again}`,
      '',
    ])
    failure = () =>
      Response.json({ success: false, error: 'error', message: 'Internal server error.' }, { status: 500 })
    const failed = await sync(through, HEADER + row('S1', 1))
    expect(failed.code).toBe(3)
    expect(failed.stderr).toEndWith(
      `sync: part of the list may be written, the request under way (${deleting}) too. ${again}\n`,
    )
  } finally {
    standIn.stop(true)
  }
  expect((await sync(served.url, HEADER + row('S1', 1))).code).toBe(0)
}, 60_000)
