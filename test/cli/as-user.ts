// What the tests of commands run as other users share (other-user, user-lookup): the CLI and the
// service run as a uid by setpriv (as root here, whom file modes do not bind), and the PATHs that
// have sudo or lack it, as the lines they give depend on it.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '..', '..')
/** The CLI by the whole paths of Bun and its entry, as a line to run as another user gives it. */
export const AGAIN = `${process.execPath} ${join(ROOT, 'src/storeloc.ts')}`
/** setpriv by its whole path, for a script whose PATH has no sbin. */
export const SETPRIV = Bun.which('setpriv') ?? 'setpriv'
/** Whether these tests can run here: as root, with setpriv to become other users. */
export const asRoot = process.getuid?.() === 0 && Bun.which('setpriv') !== null

/** setpriv's words that run what follows as uid `uid`, its group the same. */
export const asUser = (uid: number) => [SETPRIV, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups']
/** Bun on `src/<script>`. */
export const bunOn = (script: string) => [process.execPath, join(ROOT, 'src', script)]

/** The environment of a run on the database at `database`, with `env` added. */
export const runEnv = (database: string, env: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_PATH: database,
  GEOCODER: 'none',
  DEMO: '0',
  PORT: '0',
  BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
  ...env,
})

/** `command` run to its end on the database at `database`; stopped after `timeout` ms, its code is null. */
export function run(command: string[], database: string, env: Record<string, string> = {}, timeout?: number) {
  const p = Bun.spawnSync(command, { cwd: ROOT, env: runEnv(database, env), timeout })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

/** `src/<script> ...argv` as uid `uid`, on the database at `database`, with `env` added. */
export const runAsUser = (
  uid: number,
  database: string,
  script: string,
  argv: string[],
  env: Record<string, string> = {},
  timeout?: number,
) => run([...asUser(uid), ...bunOn(script), ...argv], database, env, timeout)

/**
 * A first start as `uid` (null: this process's user) on the new database at `database`, stopped
 * once it listens: the line that says how to make the key, and all it printed. `before`: words
 * that run the start (unshare).
 */
export async function keyLineOf(
  uid: number | null,
  database: string,
  env: Record<string, string> = {},
  before: string[] = [],
): Promise<{ line: string; text: string }> {
  const start = Bun.spawn([...before, ...(uid === null ? [] : asUser(uid)), ...bunOn('main.ts')], {
    cwd: ROOT,
    env: runEnv(database, env),
    stdout: 'pipe',
  })
  let out = ''
  for await (const chunk of start.stdout) {
    out += new TextDecoder().decode(chunk)
    if (out.includes('"listening"')) break
  }
  start.kill('SIGTERM')
  await start.exited
  return { line: out.split('\n').find((l) => l.includes(' key create lct_')) ?? out, text: out }
}

/** A PATH with a sudo on it (one that runs the command as it is), before the PATH of this run. */
export function withSudo(dir: string): string {
  const bin = join(dir, 'sudo-bin')
  mkdirSync(bin, { recursive: true, mode: 0o755 })
  writeFileSync(join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 })
  return `${bin}:${process.env.PATH}`
}

/** A PATH of `tools` alone (the system's, by link), with no sudo: a container's, a slim host's. */
export function toolsOnly(dir: string, tools: string[]): string {
  const bin = join(dir, `tools-${tools.join('-')}`)
  mkdirSync(bin, { recursive: true, mode: 0o755 })
  for (const tool of tools) {
    const found = Bun.which(tool) ?? Bun.which(tool, { PATH: '/usr/sbin:/sbin:/usr/bin:/bin' })
    if (found !== null && !existsSync(join(bin, tool))) symlinkSync(found, join(bin, tool))
  }
  return bin
}
