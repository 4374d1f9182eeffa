// The paths a person types on the command line, read from where they typed them: `npm run cli`
// and `bun run cli` run in the package's folder, and name the person's in their environment.
import { readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { UsageError } from './output'

type Env = Record<string, string | undefined>

/** Options whose value is a path. */
const PATH_OPTIONS = ['--file', '--database']
/** Commands whose first argument is a path. */
const PATH_FIRST = new Set(['backup', 'restore'])

/**
 * The folder the command was typed in. npm (yarn, pnpm) name it in INIT_CWD; Bun sets no INIT_CWD
 * and names it in npm_config_local_prefix, where npm names the package's folder instead.
 */
function typedIn(env: Env): string {
  if (env.npm_lifecycle_event !== 'cli') return process.cwd()
  if (env.INIT_CWD) return env.INIT_CWD
  const bun = env.npm_config_user_agent?.startsWith('bun/') === true
  return bun && env.npm_config_local_prefix ? env.npm_config_local_prefix : process.cwd()
}

/**
 * Whether a .env file Bun reads in this process's folder (the package's under npm run) sets
 * DATABASE_PATH to `value`: a path the package's settings give, read from there as the service reads it.
 */
function fromDotEnv(value: string, env: Env): boolean {
  for (const name of ['.env.local', `.env.${env.NODE_ENV || 'development'}`, '.env']) {
    let text: string
    try {
      text = readFileSync(join(process.cwd(), name), 'utf8')
    } catch {
      continue
    }
    for (const m of text.matchAll(/^[ \t]*(?:export[ \t]+)?DATABASE_PATH[ \t]*=[ \t]*(.*?)[ \t]*$/gm))
      if (m[1]!.replace(/^(["'])(.*)\1$/, '$2') === value) return true
  }
  return false
}

/** How many words the --database options at the start of `typed` take (one past its end: the last has no path). */
function leadingOptions(typed: string[]): number {
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

/**
 * `typed` with each path made whole from where it was typed, and `env` with DATABASE_PATH set by
 * --database (which every command takes, before its words or after; given twice, it is a usage
 * error).
 */
export function typedPaths(typed: string[], env: Env): { argv: string[]; env: Env } {
  const here = typedIn(env)
  const argv = commandFirst(typed)
  // Only --database options, no command after them.
  if (argv[0] === '--database' || argv[0]?.startsWith('--database=') === true)
    throw new UsageError(leadingOptions(argv) > argv.length ? '--database needs a path.' : 'No command given.')
  const out = argv.slice(0, 1)
  let pathFirst = PATH_FIRST.has(argv[0]!)
  let database: string | undefined
  let ended = false // after "--", every argument is a positional one
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!
    const option = ended ? undefined : PATH_OPTIONS.find((o) => arg === o || arg.startsWith(`${o}=`))
    if (option === undefined) {
      const path = pathFirst && (ended || !arg.startsWith('-'))
      if (path) pathFirst = false
      if (arg === '--') ended = true
      out.push(path ? resolve(here, arg) : arg)
      continue
    }
    const value = arg === option ? argv[++i] : arg.slice(option.length + 1)
    // "--database --json" is a path forgotten, not a file named --json.
    if (value === undefined || value === '' || (arg === option && value.startsWith('-')))
      throw new UsageError(`${option} needs a path.`)
    if (option === '--file') out.push(`--file=${resolve(here, value)}`)
    else if (database !== undefined) throw new UsageError('--database is given twice.')
    else database = resolve(here, value)
  }
  // A relative DATABASE_PATH is read as --database is: from where the command was typed (one
  // rule for a path typed either way; `npm run` would read it from the package's folder). Where
  // that is this process's folder, it is left as typed, for the messages that name it. One a .env
  // file of the package sets is the package's, read from its folder as the service reads it.
  const variable = env.DATABASE_PATH
  if (
    database === undefined &&
    variable &&
    variable !== ':memory:' &&
    !isAbsolute(variable) &&
    here !== process.cwd() &&
    !fromDotEnv(variable, env)
  )
    database = resolve(here, variable)
  return { argv: out, env: database === undefined ? env : { ...env, DATABASE_PATH: database } }
}

/**
 * serve's words with its database made whole from where they were typed, as typedPaths does for
 * the other commands: a relative --database, or a relative DATABASE_PATH (one not set by the
 * package's .env) as a --database after them. serve's own parser says what is wrong with them.
 */
export function servePaths(argv: string[], env: Env): string[] {
  const here = typedIn(env)
  if (here === process.cwd()) return argv
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length
  let named = false
  const out = argv.map((arg, i) => {
    if (i >= end) return arg
    if (arg.startsWith('--database=')) {
      named = true
      const value = arg.slice('--database='.length)
      return value === '' ? arg : `--database=${resolve(here, value)}`
    }
    if (argv[i - 1] !== '--database') return arg
    named = true
    return arg.startsWith('-') ? arg : resolve(here, arg)
  })
  const variable = env.DATABASE_PATH
  if (!named && variable && variable !== ':memory:' && !isAbsolute(variable) && !fromDotEnv(variable, env))
    out.splice(end, 0, '--database', resolve(here, variable))
  return out
}
