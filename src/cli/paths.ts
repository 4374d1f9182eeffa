// The paths a person types on the command line, read from where they typed them: `npm run cli`
// and `bun run cli` run in the package's folder, and name the person's in their environment.
import { withinEdits } from '../core/text'
import { commandFirst, leadingOptions, typedIn, typedPath, typedVariable } from '../core/typed-in'
import { UsageError } from './output'

export { commandFirst, servePaths } from '../core/typed-in'

type Env = Record<string, string | undefined>

/** Options whose value is a path. */
const PATH_OPTIONS = ['--file', '--database']
/** Commands whose first argument is a path. */
const PATH_FIRST = new Set(['backup', 'restore'])

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
      if (!ended) misspeltDatabase(arg)
      if (pathFirst) noFile(argv[0]!, arg, ended)
      const path = pathFirst && (ended || !arg.startsWith('-'))
      if (path) pathFirst = false
      if (arg === '--') ended = true
      // A backup's trailing `/` kept: it names a folder, which its FILE must then be.
      const slash = argv[0] === 'backup' && arg.endsWith('/') && arg !== '/' ? '/' : ''
      out.push(path ? `${typedPath(here, arg)}${slash}` : arg)
      continue
    }
    const value = arg === option ? argv[++i] : arg.slice(option.length + 1)
    // "--database --json" is a path forgotten, not a file named --json.
    if (value === undefined || value === '' || (arg === option && value.startsWith('-')))
      throw new UsageError(`${option} needs a path.`)
    if (option === '--file') out.push(`--file=${typedPath(here, value)}`)
    else if (database !== undefined) throw new UsageError('--database is given twice.')
    else database = typedPath(here, value)
  }
  // A relative DATABASE_PATH (GEODATA_PATH) is read as --database is: from where the command was
  // typed (one rule for a path typed either way; `npm run` would read it from the package's
  // folder). Where that is this process's folder, it is left as typed, for the messages that name
  // it. One a .env file of the package sets is the package's, read from its folder as the service
  // reads it.
  database ??= typedVariable('DATABASE_PATH', here, env) ?? undefined
  const geodata = typedVariable('GEODATA_PATH', here, env)
  const whole: Env = { ...env }
  if (database !== undefined) whole.DATABASE_PATH = database
  if (geodata !== null) whole.GEODATA_PATH = geodata
  return { argv: out, env: database === undefined && geodata === null ? env : whole }
}

/**
 * Refuses `--databse` and the like: --database is read here, before the command reads its own
 * options, and a misspelt one would leave the command on the default database, saying there is
 * none there rather than what was mistyped.
 */
function misspeltDatabase(arg: string): void {
  if (!arg.startsWith('-')) return
  const name = arg.split('=')[0]!
  if (name !== '--database' && withinEdits(name, '--database', 2))
    throw new UsageError(`Unknown option ${name}. Did you mean --database?`)
}

/**
 * Refuses a FILE of backup or restore that names no file: empty or blanks only (a variable not
 * set, a stray quote), read as the folder it was typed in; or `-` (before `--`), which names no
 * standard input or output here and would be written as a file of that name.
 */
function noFile(command: string, arg: string, ended: boolean): void {
  const what = command === 'backup' ? 'the file to write the backup to' : 'the backup file to restore'
  if (arg.trim() === '')
    throw new UsageError(
      `FILE "${arg}" is ${arg === '' ? 'empty' : 'blanks only'}: name ${what}, such as /var/backups/storeloc/2027-01-31.db.`,
      [command],
    )
  if (arg === '-' && !ended)
    throw new UsageError(
      command === 'backup'
        ? `FILE - does not mean standard output here: a backup is a SQLite file, written in place. Name ${what} (./- for a file named -).`
        : `FILE - does not mean standard input here: a restore reads a SQLite file in place. Name ${what} (./- for a file named -).`,
      [command],
    )
}
