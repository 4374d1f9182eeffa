// Whether another process has a database file open, for the commands that put another file in its
// place (restore, backup --force): a server keeps the file it opened and writes on into it, where
// no later start reads, so a file in use is never replaced.
import { existsSync } from 'node:fs'
import { describeProcess, lockHolders } from '../store/lock-holders'
import { realPathIfThere } from '../store/read-open'
import { shmLockedByOther } from '../store/shm-lock'
import { OperatorError } from './shared'

/**
 * Throws when a process other than this one has the database at `path` open. With no -shm file
 * beside it, no connection has it open (every storeloc connection is in WAL mode, which keeps that
 * file while open). With one, and no /proc/locks to read (not Linux), it cannot be told: refused
 * unless `force`, which says the operator stopped every process that uses it. A process that
 * /proc/locks does not show (another PID namespace's: the service in another container) is found
 * by its lock on the -shm file, and refused without a name. Called before this process opens the
 * database: the check opens the -shm file and closes it, which drops this process's locks on it.
 */
export function refuseWhileInUse(path: string, force: boolean): void {
  // SQLite makes the -shm beside the file a link leads to: none is beside the link.
  const real = realPathIfThere(path)
  const holders = lockHolders(real)
  if (holders === null) {
    if (force || !existsSync(`${real}-shm`)) return
    throw new OperatorError(
      `Cannot tell whether a process has ${path} open (${real}-shm is there, and this system has no /proc/locks to ask). Stop every server and command that uses it, then run the command again with --force.`,
    )
  }
  const others = holders.users.filter((pid) => pid !== process.pid)
  if (others.length === 0) {
    if (shmLockedByOther(real) !== true) return
    throw new OperatorError(
      `${path} is in use by a process this system does not show: one of another PID namespace, such as the service in another container. Stop it first: a server keeps writing to the file it opened, which no later start would read.`,
    )
  }
  const named = others.slice(0, 3).map(describeProcess).join(', ')
  const more = others.length > 3 ? ` and ${others.length - 3} more` : ''
  throw new OperatorError(
    `${path} is in use by ${named}${more}. Stop it first: a server keeps writing to the file it opened, which no later start would read.`,
  )
}
