// The first query of a large locator let go (INDEX_IDLE_MINUTES), and what another locator's
// queries wait meanwhile, over HTTP (PERF-062). A server process (this file with --serve) holds a
// large and a small locator; each round lets the large one go, then one client asks the small one
// query after query while another asks the large one once, and times both.
//
//   bun bench/cold-build.ts [--large 20000] [--small 200] [--rounds 5]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { noGeocoder } from '../src/geocode/geocoder'
import { createApp } from '../src/server/app'
import { startIdleSync } from '../src/server/upkeep'
import { openStore } from '../src/store'
import { seedLocator } from './scenario'
import { spread } from './spread'

const arg = (name: string, fallback: number) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(Bun.argv[i + 1])
}

/** The server: the app on a free port (printed), its idle sync running; "evict" on stdin lets go what was not asked for since the last one. */
async function serve(file: string): Promise<void> {
  const store = openStore(file)
  const app = createApp({ store, geocoder: noGeocoder, config: { maxBodyBytes: 1 << 20, logRequests: false } })
  await app.preload()
  startIdleSync(app, 0)
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => app.handle(r) })
  console.log(`port ${server.port}`)
  for await (const line of console) if (line === 'evict') console.log(`evicted ${app.evictIdle(0)}`)
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!
const round1 = (x: number) => Math.round(x * 10) / 10

async function measure(): Promise<void> {
  const large = arg('large', 20_000)
  const small = arg('small', 200)
  const rounds = arg('rounds', 5)
  const dir = mkdtempSync(join(tmpdir(), 'storeloc-cold-'))
  const file = join(dir, 'cold.sqlite')
  const store = openStore(file)
  const big = store.locators.get(seedLocator(store, large, 1).locatorId)!.publicToken
  const other = store.locators.get(seedLocator(store, small, 2).locatorId)!.publicToken
  store.close()
  const child = Bun.spawn(['bun', import.meta.path, '--serve', file], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const lines = (async function* () {
    let buffered = ''
    for await (const chunk of child.stdout) {
      buffered += new TextDecoder().decode(chunk)
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        yield buffered.slice(0, at)
        buffered = buffered.slice(at + 1)
      }
    }
  })()
  /** The server's next answer on stdout, past its log lines (JSON). */
  const next = async (): Promise<string> => {
    for (;;) {
      const line = (await lines.next()).value as string
      if (!line.startsWith('{')) return line
    }
  }
  const say = async (line: string) => {
    child.stdin.write(`${line}\n`)
    child.stdin.flush()
    return next()
  }
  try {
    const base = `http://127.0.0.1:${(await next()).split(' ')[1]}/public/v1`
    const bigUrl = `${base}/${big}/locations?lat=40.7&lng=-74&radius=30&unit=km&limit=20`
    let n = 0
    // A new centre each time: no answer is kept in the answer cache.
    const smallUrl = () =>
      `${base}/${other}/locations?lat=${(40 + (n++ % 997) / 1000).toFixed(3)}&lng=-74&radius=50&unit=km&limit=10`
    const timed = async (url: string) => {
      const t0 = performance.now()
      const res = await fetch(url)
      const body = await res.text()
      return { ms: performance.now() - t0, status: res.status, body }
    }
    for (let i = 0; i < 200; i++) await timed(smallUrl())
    const expected = (await timed(bigUrl)).body
    await Bun.sleep(1000) // the large index's JSON filled, its background work done
    const results: {
      firstMs: number
      status: number
      right: boolean
      controlP99: number
      controlMax: number
      smallN: number
      smallP50: number
      smallP99: number
      smallMax: number
    }[] = []
    for (let r = 0; r < rounds; r++) {
      await say('evict') // every index marked unused
      await timed(smallUrl()) // the small one asked for: kept
      const evicted = await say('evict')
      if (evicted !== 'evicted 1') throw new Error(`expected the large index alone let go, got "${evicted}"`)
      // The machine's own jitter: the small one's queries for 2 s with no build under way.
      const control: number[] = []
      for (const end = performance.now() + 2000; performance.now() < end; ) control.push((await timed(smallUrl())).ms)
      const during: number[] = []
      let done = false
      const first = timed(bigUrl).then((answer) => {
        done = true
        return answer
      })
      while (!done) during.push((await timed(smallUrl())).ms)
      const answer = await first
      const second = await timed(bigUrl)
      results.push({
        firstMs: round1(answer.ms),
        status: answer.status,
        right: answer.body === expected && second.body === expected,
        controlP99: round1(percentile(control, 99)),
        controlMax: round1(Math.max(...control)),
        smallN: during.length,
        smallP50: round1(percentile(during, 50)),
        smallP99: round1(percentile(during, 99)),
        smallMax: round1(Math.max(...during)),
      })
      console.log(JSON.stringify(results.at(-1)))
      await Bun.sleep(1500) // its background work done before the next round
    }
    type Figure = 'firstMs' | 'controlP99' | 'controlMax' | 'smallP99' | 'smallMax'
    const of = (k: Figure) => spread(results.map((x) => x[k]))
    console.log(
      JSON.stringify({
        large,
        small,
        rounds,
        firstMs: of('firstMs'),
        controlP99: of('controlP99'),
        controlMax: of('controlMax'),
        smallP99: of('smallP99'),
        smallMax: of('smallMax'),
      }),
    )
  } finally {
    child.kill()
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

if (Bun.argv.includes('--serve')) await serve(Bun.argv[Bun.argv.indexOf('--serve') + 1]!)
else await measure()
