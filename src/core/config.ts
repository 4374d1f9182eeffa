// The environment, read once, with defaults. Nothing else in the code base reads process.env.
import { lstatSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { linkTarget } from './link-target'
import { WHOLE_NUMBER, withinEdits } from './text'
import { typedPath, withoutFoldersLeft } from './typed-in'

export type Config = {
  port: number
  host: string
  databasePath: string
  /** Public base URL for links in Query API responses; null: derived from each request. */
  publicBaseUrl: string | null
  geocoder: GeocoderConfig
  /** Largest accepted request body, bytes. */
  maxBodyBytes: number
  /** One JSON line per request on stdout. */
  logRequests: boolean
  /** Whether GET /sitemap.xml lists every public locator's sitemap, and robots.txt names it (SITEMAP_INDEX). */
  sitemapIndex: boolean
  /** Load the demo data set (data/demo/demo.json) into a demo locator on a new database's first start. */
  demo: boolean
  /** Server processes sharing the port (SO_REUSEPORT); 1: this process serves alone, as always. */
  workers: number
  /** A locator's index not queried for this long is let go (memory) and built again by its next query; 0: kept for good. */
  indexIdleMs: number
  /** The longest a start waits for another process's write lock before it gives up. */
  lockWaitMs: number
  /** The longest a stop waits for the requests under way before it closes what is left. */
  stopTimeoutMs: number
  /** A connection that sends nothing for this long is closed: idle between requests, or a body that stopped coming. */
  idleTimeoutS: number
  /** GET /metrics on a port of its own (METRICS_PORT); null: off, the default. */
  metrics: MetricsConfig | null
  /** Map tiles for the service's own pages (MAP_TILES_URL); null: the country shapes served with the widget, nothing contacted. */
  mapTiles: MapTiles | null
  /** Internal: this process is one of the workers a primary started (STORELOC_WORKER=1, set by the primary, src/server/workers.ts). */
  worker: boolean
  /** Query API requests a minute per client address, all locators together (CLIENT_RATE_LIMIT, DEFAULT_CLIENT_RATE_LIMIT unset); 0: off. */
  clientRateLimit: number
  /**
   * CLIENT_RATE_LIMIT unset: its default counts only the clients known for sure (src/api/public/clients.ts,
   * scope 'seen'); set, every address.
   */
  clientRateLimitKnownOnly: boolean
  /** Page requests (under /l/) a minute per client address, counted apart from the Query API's (PAGE_RATE_LIMIT); 0: off. */
  pageRateLimit: number
  /** Addresses and CIDR ranges of proxies whose X-Forwarded-For / Forwarded name the client (TRUSTED_PROXIES); none by default. */
  trustedProxies: string[]
  /** The most locations one locator may hold; the Management API refuses a create past it (LOCATOR_MAX_LOCATIONS). */
  locatorMaxLocations: number
  /** The most bytes of Idempotency-Key answers one locator keeps for retries over 24 hours (IDEMPOTENCY_MAX_MB). */
  idempotencyMaxBytes: number
  /** Whether this package's `npm start` started it (not npx, not another package's script): the commands it prints are then npm's too. */
  viaNpm: boolean
}

/** A tile server's URL template ({z}/{x}/{y}) and the attribution its terms ask for. */
export type MapTiles = { url: string; attribution: string }

/** MAP_TILES_URL: an http(s) template with {z}, {x} and {y}; null when unset. */
function mapTilesConfig(env: Record<string, string | undefined>): MapTiles | null {
  const url = env.MAP_TILES_URL?.trim()
  if (!url) return null
  if (!/^https?:\/\//i.test(url) || !['{z}', '{x}', '{y}'].every((part) => url.includes(part)))
    throw new ConfigError(
      `MAP_TILES_URL must be an http(s) URL with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png; got "${url}".`,
    )
  return { url, attribution: env.MAP_TILES_ATTRIBUTION?.trim() ?? '' }
}

/** The Prometheus metrics listener: apart from the APIs' port, on loopback unless METRICS_HOST says otherwise. */
export type MetricsConfig = {
  port: number
  host: string
  /** When set, a scrape must send "Authorization: Bearer <token>"; never logged. */
  token: string | null
  /** The built indexes, most locations first, shown each with a `locator` label; 0: their totals only. */
  locatorSeries: number
}

/** METRICS_TOKEN at least: a guessable token protects nothing. */
export const MIN_METRICS_TOKEN_CHARS = 16

/** Where the database is when DATABASE_PATH does not say (the service's and the CLI's). */
export const DEFAULT_DATABASE_PATH = 'data/storeloc.db'

export const MAX_WORKERS = 64
/** INDEX_IDLE_MINUTES at most: a year. */
const MAX_IDLE_MINUTES = 525_600

export const GEOCODER_PROVIDERS = [
  'embedded',
  'none',
  'nominatim',
  'photon',
  'pelias',
  'google',
  'mapbox',
  'opencage',
] as const
export type GeocoderProvider = (typeof GEOCODER_PROVIDERS)[number]

export type GeocoderConfig = {
  /** embedded: the offline geocoder (default); none: resolve nothing; the rest: HTTP services, opt-in. */
  provider: GeocoderProvider
  /** Base URL of the HTTP service; null: the provider's public endpoint. */
  url: string | null
  apiKey: string | null
  /** Sent as User-Agent to HTTP services (Nominatim's policy asks for one that identifies the application). */
  userAgent: string
  /** Longest a write waits for the HTTP service before falling back to the embedded geocoder. */
  timeoutMs: number
  /** The embedded geocoder's compiled data file (built on first start). */
  dataPath: string
}

/** Providers that refuse requests without a key. */
const NEEDS_KEY: readonly GeocoderProvider[] = ['google', 'mapbox', 'opencage']

export class ConfigError extends Error {}

/** LOCATOR_MAX_LOCATIONS unless set: the largest locator the service is measured at (docs/performance.md). */
export const DEFAULT_LOCATOR_MAX_LOCATIONS = 1_000_000

export const MIB = 1024 * 1024
/** IDEMPOTENCY_MAX_MB unless set: over 30 nightly keyed syncs of a 100,000-store chain (100 bulks, 115-300 KB each). */
export const DEFAULT_IDEMPOTENCY_MAX_MB = 1024

/**
 * Query API requests a minute from one client known for sure while CLIENT_RATE_LIMIT is unset: a
 * visitor makes a few dozen; under a third of a token's default 1,000, so no one address spends it.
 */
export const DEFAULT_CLIENT_RATE_LIMIT = 300

/** CLIENT_RATE_LIMIT (and PAGE_RATE_LIMIT) at most, as a locator's --rate-limit. */
export const MAX_CLIENT_RATE_LIMIT = 1_000_000

/**
 * TRUSTED_PROXIES: addresses and CIDR ranges ("127.0.0.1, 10.0.0.0/8, ::1"), each checked and
 * written back as "address/prefix"; none when unset.
 */
function trustedProxies(env: Record<string, string | undefined>): string[] {
  const raw = env.TRUSTED_PROXIES?.trim()
  if (!raw) return []
  return raw
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const [address = '', prefix, ...more] = entry.split('/')
      const family = isIP(address)
      const bits = family === 6 ? 128 : 32
      if (
        family === 0 ||
        more.length > 0 ||
        (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))
      )
        throw new ConfigError(
          `TRUSTED_PROXIES must list IP addresses or CIDR ranges, separated by commas, such as 127.0.0.1,10.0.0.0/8,::1; "${entry}" is neither.`,
        )
      return `${address}/${prefix ?? bits}`
    })
}

