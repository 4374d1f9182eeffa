// The reference tables of the docs against what the code does: every setting with its option and
// its true default (docs/configuration.md), every error of each API with its status
// (docs/query-api.md, docs/management-api.md), every CLI command and option of the usage
// (docs/cli.md), and the versions doctor's example prints. A setting, an error or a command added
// to the code and not to its table fails here.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ADMIN_ERRORS } from '../src/api/admin/errors'
import { PUBLIC_ERRORS } from '../src/api/public/errors'
import { loadConfig, MIB, SETTINGS } from '../src/core/config'
import { GEODATA_VERSION } from '../src/geocode/embedded/build'
import { SERVE_OPTIONS } from '../src/server/options'
import { MIGRATIONS } from '../src/store/migrations'

const ROOT = join(import.meta.dir, '..')
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8')

/** The rows of the Markdown table whose header row starts with `header`, as trimmed cells. */
function tableAfter(page: string, header: string): string[][] {
  const lines = page.split('\n')
  const start = lines.findIndex((line) => line.startsWith(header))
  expect(start).toBeGreaterThan(-1)
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    // An escaped pipe (`on\|off`) stays inside its cell.
    rows.push(
      line
        .replace(/\\\|/g, '\u0000')
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/\u0000/g, '|')),
    )
  }
  return rows
}

/** The code spans of a cell, without their backticks. */
const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, code]) => code!)

