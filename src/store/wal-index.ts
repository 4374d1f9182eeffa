// The WAL index header, read live from the -shm file SQLite maps into every connection to a
// database (sqlite.org/walformat.html, "The WAL-Index Header"). Every commit, by any connection in
// any process, rewrites it (change counter, last frame, checksum). Reading it needs no system call,
// where PRAGMA data_version starts and ends a read transaction: two fcntl locks and an fstat, on
// every public request (PERF-036).
//
// Mapped with libc's open and mmap (bun:ffi), once per file and process, and never closed:
// closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
// included. Bun.mmap closes the one it opens, which lets another process opening the database
// find no lock on the -shm file and reset it under this one (a bus error in SQLite). A
// store's close cannot tell when SQLite is done with the file either: a connection closed with
// prepared statements alive lingers until they are collected. So each -shm file a process opens
// costs it one descriptor and one mapped page for its lifetime. Safe to read while the database is
// open: SQLite resets the file only when it finds no connection holding its lock, and one does.
import { dlopen, FFIType, toArrayBuffer } from 'bun:ffi'
import { statSync } from 'node:fs'

/** Words of the header's first copy. */
const HEADER_WORDS = 12
/** Its first word, iVersion, in every SQLite since WAL began (3.7.0). */
const WAL_INDEX_VERSION = 3007000
/** O_RDONLY | O_CLOEXEC (Linux). */
const OPEN_FLAGS = 0x80000
const PROT_READ = 1
const MAP_SHARED = 1
const PAGE = 4096

type Libc = {
  open: (path: Uint8Array, flags: number) => number
  mmap: (addr: null, length: number, prot: number, flags: number, fd: number, offset: number) => number | bigint | null
  munmap: (addr: number, length: number) => number
}

let libc: Libc | null | undefined

/** libc's calls, or null where they cannot be had (not Linux, no FFI): callers use the pragma. */
function loadLibc(): Libc | null {
  if (libc !== undefined) return libc
  libc = null
  if (process.platform !== 'linux') return libc
  try {
    const { symbols } = dlopen('libc.so.6', {
      open: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
      mmap: {
        args: [FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i64],
        returns: FFIType.ptr,
      },
      munmap: { args: [FFIType.ptr, FFIType.u64], returns: FFIType.i32 },
    })
    libc = symbols as unknown as Libc
  } catch {
    libc = null
  }
  return libc
}

/**
 * The headers mapped in this process, by the -shm file's device and inode: one descriptor and one
 * mapping per file however it is named (SQLite too keeps one per file), since neither is let go.
 */
const headers = new Map<string, Uint32Array>()

/**
 * The WAL index header (12 words, live) of the database at `path`, which the caller has open in
 * WAL mode (so the -shm file exists, and stays while it is open). Null for an in-memory database,
 * or where it cannot be mapped. Read it only while the caller's database is open.
 */
export function walIndexHeader(path: string): Uint32Array | null {
  if (path === ':memory:' || path === '') return null
  const c = loadLibc()
  if (c === null) return null
  const file = `${path}-shm`
  let key: string
  try {
    const st = statSync(file, { bigint: true })
    if (st.size < PAGE) return null
    key = `${st.dev}:${st.ino}`
  } catch {
    return null
  }
  const mapped = headers.get(key)
  if (mapped !== undefined) return mapped
  // A failure after open leaves the descriptor open: closing it would drop SQLite's locks.
  const fd = c.open(Buffer.from(`${file}\0`), OPEN_FLAGS)
  if (fd < 0) return null
  const address = c.mmap(null, PAGE, PROT_READ, MAP_SHARED, fd, 0)
  if (typeof address !== 'number' || address <= 0) return null // MAP_FAILED comes back as a bigint
  const header = new Uint32Array(toArrayBuffer(address, 0, HEADER_WORDS * 4))
  // A header SQLite has written (isInit is the low byte of word 3 on little-endian machines).
  if (header[0] !== WAL_INDEX_VERSION || (header[3]! & 0xff) !== 1) {
    c.munmap(address, PAGE)
    return null
  }
  headers.set(key, header)
  return header
}
