// Where a command was typed, and serve's words read from there: `npm start`, `npm run cli` and
// `bun run cli` run in the package's folder, and name the person's in their environment. Below
// the CLI and the server, which both read the words a person typed.
import { lstatSync, readFileSync, type Stats, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'

type Env = Record<string, string | undefined>

/**
 * The folder the command was typed in. npm (yarn, pnpm) name it in INIT_CWD; Bun names it in
 * npm_config_local_prefix, where npm names the package's folder instead, and leaves an INIT_CWD
 * it inherits as it is (one an outer npm script set, naming another folder). Only this package's
 * `cli` and `start` scripts: another package's scripts name paths from its folder.
 */
export function typedIn(env: Env): string {
  const script = env.npm_lifecycle_event
  if (script !== 'cli' && (script !== 'start' || env.npm_package_name !== 'storeloc')) return process.cwd()
  const bun = env.npm_config_user_agent?.startsWith('bun/') === true
  if (bun) return env.npm_config_local_prefix || process.cwd()
  return env.INIT_CWD || process.cwd()
}

/**
 * `value` read from `here`: whole, without its `.` parts, its `..` kept. After a link the system
 * goes up from the link's target, which path.resolve, dropping `..` as text, does not.
 */
export function typedPath(here: string, value: string): string {
  const whole = isAbsolute(value) ? value : `${here}/${value}`
  return `/${whole
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/')}`
}

/** Whether relative `value` names relative `path` from any folder: `./data//x.db` is `data/x.db`. */
export function spellsPath(value: string, path: string): boolean {
  return !isAbsolute(value) && typedPath('', value) === typedPath('', path)
}

/** Whether something is at `path`, or it cannot be told (a folder not to be searched): lstat, no link followed. */
function there(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return true
  }
}

/**
 * `path` without each folder that is not there and a `..` after it leaves again (`new/../y.db`
 * is `y.db`): the system reaches nothing through a folder not there, and one made to reach the
 * file would hold nothing. A `..` after a folder that is there (a link, maybe) is kept, for the
 * system to read. `path` as it is when it has no such folder.
 */
export function withoutFoldersLeft(path: string): string {
  const parts = path.split('/')
  if (!parts.includes('..')) return path
  const kept: string[] = []
  let dropped = false
  for (const part of parts) {
    const last = kept.at(-1)
    const folder = last !== undefined && last !== '' && last !== '.' && last !== '..'
    if (part === '..' && folder && !there(kept.join('/'))) {
      kept.pop()
      dropped = true
    } else kept.push(part)
  }
  if (!dropped) return path
  return kept.join('/') || (path.startsWith('/') ? '/' : '.')
}

/**
 * When a folder on the way to `path` is a file (`a.db/../b.db`: the system goes through no file,
 * ENOTDIR): a sentence naming that file, for the caller to add what to name instead; null otherwise.
 */
export function fileOnTheWay(path: string): string | null {
  const file = fileInTheWay(path)
  return file === null ? null : `${path} cannot be reached: ${file} is a file, not a folder, so nothing is under it.`
}

/** The file that stands where a folder on the way to `path` should be (ENOTDIR); null if none. */
export function fileInTheWay(path: string): string | null {
  try {
    lstatSync(path, { throwIfNoEntry: false })
    return null
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') return null
  }
  // Its parts joined as written: a `..` after a link is read as the system reads it.
  let at = ''
  for (const part of typedPath(process.cwd(), path).split('/').slice(1, -1)) {
    at = `${at}/${part}`
    const stat = statOrNone(at)
    if (stat === undefined) return null
    if (!stat.isDirectory()) return at
  }
  return null
}

/**
 * What is at `path`, links followed; undefined where nothing is, where a file stands on the way
 * (ENOTDIR: no folder, so nothing under it), or where this user may not look.
 */
export function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

