// Opening the database and the port for a start, and stopping on a signal.
import type { Server } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { constants as osConstants } from 'node:os'
import { damagedAtStart, isCorruptError } from '../store/damage'
import { databaseFault, storageFault, storageFaultText } from '../store/db'
import { databaseOnTheWay, ownerUnlikeFolder, sidecarOf, wrongPath } from '../operator/file-owner'
import { unwritable, unwritableSentence } from '../operator/storage-check'
import { openStore, type Store } from '../store'
import type { Config } from '../core/config'

/**
 * How a start that cannot go on exits (docs/operations.md): 1 when it may pass by itself (a port
 * or lock held by a process about to end, a disk others free), so systemd starts it again; 3 when
 * only a person can mend it (a damaged file, a permission), so it does not. 2 is a bad setting.
 */
export const START_EXIT = { MAY_PASS: 1, SETTING: 2, NEEDS_OPERATOR: 3 } as const
export type StartExit = (typeof START_EXIT)[keyof typeof START_EXIT]

/** A start that cannot go on for a reason outside the program (the database, the address): main prints its message, no stack trace, and exits with `exitCode`. */
export class StartError extends Error {
  constructor(
    message: string,
    readonly exitCode: StartExit = START_EXIT.MAY_PASS,
  ) {
    super(message)
  }
}

/** The exit for a database error met at start: another process's lock and a full disk may pass; the rest waits for a person. */
export function databaseExit(error: unknown, path: string): StartExit {
  if (databaseFault(error) === 'busy' || storageFault(error, path) === 'full') return START_EXIT.MAY_PASS
  return START_EXIT.NEEDS_OPERATOR
}

/**
 * The store at DATABASE_PATH, or a StartError saying what is wrong with it. `waitForLock` false:
 * another process's write lock is thrown at once as SQLite's busy error (start.ts waits for it).
 */
export function openStoreToStart(path: string, waitForLock = true): Store {
  const sidecar = sidecarOf(path)
  if (sidecar !== null)
    throw new StartError(`Cannot use the database at ${path}: ${sidecar}`, START_EXIT.NEEDS_OPERATOR)
  const unreached = databaseOnTheWay(path)
  if (unreached !== null) throw new StartError(`Cannot use the database: ${unreached}`, START_EXIT.NEEDS_OPERATOR)
  // SQLite opens a file it may only read (its mode, a -shm of root's, a read-only mount) without a
  // word, and makes a -wal and -shm of the file's mode beside it, which a chmod of the file leaves.
  const before = existsSync(path) ? writeMend(path) : null
  if (before !== null)
    throw new StartError(
      `Cannot use the database at ${path}: this user may not write to it. ${before}`,
      START_EXIT.NEEDS_OPERATOR,
    )
  let store: Store
  try {
    store = openStore(path, waitForLock)
  } catch (e) {
    const fault = databaseFault(e)
    if (fault === null || (fault === 'busy' && !waitForLock)) throw e
    const exit = databaseExit(e, path)
    const storage = storageFault(e, path)
    if (storage === 'full')
      throw new StartError(
        `Cannot use the database at ${path}: the disk that holds it is full (SQLite: ${(e as Error).message}). Free space on it, then start again.`,
        exit,
      )
    const reason = (e as Error).message.replace(/\.$/, '')
    const folder = fault === 'file' ? wrongPath(path) : null
    if (folder !== null) throw new StartError(`Cannot use the database at ${path}: ${reason}. ${folder}`, exit)
    const mend = fault === 'file' || storage === 'readonly' ? writeMend(path) : null
    if (mend !== null) throw new StartError(`Cannot use the database at ${path}: ${reason}. ${mend}`, exit)
    if (storage !== null)
      throw new StartError(`Cannot use the database at ${path}: ${storageFaultText(storage, path)}`, exit)
    // SQLITE_NOTADB at opening: the path names something else than a database ('file' below).
    if (isCorruptError(e) && !String((e as { code?: unknown }).code).startsWith('SQLITE_NOTADB'))
      throw new StartError(damagedAtStart(path, reason), exit)
    const advice = {
      file: ' DATABASE_PATH must name a SQLite database file (made, with its folder, when missing) that this user can read and write.',
      busy: ' Another process holds it for writing: try again in a moment.',
      database: '',
    }[fault]
    throw new StartError(`Cannot use the database at ${path}: ${reason}.${advice}`, exit)
  }
  // Again after the open, for a file made or changed meanwhile: a start that went on would
  // answer every write 503.
  const mend = writeMend(path)
  if (mend === null) return store
  store.close()
  throw new StartError(
    `Cannot use the database at ${path}: this user may not write to it. ${mend}`,
    START_EXIT.NEEDS_OPERATOR,
  )
}

