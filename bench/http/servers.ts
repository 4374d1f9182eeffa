// The servers the HTTP bench measures, each in its own process group: the service itself, the bare
// baselines and the stand-ins; and how the bench waits until each is ready and warm.
import { openSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, SERVER_CPU } from './options'
import { type Child, children, workDir } from './processes'

/** Warm-up: this many requests in a row, each on a new connection, must answer within FAST_MS. */
const WARM_STREAK = 20
const FAST_MS = 100

export type Server = {
  label: string
  child: Child
  pid: number
  base: string
  out: string
  err: string
  pids: number[]
}

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = s.port!
  s.stop(true)
  return port
}

function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}

/** Spawns a server in its own process group (so its workers can be stopped with it), logs to files. */
export function spawnServer(
  label: string,
  argv: string[],
  env: Record<string, string | undefined>,
  pinned: boolean,
): Server {
  const port = freePort()
  const out = join(workDir(), `${label}.out.log`)
  const err = join(workDir(), `${label}.err.log`)
  const fds = [openSync(out, 'w'), openSync(err, 'w')]
  const cmd = pinned ? ['taskset', '-c', SERVER_CPU, ...argv] : argv
  const base = { ...process.env }
  delete base.WORKERS
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...base, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdin: 'ignore',
    stdout: fds[0]!,
    stderr: fds[1]!,
    detached: true,
  })
  const child: Child = { proc, group: true, fds }
  children.add(child)
  return { label, child, pid: proc.pid, base: `http://127.0.0.1:${port}`, out, err, pids: [proc.pid] }
}

export async function waitReady(s: Server, path: string, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (s.child.proc.exitCode !== null || s.child.proc.signalCode !== null) {
      throw new Error(
        `${s.label} exited (${s.child.proc.exitCode ?? s.child.proc.signalCode}):\n${tail(s.out)}\n${tail(s.err)}`,
      )
    }
    try {
      const r = await fetch(s.base + path, { keepalive: false })
      await r.arrayBuffer()
      if (r.status === 200) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`${s.label} not ready after ${timeoutMs / 1000} s:\n${tail(s.out)}\n${tail(s.err)}`)
}

/** The service on the seeded database, with WORKERS=n; n = 1 pinned to SERVER_CPU. */
export function startService(entry: string, db: string, workers: number): Server {
  const env = { DATABASE_PATH: db, DEMO: '0', LOG_REQUESTS: '0', GEOCODER: 'none', WORKERS: String(workers) }
  return spawnServer(`service-w${workers}`, [process.execPath, entry], env, workers === 1)
}

/** Waits until the server's stdout has a line containing `text`. */
export async function waitForLine(s: Server, text: string, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!readFileSync(s.out, 'utf8').includes(text)) {
    if (Date.now() > until) throw new Error(`${s.label}: no ${text} line after ${timeoutMs / 1000} s:\n${tail(s.out)}`)
    await Bun.sleep(100)
  }
}

/** Requests `path` on fresh connections until WARM_STREAK in a row answer 200 within FAST_MS. */
export async function warmIndex(s: Server, path: string): Promise<number> {
  const t0 = performance.now()
  let streak = 0
  let n = 0
  while (streak < WARM_STREAK) {
    if (++n > 2000) throw new Error(`${s.label}: no ${WARM_STREAK} fast answers in a row after 2000 requests`)
    const t = performance.now()
    const r = await fetch(s.base + path, { keepalive: false, headers: { 'accept-encoding': 'identity' } })
    const body = await r.text()
    if (r.status !== 200) throw new Error(`${s.label}: GET ${path} answered ${r.status}: ${body.slice(0, 300)}`)
    streak = performance.now() - t < FAST_MS ? streak + 1 : 0
  }
  return performance.now() - t0
}

/**
 * The bare baseline: a static JSON body of exactly `bytes` bytes, with the service's content-type;
 * as a string (Bun copies it into each response, as the bare server would be written), or
 * kept as a Blob (`blob`: sent without a copy, as the service sends its kept answers).
 */