/** Whether a folder, or a link to one, is at `path`: false where a file stands on its way (ENOTDIR). */
export function isFolder(path: string): boolean {
  return statOrNone(path)?.isDirectory() === true
}

/**
 * Whether a .env file Bun reads in this process's folder (the package's under npm run) sets
 * `variable` (DATABASE_PATH, GEODATA_PATH) to `value`: a path the package's settings give, read
 * from there as the service reads it.
 */
function fromDotEnv(value: string, env: Env, variable: string): boolean {
  const line = new RegExp(`^[ \\t]*(?:export[ \\t]+)?${variable}[ \\t]*=[ \\t]*(.*?)[ \\t]*$`, 'gm')
  for (const name of ['.env.local', `.env.${env.NODE_ENV || 'development'}`, '.env']) {
    let text: string
    try {
      text = readFileSync(join(process.cwd(), name), 'utf8')
    } catch {
      continue
    }
    for (const m of text.matchAll(line)) if (m[1]!.replace(/^(["'])(.*)\1$/, '$2') === value) return true
  }
  return false
}

/**
 * A relative `variable` of `env` made whole from `here`, or null: unset, whole, :memory:, or set
 * by the package's .env (read from the package's folder, as the service reads it).
 */
export function typedVariable(variable: string, here: string, env: Env): string | null {
  const value = env[variable]
  if (!value || value === ':memory:' || isAbsolute(value) || here === process.cwd()) return null
  return fromDotEnv(value, env, variable) ? null : typedPath(here, value)
}

/** How many words the --database options at the start of `typed` take (one past its end: the last has no path). */
export function leadingOptions(typed: string[]): number {
  let lead = 0
  while (typed[lead] === '--database' || typed[lead]?.startsWith('--database=') === true)
    lead += typed[lead] === '--database' ? 2 : 1
  return lead
}

/**
 * `typed` with the --database options standing before the command's first word moved after it:
 * `--database FILE locator list` is read as `locator --database FILE list`, `--database FILE
 * serve` as `serve --database FILE`. With no command after them, `typed` as it is.
 */
export function commandFirst(typed: string[]): string[] {
  const lead = leadingOptions(typed)
  return lead === 0 || lead >= typed.length ? typed : [typed[lead]!, ...typed.slice(0, lead), ...typed.slice(lead + 1)]
}

/** serve's options whose value is a file, and the variable each stands for. */
const SERVE_FILES = [
  ['--database', 'DATABASE_PATH'],
  ['--geodata', 'GEODATA_PATH'],
] as const

/**
 * serve's words and environment with its files made whole from where they were typed, as
 * typedPaths does for the other commands: a relative --database or --geodata, and a relative
 * DATABASE_PATH or GEODATA_PATH (one not set by the package's .env), still a variable, so that a
 * message names it as it was given. serve's own parser says what is wrong with them.
 */
export function servePaths(argv: string[], env: Env): { argv: string[]; env: Env } {
  const here = typedIn(env)
  if (here === process.cwd()) return { argv, env }
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length
  // :memory: is no file: SQLite's name for a database in memory, wherever it is typed.
  const file = (value: string) => value !== '' && value !== ':memory:'
  const named = new Set<string>()
  const out = argv.map((arg, i) => {
    if (i >= end) return arg
    for (const [flag] of SERVE_FILES) {
      if (arg.startsWith(`${flag}=`)) {
        named.add(flag)
        const value = arg.slice(flag.length + 1)
        return file(value) ? `${flag}=${typedPath(here, value)}` : arg
      }
      if (argv[i - 1] !== flag) continue
      named.add(flag)
      return file(arg) && !arg.startsWith('-') ? typedPath(here, arg) : arg
    }
    return arg
  })
  const whole: Env = { ...env }
  for (const [flag, variable] of SERVE_FILES) {
    const path = named.has(flag) ? null : typedVariable(variable, here, env)
    if (path !== null) whole[variable] = path
  }
  return { argv: out, env: whole }
}