/** What this user may not write for the database at `path`, and how to mend it; null when nothing. */
function writeMend(path: string): string | null {
  if (unwritable(path).length === 0) return null
  // A file not of its folder's owner (made by a command run as root): giving it back mends it.
  const given = ownerUnlikeFolder(path)
  if (given !== null) return `${given} Then start again.`
  // The file and its folder by name, and why: a folder the unit's ProtectSystem=strict keeps read-only.
  return `${unwritableSentence(path)} Make them writable by the service's user, or the file system read-write (under systemd, a folder outside the unit's StateDirectory needs ReadWritePaths=), then start again.`
}

/** Bodies up to this reach the app (whose limit is maxBodyBytes); beyond it Bun answers a bare 413. */
const BUN_BODY_LIMIT = 2 ** 30
/**
 * A request's line and headers up to this reach the app, which answers a URL past MAX_URL_LENGTH
 * with the API's JSON 400; beyond it Bun answers a bare 431 and closes. Each connection whose
 * headers are still coming holds up to this much (Bun's default, 16 KiB, would cut such a URL
 * before the app sees it).
 */
export const HEADER_LIMIT = 32 * 1024
/** Hosts that are an address of every machine: a failure to listen there is the port's. */
const ALWAYS_HERE = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'])

/** Bun.serve on HOST and PORT, or a StartError: Bun says EADDRINUSE ("Is port in use?") for a host that is no address of this machine too. */
export function serveOn(config: Config, options: Omit<Parameters<typeof Bun.serve>[0], 'port' | 'hostname'>) {
  // Process-wide, read by every Bun.serve (Bun's own tests set it so); the type says read-only.
  // A larger one set with --max-http-header-size (BUN_OPTIONS) is kept.
  ;(http as { maxHeaderSize: number }).maxHeaderSize = Math.max(http.maxHeaderSize, HEADER_LIMIT)
  try {
    return Bun.serve({ ...options, port: config.port, hostname: config.host } as Parameters<typeof Bun.serve>[0])
  } catch (e) {
    throw listenFault(e, 'Cannot listen', config.host, config.port, { host: 'HOST (--host)', port: 'PORT (--port)' })
  }
}

/**
 * Why Bun.serve could not listen on `host`:`port`, as a StartError naming the settings to change
 * (`names`, each with its option) and the exit: a privileged port waits for a person.
 */
export function listenFault(
  e: unknown,
  what: string,
  host: string,
  port: number,
  names: { host: string; port: string },
): StartError {
  const code = (e as { code?: unknown } | null)?.code
  const at = `${what} on ${host}:${port}${typeof code === 'string' ? ` (${code})` : ''}`
  const notHere = `${names.host} is not an address of this machine (0.0.0.0 for all of them, 127.0.0.1 for this machine only)`
  if (code === 'EACCES')
    return new StartError(
      `${at}: this user may not listen on that port (ports below 1024 need privileges); use a higher ${names.port}.`,
      START_EXIT.NEEDS_OPERATOR,
    )
  // An address or a name missing may come up later (an interface or DNS not yet up at boot): may pass.
  if (code === 'EADDRNOTAVAIL') return new StartError(`${at}: ${notHere}.`)
  // A name that does not resolve to an address here ("nosuchhost.invalid", another machine's).
  if (code === 'EINVAL' || code === 'ENOTFOUND') return new StartError(`${at}: ${notHere}, or a name of one.`)
  const taken = `another program uses port ${port}: stop it, or choose another ${names.port}`
  return new StartError(`${at}: ${ALWAYS_HERE.has(host) ? taken : `${taken}, or ${notHere}`}.`)
}

/** Hosts of this machine only: what listens there is reached by no other. */
export const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i

/**
 * A warning line when the service is reached from other machines without PUBLIC_BASE_URL: the
 * absolute URLs of its pages and answers (canonical, hreflang, sitemaps) then follow each
 * request's Host and scheme, which a client may forge and a TLS proxy turns into http://.
 */
