// How a message names a storeloc command for a person to run: as this process was launched, so
// that the line works where it is read. Someone who typed `npm run -s cli -- ...` (README's way)
// or started the service with `npm start` has no `storeloc` on their PATH; an operator of an
// installed package, a service manager's unit or an image has the `storeloc` command (or its alias,
// docs/operations.md) and may have no npm. The CLI's messages are read by who typed the command;
// the service's (its log, its API's errors, passed on by whoever called it) by who started it.

import { readFileSync } from 'node:fs'
import { basename, isAbsolute, relative, resolve, sep } from 'node:path'
import { shellWord } from './shell'
import { typedIn, typedPath } from './typed-in'

type Env = Record<string, string | undefined>

/**
 * The database the CLI acts on when it is not the default one (null: the default, or a process
 * that is not the CLI). A command a message gives names it with --database: the next command,
 * typed or pasted, may not have the DATABASE_PATH or --database this one was given. The service
 * never sets it: its texts go to the API's callers, who are not to see its files' paths.
 */
let commandDatabase: string | null = null

/** Sets (null: clears) the database the CLI's messages name in the commands they give. */
export function setCommandDatabase(path: string | null): void {
  commandDatabase = path
}

/**
 * Whether cliPrefix names the package's folder for a person who typed npm outside it: set by the
 * CLI, whose texts are read by who typed it. The service's texts go to the API's callers too, who
 * are not to see its files' paths.
 */
let typedFolder = false

/** Sets (false: clears) whether the commands cliCommand gives run from where the CLI was typed. */
export function setCommandTyped(on: boolean): void {
  typedFolder = on
}

/**
 * npm's `--prefix PKG` when `npm --prefix PKG run` (start) was typed outside the package: npm
 * finds the package from where it is typed, in that folder or one above it. Bun's words are
 * typed in the package's folder or under it.
 */
export function npmPrefix(env: Env = process.env): string {
  const typed = relative(process.cwd(), typedIn(env))
  // `..shop` is a folder in the package; `..` and `../shop` are above it or beside it.
  const outside = typed === '..' || typed.startsWith(`..${sep}`) || isAbsolute(typed)
  return outside ? ` --prefix ${shellWord(process.cwd())}` : ''
}

/** The command line of process `pid` and its parent's pid, or null where /proc does not say (not Linux, hidepid). */
function processOf(pid: number): { argv: string[]; parent: number } | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const parent = Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    return { argv, parent }
  } catch {
    return null
  }
}

/**
 * Bun's `--cwd PKG` when `bun run --cwd PKG` (`bun --cwd=PKG run`, `bun --cwd PKG` too) ran
 * this package's script: Bun names the folder it runs the script in (npm_config_local_prefix) and
 * not the one it was typed in, so its own command line, this process's parent's (or a shell's
 * parent), says so.
 */
export function bunCwd(env: Env = process.env): string {
  const script = env.npm_lifecycle_event
  if (env.npm_config_user_agent?.startsWith('bun/') !== true || !script) return ''
  let pid = process.ppid
  // Pid 1 too: a container's Bun (docker run IMAGE bun run --cwd /app start) is its first process.
  for (let up = 0; up < 2 && pid > 0; up++) {
    const found = processOf(pid)
    if (found === null) break
    const { argv } = found
    // The first Bun up the line is the one that ran the script, through a shell or not.
    if (basename(argv[0] ?? '').startsWith('bun')) {
      // Bun's options stand before the script's name, after `run` or before it, or with no `run`
      // (`bun --cwd PKG cli`): the script is its first word that is not --cwd's folder.
      const named = argv.findIndex((a, i) => i > 0 && a === script && argv[i - 1] !== '--cwd')
      const cwd = named > 0 && argv.slice(0, named).some((a) => a === '--cwd' || a.startsWith('--cwd='))
      return cwd ? ` --cwd ${shellWord(process.cwd())}` : ''
    }
    pid = found.parent
  }
  return ''
}

/**
 * The words that run the CLI, as this process was launched: through this package's `cli` or
 * `start` script, by npm (`npm run -s cli --`, -s so that npm echoes no line a key is typed in;
 * with --prefix where typed outside the package and `typed`) or Bun (`bun run --silent cli`, with
 * --cwd where typed so and `typed`); by
 * npx, `npx storeloc`; otherwise `storeloc`.
 */
export function cliPrefix(env: Env = process.env, typed = typedFolder): string {
  const script = env.npm_lifecycle_event
  if (script === 'npx') return 'npx storeloc'
  if (env.npm_package_name !== 'storeloc' || (script !== 'cli' && script !== 'start')) return 'storeloc'
  if (env.npm_config_user_agent?.startsWith('bun/') === true) return `bun run${typed ? bunCwd(env) : ''} --silent cli`
  return `npm${typed ? npmPrefix(env) : ''} run -s cli --`
}

/**
 * The command line that runs the storeloc command `words` ("locator list"), as this process was
 * launched, on the CLI's database when it is not the default (setCommandDatabase).
 */
export const cliCommand = (words: string, env: Env = process.env, typed = typedFolder): string =>
  `${cliPrefix(env, typed)} ${words}${commandDatabase === null ? '' : ` --database ${shellWord(commandDatabase)}`}`

/** `words` as cliCommand gives them, run with GEODATA_PATH set to `geodata`: a line to paste as it is. */
export const geodataCommand = (geodata: string, words: string, env: Env = process.env): string =>
  `GEODATA_PATH=${shellWord(geodata)} ${cliCommand(words, env)}`

/** The CLI's command line as it runs, its words shell-quoted (null: none yet, or not the CLI). */
let commandWords: string | null = null
/** The whole path of the database the CLI acts on, default or not (null: in memory, or none yet). */
let wholeDatabase: string | null = null

/** Sets (null: clears) the command line againCommand gives, and the database it acts on. */
export function setCommandWords(words: string | null, database: string | null = null): void {
  commandWords = words
  // Its `..` kept: after a link the system goes up from the link's target, which resolve drops as text.
  wholeDatabase = database === null || database === ':memory:' ? null : typedPath(process.cwd(), database)
}

/** The CLI's entry, run by Bun: what bin/storeloc.js runs. */
const ENTRY = resolve(import.meta.dir, '../storeloc.ts')

/**
 * The command the CLI runs, whole, for a message to give after `sudo -u USER`: on the CLI's
 * database by --database, since sudo's env_reset drops a DATABASE_PATH typed before it. It is Bun
 * on the CLI's entry, both by their whole paths, on the database by its whole path, default or
 * not, however the CLI was launched: npm, bun and npx find the package from the folder they are
 * typed in, which another user may not read, and a storeloc in a project's node_modules/.bin, or
 * these, may not be on sudo's PATH (its secure_path). `...` outside the CLI, whose texts give no
 * command to run as another user.
 */
export function againCommand(): string {
  if (commandWords === null) return '...'
  const database = wholeDatabase === null ? '' : ` --database ${shellWord(wholeDatabase)}`
  return `${shellWord(process.execPath)} ${shellWord(ENTRY)} ${commandWords}${database}`
}
