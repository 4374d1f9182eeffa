// `storeloc`: the operator's command line, acting directly on DATABASE_PATH.
// Usage errors exit 2, refused operations exit 1; --json prints machine-readable output.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { DEFAULT_DATABASE_PATH, loadConfig, misspeltSettings, misspeltText, type Config } from '../core/config'
import { redactSecrets } from '../core/ids'
import { shellWord } from '../core/shell'
import { typedPath } from '../core/typed-in'
import { OperatorError } from '../operator'
import { databaseOnTheWay, sidecarOf } from '../operator/file-owner'
import { unwritable } from '../operator/storage-check'
import { openStore, type Store } from '../store'
import type { Command, Emit } from './context'
import { DATA_COMMANDS, geocodeCommand } from './data-commands'
import { newFiles, noDatabaseAt, takeAway } from './database-file'
import { failureCode } from './failure'
import { IMPORT_COMMANDS } from './import-command'
import { LOCATOR_COMMANDS } from './locator-commands'
import { OPS_COMMANDS } from './ops-commands'
import { OutputError, UsageError, writeStdout } from './output'
import { typedPaths } from './paths'
import { readAlone } from './read-alone'
import { helpAsked, unknownCommand } from './usage'
import { setCommandDatabase, setCommandTyped, setCommandWords } from '../core/cli-command'

/** Every command but geocode, by its two words. */
const COMMANDS: Record<string, Command> = { ...LOCATOR_COMMANDS, ...DATA_COMMANDS, ...IMPORT_COMMANDS }

/** What a command did before it failed, for the failure's message: `secret`, a new secret key was printed (inside its transaction, not yet committed). */
type Shown = { secret: boolean }

async function run(
  store: Store,
  config: Config,
  argv: string[],
  print: (text: string) => void,
  shown: Shown = { secret: false },
): Promise<void> {
  const [group, command, ...rest] = argv
  const emit: Emit = (json, data, text) => print(json ? JSON.stringify(data, null, 2) : text)
  /**
   * The commit comes after emitSecret, and may fail still (a full disk, an I/O error: SQLite
   * writes the WAL only then): `shown` lets the failure's message say the key printed does not work.
   */
  const emitSecret: Emit = (json, data, text) => {
    try {
      emit(json, data, text)
    } catch (e) {
      if (!(e instanceof OutputError)) throw e
      throw new OperatorError(
        `Could not write the new secret key to standard output (${e.reason}), so nothing was changed: a key is kept only once it has been shown. Run the command again with an output that can be written.`,
      )
    }
    shown.secret = true
  }
  const context = { store, config, print, emit, emitSecret }
  if (group === 'geocode') return geocodeCommand(context, argv.slice(1))
  const sub = `${group ?? ''} ${command ?? ''}`.trim()
  const found = COMMANDS[sub]
  if (found === undefined) throw new UsageError(group === undefined ? 'No command given.' : `Unknown command "${sub}".`)
  await found(context, rest)
}

/** The commands that need a database to exist (all but `locator create` and `geocode`). */
const ON_LOCATORS = new Set(Object.keys(COMMANDS).filter((sub) => sub !== 'locator create'))

/**
 * The commands that only read: where this user may not write beside the database (a read-only
 * mount, a folder of another user's), they open it read-only, which needs no -wal or -shm made.
 */
const READ_ONLY = new Set([
  'locator list',
  'locator show',
  'key list',
  'custom-field list',
  'filters show',
  'priority show',
  'locations export',
])

/** Every command's words, for the message of one there is not. */
const COMMAND_NAMES = [...Object.keys(COMMANDS), 'geocode', ...Object.keys(OPS_COMMANDS)]

