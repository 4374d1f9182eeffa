// Whether a process this one cannot see holds a database open: one of another PID namespace (the
// service in another container), whose locks /proc/locks leaves out. The kernel's F_GETLK still
// reports such a lock: its table of locks is one for every namespace.
import { dlopen, FFIType } from 'bun:ffi'
import { closeSync, openSync } from 'node:fs'

const F_GETLK = 5 // Linux, 64-bit (x64, arm64): struct flock is 32 bytes, off_t 64 bits
const F_WRLCK = 1
const F_UNLCK = 2
/** The byte of the -shm file every open WAL connection holds a read lock on (SQLite's wal.c). */
const WAL_DMS_LOCK = 128

type Fcntl = (fd: number, command: number, flock: NodeJS.TypedArray) => number

let fcntl: Fcntl | null | undefined
/** libc's fcntl through bun:ffi; null where this is not 64-bit Linux with glibc, or it cannot be loaded. */
function loadFcntl(): Fcntl | null {
  if (fcntl !== undefined) return fcntl
  fcntl = null
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return fcntl
  try {
    const libc = dlopen('libc.so.6', { fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } })
    fcntl = (fd, command, flock) => libc.symbols.fcntl(fd, command, flock) as number
  } catch {
    fcntl = null
  }
  return fcntl
}

/**
 * Whether another process holds a lock on the database's -shm file where every open connection
 * holds one: true, false, or null when it cannot be asked (no -shm file, not 64-bit Linux). Not
 * for a database this process has open: closing the descriptor drops its locks on the file.
 */
export function shmLockedByOther(path: string): boolean | null {
  const call = loadFcntl()
  if (call === null) return null
  let fd: number
  try {
    fd = openSync(`${path}-shm`, 'r')
  } catch {
    return null
  }
  try {
    const flock = new DataView(new ArrayBuffer(32))
    flock.setInt16(0, F_WRLCK, true) // l_type: would a write lock on the byte be granted?
    flock.setInt16(2, 0, true) // l_whence: SEEK_SET
    flock.setBigInt64(8, BigInt(WAL_DMS_LOCK), true) // l_start
    flock.setBigInt64(16, 1n, true) // l_len
    if (call(fd, F_GETLK, new Uint8Array(flock.buffer)) !== 0) return null
    return flock.getInt16(0, true) !== F_UNLCK
  } finally {
    closeSync(fd)
  }
}
