// WORKERS=2 and its port: the primary holds the port, the kernel's pick or a configured one, until
// its workers listen on it; and a worker whose database file is gone.
import { describe, expect, test } from 'bun:test'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, serverUrl, startServer, tempDir } from './helpers'
import { childrenOf, freshGet, listeningPortsOf, ROOT } from './workers-procs'

describe('WORKERS=2, PORT=0', () => {
  test('the primary holds the port the kernel picked until its workers listen on it, then lets it go', async () => {
    // Released at once, another process could bind the port before the workers do.
    const own = tempDir()
    const server = startServer(join(own, 'hold.db'), { WORKERS: '2', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0' })
    try {
      const held = new Set<number>()
      const watching = (async () => {
        while (!server.lines.some((l) => l.includes('"listening"')) && server.proc.exitCode === null) {
          for (const p of listeningPortsOf(server.proc.pid)) held.add(p)
          await Bun.sleep(2)
        }
      })()
      const port = Number(new URL(await serverUrl(server)).port)
      await watching
      expect([...held]).toEqual([port])
      expect(listeningPortsOf(server.proc.pid)).toEqual([])
      const workers = childrenOf(server.proc.pid)
      for (const pid of workers) expect(listeningPortsOf(pid)).toEqual([port])
      for (let i = 0; i < 12; i++) expect((await freshGet(port, '/healthz', workers)).status).toBe(200)
    } finally {
      if (server.proc.exitCode === null) {
        server.proc.kill('SIGTERM')
        await server.proc.exited
      }
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})

describe('WORKERS=2, a configured PORT', () => {
  test('the primary holds the port until its workers listen: a second server started on it meanwhile is refused, not let share it', async () => {
    const own = tempDir()
    const port = Number(freePort())
    const server = startServer(join(own, 'first.db'), {
      WORKERS: '2',
      DEMO: '0',
      GEOCODER: 'none',
      LOG_REQUESTS: '0',
      PORT: String(port),
    })
    let second: ReturnType<typeof Bun.spawn> | null = null
    try {
      const held = new Set<number>()
      while (!server.lines.some((l) => l.includes('"listening"')) && server.proc.exitCode === null) {
        for (const p of listeningPortsOf(server.proc.pid)) held.add(p)
        if (held.size > 0 && second === null) {
          second = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
            cwd: ROOT,
            env: {
              ...process.env,
              DATABASE_PATH: join(own, 'second.db'),
              PORT: String(port),
              HOST: '127.0.0.1',
              WORKERS: '2',
              DEMO: '0',
              GEOCODER: 'none',
            },
            stdout: 'pipe',
            stderr: 'pipe',
          })
        }
        await Bun.sleep(2)
      }
      expect([...held]).toEqual([port])
      expect(second).not.toBeNull()
      expect(await second!.exited).toBe(1)
      expect(await new Response(second!.stderr as ReadableStream).text()).toContain(
        `Cannot listen on 127.0.0.1:${port} (EADDRINUSE)`,
      )
      await serverUrl(server)
      expect(listeningPortsOf(server.proc.pid)).toEqual([])
      const workers = childrenOf(server.proc.pid)
      for (const pid of workers) expect(listeningPortsOf(pid)).toEqual([port])
      for (let i = 0; i < 8; i++) expect((await freshGet(port, '/healthz', workers)).status).toBe(200)
    } finally {
      if (second !== null && second.exitCode === null) second.kill('SIGTERM')
      if (server.proc.exitCode === null) {
        server.proc.kill('SIGTERM')
        await server.proc.exited
      }
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})

test('a worker whose database file is gone (deleted or moved since the primary made it) stops with one line and makes no empty one', async () => {
  const own = tempDir()
  try {
    const path = join(own, 'gone.db')
    const worker = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_PATH: path,
        PORT: '0',
        HOST: '127.0.0.1',
        STORELOC_WORKER: '1',
        GEOCODER: 'none',
        DEMO: '0',
      },
      stdout: 'pipe',
      stderr: 'pipe',
      ipc() {},
    })
    expect(await worker.exited).toBe(3)
    expect((await new Response(worker.stderr).text()).trim()).toBe(
      `Cannot use the database at ${path}: the file is gone (the primary made it at start), and a worker does not make an empty one. Put the file back, then start the service again.`,
    )
    expect(existsSync(path)).toBe(false)
  } finally {
    rmSync(own, { recursive: true, force: true })
  }
})
