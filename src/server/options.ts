// The server's settings: the environment, then the command line's options, which win. Each
// setting read from the environment has an option of the same meaning (SERVE_OPTIONS).
import { bunCwd, cliPrefix, npmPrefix } from '../core/cli-command'
import { checkWorkers, ConfigError, DEFAULT_CLIENT_RATE_LIMIT, loadConfig, type Config } from '../core/config'
import { withinEdits } from '../core/text'

type ServeOption = { flag: string; env: string; value: string; help: string }

/** Every option of `storeloc serve`, and the variable it stands for. */
export const SERVE_OPTIONS: readonly ServeOption[] = [
  { flag: '--port', env: 'PORT', value: 'N', help: 'the HTTP port (0: a free one); default 3000' },
  {
    flag: '--host',
    env: 'HOST',
    value: 'ADDRESS',
    help: 'the interface to listen on; default 127.0.0.1 (this machine only; 0.0.0.0 for every interface)',
  },
  { flag: '--database', env: 'DATABASE_PATH', value: 'FILE', help: 'the SQLite file; default data/storeloc.db' },
  { flag: '--public-base-url', env: 'PUBLIC_BASE_URL', value: 'URL', help: 'the base URL of links in public answers' },
  {
    flag: '--client-rate-limit',
    env: 'CLIENT_RATE_LIMIT',
    value: 'N',
    help: `Query API requests a minute per client address; unset: ${DEFAULT_CLIENT_RATE_LIMIT}, known clients only; 0: off`,
  },
  {
    flag: '--page-rate-limit',
    env: 'PAGE_RATE_LIMIT',
    value: 'N',
    help: 'page requests (/l/...) a minute per client address; default 0: off',
  },
  {
    flag: '--trusted-proxies',
    env: 'TRUSTED_PROXIES',
    value: 'LIST',
    help: 'proxies whose X-Forwarded-For names the client: addresses, CIDRs',
  },
  {
    flag: '--locator-max-locations',
    env: 'LOCATOR_MAX_LOCATIONS',
    value: 'N',
    help: 'the most locations one locator may hold; default 1000000',
  },
  {
    flag: '--idempotency-max-mb',
    env: 'IDEMPOTENCY_MAX_MB',
    value: 'N',
    help: "a locator's Idempotency-Key answers kept over 24 hours, MB; default 1024",
  },
  { flag: '--workers', env: 'WORKERS', value: 'N|auto', help: 'server processes sharing the port (Linux)' },
  {
    flag: '--geocoder',
    env: 'GEOCODER',
    value: 'NAME',
    help: 'embedded, none, nominatim, photon, pelias, google, ...',
  },
  { flag: '--geocoder-url', env: 'GEOCODER_URL', value: 'URL', help: "the HTTP geocoder's base URL" },
  { flag: '--geocoder-api-key', env: 'GEOCODER_API_KEY', value: 'KEY', help: 'prefer the variable: ps shows options' },
  { flag: '--geocoder-user-agent', env: 'GEOCODER_USER_AGENT', value: 'TEXT', help: 'sent to HTTP geocoders' },
  { flag: '--geocoder-timeout-ms', env: 'GEOCODER_TIMEOUT_MS', value: 'MS', help: 'default 3000' },
  {
    flag: '--geodata',
    env: 'GEODATA_PATH',
    value: 'FILE',
    help: "the offline geocoder's data; default data/geocoder.sqlite",
  },
  {
    flag: '--map-tiles-url',
    env: 'MAP_TILES_URL',
    value: 'URL',
    help: 'tiles for the finder pages, {z}/{x}/{y}; unset: country shapes, nothing contacted',
  },
  {
    flag: '--map-tiles-attribution',
    env: 'MAP_TILES_ATTRIBUTION',
    value: 'TEXT',
    help: "the tiles' credit line, as their terms ask",
  },
  { flag: '--demo', env: 'DEMO', value: '1|0', help: "the demo stores on a new database's first start; default 1" },
  { flag: '--log-requests', env: 'LOG_REQUESTS', value: '1|0', help: 'a JSON line per request; default 1' },
  {
    flag: '--sitemap-index',
    env: 'SITEMAP_INDEX',
    value: '1|0',
    help: "/sitemap.xml names every public locator's sitemap; default 1",
  },
  {
    flag: '--index-idle-minutes',
    env: 'INDEX_IDLE_MINUTES',
    value: 'N',
    help: "an unqueried locator's index let go; default 60",
  },
  {
    flag: '--lock-wait',
    env: 'LOCK_WAIT_SECONDS',
    value: 'S',
    help: "the longest a start waits for another process's write lock; default 60",
  },
  {
    flag: '--metrics-port',
    env: 'METRICS_PORT',
    value: 'N',
    help: 'serve GET /metrics (Prometheus) on this port (0: a free one); unset: off',
  },
  {
    flag: '--metrics-host',
    env: 'METRICS_HOST',
    value: 'ADDRESS',
    help: "the metrics port's interface; default 127.0.0.1",
  },
  {
    flag: '--metrics-token',
    env: 'METRICS_TOKEN',
    value: 'TOKEN',
    help: 'a bearer token scrapes must send; prefer the variable',
  },
  {
    flag: '--metrics-locator-series',
    env: 'METRICS_LOCATOR_SERIES',
    value: 'N',
    help: 'the N largest indexes shown each by locator; default 0 (totals only)',
  },
  {
    flag: '--stop-timeout',
    env: 'STOP_TIMEOUT_SECONDS',
    value: 'S',
    help: 'the longest a stop waits for requests under way; default 8',
  },
  {
    flag: '--idle-timeout',
    env: 'IDLE_TIMEOUT_SECONDS',
    value: 'S',
    help: 'a connection silent this long is closed; default 10',
  },
]

