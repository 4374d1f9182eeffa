// `storeloc`: the operator's command line, acting directly on DATABASE_PATH.
// Usage errors exit 2, refused operations exit 1; --json prints machine-readable output.
import { existsSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ConfigError, loadConfig, type Config } from '../core/config'
import { createGeocoder, type GeocoderStack } from '../geocode'
import { noGeocoder, type Geocoder } from '../geocode/geocoder'
import { ImportError, importLocations, toAdminLocation } from '../locations/service'
import { GeocoderUnavailableError } from '../geocode/http'
import {
  addCustomField,
  createKey,
  createLocator,
  OperatorError,
  readJsonFile,
  removeCustomField,
  requireLocator,
  revokeKey,
  rotateKey,
  rotatePublicToken,
  setFilters,
  setLocatorSettings,
  setPriorityRules,
  type LocatorSettingsInput,
} from '../operator/index'
import { openStore, type Store } from '../store'
import { databaseFault, storageFault, storageFaultText } from '../store/db'
import { redactSecrets } from '../core/ids'
import type { CustomField } from '../store/custom-fields'
import { isExpired, type ApiKey } from '../store/keys'
import type { Locator } from '../store/locators'

const USAGE = `Usage: storeloc <command> [options] [--json]

  locator create --name NAME
  locator list
  locator show LOCATOR_ID
  locator set LOCATOR_ID [--active on|off] [--query-api on|off] [--referrers HOST,*.HOST] [--radius N] [--unit miles|km] [--rate-limit N]
  locator rotate-token LOCATOR_ID               (the old public token stops working at once)
  key create LOCATOR_ID [--expires ISO_DATE]
  key list LOCATOR_ID
  key revoke KEY_ID
  key rotate KEY_ID [--grace-hours N]          (default 24)
  custom-field add LOCATOR_ID --id ID --name NAME --type TYPE [--label TEXT] [--color #RRGGBB]
  custom-field list LOCATOR_ID
  custom-field remove LOCATOR_ID --id ID
  filters set LOCATOR_ID --file FILTERS.json
  filters show LOCATOR_ID                       (JSON: the groups as GET /filters returns them)
  priority set LOCATOR_ID --file RULES.json
  priority show LOCATOR_ID                      (JSON)
  locations import LOCATOR_ID --file LOCATIONS.json
  locations export LOCATOR_ID [--status published|draft]   (JSON, as GET /admin/v1/locations gives them)
  geocode "ADDRESS"                             (with the configured GEOCODER)

Acts on the database at DATABASE_PATH (default data/storeloc.db).
Custom field types: text, number, url, email, phone, button, badge.
locator set: --referrers '' clears the allowlist (every site may call; a list of only commas or
spaces is refused); an international host (münchen.de) is kept in the punycode form browsers send
(xn--mnchen-3ya.de); --radius '' restores the default of 25; --rate-limit is public requests per
minute per token (1 to 1000000).
FILTERS.json: an array of groups {id, name, label, singleSelect?, inline?, hidden?,
hideInLocationDetails?, tags?: [{value, label, color?, image?}]}; tag values unique, ignoring case.
RULES.json: an array in rank order of {"tag": T} | {"custom_field": ID, "value": V} | {"ids": [LOC_ID...]}.
LOCATIONS.json: an array of locations (or {"locations": [...]}, as GET /admin/v1/locations answers),
each as POST /admin/v1/locations takes it; one with the "id" of a location of the locator updates it
(only the fields it has; sent as exported, it changes nothing). All or nothing; addresses without
coordinates are geocoded with the configured GEOCODER.`

class UsageError extends Error {}

/** Standard output refused the text (a full disk, a closed pipe): `reason` is the system's code. */
class OutputError extends Error {
  constructor(readonly reason: string) {
    super(`Could not write to standard output (${reason}); what the command changed, if anything, is kept.`)
  }
}

/**
 * Writes the text and a newline to standard output, all of it, or throws OutputError:
 * console.log drops what a full disk or a closed pipe refuses, and the command would exit 0.
 */
function writeStdout(text: string): void {
  const bytes = Buffer.from(`${text}\n`)
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message
      if (code !== 'EAGAIN') throw new OutputError(code)
      Bun.sleepSync(1) // a non-blocking pipe that is full: its reader will take some
    }
  }
}

type Out = { json: boolean; print: (text: string) => void }

const locatorJson = (l: Locator) => ({
  id: l.id,
  name: l.name,
  public_token: l.publicToken,
  active: l.active,
  query_api_enabled: l.queryApiEnabled,
  referrers: l.referrers,
  default_radius: l.defaultRadius,
  default_unit: l.defaultUnit,
  rate_limit: l.rateLimit,
  created_at: l.createdAt,
})