function integer(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!WHOLE_NUMBER.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`)
  }
  return value
}

/**
 * `path` by its real path: links followed, to a file not made yet too, and under folders not made
 * yet (its nearest folder there, or a link's target, resolved; the rest appended as spelt), as
 * resolved where even that cannot be read. Whole always, unlike store/read-open's realPathIfThere,
 * which gives a path not there as given.
 */
export function realPathToBe(path: string, links = 0): string {
  // Made whole with its `..` kept: after a link, `..` leaves the link's target, not the link's folder.
  const whole = typedPath(process.cwd(), path)
  try {
    return realpathSync.native(whole)
  } catch {}
  // Up to the nearest part there: every folder above it is there, so realpath resolves it whole.
  const rest: string[] = []
  try {
    for (let at = whole; at !== dirname(at); at = dirname(at)) {
      const seen = lstatSync(at, { throwIfNoEntry: false })
      // A link to a file or folder not made yet: the start would make its target. Its target's
      // `..` is read as the system reads it (linkTarget): the folders on the way may be links.
      if (seen?.isSymbolicLink() && links < 8) return realPathToBe(resolve(linkTarget(at), ...rest), links + 1)
      if (seen !== undefined) return resolve(realpathSync.native(at), ...rest)
      rest.unshift(basename(at))
    }
  } catch {}
  return resolve(whole)
}

/**
 * Whether `a` and `b` name one file, however spelt: one real path (links followed), or one file
 * by a hard link.
 */
function oneFile(a: string, b: string): boolean {
  if (realPathToBe(a) === realPathToBe(b)) return true
  const sa = statOf(a)
  const sb = statOf(b)
  return sa !== null && sb !== null && sa.dev === sb.dev && sa.ino === sb.ino
}

/** `path`'s stat, or null where it is not there or not to be looked at (the start says why later). */
function statOf(path: string): { dev: number; ino: number } | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

/** A worker count: 1 to MAX_WORKERS, or "auto" for the number of cores (at most MAX_WORKERS). `name` is how the user set it. */
export function parseWorkers(raw: string, name: string, cores: number = availableParallelism()): number {
  if (raw === 'auto') return Math.max(1, Math.min(cores, MAX_WORKERS))
  const value = Number(raw)
  if (!WHOLE_NUMBER.test(raw) || value < 1 || value > MAX_WORKERS) {
    throw new ConfigError(
      `${name} must be a whole number from 1 to ${MAX_WORKERS}, or auto (one per core: ${cores} here); got "${raw}".`,
    )
  }
  return value
}

/**
 * What more than one worker needs beyond valid values. Checked when the server starts, not in
 * loadConfig: the CLI reads the same environment and serves nothing.
 */
export function checkWorkers(config: Config, platform: string = process.platform): void {
  if (config.workers === 1) return
  if (platform !== 'linux') {
    throw new ConfigError(
      `WORKERS above 1 needs Linux, where processes can share a port (SO_REUSEPORT); this is ${platform}. Use WORKERS=1.`,
    )
  }
  if (config.geocoder.provider === 'nominatim' && config.geocoder.url === null) {
    throw new ConfigError(
      'GEOCODER=nominatim on the public instance allows one request per second in all, and each worker would keep its own pace: use WORKERS=1, or your own instance (GEOCODER_URL).',
    )
  }
}

/**
 * A base URL setting (paths are added to it), without its trailing slashes; null when unset. It
 * must parse as a URL (a host without spaces, a port up to 65535), be http(s), and carry no query
 * or fragment, which the paths added after it would land in.
 */
function baseUrl(env: Record<string, string | undefined>, name: string, example: string): string | null {
  const raw = env[name]
  if (!raw) return null
  const must = `${name} must be an http(s) URL without a query or fragment, such as ${example}; got "${raw}"`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${must}.`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !/^https?:\/\/[^/?#]/i.test(raw) || /\s/.test(raw))
    throw new ConfigError(`${must}.`)
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(raw))
    throw new ConfigError(`${must} (its query or fragment would come before the paths added to it).`)
  return raw.replace(/\/+$/, '')
}