export function warnNoBaseUrl(config: Config, log: (line: Record<string, unknown>) => void): void {
  if (config.publicBaseUrl !== null || LOOPBACK.test(config.host)) return
  log({
    level: 'warn',
    message:
      "PUBLIC_BASE_URL is unset while the service listens beyond this machine: links in its pages, sitemaps and answers name each request's Host and scheme (a forged Host; http:// behind a TLS proxy). Set PUBLIC_BASE_URL to the address visitors use, such as https://stores.example.com",
    host: config.host,
  })
}

export function listen(
  config: Config,
  fetch: (request: Request, server: Server<unknown>) => Response | Promise<Response>,
  reusePort: boolean,
) {
  return serveOn(config, {
    reusePort,
    // The app reads a body only up to its limit and answers a larger one with a JSON 413 (Bun
    // reads the rest past, holding none of it). Bun's own 413 beyond this has no body.
    maxRequestBodySize: BUN_BODY_LIMIT,
    // IDLE_TIMEOUT_SECONDS (10, Bun's own default), always set: unset, Bun writes a plain-text
    // warning to stderr each time a connection idles out, among the JSON log lines.
    idleTimeout: config.idleTimeoutS,
    fetch,
  })
}

/**
 * Runs `stop` on the first SIGTERM, SIGINT or SIGHUP (or call of the returned function). SIGHUP
 * too: its default would end the process at once, cutting requests, and the service has no file
 * to reopen; unless it came ignored (`nohup`), which it stays. A SIGTERM or SIGINT during the stop
 * (Ctrl-C pressed twice), SAME_STOP_MS or more after the first, runs `force`, which ends the
 * process at once; without one (a worker, whose primary forces it), later signals are ignored. A
 * worker (`hangup: false`) ignores SIGHUP: its primary decides, and passes a stop on as SIGTERM.
 */
export function onStopSignal(
  stop: (signal: string) => Promise<void>,
  { hangup = true, force }: { hangup?: boolean; force?: (signal: string) => void } = {},
): (reason: string) => void {
  let stopping = false
  let since = 0
  const handle = (reason: string) => {
    if (stopping) return
    stopping = true
    since = performance.now()
    void stop(reason)
  }
  const again = (signal: string) => {
    if (!stopping || !force) return handle(signal)
    if (performance.now() - since >= SAME_STOP_MS) force(signal)
  }
  process.on('SIGTERM', () => again('SIGTERM'))
  process.on('SIGINT', () => again('SIGINT'))
  if (!hangup) process.on('SIGHUP', () => {})
  else if (!ignoredAtStart(1)) process.on('SIGHUP', () => handle('SIGHUP'))
  return handle
}

/**
 * How long after a stop's signal another is taken for the same one, ms: a terminal's Ctrl-C reaches
 * every process of its foreground group, and a parent that passes signals on (npm, the storeloc
 * launcher) sends it again within a few ms; so does a signal to a process group (systemd's
 * KillMode=control-group). A person's second Ctrl-C comes later.
 */
export const SAME_STOP_MS = 1_000

/** A forced stop's exit code: 128 + the signal's number, as a shell reports a process that signal ended (130 for SIGINT). */
export const forcedExit = (signal: string): number => 128 + (osConstants.signals[signal as NodeJS.Signals] ?? 15)

/**
 * The line of a stop forced by a second signal: what it cut, the requests under way (their
 * answers unsent) and, when the start was not done, the start.
 */
export const forcedLine = (signal: string, requests: number, starting: boolean) => ({
  level: 'warn',
  message: `stop forced by a second ${signal}: ${requests} request${requests === 1 ? '' : 's'} under way cut${starting ? ', and the start' : ''}`,
  signal,
  requests,
})

/**
 * The last line of a stop that ended by itself (exit 0), `t0` its signal's time: beside "shutting
 * down", it tells a clean stop from one a service manager killed at its own timeout.
 */
export const stoppedLine = (t0: number) => ({
  level: 'info',
  message: 'stopped',
  ms: Math.round(performance.now() - t0),
})

/** Whether signal `n` was ignored when this process started (Linux: SigIgn in /proc/self/status); false when it cannot tell. */
function ignoredAtStart(n: number): boolean {
  try {
    const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    return mask !== undefined && (BigInt(`0x${mask}`) >> BigInt(n - 1)) % 2n === 1n
  } catch {
    return false
  }
}
