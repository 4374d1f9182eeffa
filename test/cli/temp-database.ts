// What the CLI tests share: a temporary directory and database path for each test, and the
// storeloc CLI run on that file.
import { afterEach, beforeEach, expect } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

export let dir: string
export let dbPath: string

/** Registers, in the calling test file, the hooks that give each test its own directory and database path. */
export function useTempDatabase(): void {
  beforeEach(() => {
    dir = tempDir()
    dbPath = join(dir, 'cli.db')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
}

export const { storeloc, json } = cliRunner(() => dbPath)

/** Writes `content` to `name` in the test's directory, as JSON when it is no text or bytes; its path. */
export function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content))
  return path
}

/** The output lines of a dry-run import of `text` into `locatorId`, saved as `name`, which must exit 0. */
export function dryRunLines(locatorId: string, name: string, text: string): string[] {
  const r = storeloc('locations', 'import', locatorId, '--file', file(name, text), '--dry-run')
  expect(r.code).toBe(0)
  return r.stdout.split('\n')
}

/** The environment of a shell typed in, without DATABASE_PATH nor the npm variables of the test run itself. */
export function shellEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, GEOCODER: 'none' }
  for (const k of [
    'DATABASE_PATH',
    'INIT_CWD',
    'npm_lifecycle_event',
    'npm_config_local_prefix',
    'npm_config_user_agent',
  ])
    delete env[k]
  return env
}
