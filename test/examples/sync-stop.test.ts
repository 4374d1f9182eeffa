// examples/sync.ts stopped by Ctrl-C (SIGINT): it ends at once, in a wait for a starting service
// or in a write, says what it wrote so far, and exits 130. Stopped by SIGTERM (timeout(1), a CI
// job cancelled) it says the same, and exits 143.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { useStartingService } from '../starting-service'
import { reported } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')

const { service, env } = useStartingService()

/**
 * The sync spawned on a one-row list; `said(text)` resolves once its stderr holds `text`, and
 * `ended` with its exit code, stdout and stderr.
 */
function sync(rows = 'S1,One,"1 Main St, Town",40.1,-3.1\n', more: Record<string, string> = {}) {
  const file = join(env().dir, 'stores.csv')
  writeFileSync(file, `Store Code,Name,Address,Latitude,Longitude\n${rows}`)
  // Spawned, not run in step: the server answers from this process's event loop.
  const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: service.url, STORELOC_KEY: env().key, ...more },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stderr = ''
  const listeners: (() => void)[] = []
  const read = (async () => {
    for await (const chunk of p.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += chunk
      for (const l of listeners) l()
    }
    return stderr
  })()
  const said = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => stderr.includes(text) && resolve()
      listeners.push(check)
      check()
    })
  const ended = Promise.all([
    p.exited,
    new Response(p.stdout).text().then((stdout) => reported({ stdout }).stdout),
    read,
  ])
  return { interrupt: (signal: 'SIGINT' | 'SIGTERM' = 'SIGINT') => p.kill(signal), said, ended }
}

test('Ctrl-C while the sync waits for a starting service ends it at once: nothing written, exit 130', async () => {
  service.startingFor = Number.POSITIVE_INFINITY
  const run = sync()
  // Its first request met the start: the sync waits its 2 minutes unless stopped.
  await run.said('waiting up to 120 s')
  run.interrupt()
  const [code, stdout, stderr] = await run.ended
  expect({ code, stdout, stderr }).toEqual({
    code: 130,
    stdout: '',
    stderr:
      'sync: the service is starting, waiting up to 120 s for it...\nsync: stopped (Ctrl-C) before writing anything.\n',
  })
  expect(env().store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n).toBe(0)
})

test('Ctrl-C during a write ends the sync, saying what was written and that the write under way, named by its lines, may be', async () => {
  let held!: () => void
  const hold = new Promise<void>((resolve) => (held = resolve))
  let run!: ReturnType<typeof sync>
  // The list's write (not its dry run) is held; the sync is stopped while it waits for the answer.
  service.app = {
    handle: async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : ''
      if (!body.includes('"dry_run":false')) return env().app.handle(request)
      run.interrupt()
      await hold
      return env().app.handle(request)
    },
  }
  run = sync()
  try {
    const [code, stdout, stderr] = await run.ended
    expect({ code, stdout, stderr }).toEqual({
      code: 130,
      stdout: '',
      stderr:
        'sync: stopped (Ctrl-C): 0 of 1 rows sent; the request under way (line 2) may have gone through too. Run the sync again: it writes only what is not in step yet.\n',
    })
  } finally {
    held()
  }
})

test('SIGTERM during a write ends the sync as Ctrl-C does: it lists what it changed, and exits 143', async () => {
  let held!: () => void
  const hold = new Promise<void>((resolve) => (held = resolve))
  let run!: ReturnType<typeof sync>
  let writes = 0
  // The list's second write is held; the sync is stopped while it waits for the answer.
  service.app = {
    handle: async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : ''
      if (!body.includes('"dry_run":false') || ++writes < 2) return env().app.handle(request)
      run.interrupt('SIGTERM')
      await hold
      return env().app.handle(request)
    },
  }
  run = sync('T1,One,"1 Main St, Town",40.1,-3.1\nT2,Two,"2 Main St, Town",40.2,-3.2\n', { STORELOC_SYNC_CHUNK: '1' })
  try {
    const [code, stdout, stderr] = await run.ended
    const id = env().store.db.query<{ id: string }, []>("SELECT id FROM locations WHERE external_id = 'T1'").get()!.id
    expect({ code, stdout, stderr }).toEqual({
      code: 143,
      stdout: `created T1 (${id})\n`,
      stderr:
        'checked: 1 of 2 rows\nchecked: 2 of 2 rows\nsent: 1 of 2 rows (1 created)\nsync: stopped (SIGTERM): 1 of 2 rows sent (1 created); the request under way (line 3) may have gone through too. Run the sync again: it writes only what is not in step yet.\n',
    })
  } finally {
    held()
  }
})

test('Ctrl-C among the deletes says how many of the stores the list lacks are deleted', async () => {
  const rows = ['D1', 'D2', 'D3'].map((code, i) => `${code},Store ${i},"${i} Main St, Town",40.${i},-3.${i}\n`)
  // The three stores first, in step; then a list of D1 alone, whose second delete is held.
  const first = sync(rows.join(''))
  expect((await first.ended)[0]).toBe(0)
  let held!: () => void
  const hold = new Promise<void>((resolve) => (held = resolve))
  let run!: ReturnType<typeof sync>
  let deletes = 0
  service.app = {
    handle: async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : ''
      const deleting = body.includes('"delete":true') && !body.includes('"dry_run":true')
      if (!deleting || ++deletes < 2) return env().app.handle(request)
      run.interrupt()
      await hold
      return env().app.handle(request)
    },
  }
  run = sync(rows[0], { STORELOC_SYNC_CHUNK: '1' })
  try {
    const [code, , stderr] = await run.ended
    expect(code).toBe(130)
    expect(stderr.split('\n').at(-2)).toMatch(
      /^sync: stopped \(Ctrl-C\): 1 of 1 rows sent \(1 unchanged\), 1 of the 2 stores the list lacks deleted; the request under way \(deleting "D3" \(loc_\w+\)\) may have gone through too\. Run the sync again: it writes only what is not in step yet\.$/,
    )
  } finally {
    held()
  }
})