/** METRICS_PORT, METRICS_HOST, METRICS_TOKEN and METRICS_LOCATOR_SERIES, or null when METRICS_PORT is unset (metrics off). */
function metricsConfig(env: Record<string, string | undefined>, port: number): MetricsConfig | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '') {
    for (const name of ['METRICS_HOST', 'METRICS_TOKEN', 'METRICS_LOCATOR_SERIES'])
      if (env[name])
        throw new ConfigError(
          `${name} is set but METRICS_PORT is not: metrics are off until METRICS_PORT names their port.`,
        )
    return null
  }
  const metricsPort = integer(env, 'METRICS_PORT', 0, 0, 65535)
  if (metricsPort !== 0 && metricsPort === port)
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (both ${port}): metrics are served on a port of their own.`,
    )
  // Trimmed, as a secret read from a file often ends in a newline. Never quoted back in a message.
  const token = env.METRICS_TOKEN?.trim() || null
  if (token !== null && (token.length < MIN_METRICS_TOKEN_CHARS || !/^[\x21-\x7e]+$/.test(token)))
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_CHARS} printable ASCII characters without spaces (e.g. the output of openssl rand -hex 32); the one given is not.`,
    )
  // Two series an index: 500 locators would be 1,000 series a worker, each scrape.
  const locatorSeries = integer(env, 'METRICS_LOCATOR_SERIES', 0, 0, 10_000)
  return { port: metricsPort, host: env.METRICS_HOST || '127.0.0.1', token, locatorSeries }
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cores: number = availableParallelism(),
): Config {
  const provider = env.GEOCODER || 'embedded'
  if (!(GEOCODER_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(`GEOCODER must be one of ${GEOCODER_PROVIDERS.join(', ')}; got "${provider}".`)
  }
  const geocoderUrl = baseUrl(env, 'GEOCODER_URL', 'http://127.0.0.1:8080')
  // Trimmed: a key read from a secret file (Docker, Kubernetes) often ends in a newline, and no provider's key has white space.
  const apiKey = env.GEOCODER_API_KEY?.trim() || null
  if (NEEDS_KEY.includes(provider as GeocoderProvider) && apiKey === null) {
    throw new ConfigError(`GEOCODER=${provider} needs GEOCODER_API_KEY.`)
  }
  if (provider === 'nominatim' && geocoderUrl === null && !env.GEOCODER_USER_AGENT) {
    throw new ConfigError(
      'GEOCODER=nominatim on the public instance needs GEOCODER_USER_AGENT naming your application and a contact, e.g. "acme-stores/1.0 (ops@acme.example)" (its usage policy).',
    )
  }
  if (provider === 'pelias' && geocoderUrl === null && apiKey === null) {
    throw new ConfigError(
      'GEOCODER=pelias needs the address of your own Pelias in GEOCODER_URL, or GEOCODER_API_KEY for the hosted geocode.earth.',
    )
  }
  // The Query API spec's {public_base_url} ends in /public/v1, which links here add themselves:
  // given so (as the spec names it), the base before it; links would say /public/v1/public/v1.
  const publicBaseUrl =
    baseUrl(env, 'PUBLIC_BASE_URL', 'https://stores.example.com')?.replace(/\/public\/v1$/, '') ?? null
  const demo = env.DEMO ?? '1'
  if (!['0', '1', 'true', 'false'].includes(demo)) throw new ConfigError(`DEMO must be 1 or 0; got "${demo}".`)
  const logRequests = env.LOG_REQUESTS ?? '1'
  if (!['0', '1', 'true', 'false'].includes(logRequests)) {
    throw new ConfigError(`LOG_REQUESTS must be 1 or 0; got "${logRequests}".`)
  }
  const sitemapIndex = env.SITEMAP_INDEX ?? '1'
  if (!['0', '1', 'true', 'false'].includes(sitemapIndex)) {
    throw new ConfigError(`SITEMAP_INDEX must be 1 or 0; got "${sitemapIndex}".`)
  }
  const port = integer(env, 'PORT', 3000, 0, 65535)
  // Set but empty (a blank line of an env file) would make a new database where the process runs.
  if (env.DATABASE_PATH === '')
    throw new ConfigError(
      `DATABASE_PATH is set but empty: name the database file, or leave the variable out for ${DEFAULT_DATABASE_PATH}.`,
    )
  // Read without the folders a `..` leaves that are not there: opening makes the folders the path
  // names, and the system reads those `..` only once they are made.
  const databasePath = withoutFoldersLeft(env.DATABASE_PATH ?? DEFAULT_DATABASE_PATH)
  const dataPath = withoutFoldersLeft(env.GEODATA_PATH || 'data/geocoder.sqlite') // its build makes its folders too
  if (oneFile(dataPath, databasePath))
    throw new ConfigError(
      env.GEODATA_PATH
        ? `GEODATA_PATH and DATABASE_PATH name one file (${databasePath}). The geocoder's data needs a file of its own: leave GEODATA_PATH out, or name another file.`
        : `DATABASE_PATH names the geocoder's data file (${databasePath}). Point it at a file of its own (by default ${DEFAULT_DATABASE_PATH}).`,
    )
  return {
    port,
    host: env.HOST || '127.0.0.1', // this machine only: the Management API goes no further unless asked
    databasePath,
    publicBaseUrl,
    geocoder: {
      provider: provider as GeocoderProvider,
      url: geocoderUrl,
      apiKey,
      userAgent: env.GEOCODER_USER_AGENT || 'storeloc/0.1 (self-hosted store locator)',
      timeoutMs: integer(env, 'GEOCODER_TIMEOUT_MS', 3000, 100, 60_000),
      dataPath,
    },
    maxBodyBytes: 256 * 1024,
    logRequests: logRequests === '1' || logRequests === 'true',
    demo: demo === '1' || demo === 'true',
    sitemapIndex: sitemapIndex === '1' || sitemapIndex === 'true',
    indexIdleMs: integer(env, 'INDEX_IDLE_MINUTES', 60, 0, MAX_IDLE_MINUTES) * 60_000,
    lockWaitMs: integer(env, 'LOCK_WAIT_SECONDS', 60, 0, 86_400) * 1000,
    stopTimeoutMs: integer(env, 'STOP_TIMEOUT_SECONDS', 8, 1, 3600) * 1000,
    // Bun closes a connection at its first 4 s look past the time: below 5, one still sending (at
    // 1 to 4, a body coming every 100 ms is cut at 4 s). Bun.serve takes 255 at most.
    idleTimeoutS: integer(env, 'IDLE_TIMEOUT_SECONDS', 10, 5, 255),
    workers: env.WORKERS === undefined || env.WORKERS === '' ? 1 : parseWorkers(env.WORKERS, 'WORKERS', cores),
    metrics: metricsConfig(env, port),
    mapTiles: mapTilesConfig(env),
    clientRateLimit: integer(env, 'CLIENT_RATE_LIMIT', DEFAULT_CLIENT_RATE_LIMIT, 0, MAX_CLIENT_RATE_LIMIT),
    clientRateLimitKnownOnly: (env.CLIENT_RATE_LIMIT ?? '') === '',
    pageRateLimit: integer(env, 'PAGE_RATE_LIMIT', 0, 0, MAX_CLIENT_RATE_LIMIT),
    trustedProxies: trustedProxies(env),
    locatorMaxLocations: integer(env, 'LOCATOR_MAX_LOCATIONS', DEFAULT_LOCATOR_MAX_LOCATIONS, 1, 1_000_000_000),
    idempotencyMaxBytes: integer(env, 'IDEMPOTENCY_MAX_MB', DEFAULT_IDEMPOTENCY_MAX_MB, 1, 1_000_000) * MIB,
    worker: env.STORELOC_WORKER === '1',
    viaNpm: env.npm_lifecycle_event === 'start' && env.npm_package_name === 'storeloc',
  }
}

/** Every variable loadConfig reads. */
export const SETTINGS = [
  'CLIENT_RATE_LIMIT',
  'DATABASE_PATH',
  'DEMO',
  'GEOCODER',
  'GEOCODER_API_KEY',
  'GEOCODER_TIMEOUT_MS',
  'GEOCODER_URL',
  'GEOCODER_USER_AGENT',
  'GEODATA_PATH',
  'HOST',
  'IDEMPOTENCY_MAX_MB',
  'IDLE_TIMEOUT_SECONDS',
  'INDEX_IDLE_MINUTES',
  'LOCATOR_MAX_LOCATIONS',
  'LOCK_WAIT_SECONDS',
  'LOG_REQUESTS',
  'MAP_TILES_ATTRIBUTION',
  'MAP_TILES_URL',
  'METRICS_HOST',
  'METRICS_LOCATOR_SERIES',
  'METRICS_PORT',
  'METRICS_TOKEN',
  'PAGE_RATE_LIMIT',
  'PORT',
  'PUBLIC_BASE_URL',
  'SITEMAP_INDEX',
  'STOP_TIMEOUT_SECONDS',
  'STORELOC_WORKER',
  'TRUSTED_PROXIES',
  'WORKERS',
]

/**
 * Variables set that look like a setting but are none (DATABSE_PATH, database_path, GEODATAPATH,
 * DATABASE):
 * a misspelt one is ignored, so its default applies (a new, empty database). Each with the
 * setting meant. Long settings only are matched two edits off: short names (PATH, HOME) are
 * other programs'.
 */
export function misspeltSettings(env: Record<string, string | undefined>): Misspelt[] {
  const out: Misspelt[] = []
  const squeeze = (name: string) => name.toUpperCase().replace(/[-_ ]/g, '')
  // A long setting in the singular or the plural alike: TRUSTED_PROXY is TRUSTED_PROXIES.
  const singular = (name: string) => squeeze(name).replace(/IES$/, 'Y').replace(/S$/, '')
  for (const name of Object.keys(env)) {
    if (SETTINGS.includes(name) || env[name] === undefined) continue
    const upper = name.toUpperCase()
    const meant = SETTINGS.find(
      (s) =>
        squeeze(s) === squeeze(name) ||
        (s.endsWith('_PATH') && squeeze(s) === `${squeeze(name)}PATH` && shortForPath(env, name, s)) ||
        (s.length >= 7 && name.length >= 6 && (withinEdits(upper, s, 2) || singular(s) === singular(name))),
    )
    if (meant !== undefined) out.push({ name, meant, meantSet: env[meant] !== undefined })
  }
  return out
}

/**
 * A path setting's name without _PATH (DATABASE) is a general one other programs read too: it is
 * meant for `setting` only while that is unset, and when its value is no URL (postgres://...).
 */
const shortForPath = (env: Record<string, string | undefined>, name: string, setting: string) =>
  env[setting] === undefined && !/^[a-z][a-z\d+.-]*:\/\//i.test(env[name] ?? '')

/** A variable named like a setting it is not: the setting meant, and whether that is set too. */
export type Misspelt = { name: string; meant: string; meantSet: boolean }

/** misspeltSettings' finds as sentences. */
export const misspeltText = ({ name, meant, meantSet }: Misspelt) =>
  `${name} is set, but storeloc reads no setting of that name: did you mean ${meant}? It is left out, so ${meant} ${meantSet ? 'keeps the value it is set to' : 'keeps its default'}.`
