// A database file found damaged (SQLite reports a malformed page) is written no more: what would
// be written into it could be lost with it, or make it worse. Reads go on where they can.
import { StoreError } from './db'
import { cliCommand } from '../core/cli-command'
import { shellWord } from '../core/shell'

/** Writes are refused: the file was found damaged (see damageWatch). */
export class DamagedError extends StoreError {}

/** SQLITE_CORRUPT or SQLITE_NOTADB (and their extended codes): the file's pages are not what SQLite wrote. */
export function isCorruptError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'))
}

/** What to do about the damaged file at `path`, a sentence the messages below end with. */
export const mendDamage = (path: string) =>
  `restore the last backup (${cliCommand('restore FILE')}), or save what SQLite can still read (sqlite3 ${shellWord(path)} .recover), then start again.`

/** A start that found the file damaged: `found` is what SQLite said. */
export const damagedAtStart = (path: string, found: string) =>
  `Cannot use the database at ${path}: it is damaged (${found}). Nothing was written to it. ${mendDamage(path).replace(/^r/, 'R')}`

/** The operator's words for a damaged file: what SQLite said, and what to do. */
export function damageText(path: string, found: string): string {
  return `The database file ${path} is damaged (${found}). Writes are refused so that nothing more goes into it. Stop the service and ${mendDamage(path)}`
}

/** Remembers the first corruption met by any statement it is shown; from then on, damaged() says why writes are refused. */
export function damageWatch(path: string) {
  let damage: DamagedError | null = null
  return {
    /** Notes `error` when it is a corruption; returns it. */
    note(error: unknown): unknown {
      if (damage === null && isCorruptError(error))
        damage = new DamagedError(damageText(path, (error as Error).message))
      return error
    },
    damaged: (): DamagedError | null => damage,
  }
}
