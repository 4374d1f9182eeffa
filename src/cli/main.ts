// `storeloc`: the operator's command line, acting directly on DATABASE_PATH.
// Usage errors exit 2, refused operations exit 1; --json prints machine-readable output.
import { existsSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import {
  ConfigError,
  DEFAULT_DATABASE_PATH,
  loadConfig,
  misspeltSettings,
  misspeltText,
  type Config,
} from '../core/config'
import { redactSecrets } from '../core/ids'
import { shellWord } from '../core/shell'
import { withinEdits } from '../core/text'
import { OperatorError, type Refusal } from '../operator'
import { hiddenByFolder, linkToNoFolder, otherOwner, sidecarOf, walWithoutShm, wrongPath } from '../operator/file-owner'
import { unwritable, unwritableSentence } from '../operator/storage-check'
import { GeodataDamagedError, GeodataPathError } from '../geocode/embedded'
import { geodataVersion } from '../geocode/embedded/ensure'
import { besideDatabase } from './geodata-path'
import { openStore, type Store } from '../store'
import { databaseFault, storageFault, storageFaultText } from '../store/db'
import type { Command, Emit } from './context'
import { DATA_COMMANDS, geocodeCommand } from './data-commands'
import { IMPORT_COMMANDS } from './import-command'
import { LOCATOR_COMMANDS } from './locator-commands'
import { OPS_COMMANDS } from './ops-commands'
import { MissingArguments, OutputError, UsageError, writeStdout } from './output'
import { commandFirst, typedPaths } from './paths'
import {
  cliCommand,
  cliPrefix,
  geodataCommand,
  setCommandDatabase,
  setCommandTyped,
  setCommandWords,
} from '../core/cli-command'

const COMMAND_LINES = `Usage: <command> [options] [--json]

  serve [options]                               (the service itself; \`serve --help\` lists its options)
  locator create --name NAME
  locator list
  locator show LOCATOR_ID
  locator set LOCATOR_ID [--name NAME] [--active on|off] [--query-api on|off] [--referrers HOST,*.HOST] [--radius N] [--unit miles|km] [--rate-limit N]
      [--public-external-id on|off] [--language en|de|fr|es|it|nl]
  locator rotate-token LOCATOR_ID               (the old public token stops working at once)
  locator delete LOCATOR_ID --yes               (with its locations and keys, for good; not the last one)
  key create LOCATOR_ID [--expires ISO_DATE]
  key list LOCATOR_ID
  key revoke KEY_ID
  key rotate KEY_ID [--grace-hours N]           (default 24)
  custom-field add LOCATOR_ID --id ID --name NAME --type TYPE [--label TEXT] [--color #RRGGBB]
  custom-field list LOCATOR_ID
  custom-field remove LOCATOR_ID --id ID
  filters set LOCATOR_ID --file FILTERS.json
  filters show LOCATOR_ID                       (JSON: the groups as GET /filters returns them)
  priority set LOCATOR_ID --file RULES.json
  priority show LOCATOR_ID                      (JSON)
  locations import LOCATOR_ID --file FILE.csv|FILE.json [--format csv|json] [--encoding NAME] [--dry-run] [--delete-missing]
      [--max-delete N] [--progress]
  locations export LOCATOR_ID [--format json|csv] [--status published|draft] [--separator ';'|tab] [--no-bom]
  locations delete LOCATOR_ID ID...             (each a location's id or external_id; all or none)
  geocode "ADDRESS"                             (with the configured GEOCODER)
  backup FILE [--force]                         (a checked copy of the whole database, while servers run)
  restore FILE [--force]                        (puts a backup in its place; refused while a process uses it)
  doctor                                        (what is wrong, with what to do; exit 1 when anything is)`

/**
 * What the commands' options and files mean, each with the command groups it is about (none: every
 * group's): `help GROUP` prints those of GROUP.
 */
const NOTES: { groups?: string[]; text: string }[] = [
  { text: `Acts on the database at --database FILE, else DATABASE_PATH (default data/storeloc.db).` },
  { groups: ['custom-field'], text: `Custom field types: text, number, url, email, phone, button, badge.` },
  {
    groups: ['locator'],
    text: `locator set: --referrers '' clears the allowlist (every site may call; a list of only commas or
spaces is refused); an international host (münchen.de) is kept in the punycode form browsers send
(xn--mnchen-3ya.de); --radius '' restores the default of 25; --rate-limit is public requests per
minute per token (1 to 1000000); --language is the language of the locator's own pages (/l/...)
when a link asks for none (?lang= still wins), '' restores English.`,
  },
  {
    groups: ['filters'],
    text: `FILTERS.json: an array of groups {id, name, label, singleSelect?, inline?, hidden?,
hideInLocationDetails?, tags?: [{value, label, color?, image?}]}; tag values unique, ignoring case.`,
  },
  {
    groups: ['priority'],
    text: `RULES.json: an array in rank order of {"tag": T} | {"custom_field": ID, "value": V} | {"ids": [LOC_ID...]}.`,
  },
  {
    groups: ['locations'],
    text: `Import: each location is matched by its "id", else by its "external_id", else created; it updates
only the fields it has (an export imported as it is changes nothing). All or nothing; addresses
without coordinates are geocoded with the configured GEOCODER. --dry-run says what it would do and
writes nothing; --delete-missing also deletes the locations with an external_id the file lacks;
--max-delete N refuses the import (writing nothing) when that would delete more than N.`,
  },
  {
    groups: ['locations'],
    text: `FILE.json: an array of locations (or {"locations": [...]}, as GET /admin/v1/locations answers).`,
  },
  {
    groups: ['locations'],
    text: `FILE.csv: a header row naming the columns: name, address (or street, city, postcode, region,
country), lat, lng, external_id, tags (split on the first of |, ;, a comma, and a "/" with spaces
around it that the cell holds: "A / B, C" is two tags, "24/7" one), phone, email, website,
monday..sunday, custom.FIELD_ID...; docs/cli.md lists them and the spellings understood.`,
  },
  {
    groups: ['locations'],
    text: `A CSV export starts with a byte order mark, so Excel reads its accents right (--no-bom: without);
--separator ';' where numbers have a decimal comma (most of Europe; coordinates then have one
too). Such a file imports back as it is. Import --encoding windows-1252 (or another name) reads a
file Excel saved as "CSV (Comma delimited)".`,
  },
  {
    groups: ['backup', 'restore'],
    text: `Backup: keys, settings, filters, locations and the change log, in one SQLite file; --force replaces
an existing FILE. Restore: FILE must be a sound storeloc database of this version or older; --force
proceeds where it cannot be told whether a process has the database open (no /proc/locks).`,
  },
]

const USAGE = `${COMMAND_LINES}\n\n${NOTES.map((note) => note.text).join('\n')}`

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

/**
 * Whether --help or -h is given as an option, not as the value of one: `--name -h` names a
 * locator "-h" (or is refused with it), it does not print the usage and exit 0 having done nothing.
 * Every option but --json takes a value.
 */
function asksHelp(argv: string[]): boolean {
  return argv.some(
    (a, i) =>
      (a === '--help' || a === '-h') &&
      (i === 0 || !argv[i - 1]!.startsWith('-') || argv[i - 1]!.includes('=') || argv[i - 1] === '--json'),
  )
}

/**
 * The usage of the command argv names, its line and the lines under it ("locations import"),
 * so a mistake in one command is not lost above every other; those of its first word when it
 * names no command of it ("locator"); the whole usage for no known one.
 */
function usageOf(argv: string[], notes: string[] = []): string {
  const lines = USAGE.split('\n')
  const wordsOf = (line: string) => /^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)*)(?= |$)/.exec(line)?.[1]?.split(' ')
  const at = lines.findIndex((line) => wordsOf(line)?.every((word, i) => argv[i] === word) === true)
  const starts = at !== -1 ? [at] : lines.flatMap((line, i) => (wordsOf(line)?.[0] === argv[0] ? [i] : []))
  if (starts.length === 0) return usageText()
  const own = starts.flatMap((start) => {
    let end = start + 1
    while (lines[end]?.startsWith('      ')) end++
    return lines.slice(start, end)
  })
  const usage =
    own.length === 1 || starts.length === 1
      ? own.map((line, i) => (i === 0 ? `Usage: ${cliPrefix()} ${asTyped(line.trim().replace(/ {2,}/, ' '))}` : line))
      : [`Usage: ${cliPrefix()} <command> [options] [--json]`, '', ...own.map(asTyped)]
  const footer =
    notes.length === 0
      ? `\`${cliPrefix()} help\` lists every command, with what each option means.`
      : `\`${cliPrefix()} help\` lists every command.`
  return [...usage, ...(notes.length === 0 ? [] : ['', ...notes]), footer].join('\n')
}