function keyStatus(k: ApiKey, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (k.status === 'revoked') return 'revoked'
  if (isExpired(k, now)) return 'expired'
  return 'active'
}

const keyJson = (k: ApiKey) => ({
  id: k.id,
  locator_id: k.locatorId,
  prefix: k.prefix,
  status: keyStatus(k),
  expires_at: k.expiresAt,
  last_used_at: k.lastUsedAt,
  exposed: k.exposedAt !== null,
  created_at: k.createdAt,
})

const fieldJson = (f: CustomField) => ({ id: f.id, name: f.name, type: f.type, label: f.label, color: f.color })

/**
 * Rows as a table whose columns line up on a terminal: widths are display columns (Bun.stringWidth:
 * a wide East Asian character or an emoji takes two, a combining mark or a joiner none), not UTF-16 units.
 */
function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)'
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v))
  const widths = columns.map((c) => Math.max(Bun.stringWidth(c), ...rows.map((r) => Bun.stringWidth(cell(r[c])))))
  const line = (vals: string[]) => vals.map((v, i) => v + ' '.repeat(widths[i]! - Bun.stringWidth(v))).join('  ').trimEnd()
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n')
}

function describeLocator(l: Locator): string {
  const j = locatorJson(l)
  return Object.entries(j)
    .map(([k, v]) => `${(k + ':').padEnd(18)} ${Array.isArray(v) ? v.join(', ') || '(none)' : v ?? '-'}`)
    .join('\n')
}

const SECRET_NOTE = 'The secret key is shown this once: store it now. Send it as "Authorization: Bearer <key>".'

/**
 * Parses one command's arguments strictly; unknown options, missing values and an option with a
 * value given twice are usage errors (parseArgs keeps the last: two --referrers would keep one list).
 */