export function startBare(bytes: number, run: number, blob = false): Server {
  const head = '{"success":true,"data":{"pad":"'
  const foot = '"}}'
  const body = head + 'x'.repeat(Math.max(0, bytes - head.length - foot.length)) + foot
  const bodyFile = join(workDir(), `bare-body-${run}${blob ? '-blob' : ''}.json`)
  writeFileSync(bodyFile, body)
  const script = join(workDir(), blob ? 'bare-blob.ts' : 'bare.ts')
  writeFileSync(
    script,
    [
      '// bench/http.ts baseline: Bun.serve with a static body, built per request as the service does.',
      blob
        ? `const body = new Blob([await Bun.file(${JSON.stringify(bodyFile)}).text()])`
        : `const body = await Bun.file(${JSON.stringify(bodyFile)}).text()`,
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => new Response(body, { headers }) })",
      '',
    ].join('\n'),
  )
  return spawnServer(`bare${blob ? '-blob' : ''}-${run}`, [process.execPath, script], {}, true)
}

/**
 * Stand-in: a `Bun.serve` whose every response is a body of `bytes` bytes made of `pieces` pieces
 * copied from random places of a buffer of `arenaBytes` (filled once): what the machine takes to
 * send an answer whose locations' JSON no cache holds, with no index and no route around it.
 */
export function startCopies(bytes: number, pieces: number, arenaBytes: number, run: number): Server {
  const script = join(workDir(), 'copies.ts')
  writeFileSync(
    script,
    [
      '// bench/http.ts stand-in: each body copied from random places of a large buffer, as answers are from the JSON arena.',
      `const head = Buffer.from('{"success":true,"data":{"pad":"'), foot = Buffer.from('"}}')`,
      `const bytes = ${bytes}, pieces = ${pieces}`,
      'const piece = Math.max(1, Math.floor((bytes - head.length - foot.length) / pieces))',
      `const arena = Buffer.alloc(Math.max(${arenaBytes}, 4 * piece), 'x')`,
      'const body = Buffer.alloc(bytes, "x")',
      'head.copy(body, 0)',
      'foot.copy(body, bytes - foot.length)',
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => {",
      '  for (let i = 0, pos = head.length; i < pieces; i++, pos += piece) {',
      '    const at = Math.floor(Math.random() * (arena.length - piece))',
      '    arena.copy(body, pos, at, at + piece)',
      '  }',
      '  return new Response(body, { headers })',
      '} })',
      '',
    ].join('\n'),
  )
  return spawnServer(`copies-${run}`, [process.execPath, script], {}, true)
}

/**
 * Stand-in: a `Bun.serve` answering GET /public/v1/{token}/locations from the service's own answer
 * path (registry.sync(), then locationsBody()) over the same database, nothing else: no guard, no
 * rate count, no answer cache, one header. Prints "ready" once its index and JSON are built.
 */
export function startAnswerOnly(db: string, token: string): Server {
  const script = join(workDir(), 'answer-only.ts')
  const src = (f: string) => JSON.stringify(join(ROOT, 'src', f))
  writeFileSync(
    script,
    [
      "// bench/http.ts stand-in: the service's answer path alone, in a bare Bun.serve.",
      `import { openStore } from ${src('store')}`,
      `import { locationsBody } from ${src('api/public/answer')}`,
      `import { IndexRegistry } from ${src('indexes/registry')}`,
      `const store = openStore(${JSON.stringify(db)})`,
      'const registry = new IndexRegistry(store)',
      'await registry.preload()',
      `const locator = registry.locatorByToken(${JSON.stringify(token)})!`,
      "const headers = { 'content-type': 'application/json; charset=utf-8' }",
      "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: (request) => {",
      '  registry.sync()',
      '  return new Response(locationsBody(registry, locator, request.url).body, { headers })',
      '} })',
      "console.log('ready')",
      '',
    ].join('\n'),
  )
  return spawnServer('answer-only', [process.execPath, script], {}, true)
}