/** The groups of commands, by their first word: "locator", "key", ..., "doctor". */
const GROUPS = [...new Set(COMMAND_LINES.split('\n').flatMap((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1] ?? []))]

/** The usage a command line asks for, with its exit code (2: none given, or no such group); null for none. */
function helpAsked(typed: string[]): { text: string; code: number } | null {
  const first = commandFirst(typed)
  if (first[0] === 'help') {
    // The words after help but its options: `help --database FILE locator --json` is help locator.
    const words: string[] = []
    for (let i = 1; i < first.length; i++) {
      if (first[i] === '--database') i++
      else if (!first[i]!.startsWith('-')) words.push(first[i]!)
    }
    return helpText(words)
  }
  if (typed.length === 0) return { text: usageText(), code: 2 }
  return asksHelp(typed) ? { text: usageText(), code: 0 } : null
}

/**
 * `help` followed by `words`: the whole usage for none; the usage of the group (or command) they
 * name, with the notes about it; for a group there is not, a usage error with the whole usage.
 */
function helpText(words: string[]): { text: string; code: number } {
  const group = words[0]
  if (group === undefined) return { text: usageText(), code: 0 }
  if (!GROUPS.includes(group)) {
    const like = nearest(group, GROUPS)
    const meant = like === undefined ? '' : ` Did you mean "${like}"?`
    return { text: `storeloc: No command group "${group}".${meant}\n\n${usageText()}`, code: 2 }
  }
  const notes = NOTES.filter((note) => note.groups === undefined || note.groups.includes(group))
  return {
    text: usageOf(
      words,
      notes.map((note) => note.text),
    ),
    code: 0,
  }
}

