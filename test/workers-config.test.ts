// WORKERS configuration: the values read, the platforms and geocoders it needs, a bad one at
// start, and WORKERS=1 as one process.
import { describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { checkWorkers, ConfigError, loadConfig, MAX_WORKERS } from '../src/core/config'
import { serverUrl, startServer, tempDir } from './helpers'
import { childrenOf, ROOT } from './workers-procs'

describe('WORKERS configuration', () => {
  test('values: default 1, 1 to 64, auto is one per core; anything else is refused by name', () => {
    expect(loadConfig({}).workers).toBe(1)
    expect(loadConfig({ WORKERS: '' }).workers).toBe(1)
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4)
    expect(loadConfig({ WORKERS: '2.0' }).workers).toBe(2)
    expect(loadConfig({ WORKERS: 'auto' }, 6).workers).toBe(6)
    expect(loadConfig({ WORKERS: 'auto' }, 256).workers).toBe(MAX_WORKERS)
    for (const bad of ['0', '65', '1.5', 'two', '-1', ' ', '0x2', '1e1']) {
      expect(() => loadConfig({ WORKERS: bad })).toThrow(ConfigError)
    }
    expect(() => loadConfig({ WORKERS: '0' }, 2)).toThrow(
      'WORKERS must be a whole number from 1 to 64, or auto (one per core: 2 here); got "0".',
    )
  })

  test('more than one worker needs Linux, and not the public Nominatim', () => {
    expect(() => checkWorkers(loadConfig({ WORKERS: '2' }), 'darwin')).toThrow(/needs Linux/)
    expect(() => checkWorkers(loadConfig({ WORKERS: '1' }), 'darwin')).not.toThrow()
    const nominatim = { GEOCODER: 'nominatim', GEOCODER_USER_AGENT: 'acme/1.0 (ops@acme.example)' }
    expect(() => checkWorkers(loadConfig({ ...nominatim, WORKERS: '2' }), 'linux')).toThrow(/one request per second/)
    expect(() =>
      checkWorkers(loadConfig({ ...nominatim, WORKERS: '2', GEOCODER_URL: 'http://127.0.0.1:8080' }), 'linux'),
    ).not.toThrow()
  })

  test('a bad WORKERS or --workers stops the start with a clear message and exit code 2', async () => {
    const dir = tempDir()
    try {
      const runs = [
        {
          env: { WORKERS: 'two' },
          args: [],
          says: 'Configuration error: WORKERS must be a whole number from 1 to 64, or auto',
        },
        { env: { WORKERS: '65' }, args: [], says: 'got "65"' },
        {
          env: {},
          args: ['--workers', '0'],
          says: 'Configuration error: --workers must be a whole number from 1 to 64',
        },
        {
          env: { STORELOC_WORKER: '1' },
          args: [],
          says: 'STORELOC_WORKER is set by the primary process for its workers only',
        },
      ]
      await Promise.all(
        runs.map(async ({ env, args, says }, i) => {
          const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), ...args], {
            cwd: ROOT,
            env: {
              ...process.env,
              DATABASE_PATH: join(dir, `bad-${i}.db`),
              PORT: '0',
              HOST: '127.0.0.1',
              GEOCODER: 'none',
              DEMO: '0',
              ...env,
            },
            stdout: 'pipe',
            stderr: 'pipe',
          })
          expect(await proc.exited).toBe(2)
          expect(await new Response(proc.stderr).text()).toContain(says)
          expect(await new Response(proc.stdout).text()).toBe('') // nothing started, nothing printed
        }),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('WORKERS=1 is one process, as without it', async () => {
    const dir = tempDir()
    const server = startServer(join(dir, 'one.db'), { WORKERS: '1', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0' })
    try {
      const listening = JSON.parse(await server.waitFor(/"listening"/))
      expect(listening.workers).toBeUndefined()
      expect(childrenOf(server.proc.pid)).toEqual([])
      expect((await fetch(`${await serverUrl(server)}/healthz`)).status).toBe(200)
    } finally {
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
