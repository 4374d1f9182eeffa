// The doctor's tests' set-up: a fresh database path a test, storeloc run as a real process, and
// the doctor's --json report checked against its exit code.
import { afterEach, beforeEach, expect } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { storeBody, tempDir } from '../helpers'

export let dir: string
export let dbPath: string
export let env: Record<string, string>

/** A fresh folder and database path for each test of the file that calls it. */
export function useDoctorDatabase(): void {
  beforeEach(() => {
    dir = tempDir()
    dbPath = join(dir, 'doctor.db')
    env = { DATABASE_PATH: dbPath }
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
}

export const root = join(import.meta.dir, '..', '..')

/** storeloc as a real process, with `env` beside this process's environment. */
export async function storeloc(...argv: string[]) {
  const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  return { code: p.exitCode, stdout: p.stdout.toString().trimEnd(), stderr: p.stderr.toString().trimEnd() }
}

export async function json(...argv: string[]) {
  const r = await storeloc(...argv, '--json')
  if (r.code !== 0) throw new Error(`storeloc ${argv.join(' ')} exited ${r.code}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

export type Report = {
  database: string
  healthy: boolean
  problems: number
  checks: {
    check: string
    subject: string
    ok: boolean
    summary: string
    problems: { problem: string; fix: string }[]
    notes: { problem: string; fix: string }[]
  }[]
  not_checked: string[]
}

/** The doctor's --json report; its exit code must be 0 exactly when it found no problem. */
export async function doctor(): Promise<Report> {
  const r = await storeloc('doctor', '--json')
  expect(r.stderr).toBe('')
  const report = JSON.parse(r.stdout) as Report
  expect(r.code).toBe(report.healthy ? 0 : 1)
  expect(report.problems).toBe(report.checks.reduce((n, c) => n + c.problems.length, 0))
  return report
}

export const problemsOf = (report: Report, check: string) =>
  report.checks.filter((c) => c.check === check).flatMap((c) => c.problems)

export async function writeJson(name: string, value: unknown): Promise<string> {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(value))
  return path
}

/** A locator as a healthy service has it: Query API on, filter groups, tagged locations with their own points. */
export async function healthy(): Promise<{ locator: string; key: string; keyId: string; token: string }> {
  const made = await json('locator', 'create', '--name', 'Healthy')
  const locator = made.locator.id as string
  await json('locator', 'set', locator, '--query-api', 'on')
  await json(
    'filters',
    'set',
    locator,
    '--file',
    await writeJson('filters.json', [
      { id: 'kind', name: 'Kind', label: 'Kind', tags: [{ value: 'bikes', label: 'Bikes' }] },
    ]),
  )
  await json(
    'locations',
    'import',
    locator,
    '--file',
    await writeJson('stores.json', [
      storeBody({ name: 'Pinned', tags: ['bikes'], hours: { monday: '9-18', sunday: 'closed' } }),
    ]),
  )
  return { locator, key: made.key.secret_key, keyId: made.key.id, token: made.locator.public_token }
}
