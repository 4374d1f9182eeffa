// The first start on a new database: a locator, its key in a terminal, the demo.
import { resolve } from 'node:path'
import { jsonLine } from '../core/log-line'
import { shellWord } from '../core/shell'
import { cliCommand } from '../core/cli-command'
import { DEFAULT_DATABASE_PATH, type Config } from '../core/config'
import { typedPath } from '../core/typed-in'
import { loadDemo } from '../operator/demo'
import { createKeylessLocator, createLocator } from '../operator'
import { asMe, asRootOnly } from '../operator/file-owner'
import type { Store } from '../store'

/** The database \`npm run cli\` opens by default: npm runs scripts in the package's folder. */
const NPM_DEFAULT_DATABASE = resolve(import.meta.dir, '../..', DEFAULT_DATABASE_PATH)
/** The CLI's script, by its whole path: run by this Bun, it works from any folder (and in an image without npm). */
const CLI_SCRIPT = resolve(import.meta.dir, '../storeloc.ts')

/**
 * The command that makes a key for `locatorId` on the database at `databasePath`, as this start
 * was launched (by npm or Bun: cliCommand), to run where it was typed: the log is read there.
 */
function keyCommand(databasePath: string, locatorId: string, viaNpm: boolean): string {
  // Whole as the system reads it: resolve drops a `..` after a link as text, naming another file.
  const path = typedPath(process.cwd(), databasePath)
  if (viaNpm)
    return `${path === NPM_DEFAULT_DATABASE ? '' : `DATABASE_PATH=${shellWord(path)} `}${cliCommand(`key create ${locatorId}`, process.env, true)}`
  // Through env: a command, not a shell's assignment, so `docker exec CONTAINER` may lead it.
  return asMe(
    path,
    `env DATABASE_PATH=${shellWord(path)} ${shellWord(process.execPath)} ${shellWord(CLI_SCRIPT)} key create ${locatorId}`,
  )
}

/** The first start's locator's name. */
const FIRST_LOCATOR = 'My store locator'

/**
 * On a database with no locator yet, creates one and prints, this once, how to reach it; unless
 * told not to, also loads the demo stores into a demo locator with its Query API on. A demo that
 * fails to load is reported, and never costs the first locator's one-time key.
 *
 * Its secret key is made and printed only when stdout is a terminal: otherwise stdout is the
 * request log's stream (a service manager's journal, a container's log), where no key may be
 * written. The locator is made all the same, and the lines say how to make its key with the CLI,
 * whose output goes to whoever runs it.
 */
export function bootstrap(
  store: Store,
  host: string,
  port: number,
  demo: boolean,
  databasePath: string,
  viaNpm: boolean,
  inTerminal = process.stdout.isTTY === true,
): void {
  // A database with locators is only read: a start must not wait for another process's write.
  if (store.locators.count() > 0) return
  // One transaction with the count: two processes starting on a new file make one locator and one
  // demo, and a crash before the key is printed leaves nothing (the next start makes them). The
  // demo is a savepoint in it: one that fails is undone alone. Another process's write lock fails
  // it at once (SQLITE_BUSY), for the caller to try again on a timer (start.ts).
  const made = store.writeNow(() => {
    if (store.locators.count() > 0) return null
    const first = inTerminal
      ? createLocator(store, FIRST_LOCATOR)
      : { locator: createKeylessLocator(store, FIRST_LOCATOR), secret: null }
    let loaded: ReturnType<typeof loadDemo> | null = null
    let failed: unknown = null
    if (demo) {
      try {
        loaded = loadDemo(store)
      } catch (e) {
        failed = e
      }
    }
    return { ...first, loaded, failed }
  })
  if (made === null) return
  const { locator, secret, loaded, failed } = made
  const keyLine = keyCommand(databasePath, locator.id, viaNpm)
  const lines =
    secret !== null
      ? [
          '',
          'Created your first locator. The secret key is shown this once: store it now.',
          `  locator id:    ${locator.id}`,
          `  secret key:    ${secret}`,
          `  public token:  ${locator.publicToken}`,
          '',
          'Try the Management API:',
          `  curl -H "Authorization: Bearer ${secret}" http://${host}:${port}/admin/v1/locations`,
          '',
        ]
      : [
          '',
          'Created your first locator. Its secret key is not made here: this output is not a terminal, so it may be kept in a log.',
          `  locator id:    ${locator.id}`,
          `  public token:  ${locator.publicToken}`,
          '',
          `Make its key where only you see it (the key is shown once)${asRootOnly(keyLine) ? ', as root' : ''}:`,
          `  ${keyLine}`,
          '',
        ]
  if (loaded !== null) {
    lines.push(
      `Loaded the demo: ${loaded.locations} stores in "${loaded.locator.name}" (locator ${loaded.locator.id}), Query API on.`,
      'Try the public Query API (stores within 10 km of central London, nearest first):',
      `  curl "http://${host}:${port}/public/v1/${loaded.locator.publicToken}/locations?lat=51.5074&lng=-0.1278&radius=10&unit=km&limit=3"`,
      'Open its store finder in a browser:',
      `  http://${host}:${port}/l/${loaded.locator.publicToken}`,
      '',
    )
  }
  if (failed !== null)
    console.error(jsonLine({ level: 'error', message: 'demo not loaded', error: (failed as Error).message }))
  console.log(lines.join('\n'))
}

/** How the printed curl lines name the host. */
export const displayHost = (config: Config) =>
  config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
