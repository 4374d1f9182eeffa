// The database file a command is to act on, before it is opened: no file there, or an empty one,
// is no database to act on (opening would make one); what opening a new one makes, to be taken
// away again when the command that made it fails.
import { existsSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { cliCommand } from '../core/cli-command'
import { hiddenByFolder, linkLoop, linkToNoFolder } from '../operator/file-owner'

/**
 * Why the path holds no database for a command on the locators of one, or null: no file there (a
 * mistyped DATABASE_PATH, another directory), or an empty one (touch, a copy that failed).
 */
export function noDatabaseAt(databasePath: string): string | null {
  if (!existsSync(databasePath))
    return (
      hiddenByFolder(databasePath) ??
      linkToNoFolder(databasePath) ??
      linkLoop(databasePath) ??
      `No database at ${databasePath}: set DATABASE_PATH to the service's database file (${cliCommand('locator create')} makes a new one).`
    )
  if (emptyFile(databasePath))
    return `${databasePath} is an empty file, no database; it was left as it is. Set DATABASE_PATH to the service's database file (${cliCommand('locator create')} makes a new one).`
  return null
}

/** A file of no bytes, with no write-ahead log that would hold its pages. */
function emptyFile(path: string): boolean {
  const size = (name: string) => statSync(name, { throwIfNoEntry: false })
  const main = size(path)
  return main?.isFile() === true && main.size === 0 && !(size(`${path}-wal`)?.size ?? 0)
}

/**
 * The files and folders opening a new database at `path` makes: its file, SQLite's -wal and -shm
 * beside it, and the folders up to the first that exists (deepest first).
 */
export function newFiles(path: string): string[] {
  const made = [path, `${path}-wal`, `${path}-shm`]
  for (let folder = dirname(resolve(path)); !existsSync(folder); folder = dirname(folder)) made.push(folder)
  return made
}

/** Removes what newFiles listed: the files, then each folder if nothing else was put in it meanwhile. */
export function takeAway(made: string[]): void {
  for (const path of made) {
    try {
      if (statSync(path).isDirectory()) rmdirSync(path)
      else rmSync(path)
    } catch {
      // never made, or not empty: left as it is
    }
  }
}
