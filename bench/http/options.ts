// The HTTP bench's options, and the cores it pins the servers and wrk to.
import { join, resolve } from 'node:path'
import { readOptions } from '../system'

export const ROOT = resolve(import.meta.dir, '../..')
export const SERVER_CPU = '0'
export const CLIENT_CPU = '1'

export type Options = {
  size: number
  seed: number
  runs: number
  duration: number
  /**
   * Each scenario's --duration is measured in this many slices, the scenarios' slices taken in
   * turn, so each scenario's time is spread over the run (absent in records made before: 1).
   */
  slices?: number
  warmup: number
  connections: number
  workers: number[]
  paths: number
  /** Paths fetched to measure the mean body size (the first of the run's set). */
  sample: number
  types: string[]
  writeConnections: number
  writeDuration: number
  writes: boolean
  json: string | null
  quick: boolean
  /** The service's entry point. */
  entry: string
  /** A --json file to write the report of again (nothing is run). */
  render: string | null
}

export const USAGE =
  'usage: bun bench/http.ts [--size 100000] [--seed 42] [--runs 3] [--duration 10] [--slices 5] [--warmup 2] [--connections 50] [--workers 1,2] [--paths 400000] [--sample 2000] [--types radius_typical] [--write-connections 16] [--write-duration S] [--no-writes] [--json path] [--entry src/main.ts] [--quick] | --render <json>'

export function parseArgs(argv: string[]): Options {
  const quick = argv.includes('--quick')
  const o: Options = {
    size: quick ? 10_000 : 100_000,
    seed: 42,
    runs: quick ? 1 : 3,
    duration: quick ? 3 : 10,
    slices: quick ? 1 : 5,
    warmup: quick ? 1 : 2,
    connections: 50,
    workers: [1, 2],
    paths: quick ? 200_000 : 400_000,
    sample: quick ? 500 : 2000,
    types: ['radius_typical'],
    writeConnections: 16,
    writeDuration: 0,
    writes: true,
    json: null,
    quick,
    entry: join(ROOT, 'src/main.ts'),
    render: null,
  }
  readOptions(argv, USAGE, (a, v, int) => {
    if (a === '--quick') return true
    else if (a === '--size') o.size = int(100)
    else if (a === '--seed') o.seed = int(0)
    else if (a === '--runs') o.runs = int(1)
    else if (a === '--duration') o.duration = int(1)
    else if (a === '--slices') o.slices = int(1)
    else if (a === '--warmup') o.warmup = int(0)
    else if (a === '--connections') o.connections = int(1)
    else if (a === '--workers')
      o.workers = v()
        .split(',')
        .map((s) => Number(s))
    else if (a === '--paths') o.paths = int(1)
    else if (a === '--sample') o.sample = int(1)
    else if (a === '--types') o.types = v().split(',')
    else if (a === '--write-connections') o.writeConnections = int(1)
    else if (a === '--write-duration') o.writeDuration = int(1)
    else if (a === '--no-writes') o.writes = false
    else if (a === '--json') o.json = resolve(v())
    else if (a === '--entry') o.entry = resolve(v())
    else if (a === '--render') o.render = resolve(v())
    else return false
    return true
  })
  if (o.workers.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('--workers: a list of whole numbers >= 1, e.g. 1,2')
  o.workers = [...new Set([1, ...o.workers])].sort((x, y) => x - y)
  if (o.writeDuration === 0) o.writeDuration = o.duration
  // wrk takes whole seconds.
  if (o.duration % o.slices! !== 0)
    throw new Error(
      `--duration ${o.duration} is not a whole number of seconds a slice for --slices ${o.slices}: make it a multiple of --slices`,
    )
  return o
}
