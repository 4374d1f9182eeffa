// A command's failure as the person reads it: a usage error (exit 2) with the usage of the command
// it is about, a refusal (exit 1), or a database that could not be opened, read or written (exit
// 1) with what to do where that is known; on standard error, or as JSON with --json.
import { ConfigError } from '../core/config'
import { geodataCommand } from '../core/cli-command'
import { redactSecrets } from '../core/ids'
import { shellWord } from '../core/shell'
import { GeodataDamagedError, GeodataPathError } from '../geocode/embedded'
import { geodataVersion } from '../geocode/embedded/ensure'
import { OperatorError, type Refusal } from '../operator'
import { hiddenByFolder, otherOwner, walWithoutShm, wrongPath } from '../operator/file-owner'
import { unwritableSentence } from '../operator/storage-check'
import { databaseFault, storageFault, storageFaultText } from '../store/db'
import { besideDatabase } from './geodata-path'
import { MissingArguments, OutputError, UsageError } from './output'
import { missingText, usageOf } from './usage'

/**
 * What a failure's message depends on: the command line, the database it named ('' before that
 * was known), whether a new secret key was printed (its transaction failed at its commit after),
 * whether the command only reads, and where the output goes.
 */
export type FailedCommand = {
  argv: string[]
  databasePath: string
  secretShown: boolean
  readsOnly: boolean
  out: (text: string) => void
  err: (text: string) => void
}

/** Tells the failure `e` of a command, and returns its exit code; an error of no kind known is thrown again. */
export function failureCode(
  e: unknown,
  { argv, databasePath, secretShown, readsOnly, out, err }: FailedCommand,
): number {
  // With --json a failure is JSON on standard output too, shaped as the API's errors (without
  // the lines under the message). Standard output that refuses it (a full disk) leaves standard
  // error, as without --json.
  const fail = (code: string, message: string, refusal: Refusal = {}) => {
    if (argv.includes('--json'))
      try {
        const { details } = refusal
        return out(JSON.stringify({ success: false, error: code, message, ...(details && { details }) }, null, 2))
      } catch (refused) {
        if (!(refused instanceof OutputError)) throw refused
      }
    err([`storeloc: ${message}`, ...(refusal.lines ?? [])].join('\n'))
  }
  if (e instanceof UsageError) {
    const message = e instanceof MissingArguments ? missingText(argv, e.given) : e.message
    fail('usage', redactSecrets(message), { lines: ['', usageOf(e.command ?? argv)] })
    return 2
  }
  if (e instanceof OperatorError) {
    fail(e.refusal.code ?? 'refused', redactSecrets(e.message), e.refusal)
    return 1
  }
  if (
    e instanceof ConfigError ||
    e instanceof OutputError ||
    e instanceof GeodataPathError ||
    e instanceof GeodataDamagedError
  ) {
    const hint = e instanceof GeodataPathError ? serviceGeodata(databasePath, argv) : ''
    fail('refused', redactSecrets(e.message) + hint)
    return 1
  }
  // The transaction that made the key printed above failed at its commit: the key was never kept.
  const unkept = secretShown ? ' The secret key printed above was not kept and does not work.' : ''
  // The database file could not be opened, read or written (a directory, not a database, a
  // missing parent, locked by a writer that did not let go, a full disk, a read-only file): one
  // line, not a stack trace, with what to do where that is known.
  const fault = databaseFault(e)
  if (fault === null) {
    if (unkept !== '') err(`storeloc:${unkept}`)
    throw e
  }
  const hint = databaseHint(e, fault, databasePath, readsOnly)
  fail(
    'database',
    `${redactSecrets((e as Error).message).replace(/\.$/, '')} (database ${databasePath}).${hint}${unkept}`,
  )
  return 1
}

/**
 * What a database failure's line adds, where it is known: what to do about a busy, foreign or
 * unwritable file, or a storage fault.
 */
function databaseHint(
  e: unknown,
  fault: 'busy' | 'file' | 'database',
  databasePath: string,
  readsOnly: boolean,
): string {
  const storage = storageFault(e, databasePath)
  // Typed as oneself, not as the service's user, whose files are for their owner only.
  const owner =
    fault === 'file' || storage === 'readonly'
      ? (wrongPath(databasePath) ??
        // A command that writes would still be refused once the -shm is made: whose the files are says why.
        (readsOnly ? walWithoutShm(databasePath) : null) ??
        otherOwner(databasePath) ??
        hiddenByFolder(databasePath))
      : null
  // Else the file or folder this user may not write, by name (a folder of root's, a read-only mount).
  const refused =
    owner === null && (fault === 'file' || storage === 'readonly') ? unwritableSentence(databasePath) : null
  return fault === 'busy'
    ? ' Another process holds the database for writing: try again in a moment.'
    : notDatabase(e)
      ? ` It is no database, or a damaged one; it was left as it is. Name the service's database with --database FILE (or DATABASE_PATH).`
      : owner !== null
        ? ` ${owner}`
        : refused !== null
          ? ` ${refused} Nothing was changed: make them writable by the service's user, or the file system read-write, then run the command again.`
          : storage !== null
            ? ` Nothing was changed. ${storageFaultText(storage, databasePath).replace(/^d/, 'D')} Then run the command again.`
            : ''
}

/** SQLite found no database in the file (SQLITE_NOTADB): another file, or one damaged at its header. */
function notDatabase(e: unknown): boolean {
  return String((e as { code?: unknown } | null)?.code).startsWith('SQLITE_NOTADB')
}

/**
 * GEODATA_PATH left out and no data made under this command's folder: the file beside the database
 * (of another version, else geodataOf had read it) is most likely the service's. Names it.
 */
function serviceGeodata(databasePath: string, argv: string[]): string {
  const beside = databasePath === '' ? null : besideDatabase(databasePath)
  if (beside === null || geodataVersion(beside) === null) return ''
  return ` GEODATA_PATH is not set, so this command looked under ${process.cwd()}. The database's folder has the data: ${beside}. Run it as ${geodataCommand(beside, argv.map(shellWord).join(' '))}, the service's setting.`
}
