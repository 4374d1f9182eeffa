// The server's settings: the environment, then the command line's flags.
import { checkWorkers, ConfigError, loadConfig, parseWorkers, type Config } from '../core/config'

/** `--workers N` or `--workers=N` as given, or null when absent. */
function workersFlag(argv: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--workers') return argv[i + 1] ?? ''
    if (argv[i]!.startsWith('--workers=')) return argv[i]!.slice('--workers='.length)
  }
  return null
}

/** The environment and the flags (`--no-demo`, `--workers N`); a bad value ends the start with exit code 2. */
export function readConfig(): Config {
  try {
    const argv = process.argv.slice(2)
    let config = loadConfig(process.env)
    if (argv.includes('--no-demo')) config = { ...config, demo: false }
    const workers = workersFlag(argv)
    if (workers !== null) config = { ...config, workers: parseWorkers(workers, '--workers') }
    if (config.worker && !process.send)
      throw new ConfigError('STORELOC_WORKER is set by the primary process for its workers only; unset it.')
    if (!config.worker) checkWorkers(config)
    return config
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(2)
    }
    throw e
  }
}
