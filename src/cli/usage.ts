// The CLI's usage: every command's line and the notes on its options, the part of it a command
// line asks for (help, --help, a mistake in one command), and the messages for a command that is
// not there or lacks its arguments.
import { cliCommand, cliPrefix } from '../core/cli-command'
import { withinEdits } from '../core/text'
import { UsageError } from './output'
import { commandFirst } from './paths'

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
  locations import LOCATOR_ID --file FILE.csv|FILE.tsv|FILE.json [--format csv|json] [--encoding NAME] [--dry-run] [--delete-missing]
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
export function usageOf(argv: string[], notes: string[] = []): string {
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
export function helpAsked(typed: string[]): { text: string; code: number } | null {
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
export function missingText(argv: string[], given: number): string {
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

/** A usage line with the command it names in it (`serve --help`) as this CLI was launched. */
const asTyped = (line: string): string => line.replace('`serve --help`', `\`${cliPrefix()} serve --help\``)

/** USAGE, its commands named as this process was launched (cliPrefix). */
const usageText = (): string => asTyped(USAGE.replace('Usage: ', `Usage: ${cliPrefix()} `))

/** The word of `words` that `typed` misspells: one edit away, else two (a longer word); undefined for none. */
function nearest(typed: string | undefined, words: string[]): string | undefined {
  if (typed === undefined || typed.startsWith('-')) return undefined
  return words.find((w) => withinEdits(typed, w, 1)) ?? words.find((w) => typed.length > 4 && withinEdits(typed, w, 2))
}

/**
 * An unknown command, said with the commands of its first word when it has some ("locator":
 * create, list, ...), and the command it most likely misspells ("locatons import"), whose usage
 * is then shown. `names`: every command, by its words ("locator create", "doctor").
 */
export function unknownCommand(argv: string[], names: string[]): UsageError {
  // Only --database may stand before the command (commandFirst): another option there is no command.
  if (argv[0]!.startsWith('-'))
    return new UsageError(
      `"${argv[0]}" stands before the command: give the command first, its options after it (${cliPrefix()} locator list --json, ${cliPrefix()} serve --port 3000).`,
    )
  const subsOf = (group: string) => names.filter((c) => c.startsWith(`${group} `)).map((c) => c.slice(group.length + 1))
  const groups = [...new Set(names.map((c) => c.split(' ')[0]!))]
  const group = groups.includes(argv[0]!) ? argv[0]! : nearest(argv[0], groups)
  // A command's last word typed without its group ("import", "list"): the commands it ends.
  const ending = group === undefined ? names.filter((c) => c.endsWith(` ${argv[0]}`)) : []
  if (ending.length === 1)
    return new UsageError(`Unknown command "${argv[0]}". Did you mean "${ending[0]}"?`, ending[0]!.split(' '))
  if (ending.length > 1)
    return new UsageError(`Unknown command "${argv[0]}": give its group first, as in ${ending.join(', ')}.`)
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
