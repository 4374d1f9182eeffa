// Which processes hold a database open or hold its write lock, read from the kernel's table of
// file locks (Linux's /proc/locks). In WAL mode every connection holds a read lock on byte 128 of
// the -shm file while it is open, and the writer a write lock on byte 120 (SQLite's wal.c).
import { readFileSync, statSync } from 'node:fs'
import { redactSecrets } from '../core/ids'

const WAL_WRITE_LOCK = 120
const WAL_DMS_LOCK = 128

export type LockHolders = {
  /** Processes holding the write lock (at most one, unless SQLite's locks change). */
  writers: number[]
  /** Processes with the database open (this one included when it is). */
  users: number[]
}

/** The "major:minor" of a device number as /proc/locks prints it (two hex digits or more each). */
function deviceText(dev: number): string {
  const major = (dev >> 8) & 0xfff
  const minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00)
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`
}

/**
 * The processes holding locks on the database at `path`, or null where that cannot be told: not
 * Linux, no -shm file (no connection open in WAL mode), or the table unreadable.
 */
export function lockHolders(path: string, locks = '/proc/locks'): LockHolders | null {
  if (path === ':memory:') return null
  let table: string
  let file: string
  try {
    const shm = statSync(`${path}-shm`)
    file = `${deviceText(shm.dev)}:${shm.ino}`
    table = readFileSync(locks, 'utf8')
  } catch {
    return null
  }
  const writers = new Set<number>()
  const users = new Set<number>()
  for (const line of table.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 18783 fe:00:2146604 120 120" (a lock someone waits for starts "1: ->")
    const m = /^\d+:\s+POSIX\s+\S+\s+(READ|WRITE)\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+|EOF)$/.exec(line.trim())
    if (m === null || m[3] !== file) continue
    const pid = Number(m[2])
    const start = Number(m[4])
    const end = m[5] === 'EOF' ? Number.POSITIVE_INFINITY : Number(m[5])
    const covers = (byte: number) => start <= byte && byte <= end
    if (m[1] === 'WRITE' && covers(WAL_WRITE_LOCK)) writers.add(pid)
    if (covers(WAL_DMS_LOCK)) users.add(pid)
  }
  return { writers: [...writers], users: [...users] }
}

/** An option whose value is a secret (--metrics-token, --geocoder-api-key), as its own word or with "=". */
const SECRET_FLAG = /^--[\w-]*(?:token|key|secret|password)$/i
const SECRET_FLAG_VALUE = /^(--[\w-]*(?:token|key|secret|password)=).+$/i

/** "process 1234 (bun src/cli/main.ts locations import ...)": its command line, secrets redacted, cut short; the pid alone when unreadable. */
export function describeProcess(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '')
    const shown = args.map((arg, i) =>
      SECRET_FLAG.test(args[i - 1] ?? '') ? '[redacted]' : arg.replace(SECRET_FLAG_VALUE, '$1[redacted]'),
    )
    const line = redactSecrets(shown.join(' ').replace(/\s+/g, ' '))
    return `process ${pid} (${line.length > 120 ? `${line.slice(0, 117)}...` : line})`
  } catch {
    return `process ${pid}`
  }
}
