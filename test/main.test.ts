// The README's promise: `npm start` on a new database prints a curl line that works.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './helpers'

const ROOT = join(import.meta.dir, '..')
let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Running = { proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>; lines: string[]; waitFor: (re: RegExp) => Promise<string> }

function start(dbPath: string): Running {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: dbPath, PORT: '0', HOST: '127.0.0.1' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const lines: string[] = []
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = []
  ;(async () => {
    const decoder = new TextDecoder()
    let buf = ''
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk)
      let i
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i)
        buf = buf.slice(i + 1)
        lines.push(line)
        for (const w of waiters.filter((w) => w.re.test(line))) w.resolve(line)
      }
    }
  })()
  return {
    proc,
    lines,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const hit = lines.find((l) => re.test(l))
        if (hit) return resolve(hit)
        waiters.push({ re, resolve })
        setTimeout(() => reject(new Error(`timed out waiting for ${re}; got:\n${lines.join('\n')}`)), 15_000)
      }),
  }
}

test('first start creates a locator, prints a working curl line once; SIGTERM stops cleanly', async () => {
  const db = join(dir, 'first.db')
  const first = start(db)
  const curl = await first.waitFor(/curl -H "Authorization: Bearer sk_/)
  await first.waitFor(/"listening"/)
  expect(first.lines.some((l) => /locator id:\s+lct_[0-9a-z]{16}/.test(l))).toBe(true)
  expect(first.lines.some((l) => /public token:\s+pk_[0-9A-Za-z]{24}/.test(l))).toBe(true)

  const [, key, url] = /Bearer (sk_\w+)" (http:\/\/\S+)/.exec(curl)!
  const res = await fetch(url!, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({
    success: true,
    locations: [],
    pagination: { page: 1, limit: 10, total: 0, total_pages: 0, next: null, previous: null },
  })
  first.proc.kill('SIGTERM')
  expect(await first.proc.exited).toBe(0)

  // A second start on the same database creates nothing and prints no key.
  const second = start(db)
  await second.waitFor(/"listening"/)
  expect(second.lines.join('\n')).not.toContain('sk_')
  const again = await fetch(url!.replace(/:\d+\//, `:${new URL(JSON.parse(second.lines.find((l) => l.includes('"listening"'))!).url).port}/`), {
    headers: { authorization: `Bearer ${key}` },
  })
  expect(again.status).toBe(200)
  second.proc.kill('SIGTERM')
  expect(await second.proc.exited).toBe(0)
})

test('a bad configuration value stops the start with a clear message', async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: join(dir, 'bad.db'), PORT: 'eighty' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(await proc.exited).toBe(2)
  expect(await new Response(proc.stderr).text()).toContain('PORT must be a whole number')
})
