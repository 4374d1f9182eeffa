// What the command line prints and how it reads its arguments: tables, JSON shapes, strict parsing.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { withinEdits } from '../core/text'
import { writeWhole } from '../core/write-whole'
import type { CustomField } from '../store/custom-fields'
import { isExpired, type ApiKey } from '../store/keys'
import type { Locator } from '../store/locators'

/** A command line that is not one: exit 2, with the usage of `command` (the words of one, when it names none itself). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string[],
  ) {
    super(message)
  }
}

/** Fewer arguments than the command takes: `given` of them. The caller names the missing ones from the usage. */
export class MissingArguments extends UsageError {
  constructor(readonly given: number) {
    super(`Expected more arguments than ${given}.`)
  }
}

/** Standard output refused the text (a full disk, a closed pipe): `reason` is the system's code. */
export class OutputError extends Error {
  constructor(readonly reason: string) {
    super(`Could not write to standard output (${reason}); what the command changed, if anything, is kept.`)
  }
}

/**
 * Writes the text and a newline to standard output, all of it, or throws OutputError:
 * console.log drops what a full disk or a closed pipe refuses, and the command would exit 0.
 */
export function writeStdout(text: string): void {
  try {
    writeWhole(1, `${text}\n`)
  } catch (e) {
    throw new OutputError((e as NodeJS.ErrnoException).code ?? (e as Error).message)
  }
}

export const locatorJson = (l: Locator) => ({
  id: l.id,
  name: l.name,
  public_token: l.publicToken,
  active: l.active,
  query_api_enabled: l.queryApiEnabled,
  referrers: l.referrers,
  default_radius: l.defaultRadius,
  default_unit: l.defaultUnit,
  rate_limit: l.rateLimit,
  public_external_id: l.publicExternalId,
  language: l.language,
  created_at: l.createdAt,
})

export function keyStatus(k: ApiKey, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (k.status === 'revoked') return 'revoked'
  if (isExpired(k, now)) return 'expired'
  return 'active'
}

export const keyJson = (k: ApiKey) => ({
  id: k.id,
  locator_id: k.locatorId,
  prefix: k.prefix,
  status: keyStatus(k),
  expires_at: k.expiresAt,
  last_used_at: k.lastUsedAt,
  exposed: k.exposedAt !== null,
  created_at: k.createdAt,
})

export const fieldJson = (f: CustomField) => ({ id: f.id, name: f.name, type: f.type, label: f.label, color: f.color })

/**
 * Rows as a table whose columns line up on a terminal: widths are display columns (Bun.stringWidth:
 * a wide East Asian character or an emoji takes two, a combining mark or a joiner none), not UTF-16 units.
 */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)'
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v))
  const widths = columns.map((c) => Math.max(Bun.stringWidth(c), ...rows.map((r) => Bun.stringWidth(cell(r[c])))))
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v + ' '.repeat(widths[i]! - Bun.stringWidth(v)))
      .join('  ')
      .trimEnd()
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n')
}

export function describeLocator(l: Locator): string {
  const j = locatorJson(l)
  return Object.entries(j)
    .map(([k, v]) => `${(`${k}:`).padEnd(20)} ${Array.isArray(v) ? v.join(', ') || '(none)' : (v ?? '-')}`)
    .join('\n')
}

export const SECRET_NOTE = 'The secret key is shown this once: store it now. Send it as "Authorization: Bearer <key>".'

/**
 * Parses one command's arguments strictly; unknown options, missing values and an option with a
 * value given twice are usage errors (parseArgs keeps the last: two --referrers would keep one list).
 */
/** `--radius -5` as `--radius=-5`: parseArgs would read the value as an option, and its check should say what is wrong with -5. */
function withNegativeValues(argv: string[], options: ParseArgsConfig['options']): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const next = argv[i + 1]
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : ''
    if (options?.[name]?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}

/** parseArgs' message, an unknown option said shortly, with the option it looks like ("--jsn": --json). */
function argsError(message: string, names: string[]): string {
  // parseArgs' other words, said as the rest of the CLI says them.
  const missing = /^Option '(--[^ ']+) <value>' argument missing/.exec(message)
  if (missing !== null) return `${missing[1]} needs a value.`
  const flag = /^Option '(--[^ ']+)' does not take an argument/.exec(message)
  if (flag !== null) return `${flag[1]} takes no value: give ${flag[1]} alone.`
  const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec(message)
  if (unknown === null) return message
  const [, dashes, name] = unknown
  // One the name begins (--rate: --rate-limit), else the nearest within two edits.
  const options = [...names, 'json']
  const like =
    options.find((n) => name!.length >= 3 && n.startsWith(name!)) ??
    options.find((n) => withinEdits(name!, n, 1)) ??
    options.find((n) => withinEdits(name!, n, 2))
  return `Unknown option ${dashes}${name}.${like === undefined ? '' : ` Did you mean --${like}?`}`
}

/** `positionals`: how many arguments, or `[n]` for n or more. */
export function args(argv: string[], options: ParseArgsConfig['options'], positionals: number | [number]) {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: withNegativeValues(argv, options),
      options: { ...options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
      tokens: true,
    })
  } catch (e) {
    throw new UsageError(argsError((e as Error).message, Object.keys(options ?? {})))
  }
  const given = new Set<string>()
  // Typed by hand: the tokens' inferred type over options spread from a parameter is never.
  for (const token of parsed.tokens as { kind: string; name: string; value?: string }[]) {
    if (token.kind !== 'option' || token.value === undefined) continue
    if (given.has(token.name)) throw new UsageError(`--${token.name} is given more than once: give it once.`)
    given.add(token.name)
  }
  const n = parsed.positionals.length
  // `locations import lct_... stores.csv`: the file typed where the command takes its --file.
  const extra = parsed.positionals[typeof positionals === 'number' ? positionals : Number.POSITIVE_INFINITY]
  if (n === Number(positionals) + 1 && options?.file !== undefined && parsed.values.file === undefined)
    throw new UsageError(`Unexpected argument ${extra}: give the file as --file ${extra}.`)
  if (n < (Array.isArray(positionals) ? positionals[0] : positionals)) throw new MissingArguments(n)
  if (extra !== undefined) throw new UsageError(`Unexpected argument ${extra}.`)
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }
}

export function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required.`)
  return v
}
