// examples/sync.ts run right after a first start: the service answers "starting" (503, as
// src/server/starting-answers.ts does) for longer than the client's tries, then serves. The sync
// waits, says so once, and mirrors the list.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { useStartingService } from '../starting-service'
import { reported } from './sync-server'

const ROOT = join(import.meta.dir, '..', '..')

const { service, env } = useStartingService()

test('a sync run while the service starts waits for it, saying so once, and mirrors the list', async () => {
  service.startingFor = 5 // past the client's 4 tries
  const file = join(env().dir, 'stores.csv')
  writeFileSync(file, 'Store Code,Name,Address,Latitude,Longitude\nS1,One,"1 Main St, Town",40.1,-3.1\n')
  // Spawned, not run in step: the server answers from this process's event loop.
  const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: service.url, STORELOC_KEY: env().key },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text().then((stdout) => reported({ stdout }).stdout),
    new Response(p.stderr).text(),
  ])
  expect(stderr).toBe('sync: the service is starting, waiting up to 120 s for it...\n')
  expect(code).toBe(0)
  expect(stdout).toMatch(/^created S1 \(loc_[0-9a-z]{16}\)\n/)
  expect(stdout).toEndWith('1 created, 0 updated, 0 unchanged, 0 deleted.\n')
  expect(service.seen.length).toBeGreaterThan(service.startingFor)
})

test('a service still starting past STORELOC_STARTUP_WAIT ends the sync with what to do, not "retry in 1 s"', async () => {
  service.startingFor = Number.POSITIVE_INFINITY
  const file = join(env().dir, 'stores.csv')
  writeFileSync(file, 'Store Code,Name,Address,Latitude,Longitude\nS1,One,"1 Main St, Town",40.1,-3.1\n')
  const url = service.url
  const run = async (wait: string) => {
    const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
      cwd: ROOT,
      env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: env().key, STORELOC_STARTUP_WAIT: wait },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()])
    return { code, stderr }
  }
  expect(await run('2')).toEqual({
    code: 1,
    stderr:
      'sync: the service is starting, waiting up to 2 s for it...\n' +
      `sync: the service at ${url} did not finish starting within 2 s: a first start builds the geocoder's data, longer on a slow machine. Run the sync again once GET /readyz answers 200, or set STORELOC_STARTUP_WAIT to more seconds.\n`,
  })
  expect(await run('soon')).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/^STORELOC_STARTUP_WAIT takes a whole number of seconds/),
  })
})

test('STORELOC_STARTUP_WAIT=0 meeting a start says the service is starting and what to do, no request id', async () => {
  service.startingFor = Number.POSITIVE_INFINITY
  const file = join(env().dir, 'stores.csv')
  writeFileSync(file, 'Store Code,Name,Address,Latitude,Longitude\nS1,One,"1 Main St, Town",40.1,-3.1\n')
  const p = Bun.spawn([process.execPath, join(ROOT, 'examples/sync.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, STORELOC_URL: service.url, STORELOC_KEY: env().key, STORELOC_STARTUP_WAIT: '0' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()])
  expect({ code, stderr }).toEqual({
    code: 1,
    stderr: `sync: the service at ${service.url} is starting (STORELOC_STARTUP_WAIT=0 waits for no start): a first start builds the geocoder's data, 15 s to a minute or more. Run the sync again shortly, once GET /readyz answers 200, or set STORELOC_STARTUP_WAIT to the seconds to wait.\n`,
  })
  // The client's tries, a second apart as the answers ask, then no more.
  expect(service.seen).toHaveLength(4)
})
