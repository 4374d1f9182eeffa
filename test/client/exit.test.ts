// The client's timers and a script's process, on Bun (src/client) and on Node (dist/client): a
// pending call holds the process until it settles, in a try or in any wait between tries, and a
// settled call leaves nothing behind, so a script ends once its last call has. Each script makes
// one call against a server on 127.0.0.1 and must exit; the limits are an hour, so a timer left
// behind holds its process far past the test's own timeout.
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '..', '..')
const SCRIPT = join(ROOT, 'test/fixtures/client-exit/call.mjs')
const HOUR = 3_600_000

const unavailable = (headers: Record<string, string>) =>
  new Response('{"success":false,"error":"unavailable","message":"Busy."}', { status: 503, headers })

/** The tries each scenario's path has had, by its first segment. */
const tries = new Map<string, number>()
/** Answers by the path's first segment (`bun-busy-once` is `busy-once`'s on Bun). */
const answers: Record<string, (tried: number) => Response | Promise<Response>> = {
  ok: () => Response.json({ custom_fields: [] }),
  // Asks for a second's wait, then answers: the call ends only after that wait.
  'busy-once': (tried) => (tried === 1 ? unavailable({ 'retry-after': '1' }) : Response.json({ custom_fields: [] })),
  // Never answers: the try ends by its own timeout or by the call's abort.
  held: () => new Promise<Response>(() => {}),
  'held-aborted': () => new Promise<Response>(() => {}),
  'busy-long': () => unavailable({ 'retry-after': '600' }),
  starting: () => unavailable({ 'retry-after': '1', 'x-service-status': 'starting' }),
}
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const head = new URL(request.url).pathname.split('/')[1]!
    tries.set(head, (tries.get(head) ?? 0) + 1)
    return answers[head.replace(/^(bun|node)-/, '')]!(tries.get(head)!)
  },
})
afterAll(() => server.stop(true))

/** A port nothing listens on: the one the server had, once stopped. */
const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
const refusedUrl = `http://127.0.0.1:${closed.port}`
closed.stop(true)

/** The scripts running: one that outlives its test (a timer left behind) is ended after it. */
const running = new Set<Bun.Subprocess>()
afterEach(() => {
  for (const p of running) p.kill()
  running.clear()
})

const runtimes = {
  bun: { command: process.execPath, client: join(ROOT, 'src/client/index.ts') },
  node: { command: Bun.which('node')!, client: join(ROOT, 'dist/client/index.js') },
}

/** Runs the script on `runtime` for `scenario`'s path; its exit code and output, once it exits. */
async function call(
  runtime: keyof typeof runtimes,
  scenario: string,
  options: Record<string, unknown>,
  abort?: 'in-try' | 'after-answer',
  url = `${server.url.origin}/${runtime}-${scenario}`,
) {
  const { command, client } = runtimes[runtime]
  const p = Bun.spawn([command, SCRIPT], {
    env: {
      ...process.env,
      CLIENT: client,
      STORELOC_URL: url,
      STORELOC_OPTIONS: JSON.stringify(options),
      ...(abort ? { ABORT: abort } : {}),
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  running.add(p)
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ])
  return { code, out: stdout ? JSON.parse(stdout) : stdout, stderr, tries: tries.get(`${runtime}-${scenario}`) }
}

const aborted = { code: 0, out: { error: 'AbortError' }, stderr: '' }

for (const runtime of ['bun', 'node'] as const)
  describe(`a script on ${runtime === 'bun' ? 'Bun' : 'Node'} with one call`, () => {
    test('exits once the call is answered', async () => {
      expect(await call(runtime, 'ok', { timeoutMs: HOUR })).toEqual({
        code: 0,
        out: { fields: [] },
        stderr: '',
        tries: 1,
      })
    })

    test("is held through the call's wait between tries, however little else it has to do", async () => {
      const r = await call(runtime, 'busy-once', { timeoutMs: HOUR, maxWaitMs: HOUR })
      expect(r).toEqual({ code: 0, out: { fields: [] }, stderr: '', tries: 2 })
    })

    test('exits once its tries time out, or find no server', async () => {
      // A try that times out before its request reaches the server is not seen there: tries not counted.
      expect(await call(runtime, 'held', { timeoutMs: 200, attempts: 2, backoffMs: 1 })).toMatchObject({
        code: 0,
        out: { error: 'StorelocError', status: 0, code: 'network_error' },
        stderr: '',
      })
      const refused = await call(
        runtime,
        'refused',
        { timeoutMs: HOUR, attempts: 3, backoffMs: 1 },
        undefined,
        refusedUrl,
      )
      expect(refused).toEqual({
        code: 0,
        out: { error: 'StorelocError', status: 0, code: 'network_error' },
        stderr: '',
        tries: undefined,
      })
    })

    test('exits once the call is aborted in a try, in a backoff or in a wait for a start', async () => {
      const limits = { timeoutMs: HOUR, maxWaitMs: HOUR, startupWaitMs: HOUR }
      // Aborted 50 ms after its fetch began, whether or not the request has reached the server yet.
      expect(await call(runtime, 'held-aborted', limits, 'in-try')).toMatchObject(aborted)
      expect(await call(runtime, 'busy-long', limits, 'after-answer')).toEqual({ ...aborted, tries: 1 })
      expect(await call(runtime, 'starting', limits, 'after-answer')).toEqual({ ...aborted, tries: 1 })
    })
  })