function args(argv: string[], options: ParseArgsConfig['options'], positionals: number) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true, tokens: true })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const given = new Set<string>()
  // Typed by hand: the tokens' inferred type over options spread from a parameter is never.
  for (const token of parsed.tokens as { kind: string; name: string; value?: string }[]) {
    if (token.kind !== 'option' || token.value === undefined) continue
    if (given.has(token.name)) throw new UsageError(`--${token.name} is given more than once: give it once.`)
    given.add(token.name)
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(positionals === 0 ? `Unexpected argument ${parsed.positionals[0]}.` : `Expected ${positionals} argument(s), got ${parsed.positionals.length}.`)
  }
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required.`)
  return v
}

/** What a command did before it failed, for the failure's message: `secret`, a new secret key was printed (inside its transaction, not yet committed). */
type Shown = { secret: boolean }

async function run(store: Store, config: Config, argv: string[], print: (text: string) => void, shown: Shown = { secret: false }): Promise<void> {
  const [group, command, ...rest] = argv
  const emit = (json: boolean, data: unknown, text: string) => print(json ? JSON.stringify(data, null, 2) : text)
  /**
   * emit, inside the transaction that made a secret key: an output that fails undoes it all. The
   * commit comes after it, and may fail still (a full disk, an I/O error: SQLite writes the WAL
   * only then): `shown` lets the failure's message say the key printed does not work.
   */
  const emitSecret = (json: boolean, data: unknown, text: string) => {
    try {
      emit(json, data, text)
    } catch (e) {
      if (!(e instanceof OutputError)) throw e
      throw new OperatorError(`Could not write the new secret key to standard output (${e.reason}), so nothing was changed: a key is kept only once it has been shown. Run the command again with an output that can be written.`)
    }
    shown.secret = true
  }
  const sub = `${group ?? ''} ${command ?? ''}`.trim()

  if (group === 'geocode') {
    const { values, positionals } = args(argv.slice(1), {}, 1)
    const stack = await createGeocoder(config.geocoder, store, (line) => console.error(line))
    try {
      const result = await stack.geocoder.geocode(positionals[0]!).catch((e) => {
        if (!(e instanceof GeocoderUnavailableError)) throw e
        const address = JSON.stringify(positionals[0])
        throw new OperatorError(
          e.scope === 'address'
            ? `Could not geocode ${address}: the geocoding service could not place it (${e.message}) and the embedded geocoder does not know it; the API would answer geocoding_failed.`
            : `Could not geocode ${address} now: the geocoding service is unavailable (${e.message}) and the embedded geocoder does not know it; the API would answer geocoding_failed.`,
        )
      })
      if (!result) {
        const why = config.geocoder.provider === 'none' ? ' GEOCODER=none places no address: unset it for the embedded geocoder, or name an HTTP one.' : ''
        throw new OperatorError(`Could not geocode ${JSON.stringify(positionals[0])}: the API would answer geocoding_failed.${why}`)
      }
      const parts = Object.entries(result.parts).map(([k, v]) => `${k}=${v}`).join(', ')
      emit(!!values.json, result, `lat, lng:   ${result.lat}, ${result.lng}\nprecision:  ${result.precision}\nsource:     ${result.source}\nparsed:     ${parts || '-'}`)
    } finally {
      stack.close()
    }
    return
  }

  switch (sub) {
    case 'locator create': {
      const { values } = args(rest, { name: { type: 'string' } }, 0)
      createLocator(store, required(values, 'name'), ({ locator, key, secret }) =>
        emitSecret(!!values.json, { locator: locatorJson(locator), key: { ...keyJson(key), secret_key: secret } }, `${describeLocator(locator)}\nsecret key:        ${secret}\n\n${SECRET_NOTE}`),
      )
      return
    }
    case 'locator list': {
      const { values } = args(rest, {}, 0)
      const rows = store.locators.list().map(locatorJson)
      emit(!!values.json, rows, table(rows, ['id', 'name', 'public_token', 'query_api_enabled', 'active']))
      return
    }
    case 'locator show': {
      const { values, positionals } = args(rest, {}, 1)
      const locator = requireLocator(store, positionals[0]!)
      const keys = store.keys.listForLocator(locator.id).map(keyJson)
      const fields = store.customFields.list(locator.id).map(fieldJson)
      const published = store.locations.count(locator.id, 'published')
      const draft = store.locations.count(locator.id, 'draft')
      emit(
        !!values.json,
        { ...locatorJson(locator), locations: { published, draft }, keys, custom_fields: fields },
        `${describeLocator(locator)}\nlocations:         ${published} published, ${draft} draft\n\nkeys:\n${table(keys, ['id', 'prefix', 'status', 'expires_at', 'last_used_at', 'exposed'])}`,
      )
      return
    }
    case 'locator set': {
      const spec = { active: { type: 'string' }, 'query-api': { type: 'string' }, referrers: { type: 'string' }, radius: { type: 'string' }, unit: { type: 'string' }, 'rate-limit': { type: 'string' } } as const
      const { values, positionals } = args(rest, spec, 1)
      const input: LocatorSettingsInput = {
        active: values.active as string | undefined,
        queryApi: values['query-api'] as string | undefined,
        referrers: values.referrers as string | undefined,
        radius: values.radius as string | undefined,
        unit: values.unit as string | undefined,
        rateLimit: values['rate-limit'] as string | undefined,
      }
      if (Object.values(input).every((v) => v === undefined)) {
        throw new UsageError('locator set needs at least one of --active, --query-api, --referrers, --radius, --unit, --rate-limit.')
      }
      const locator = setLocatorSettings(store, positionals[0]!, input)
      emit(!!values.json, locatorJson(locator), describeLocator(locator))
      return
    }
    case 'locator rotate-token': {
      const { values, positionals } = args(rest, {}, 1)
      const old = requireLocator(store, positionals[0]!).publicToken
      const locator = rotatePublicToken(store, positionals[0]!)
      emit(
        !!values.json,
        { ...locatorJson(locator), previous_public_token: old },
        `New public token:  ${locator.publicToken}\nThe old token ${old} stopped working: update every page and app that embeds it.`,
      )
      return
    }
    case 'filters set': {
      const { values, positionals } = args(rest, { file: { type: 'string' } }, 1)
      const file = required(values, 'file')
      const locator = requireLocator(store, positionals[0]!)
      const groups = setFilters(store, locator.id, readJsonFile(file))
      const tags = groups.reduce((n, g) => n + g.tags.length, 0)
      emit(!!values.json, groups, `Set ${groups.length} filter group(s) with ${tags} tag(s) on ${locator.id}.`)
      return
    }
    case 'filters show': {
      const { positionals } = args(rest, {}, 1) // JSON with or without --json
      const locator = requireLocator(store, positionals[0]!)
      print(JSON.stringify(store.filters.list(locator.id), null, 2))
      return
    }
    case 'priority set': {
      const { values, positionals } = args(rest, { file: { type: 'string' } }, 1)
      const file = required(values, 'file')
      const locator = requireLocator(store, positionals[0]!)
      const rules = setPriorityRules(store, locator.id, readJsonFile(file))
      emit(!!values.json, rules, `Set ${rules.length} priority rule(s) on ${locator.id}.`)
      return
    }
    case 'locations import': {
      const { values, positionals } = args(rest, { file: { type: 'string' } }, 1)
      const file = required(values, 'file')
      const locator = requireLocator(store, positionals[0]!)
      const json = readJsonFile(file)
      const items = Array.isArray(json) ? json : json !== null && typeof json === 'object' && Array.isArray((json as { locations?: unknown }).locations) ? (json as { locations: unknown[] }).locations : null
      if (items === null) throw new OperatorError(`${file} must hold a JSON array of locations, or an object with one as "locations" (as GET /admin/v1/locations answers).`)
      // The geocoder (the embedded one's data, an HTTP provider) only when an address needs it.
      const made: { stack?: Promise<GeocoderStack> } = {}
      const geocoder: Geocoder =
        config.geocoder.provider === 'none'
          ? noGeocoder
          : { name: config.geocoder.provider, geocode: async (address) => (await (made.stack ??= createGeocoder(config.geocoder, store, (line) => console.error(line)))).geocoder.geocode(address) }
      try {
        const report = await importLocations({ store, geocoder }, locator.id, items)
        emit(!!values.json, report, `Imported ${file} into ${locator.id}: ${report.created.length} created, ${report.updated.length} updated, ${report.unchanged.length} unchanged.`)
      } catch (e) {
        if (e instanceof ImportError) throw new OperatorError(`Nothing was imported from ${file}: ${e.message}.\n  ${e.problems.join('\n  ')}`)
        throw e
      } finally {
        if (made.stack !== undefined) (await made.stack).close()
      }
      return
    }
    case 'locations export': {
      const { values, positionals } = args(rest, { status: { type: 'string' } }, 1) // JSON with or without --json
      const locator = requireLocator(store, positionals[0]!)
      const status = values.status as string | undefined
      if (status !== undefined && status !== 'published' && status !== 'draft') throw new OperatorError(`--status must be published or draft; got ${JSON.stringify(status)}.`)
      const rows = store.locations.all(locator.id).filter((r) => status === undefined || r.status === status)
      print(JSON.stringify(rows.map(toAdminLocation), null, 2))
      return
    }
    case 'priority show': {
      const { positionals } = args(rest, {}, 1) // JSON with or without --json
      const locator = requireLocator(store, positionals[0]!)
      print(JSON.stringify(store.priority.list(locator.id), null, 2))
      return
    }
    case 'key create': {
      const { values, positionals } = args(rest, { expires: { type: 'string' } }, 1)
      createKey(store, positionals[0]!, (values.expires as string | undefined) ?? null, new Date(), ({ key, secret }) =>
        emitSecret(!!values.json, { ...keyJson(key), secret_key: secret }, `key id:      ${key.id}\nexpires:     ${key.expiresAt ?? 'never'}\nsecret key:  ${secret}\n\n${SECRET_NOTE}`),
      )
      return
    }
    case 'key list': {
      const { values, positionals } = args(rest, {}, 1)
      const locator = requireLocator(store, positionals[0]!)
      const rows = store.keys.listForLocator(locator.id).map(keyJson)
      const text = table(rows, ['id', 'prefix', 'status', 'expires_at', 'last_used_at', 'exposed'])
      const exposed = rows.some((r) => r.exposed && r.status === 'active') ? '\n\nA key marked exposed was seen in a public request: rotate it with no grace period (storeloc key rotate KEY_ID --grace-hours 0), so it stops working at once.' : ''
      emit(!!values.json, rows, text + exposed)
      return
    }
    case 'key revoke': {
      const { values, positionals } = args(rest, {}, 1)
      const key = revokeKey(store, positionals[0]!)
      emit(!!values.json, keyJson(key), `Revoked ${key.id} (${key.prefix}). Requests with it now get 401.`)
      return
    }
    case 'key rotate': {
      const { values, positionals } = args(rest, { 'grace-hours': { type: 'string' } }, 1)
      const raw = (values['grace-hours'] as string | undefined) ?? '24'
      if (!/^\d+(\.\d+)?$/.test(raw)) throw new OperatorError(`--grace-hours must be a number of hours; got ${JSON.stringify(raw)}.`)
      rotateKey(store, positionals[0]!, Number(raw), new Date(), ({ old, key, secret }) =>
        emitSecret(
          !!values.json,
          { old: keyJson(old), key: { ...keyJson(key), secret_key: secret } },
          `New key id:  ${key.id}\nsecret key:  ${secret}\nOld key ${old.id} (${old.prefix}) stops working at ${old.expiresAt}.\n\n${SECRET_NOTE}`,
        ),
      )
      return
    }
    case 'custom-field add': {
      const spec = { id: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' }, label: { type: 'string' }, color: { type: 'string' } } as const
      const { values, positionals } = args(rest, spec, 1)
      const field = addCustomField(store, positionals[0]!, {
        id: required(values, 'id'),
        name: required(values, 'name'),
        type: required(values, 'type'),
        label: (values.label as string | undefined) ?? null,
        color: (values.color as string | undefined) ?? null,
      })
      emit(!!values.json, fieldJson(field), `Added custom field ${field.id} (${field.type}) "${field.name}".`)
      return
    }
    case 'custom-field list': {
      const { values, positionals } = args(rest, {}, 1)
      const locator = requireLocator(store, positionals[0]!)
      const rows = store.customFields.list(locator.id).map(fieldJson)
      emit(!!values.json, rows, table(rows, ['id', 'name', 'type', 'label', 'color']))
      return
    }
    case 'custom-field remove': {
      const { values, positionals } = args(rest, { id: { type: 'string' } }, 1)
      const id = required(values, 'id')
      const { clearedLocations } = removeCustomField(store, positionals[0]!, id)
      emit(!!values.json, { removed: id, cleared_locations: clearedLocations }, `Removed custom field ${id}; cleared its value on ${clearedLocations} location(s).`)
      return
    }
    default:
      throw new UsageError(group === undefined ? 'No command given.' : `Unknown command "${sub}".`)
  }
}

/**
 * Whether --help or -h is given as an option, not as the value of one: `--name -h` names a
 * locator "-h" (or is refused with it), it does not print the usage and exit 0 having done nothing.
 * Every option but --json takes a value.
 */
function asksHelp(argv: string[]): boolean {
  return argv.some((a, i) => (a === '--help' || a === '-h') && (i === 0 || !argv[i - 1]!.startsWith('-') || argv[i - 1]!.includes('=') || argv[i - 1] === '--json'))
}

/** The commands that need a database to exist (all but `locator create` and `geocode`). */
const ON_LOCATORS = new Set([
  'locator list', 'locator show', 'locator set', 'locator rotate-token',
  'key create', 'key list', 'key revoke', 'key rotate',
  'custom-field add', 'custom-field list', 'custom-field remove',
  'filters set', 'filters show', 'priority set', 'priority show',
  'locations import', 'locations export',
])

export async function cli(argv: string[], env: Record<string, string | undefined>, out = writeStdout, err = (t: string) => console.error(t)): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || asksHelp(argv)) {
    ;(argv.length === 0 ? err : out)(USAGE)
    return argv.length === 0 ? 2 : 0
  }
  let store: Store | null = null
  let databasePath = ''
  /** What `locator create` made on a path with no database: taken away again if it fails (a refused command changes nothing). */
  let made: string[] | null = null
  const shown: Shown = { secret: false }
  try {
    const config = loadConfig(env)
    databasePath = config.databasePath
    const sub = `${argv[0]} ${argv[1]}`
    // A command there is not: said before the database is opened (which would make an empty one).
    if (!ON_LOCATORS.has(sub) && sub !== 'locator create' && argv[0] !== 'geocode') throw new UsageError(`Unknown command "${argv.slice(0, 2).join(' ')}".`)
    // These work on locators a database holds already: with no file at the path, the path is
    // wrong (a mistyped DATABASE_PATH, another directory), and opening would make an empty one.
    if (ON_LOCATORS.has(sub) && !existsSync(databasePath)) {
      throw new OperatorError(`No database at ${databasePath}: set DATABASE_PATH to the service's database file (storeloc locator create makes a new one).`)
    }
    made = sub === 'locator create' && !existsSync(databasePath) ? newFiles(databasePath) : null
    store = openStore(databasePath)
    await run(store, config, argv, out, shown)
    made = null // kept: the new database holds the new locator
    return 0
  } catch (e) {
    if (e instanceof UsageError) {
      err(`storeloc: ${redactSecrets(e.message)}\n\n${USAGE}`)
      return 2
    }
    if (e instanceof OperatorError || e instanceof ConfigError || e instanceof OutputError) {
      err(`storeloc: ${redactSecrets(e.message)}`)
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
    const storage = storageFault(e)
    const hint =
      fault === 'busy'
        ? ' Another process holds the database for writing: try again in a moment.'
        : storage !== null
          ? ` Nothing was changed. ${storageFaultText(storage, databasePath).replace(/^d/, 'D')} Then run the command again.`
          : ''
    err(`storeloc: ${redactSecrets((e as Error).message).replace(/\.$/, '')} (database ${databasePath}).${hint}${unkept}`)
    return 1
  } finally {
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
