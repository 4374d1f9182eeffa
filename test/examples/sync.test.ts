// examples/sync.ts end to end: a real server, a locator made with the CLI, and the script run as a
// subprocess against it, creating, updating, deleting and leaving alone what is in step.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { reported, syncRunners, syncServer } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')
const served = syncServer()
const { json } = served
const { sync, syncFile, stores } = syncRunners(served)

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, name: string, i: number) =>
  `${code},${name},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`

describe('examples/sync.ts', () => {
  test('mirrors a CSV into the locator: creates, updates, deletes, then finds it in step', async () => {
    const first = sync(HEADER + row('S1', 'One', 1) + row('S2', 'Two', 2) + row('S3', 'Three', 3))
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^created S1 \(loc_[0-9a-z]{16}\)\ncreated S2 \(loc_/)
    expect(first.stdout).toEndWith('3 created, 0 updated, 0 unchanged, 0 deleted.\n')
    expect((await stores()).map((s) => s.external_id)).toEqual(['S1', 'S2', 'S3'])

    const changed = HEADER + row('S1', 'One', 1) + row('S2', 'Two (moved)', 22) + row('S4', 'Four', 4)
    const before = await stores()
    const dry = sync(changed, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout.split('\n')).toEqual([
      expect.stringMatching(/^would update S2 \(loc_/),
      'would create S4',
      expect.stringMatching(/^would delete S3 \(loc_/),
      'Dry run, nothing written: 1 created, 1 updated, 1 unchanged, 1 deleted.',
      '',
    ])
    expect(await stores()).toEqual(before)

    const real = sync(changed)
    expect(real.code).toBe(0)
    expect(real.stdout).toEndWith('1 created, 1 updated, 1 unchanged, 1 deleted.\n')
    const after = await stores()
    expect(after.map((s) => [s.external_id, s.name])).toEqual([
      ['S1', 'One'],
      ['S2', 'Two (moved)'],
      ['S4', 'Four'],
    ])
    expect(sync(changed).stdout).toBe('0 created, 0 updated, 3 unchanged, 0 deleted.\n')
  }, 30_000)

  test('says first the locator its key writes: a key of another locator is seen before any write', () => {
    const other = json('locator', 'create', '--name', 'Other "shop"')
    const file = join(served.dir, 'other.csv')
    writeFileSync(file, HEADER + row('O1', 'Other', 1))
    const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, '--dry-run'], {
      cwd: ROOT,
      env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: other.key.secret_key },
    })
    expect(p.stdout.toString().split('\n')).toEqual([
      `locator "Other \\"shop\\"" (${other.locator.id})`,
      'would create O1',
      'Dry run, nothing written: 1 created, 0 updated, 0 unchanged, 0 deleted.',
      '',
    ])
  })

  test('a special hours column is mirrored whole: a date the list drops is cleared', async () => {
    const head = 'Store Code,Name,Address,Latitude,Longitude,Holiday Hours\n'
    const list = (special: string) => `${head}${row('S1', 'One', 1).trimEnd()},"${special}"\n`
    expect(sync(list('2026-12-24 09:00-14:00; 2026-12-25 closed')).code).toBe(0)
    const special = async () => (await stores()).find((s) => s.external_id === 'S1') as any
    expect((await special()).special_hours).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    const dry = sync(list('2026-12-25 closed'), '--dry-run')
    expect(dry.stdout).toMatch(/^would update S1 \(loc_/)
    expect((await special()).special_hours).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    expect(sync(list('2026-12-25 closed')).stdout).toMatch(/^updated S1 /)
    expect((await special()).special_hours).toEqual({ '2026-12-25': 'closed' })
    expect(sync(list('2026-12-25 closed')).stdout).toEndWith('0 updated, 1 unchanged, 0 deleted.\n')
  }, 30_000)

  test('a store whose code the list changes, its id kept, is updated, not deleted', async () => {
    const s1 = (await stores()).find((s) => s.external_id === 'S1') as any
    const rest = (await stores()).filter((s) => s !== undefined && s.external_id !== 'S1') as any[]
    const head = 'id,Store Code,Name,Address,Latitude,Longitude\n'
    const line = (s: any, code: string) =>
      `${s.id},${code},${s.name},"${s.address}",${s.coordinates.lat},${s.coordinates.lng}\n`
    const list = head + line(s1, 'S1-NEW') + rest.map((s) => line(s, s.external_id)).join('')
    const dry = syncFile('renamed.csv', list, '--dry-run')
    expect(dry.stdout).toBe(
      `would update S1-NEW (${s1.id}): external_id\nDry run, nothing written: 0 created, 1 updated, ${rest.length} unchanged, 0 deleted.\n`,
    )
    expect(syncFile('renamed.csv', list).code).toBe(0)
    expect((await stores()).find((s: any) => s.id === s1.id)?.external_id).toBe('S1-NEW')
    expect(syncFile('back.csv', list.replace('S1-NEW', 'S1')).stdout).toEndWith(
      `1 updated, ${rest.length} unchanged, 0 deleted.\n`,
    )
  }, 30_000)

  test('what the server warns about, and columns not read, are printed', async () => {
    const current = (await stores()) as any[]
    const json: Record<string, unknown>[] = current.map((s) => ({
      external_id: s.external_id,
      name: s.name,
      address: s.address,
      coordinates: s.coordinates,
    }))
    json.push({ ...json[0], external_id: 'S7', fax: '+34 1' })
    // Its items named as the file has them: "[7]" in a top-level array, "locations[7]" in an object.
    for (const [text, name] of [
      [JSON.stringify(json), ''],
      [JSON.stringify({ locations: json }), 'locations'],
    ]) {
      const dry = syncFile('warned.json', text!, '--dry-run')
      expect(dry.code).toBe(0)
      const warned = dry.stdout.split('\n').filter((l) => l.startsWith('check '))
      expect(warned).toEqual([
        expect.stringMatching(new RegExp(`^check ${name}\\[${current.length}\\]: "fax" is not a field`)),
      ])
    }
    const csv = `${HEADER.trimEnd()},Notes\nS1,One,"1 Main St, Town",40.1,-3.1,Back door\n`
    expect(syncFile('notes.csv', csv, '--dry-run').stdout).toStartWith(
      'columns not read (no location field has these names): Notes\n',
    )
    expect(syncFile('x.csv', HEADER, '--dryrun').stderr).toStartWith(
      'Unknown option --dryrun: the options are --dry-run, --max-delete N and --encoding NAME.',
    )
    expect(syncFile('x.csv', HEADER, '--max-delete', 'some').stderr).toStartWith(
      '--max-delete takes a whole number: the most stores to delete.',
    )
    // --help says how to run it, wherever it is and with nothing set: no wrong command line.
    const { STORELOC_URL: _u, STORELOC_KEY: _k, ...unset } = process.env
    for (const args of [['--help'], ['stores.csv', '-h', '--dry-run']]) {
      const help = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), ...args], { cwd: ROOT, env: unset })
      expect([help.exitCode, help.stderr.toString()]).toEqual([0, ''])
      expect(help.stdout.toString()).toStartWith(
        'usage: STORELOC_URL=... STORELOC_KEY=sk_... bun examples/sync.ts FILE.csv|FILE.tsv|FILE.json [--dry-run]',
      )
      expect(help.stdout.toString()).toContain('  --max-delete N   refuse, writing nothing,')
    }
    // It says what each variable of the environment the script reads takes.
    const sources = readdirSync(join(ROOT, 'examples')).map((f) => readFileSync(join(ROOT, 'examples', f), 'utf8'))
    const names = new Set(sources.flatMap((text) => [...text.matchAll(/process\.env\.(\w+)/g)].map((m) => m[1]!)))
    const help = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), '--help'], { cwd: ROOT, env: unset })
    const described = help.stdout.toString().match(/^ {2}STORELOC_\w+ {2,}\S/gm) ?? []
    expect(described.map((l) => l.trim().split(/\s/)[0]).toSorted()).toEqual([...names].toSorted())
    // Exit 3 covers the look for other writes once the writes and deletes are done, too.
    const exits = help.stdout.toString().replace(/^[\s\S]*?\nExit 0/, 'Exit 0')
    expect(exits).toMatch(
      /3 when [\s\S]*once its writes and deletes are done[\s\S]*not in step with it[\s\S]*130 on Ctrl-C/,
    )
    // An option's value is no request for help, as the CLI reads it.
    expect(syncFile('x.csv', HEADER, '--max-delete', '--help')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^--max-delete takes a whole number/),
    })
  }, 30_000)

  test('a failure while writing exits 3, saying part may be written; run again, the list is in step', async () => {
    // A stand-in for the service that answers every request as it does but the real bulk write.
    const standIn = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(request) {
        const body = request.method === 'POST' ? await request.text() : undefined
        if (body?.includes('"dry_run":false'))
          return Response.json(
            { success: false, error: 'error', message: 'Internal server error.' },
            { status: 500, headers: { 'x-request-id': 'req-standin-500' } },
          )
        return fetch(`${served.url}${new URL(request.url).pathname}${new URL(request.url).search}`, {
          method: request.method,
          headers: request.headers,
          body,
        })
      },
    })
    // A locator of its own: the list holds only its one store.
    const own = json('locator', 'create', '--name', 'Sync failing').key.secret_key
    try {
      const list = HEADER + row('F1', 'Fail One', 1)
      const file = join(served.dir, 'failing.csv')
      writeFileSync(file, list)
      // Not spawnSync: the stand-in answers from this process's event loop.
      const failed = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: `http://127.0.0.1:${standIn.port}`, STORELOC_KEY: own },
        stderr: 'pipe',
      })
      const said = await new Response(failed.stderr).text()
      expect([await failed.exited, said]).toEqual([
        3,
        expect.stringContaining(
          'part of the list may be written, the request under way (line 2) too. Run the sync again',
        ),
      ])
      // The id the error table asks a report of a 500 to quote.
      expect(said).toContain('sync: request id req-standin-500: quote it when reporting this failure.')
      const again = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: own },
      })
      expect([again.exitCode, again.stdout.toString().split('\n').at(-2)]).toEqual([
        0,
        '1 created, 0 updated, 0 unchanged, 0 deleted.',
      ])
    } finally {
      standIn.stop(true)
    }
  }, 30_000)

  test("a connection lost while writing is said in the sync's words, not the runtime's advice", async () => {
    // A stand-in that passes every request on but closes the connection of the real bulk write.
    const standIn = createServer(async (request, answer) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = request.method === 'POST' ? Buffer.concat(chunks).toString() : undefined
      if (body?.includes('"dry_run":false')) return request.socket.destroy()
      const passed = await fetch(`${served.url}${request.url}`, {
        method: request.method,
        headers: { authorization: request.headers.authorization ?? '', 'content-type': 'application/json' },
        body,
      })
      answer.writeHead(passed.status, { 'content-type': passed.headers.get('content-type') ?? 'application/json' })
      answer.end(Buffer.from(await passed.arrayBuffer()))
    })
    await new Promise<void>((listening) => standIn.listen(0, '127.0.0.1', listening))
    const url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`
    const own = json('locator', 'create', '--name', 'Sync cut off').key.secret_key
    try {
      const file = join(served.dir, 'cut-off.csv')
      writeFileSync(file, HEADER + row('C1', 'Cut One', 1))
      // Not spawnSync: the stand-in answers from this process's event loop.
      const failed = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: own },
        stderr: 'pipe',
      })
      const said = (await new Response(failed.stderr).text()).split('\n')
      expect([await failed.exited, said.length]).toEqual([3, 3])
      expect(said[0]).toStartWith(`sync: No answer from the service at ${url}: POST /admin/v1/locations/bulk: `)
      expect(said[0]).not.toContain('fetch()')
      expect(said[1]).toBe(
        'sync: part of the list may be written, the request under way (line 2) too. Run the sync again: it writes only what is not in step yet.',
      )
    } finally {
      standIn.close()
    }
  }, 60_000)

  test('--encoding reads a CSV file Excel saved in its code page', async () => {
    // A locator of its own: the list holds only its one store.
    const own = json('locator', 'create', '--name', 'Sync encoded').key.secret_key
    const file = join(served.dir, 'ansi.csv')
    writeFileSync(file, Buffer.from(`${HEADER}E1,Caf\xe9 M\xfcller,"1 Main St, Town",40.1,-3.1\n`, 'latin1'))
    const run = (...flags: string[]) =>
      Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), file, ...flags], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: own },
      })
    const refused = run()
    expect([refused.exitCode, refused.stderr.toString()]).toEqual([
      1,
      expect.stringContaining('--encoding windows-1252'),
    ])
    expect(run('--encoding', 'windows-1252').exitCode).toBe(0)
    const res = await fetch(`${served.url}/admin/v1/locations`, { headers: { authorization: `Bearer ${own}` } })
    expect(((await res.json()) as any).locations.map((l: any) => l.name)).toEqual(['Café Müller'])
    expect(reported({ stdout: run('--encoding=windows-1252').stdout.toString() }).stdout).toBe(
      '0 created, 0 updated, 1 unchanged, 0 deleted.\n',
    )
    // A blank name is none, as the CLI reads it: the Latin-1 file is refused as not UTF-8 again.
    for (const blank of [['--encoding', ' '], ['--encoding=']]) {
      const none = run(...blank)
      expect([none.exitCode, none.stderr.toString()]).toEqual([1, expect.stringContaining('--encoding windows-1252')])
    }
    expect(run('--encoding').exitCode).toBe(2)
  }, 30_000)

  test('a service that asks to wait longer than the client waits: the script says how long', async () => {
    const damaged = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () =>
        Response.json(
          { success: false, error: 'database_damaged', message: 'The database file is damaged.' },
          { status: 503, headers: { 'retry-after': '600', 'x-request-id': 'req-damaged' } },
        ),
    })
    try {
      const file = join(served.dir, 'waiting.csv')
      writeFileSync(file, HEADER + row('W1', 'Wait One', 1))
      const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: `http://127.0.0.1:${damaged.port}`, STORELOC_KEY: served.key },
        stderr: 'pipe',
      })
      const said = await new Response(p.stderr).text()
      expect([await p.exited, said.split('\n')]).toEqual([
        1,
        [
          'sync: The database file is damaged.',
          'sync: the service asks to be tried again in 600 s.',
          'sync: request id req-damaged: quote it when reporting this failure.',
          '',
        ],
      ])
    } finally {
      damaged.stop(true)
    }
  }, 30_000)

  test('a wrong address, a public token or a missing file says what to set', () => {
    const file = join(served.dir, 'stores.csv')
    const run = (env: Record<string, string>, path = file) => {
      const p = Bun.spawnSync([process.execPath, join(ROOT, 'examples/sync.ts'), path, '--dry-run'], {
        cwd: ROOT,
        env: { ...process.env, STORELOC_URL: served.url, STORELOC_KEY: served.key, ...env },
      })
      return [p.exitCode, p.stderr.toString().split('\n')[0]]
    }
    expect(run({ STORELOC_URL: served.url.replace(/^http:\/\//, '') })).toEqual([
      2,
      `STORELOC_URL must be the service's address, such as http://127.0.0.1:3000; got "${served.url.replace(/^http:\/\//, '')}": give "${served.url}".`,
    ])
    // A mistyped scheme, a path alone or a pasted key is refused without an address made of it.
    for (const typo of [
      'http:/127.0.0.1:3000',
      'https//example.com',
      'sk_live_abc',
      served.url.replace(':', ''),
      '/admin/v1',
      // A scheme's name alone is no host.
      'http:3000',
      'http',
      'HTTPS:443',
    ])
      expect(run({ STORELOC_URL: typo })).toEqual([
        2,
        `STORELOC_URL must be the service's address, such as http://127.0.0.1:3000; got "${typo}".`,
      ])
    // A docker service's name ("_" in it) with its port is a host; a space around it is dropped.
    for (const host of ['localhost:3000', 'stores.example.com', 'myhost:8080/', 'my_svc:3000'])
      expect(run({ STORELOC_URL: host })[1]).toEndWith(`: give "http://${host}".`)
    expect(run({ STORELOC_URL: '127.0.0.1:3000 ' })[1]).toEndWith(': give "http://127.0.0.1:3000".')
    // The Management API's address is the service's too, as the client reads it; a route's is
    // refused, saying what to leave out, and a query, the address quoted as set.
    writeFileSync(file, HEADER + row('S1', 'One', 1))
    for (const api of ['/admin/v1', '/admin/v1/']) expect(run({ STORELOC_URL: served.url + api })).toEqual([0, ''])
    expect(run({ STORELOC_URL: `${served.url}/admin/v1/locations/bulk` })).toEqual([
      2,
      `STORELOC_URL must be the service's address, such as "http://127.0.0.1:3000", not one of its routes; got "${served.url}/admin/v1/locations/bulk": leave out /admin/v1/locations/bulk.`,
    ])
    expect(run({ STORELOC_URL: `${served.url}/admin/v1?locator=1` })).toEqual([
      2,
      `STORELOC_URL must be the service's address, such as "http://127.0.0.1:3000", without a query or a fragment; got "${served.url}/admin/v1?locator=1".`,
    ])
    expect(run({ STORELOC_KEY: 'sk_ab cd' })).toEqual([
      2,
      'STORELOC_KEY must be the locator\'s secret key, "sk_..."; got one with a space at character 6.',
    ])
    expect(run({ STORELOC_KEY: 'pk_ILFNGVOBIMQK726GnYrTGqiy' })).toEqual([
      2,
      'STORELOC_KEY holds a public token (pk_...): the sync writes, so it needs a secret key (sk_...). `storeloc key create LOCATOR_ID` makes one.',
    ])
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const gone = `http://127.0.0.1:${closed.port}`
    closed.stop(true)
    expect(run({ STORELOC_URL: gone })).toEqual([
      1,
      expect.stringMatching(
        new RegExp(
          // One sentence of the runtime's, its own advice ("Is the computer able to access the url?") left out.
          `^sync: Cannot reach the service at ${gone}: [^.?!]*\\. Check that it runs, and that STORELOC_URL is its address\\.$`,
        ),
      ),
    ])
    expect(run({}, join(served.dir, 'nothing.csv'))).toEqual([1, `sync: No file ${join(served.dir, 'nothing.csv')}.`])
    expect(run({}, served.dir)).toEqual([1, `sync: ${served.dir} is a folder, not a file.`])
  }, 30_000)
})
