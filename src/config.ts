// The environment, read once, with defaults. Nothing else in the code base reads process.env.

export type Config = {
  port: number
  host: string
  databasePath: string
  /** Public base URL for links in Query API responses; null: derived from each request. */
  publicBaseUrl: string | null
  geocoder: 'none'
  /** Largest accepted request body, bytes. */
  maxBodyBytes: number
  /** One JSON line per request on stdout. */
  logRequests: boolean
}

export class ConfigError extends Error {}

const GEOCODERS = ['none'] as const

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`)
  }
  return value
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const geocoder = env.GEOCODER || 'none'
  if (!(GEOCODERS as readonly string[]).includes(geocoder)) {
    throw new ConfigError(`GEOCODER must be one of ${GEOCODERS.join(', ')}; got "${geocoder}".`)
  }
  const publicBaseUrl = env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : null
  if (publicBaseUrl !== null && !/^https?:\/\/[^/]+/.test(publicBaseUrl)) {
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL such as https://stores.example.com; got "${env.PUBLIC_BASE_URL}".`)
  }
  const logRequests = env.LOG_REQUESTS ?? '1'
  if (!['0', '1', 'true', 'false'].includes(logRequests)) {
    throw new ConfigError(`LOG_REQUESTS must be 1 or 0; got "${logRequests}".`)
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databasePath: env.DATABASE_PATH || 'data/storeloc.db',
    publicBaseUrl,
    geocoder: geocoder as Config['geocoder'],
    maxBodyBytes: 256 * 1024,
    logRequests: logRequests === '1' || logRequests === 'true',
  }
}