/**
 * How the person typed serve: through the package's `start` script (`npm start --`, `bun run
 * start`, with --prefix or --cwd as typed), its `cli` script, npx, or the storeloc command,
 * which a checkout's `npm start` is too.
 */
function serveLine(env: Record<string, string | undefined>): string {
  const bun = env.npm_config_user_agent?.startsWith('bun/') === true
  if (env.npm_package_name === 'storeloc' && env.npm_lifecycle_event === 'start')
    return bun ? `bun run${bunCwd(env)} start [options]` : `npm${npmPrefix(env)} start -- [options]`
  const prefix = cliPrefix(env, true)
  return prefix === 'storeloc' ? 'storeloc serve [options]   (npm start -- [options])' : `${prefix} serve [options]`
}

/** serve's usage, its first line as the person typed the command (serveLine). */
export const serveUsage = (env: Record<string, string | undefined> = process.env): string => `Usage: ${serveLine(env)}

Starts the service. Each option overrides the environment variable named beside it.

${SERVE_OPTIONS.map((o) => `  ${`${o.flag} ${o.value}`.padEnd(30)}${o.env.padEnd(22)} ${o.help}`).join('\n')}
  ${'--no-demo'.padEnd(30)}${'DEMO=0'.padEnd(22)} no demo stores
  ${'--help'.padEnd(30)}${''.padEnd(22)} this text; the database is not touched

docs/configuration.md says more of each.`

/** An option there is not: the usage follows the message. */
class UsageError extends ConfigError {}

/** What the command line asks: the usage, or settings on top of the environment's. */
export type ServeArgs = { help: true } | { help: false; env: Record<string, string>; named: Map<string, string> }

/** Reads `storeloc serve`'s options (`--port 8080` or `--port=8080`); a ConfigError for anything else. */
export function parseServeArgs(argv: string[]): ServeArgs {
  const env: Record<string, string> = {}
  const named = new Map<string, string>() // variable -> the option that set it, for messages
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') return { help: true }
    if (arg === '--no-demo') {
      env.DEMO = '0'
      named.set('DEMO', '--no-demo')
      continue
    }
    const eq = arg.indexOf('=')
    const flag = eq > 0 ? arg.slice(0, eq) : arg
    const option = SERVE_OPTIONS.find((o) => o.flag === flag)
    if (option === undefined) {
      // A misspelt option is named, as the CLI names its own ("--prot": --port).
      const flags = [...SERVE_OPTIONS.map((o) => o.flag), '--no-demo', '--help']
      const meant =
        flags.find((f) => withinEdits(flag, f, 1)) ?? flags.find((f) => flag.length > 5 && withinEdits(flag, f, 2))
      const hint = meant === undefined ? '' : ` Did you mean ${meant}?`
      throw new UsageError(arg.startsWith('-') ? `unknown option ${flag}.${hint}` : `unexpected argument "${arg}".`)
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined) throw new UsageError(`${flag} needs a value (${option.value}).`)
    if (named.get(option.env) === flag) throw new UsageError(`${flag} is given more than once: give it once.`)
    env[option.env] = value
    named.set(option.env, flag)
  }
  return { help: false, env, named }
}

/**
 * A configuration message as the command line reads it: each variable a typed option set is named
 * as that option; with options typed, a variable left unset (`env`) is followed by its option at
 * its first mention ("METRICS_PORT (--metrics-port)"), the way to set it that the person is using.
 */
function withOptions(message: string, named: Map<string, string>, env: Record<string, string | undefined>): string {
  const variables = SERVE_OPTIONS.map((o) => o.env).sort((a, b) => b.length - a.length)
  const mentioned = new Set<string>()
  return message.replace(new RegExp(`\\b(?:${variables.join('|')})\\b`, 'g'), (variable) => {
    const typed = named.get(variable)
    if (typed !== undefined) return typed
    if (named.size === 0 || env[variable] || mentioned.has(variable)) return variable
    mentioned.add(variable)
    return `${variable} (${SERVE_OPTIONS.find((o) => o.env === variable)!.flag})`
  })
}

/**
 * The settings for `argv` over `environment`, or the usage: --help prints it (exit 0), a bad
 * option or value ends the start with exit code 2. `env` is what workers are started with.
 */
export function readConfig(
  argv: string[],
  environment: Record<string, string | undefined> = process.env,
): { config: Config; env: Record<string, string | undefined> } {
  let named = new Map<string, string>()
  try {
    const args = parseServeArgs(argv)
    if (args.help) {
      console.log(serveUsage(environment))
      process.exit(0)
    }
    named = args.named
    const env = { ...environment, ...args.env }
    const config = loadConfig(env)
    if (config.worker && !process.send)
      throw new ConfigError('STORELOC_WORKER is set by the primary process for its workers only; unset it.')
    if (!config.worker) checkWorkers(config)
    return { config, env }
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    const message = withOptions(e.message, named, environment)
    console.error(`Configuration error: ${message}${e instanceof UsageError ? `\n\n${serveUsage(environment)}` : ''}`)
    process.exit(2)
  }
}