/** The words that name a command in its usage line: "locations", "import". */
function commandWords(line: string[]): string[] {
  const end = line.findIndex((word) => !/^[a-z][a-z-]*$/.test(word))
  return end === -1 ? line : line.slice(0, end)
}

/** Where a newcomer finds what an argument names (on the CLI's database: cliCommand). */
const foundBy = (): Record<string, string> => ({
  LOCATOR_ID: `: \`${cliCommand('locator list')}\` shows the locator ids`,
  KEY_ID: `: \`${cliCommand('key list LOCATOR_ID')}\` shows the key ids`,
  ID: ": each a location's id or external_id",
})

/**
 * The arguments a command line lacks, named as its usage line names them ("Missing LOCATOR_ID"),
 * past the `given` ones; with where to find the first.
 */
function missingText(argv: string[], given: number): string {
  const words = USAGE.split('\n')
    .map((line) => line.trim().split(/ +/))
    .find((line) => commandWords(line).length > 0 && commandWords(line).every((word, i) => argv[i] === word))
  // The arguments stand before the first option: `custom-field add LOCATOR_ID --id ID` takes one.
  const after = words?.slice(commandWords(words).length) ?? []
  const end = after.findIndex((word) => /^[-[(]/.test(word))
  const names = (end === -1 ? after : after.slice(0, end)).map((word) => word.replace(/"|\.\.\./g, '')).slice(given)
  if (names.length === 0) return 'An argument is missing.'
  return `Missing ${names.join(' and ')}${foundBy()[names[0]!] ?? ''}.`
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

/** How many times a read-only command reads a file written meanwhile before it gives up. */
const READ_TRIES = 3

/**
 * Runs a command that only reads on the database opened read-only (openStore's readOnly), and
 * returns its output, held until the reads are known whole: opened immutable, the reads take no
 * lock, and a process that wrote the file meanwhile may have made them torn, or failed them as
 * damage. Then the command runs again.
 */
async function readAlone(
  path: string,
  command: (store: Store, print: (text: string) => void) => Promise<void>,
): Promise<string[]> {
  for (let tries = 1; ; tries++) {
    const store = openStore(path, true, false, true)
    const held: string[] = []
    try {
      await command(store, (text) => held.push(text))
      if (!store.changedSinceOpen()) return held
    } catch (e) {
      if (!store.changedSinceOpen()) throw e
    } finally {
      store.close()
    }
    if (tries === READ_TRIES)
      throw new OperatorError(
        `${path} was written by another process each time this command read it, ${READ_TRIES} times: opened read-only with no -wal file beside it, its reads take no lock. Run it again once the writes stop, or as the service's user, whose reads wait for the writes.`,
      )
  }
}

/** USAGE, its commands named as this process was launched (cliPrefix). */
/** A usage line with the command it names in it (`serve --help`) as this CLI was launched. */
const asTyped = (line: string): string => line.replace('`serve --help`', `\`${cliPrefix()} serve --help\``)

const usageText = (): string => asTyped(USAGE.replace('Usage: ', `Usage: ${cliPrefix()} `))

/** The word of `words` that `typed` misspells: one edit away, else two (a longer word); undefined for none. */
function nearest(typed: string | undefined, words: string[]): string | undefined {
  if (typed === undefined || typed.startsWith('-')) return undefined
  return words.find((w) => withinEdits(typed, w, 1)) ?? words.find((w) => typed.length > 4 && withinEdits(typed, w, 2))
}

/**
 * An unknown command, said with the commands of its first word when it has some ("locator":
 * create, list, ...), and the command it most likely misspells ("locatons import"), whose usage
 * is then shown.
 */
function unknownCommand(argv: string[]): UsageError {
  // Only --database may stand before the command (commandFirst): another option there is no command.
  if (argv[0]!.startsWith('-'))
    return new UsageError(
      `"${argv[0]}" stands before the command: give the command first, its options after it (${cliPrefix()} locator list --json, ${cliPrefix()} serve --port 3000).`,
    )
  const names = [...Object.keys(COMMANDS), 'geocode', ...Object.keys(OPS_COMMANDS)]
  const subsOf = (group: string) => names.filter((c) => c.startsWith(`${group} `)).map((c) => c.slice(group.length + 1))
  const groups = [...new Set(names.map((c) => c.split(' ')[0]!))]
  const group = groups.includes(argv[0]!) ? argv[0]! : nearest(argv[0], groups)
  const subs = group === undefined ? [] : subsOf(group)
  const sub = subs.length === 0 || subs.includes(argv[1]!) ? argv[1] : nearest(argv[1], subs)
  const meant = group === undefined ? [] : subs.length === 0 ? [group] : sub === undefined ? [] : [group, sub]
  const command = argv.slice(0, 2).join(' ')
  const said =
    group === argv[0] && subs.length > 0
      ? `Unknown command "${command}": ${argv[0]} is followed by one of ${subs.join(', ')}.`
      : `Unknown command "${subs.length === 0 ? argv[0] : command}".`
  const hint = meant.length === 0 ? '' : ` Did you mean "${meant.join(' ')}"?`
  return new UsageError(`${said}${hint}`, meant.length === 0 ? undefined : meant)
}

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
  let env = typedEnv
  let store: Store | null = null
  let databasePath = ''
  /** What `locator create` made on a path with no database: taken away again if it fails (a refused command changes nothing). */
  let made: string[] | null = null
  const shown: Shown = { secret: false }
  try {
    ;({ argv, env } = typedPaths(typed, typedEnv))
    const config = loadConfig(env)
    for (const found of misspeltSettings(env)) err(`storeloc: warning: ${misspeltText(found)}`)
    databasePath = config.databasePath
    // The commands its messages give act on this database too, though typed without what named it.
    const named = databasePath !== ':memory:' && resolve(databasePath) !== resolve(DEFAULT_DATABASE_PATH)
    setCommandDatabase(named ? resolve(databasePath) : null)
    // This command as a message gives it to run again as another user (sudo -u): againCommand.
    // A secret key typed in it (where a key id goes) is not printed back, as no message prints one.
    setCommandWords(redactSecrets(argv.map(shellWord).join(' ')), databasePath)
    const sub = `${argv[0]} ${argv[1]}`
    // A command there is not: said before the database is opened (which would make an empty one).
    const ops = Object.hasOwn(OPS_COMMANDS, argv[0]!) ? OPS_COMMANDS[argv[0]!]! : null
    if (!ON_LOCATORS.has(sub) && sub !== 'locator create' && argv[0] !== 'geocode' && ops === null)
      throw unknownCommand(argv)
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
    // These work on locators a database holds already: with no file at the path, the path is
    // wrong (a mistyped DATABASE_PATH, another directory), and opening would make an empty one.
    if (ON_LOCATORS.has(sub) && !existsSync(databasePath)) {
      throw new OperatorError(
        hiddenByFolder(databasePath) ??
          linkToNoFolder(databasePath) ??
          `No database at ${databasePath}: set DATABASE_PATH to the service's database file (${cliCommand('locator create')} makes a new one).`,
      )
    }
    // An empty file (touch, a copy that failed) holds no locators either; opening would make it a database.
    if (ON_LOCATORS.has(sub) && emptyFile(databasePath))
      throw new OperatorError(
        `${databasePath} is an empty file, no database; it was left as it is. Set DATABASE_PATH to the service's database file (${cliCommand('locator create')} makes a new one).`,
      )
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
    // With --json a failure is JSON on standard output too, shaped as the API's errors (without
    // the lines under the message). Standard output that refuses it (a full disk) leaves standard
    // error, as without --json.
    const fail = (code: string, message: string, refusal: Refusal = {}) => {
      if (argv.includes('--json'))
        try {
          const { details } = refusal
          return out(JSON.stringify({ success: false, error: code, message, ...(details && { details }) }, null, 2))
        } catch (refused) {
          if (!(refused instanceof OutputError)) throw refused
        }
      err([`storeloc: ${message}`, ...(refusal.lines ?? [])].join('\n'))
    }
    if (e instanceof UsageError) {
      const message = e instanceof MissingArguments ? missingText(argv, e.given) : e.message
      fail('usage', redactSecrets(message), { lines: ['', usageOf(e.command ?? argv)] })
      return 2
    }
    if (e instanceof OperatorError) {
      fail(e.refusal.code ?? 'refused', redactSecrets(e.message), e.refusal)
      return 1
    }
    if (
      e instanceof ConfigError ||
      e instanceof OutputError ||
      e instanceof GeodataPathError ||
      e instanceof GeodataDamagedError
    ) {
      const hint = e instanceof GeodataPathError ? serviceGeodata(databasePath, argv) : ''
      fail('refused', redactSecrets(e.message) + hint)
      return 1
    }
    // The transaction that made the key printed above failed at its commit: the key was never kept.
    const unkept = shown.secret ? ' The secret key printed above was not kept and does not work.' : ''
    // The database file could not be opened, read or written (a directory, not a database, a
    // missing parent, locked by a writer that did not let go, a full disk, a read-only file): one
    // line, not a stack trace, with what to do where that is known.
    const fault = databaseFault(e)
    if (fault === null) {
      if (unkept !== '') err(`storeloc:${unkept}`)
      throw e
    }
    const hint = databaseHint(e, fault, databasePath, argv)
    fail(
      'database',
      `${redactSecrets((e as Error).message).replace(/\.$/, '')} (database ${databasePath}).${hint}${unkept}`,
    )
    return 1
  } finally {
    setCommandDatabase(null)
    setCommandWords(null)
    store?.close()
    if (made !== null) takeAway(made)
  }
}

/**
 * The files and folders opening a new database at `path` makes: its file, SQLite's -wal and -shm
 * beside it, and the folders up to the first that exists (deepest first).
 */
function newFiles(path: string): string[] {
  const made = [path, `${path}-wal`, `${path}-shm`]
  for (let folder = dirname(resolve(path)); !existsSync(folder); folder = dirname(folder)) made.push(folder)
  return made
}

/** Removes what newFiles listed: the files, then each folder if nothing else was put in it meanwhile. */
function takeAway(made: string[]): void {
  for (const path of made) {
    try {
      if (statSync(path).isDirectory()) rmdirSync(path)
      else rmSync(path)
    } catch {
      // never made, or not empty: left as it is
    }
  }
}

if (import.meta.main) process.exit(await cli(process.argv.slice(2), process.env))

/**
 * What a database failure's line adds, where it is known: what to do about a busy, foreign or
 * unwritable file, or a storage fault.
 */
function databaseHint(e: unknown, fault: 'busy' | 'file' | 'database', databasePath: string, argv: string[]): string {
  const storage = storageFault(e, databasePath)
  // Typed as oneself, not as the service's user, whose files are for their owner only.
  const owner =
    fault === 'file' || storage === 'readonly'
      ? (wrongPath(databasePath) ??
        // A command that writes would still be refused once the -shm is made: whose the files are says why.
        (READ_ONLY.has(`${argv[0]} ${argv[1]}`) ? walWithoutShm(databasePath) : null) ??
        otherOwner(databasePath) ??
        hiddenByFolder(databasePath))
      : null
  // Else the file or folder this user may not write, by name (a folder of root's, a read-only mount).
  const refused =
    owner === null && (fault === 'file' || storage === 'readonly') ? unwritableSentence(databasePath) : null
  return fault === 'busy'
    ? ' Another process holds the database for writing: try again in a moment.'
    : notDatabase(e)
      ? ` It is no database, or a damaged one; it was left as it is. Name the service's database with --database FILE (or DATABASE_PATH).`
      : owner !== null
        ? ` ${owner}`
        : refused !== null
          ? ` ${refused} Nothing was changed: make them writable by the service's user, or the file system read-write, then run the command again.`
          : storage !== null
            ? ` Nothing was changed. ${storageFaultText(storage, databasePath).replace(/^d/, 'D')} Then run the command again.`
            : ''
}

/** A file of no bytes, with no write-ahead log that would hold its pages. */
function emptyFile(path: string): boolean {
  const size = (name: string) => statSync(name, { throwIfNoEntry: false })
  const main = size(path)
  return main?.isFile() === true && main.size === 0 && !(size(`${path}-wal`)?.size ?? 0)
}

/** SQLite found no database in the file (SQLITE_NOTADB): another file, or one damaged at its header. */
function notDatabase(e: unknown): boolean {
  return String((e as { code?: unknown } | null)?.code).startsWith('SQLITE_NOTADB')
}

/**
 * GEODATA_PATH left out and no data made under this command's folder: the file beside the database
 * (of another version, else geodataOf had read it) is most likely the service's. Names it.
 */
function serviceGeodata(databasePath: string, argv: string[]): string {
  const beside = databasePath === '' ? null : besideDatabase(databasePath)
  if (beside === null || geodataVersion(beside) === null) return ''
  return ` GEODATA_PATH is not set, so this command looked under ${process.cwd()}. The database's folder has the data: ${beside}. Run it as ${geodataCommand(beside, argv.map(shellWord).join(' '))}, the service's setting.`
}
