// `storeloc serve` (and `npm start`): reads the settings and starts this process in its role.
// WORKERS=1 (the default): one process does everything (single.ts). WORKERS=N > 1: a primary and
// N workers, each started from `entry` (workers.ts).
import { misspeltSettings, misspeltText } from '../core/config'
import { commandFirst, servePaths } from '../core/typed-in'
import { GeodataPathError } from '../geocode/embedded'
import { databaseFault, diskFull } from '../store/db'
import { redactingLog } from './app-log'
import { databaseExit, START_EXIT, type StartExit, StartError } from './listen'
import { readConfig } from './options'
import { runSingle } from './single'
import { runPrimary, runWorker } from './workers'

const startLog = redactingLog()

/**
 * Starts the service with the options `argv` (SERVE_OPTIONS) and the settings of `environment`;
 * `entry` is the script a worker runs.
 */
export async function serve(
  { argv, env: environment }: { argv: string[]; env: Record<string, string | undefined> },
  entry: string,
): Promise<void> {
  const { config, env } = readConfig(argv, environment)
  if (!config.worker)
    for (const found of misspeltSettings(env)) startLog({ level: 'warn', message: misspeltText(found) })
  try {
    if (config.worker) return await runWorker(config)
    if (config.workers > 1) return await runPrimary(config, entry, env)
    return await runSingle(config)
  } catch (e) {
    // A database that fails the start anywhere (not only where it is opened) says so in one line.
    const said = e instanceof StartError || e instanceof GeodataPathError
    const fault = said ? null : databaseFault(e)
    if (!said && fault === null) throw e
    console.error(
      said
        ? (e as Error).message
        : `Cannot use the database at ${config.databasePath}: ${(e as Error).message.replace(/\.$/, '')}.`,
    )
    process.exit(startExit(e, config.databasePath))
  }
}

/**
 * `npm start`'s words: read as `storeloc serve`'s (`npm start -- serve --port 4000`, `npm start
 * -- --database FILE serve` too), their paths from where `npm start` was typed (servePaths).
 */
export async function serveTyped(typed: string[], entry: string): Promise<void> {
  const [first, ...rest] = commandFirst(typed)
  await serve(servePaths(first === 'serve' ? rest : typed, process.env), entry)
}

/** The exit code for an error that stopped a start (START_EXIT): whether it may pass by itself. */
function startExit(error: unknown, databasePath: string): StartExit {
  if (error instanceof StartError) return error.exitCode
  if (error instanceof GeodataPathError) return diskFull(error.path) ? START_EXIT.MAY_PASS : START_EXIT.NEEDS_OPERATOR
  return databaseExit(error, databasePath)
}