describe('docs/configuration.md, Environment variables', () => {
  const rows = tableAfter(doc('configuration.md'), '| Variable | Option | Default |')
  const byVariable = new Map(rows.map(([variable, ...rest]) => [spans(variable!)[0]!, rest]))

  test('names every setting the service reads, and no other; each with its option', () => {
    // STORELOC_WORKER is set by the primary for its workers (src/server/workers.ts), never by a person.
    expect([...byVariable.keys()].sort()).toEqual(SETTINGS.filter((name) => name !== 'STORELOC_WORKER').sort())
    for (const { flag, env } of SERVE_OPTIONS) expect(spans(byVariable.get(env)![0]!)).toContain(flag)
  })

  test("gives each setting's default as the service takes it when the variable is unset", () => {
    const unset = loadConfig({}, 2)
    const metrics = loadConfig({ METRICS_PORT: '9100' }, 2).metrics!
    const tiles = loadConfig({ MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png' }, 2).mapTiles!
    const flag = (on: boolean) => (on ? '1' : '0')
    const defaults: Record<string, string | number> = {
      PORT: unset.port,
      HOST: unset.host,
      DATABASE_PATH: unset.databasePath,
      CLIENT_RATE_LIMIT: unset.clientRateLimit,
      PAGE_RATE_LIMIT: unset.pageRateLimit,
      LOCATOR_MAX_LOCATIONS: unset.locatorMaxLocations,
      IDEMPOTENCY_MAX_MB: unset.idempotencyMaxBytes / MIB,
      GEOCODER: unset.geocoder.provider,
      GEOCODER_USER_AGENT: unset.geocoder.userAgent,
      GEOCODER_TIMEOUT_MS: unset.geocoder.timeoutMs,
      GEODATA_PATH: unset.geocoder.dataPath,
      DEMO: flag(unset.demo),
      LOG_REQUESTS: flag(unset.logRequests),
      SITEMAP_INDEX: flag(unset.sitemapIndex),
      INDEX_IDLE_MINUTES: unset.indexIdleMs / 60_000,
      WORKERS: unset.workers,
      LOCK_WAIT_SECONDS: unset.lockWaitMs / 1000,
      STOP_TIMEOUT_SECONDS: unset.stopTimeoutMs / 1000,
      IDLE_TIMEOUT_SECONDS: unset.idleTimeoutS,
      METRICS_HOST: metrics.host,
      METRICS_LOCATOR_SERIES: metrics.locatorSeries,
    }
    const documented = Object.fromEntries(
      Object.keys(defaults).map((name) => [name, spans(byVariable.get(name)![1]!)[0] ?? byVariable.get(name)![1]]),
    )
    expect(documented).toEqual(Object.fromEntries(Object.entries(defaults).map(([name, v]) => [name, String(v)])))
    const checked = Object.keys(defaults)
    // The settings without a value of their own when unset.
    for (const [name, off] of [
      ['PUBLIC_BASE_URL', unset.publicBaseUrl],
      ['TRUSTED_PROXIES', unset.trustedProxies.length || null],
      ['GEOCODER_URL', unset.geocoder.url],
      ['GEOCODER_API_KEY', unset.geocoder.apiKey],
      ['MAP_TILES_URL', unset.mapTiles],
      ['METRICS_PORT', unset.metrics],
      ['METRICS_TOKEN', metrics.token],
      ['MAP_TILES_ATTRIBUTION', tiles.attribution || null],
    ] as const) {
      expect(off).toBeNull()
      expect(spans(byVariable.get(name)![1]!)).toEqual([])
      checked.push(name)
    }
    // Each row's default is one of those checked: a setting added to the table is added here too.
    expect(checked.sort()).toEqual([...byVariable.keys()].sort())
  })

  test("each default the serve usage states is the table's", () => {
    for (const { env, help } of SERVE_OPTIONS) {
      const stated = /default ([^\s;,:)]+)/.exec(help)?.[1]
      if (stated !== undefined) expect(`${env} ${spans(byVariable.get(env)![1]!)[0]}`).toBe(`${env} ${stated}`)
    }
  })
})

test('docs/query-api.md, Errors: every code the Query API answers with, and its status', () => {
  const rows = tableAfter(doc('query-api.md'), '| Code | Status | When |')
  const documented = rows.map(([code, status]) => `${spans(code!)[0]} ${status}`)
  const answered = Object.entries(PUBLIC_ERRORS).map(([code, { status }]) => `${code} ${status}`)
  expect(documented.sort()).toEqual(answered.sort())
})

test("docs/cli.md, Commands: every command of the CLI's usage, and every option it names", () => {
  const usage = Bun.spawnSync([process.execPath, join(ROOT, 'src/cli/main.ts'), '--help'], { cwd: ROOT })
  expect(usage.exitCode).toBe(0)
  const text = usage.stdout.toString()
  // A command is its lower-case words, up to its first argument or option.
  const words = (line: string) => {
    const command: string[] = []
    for (const word of line.trim().split(/\s+/)) {
      if (!/^[a-z][a-z-]*$/.test(word)) break
      command.push(word)
    }
    return command.join(' ')
  }
  const commands = text
    .split('\n')
    .filter((line) => /^ {2}[a-z]/.test(line))
    .map(words)
  const page = doc('cli.md')
  const rows = tableAfter(page, '| Command | What it does |')
  expect(rows.map(([cell]) => words(spans(cell!)[0]!)).sort()).toEqual(commands.sort())
  const options = new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g))
  for (const option of options)
    expect(`${option} ${new RegExp(`(?<![\\w-])${option}(?![\\w-])`).test(page)}`).toBe(`${option} true`)
})

test("docs/cli.md's doctor example names this program's schema and geocoder data versions", () => {
  const page = doc('cli.md')
  expect(page.match(/schema version (\d+) \(current\)/)?.[1]).toBe(String(MIGRATIONS.length))
  expect(page.match(/geocoder data data\/geocoder\.sqlite: version (\d+), current/)?.[1]).toBe(GEODATA_VERSION)
})

test('docs/management-api.md, Errors: every status and code the Management API answers with', () => {
  const rows = tableAfter(doc('management-api.md'), '| Status | `error` | When |')
  const documented = new Set(rows.map(([status, code]) => `${status} ${spans(code!)[0]}`))
  const answered = new Set(Object.values(ADMIN_ERRORS).map(({ status, error }) => `${status} ${error}`))
  expect([...documented].sort()).toEqual([...answered].sort())
})