export async function cli(
  typed: string[],
  typedEnv: Record<string, string | undefined>,
  out = writeStdout,
  err = (t: string) => console.error(t),
): Promise<number> {
  // The CLI's texts are read by who typed it: the commands they give run from there.
  setCommandTyped(true)
  const help = helpAsked(typed)
  if (help !== null) {
    ;(help.code === 0 ? out : err)(help.text)
    return help.code
  }
  let argv = typed
  let store: Store | null = null
  let databasePath = ''
  /** What `locator create` made on a path with no database: taken away again if it fails (a refused command changes nothing). */
  let made: string[] | null = null
  const shown: Shown = { secret: false }
  try {
    let env: Record<string, string | undefined>
    ;({ argv, env } = typedPaths(typed, typedEnv))
    const config = configOf(argv, env, err)
    databasePath = config.databasePath
    const sub = `${argv[0]} ${argv[1]}`
    // A command there is not: said before the database is opened (which would make an empty one).
    const ops = Object.hasOwn(OPS_COMMANDS, argv[0]!) ? OPS_COMMANDS[argv[0]!]! : null
    if (!ON_LOCATORS.has(sub) && sub !== 'locator create' && argv[0] !== 'geocode' && ops === null)
      throw unknownCommand(argv, COMMAND_NAMES)
    // A database's own -wal or -shm named instead of it: opening (or restoring) would write a
    // database into the file SQLite keeps that database's log in.
    const sidecar = sidecarOf(databasePath)
    if (sidecar !== null) throw new OperatorError(sidecar)
    // On the database file as a whole: they open what they need themselves.
    if (ops !== null)
      return ops(
        { config, emit: (json, data, text) => out(json ? JSON.stringify(data, null, 2) : text) },
        argv.slice(1),
      )
    // These work on locators a database holds already: opening a path with none would make one.
    const none = ON_LOCATORS.has(sub) ? noDatabaseAt(databasePath) : null
    if (none !== null) throw new OperatorError(none)
    made = sub === 'locator create' && !existsSync(databasePath) ? newFiles(databasePath) : null
    const readOnly = READ_ONLY.has(sub) && unwritable(databasePath).length > 0
    if (readOnly) {
      const held = await readAlone(databasePath, (opened, print) => run(opened, config, argv, print, shown))
      for (const text of held) out(text)
      return 0
    }
    store = openStore(databasePath, true, false) // only a start upgrades the schema, after a backup
    await run(store, config, argv, out, shown)
    made = null // kept: the new database holds the new locator
    return 0
  } catch (e) {
    const readsOnly = READ_ONLY.has(`${argv[0]} ${argv[1]}`)
    return failureCode(e, { argv, databasePath, secretShown: shown.secret, readsOnly, out, err })
  } finally {
    setCommandDatabase(null)
    setCommandWords(null)
    store?.close()
    if (made !== null) takeAway(made)
  }
}

/**
 * The configuration the command line `argv` (its paths made whole) runs with, `env` holding
 * DATABASE_PATH from --database; a warning each for a misspelt setting. The command's database and
 * words are set for the commands its messages give.
 */
function configOf(argv: string[], env: Record<string, string | undefined>, err: (text: string) => void): Config {
  const config = loadConfig(env)
  for (const found of misspeltSettings(env)) err(`storeloc: warning: ${misspeltText(found)}`)
  const databasePath = config.databasePath
  const unreached = databaseOnTheWay(databasePath)
  if (unreached !== null) throw new OperatorError(unreached)
  // The commands its messages give act on this database too, though typed without what named it.
  const named = databasePath !== ':memory:' && resolve(databasePath) !== resolve(DEFAULT_DATABASE_PATH)
  // Its `..` kept: after a link it leaves the link's target, which resolve's text would not.
  setCommandDatabase(named ? typedPath(process.cwd(), databasePath) : null)
  // This command as a message gives it to run again as another user (sudo -u): againCommand.
  // A secret key typed in it (where a key id goes) is not printed back, as no message prints one.
  setCommandWords(redactSecrets(argv.map(shellWord).join(' ')), databasePath)
  return config
}

if (import.meta.main) process.exit(await cli(process.argv.slice(2), process.env))
