// The WAL index header, read live from the -shm file SQLite maps into every connection to a
// database (sqlite.org/walformat.html, "The WAL-Index Header"). Every commit, by any connection in
// any process, rewrites it (change counter, last frame, checksum). Reading it needs no system call,
// where PRAGMA data_version starts and ends a read transaction: two fcntl locks and an fstat, 3.5 µs
// a call on this project's machine (a VM), on every public request.
//
// Mapped with libc's open and mmap (bun:ffi), and the descriptor stays open while any store of this
// process has the database open. Closing any descriptor of a file drops every POSIX lock the
// process holds on it, SQLite's included; Bun.mmap closes the one it opens. Tried first, that let
// another process opening the database find no lock on the -shm file and reset it under this one:
// a bus error in SQLite. Safe to read while the database is open here: SQLite shrinks the file only
// when it finds no connection holding its lock, and one does.
import { dlopen, FFIType, ptr, toArrayBuffer } from 'bun:ffi'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'

/** Words of the header's first copy. */
const HEADER_WORDS = 12
/** Its first word, iVersion, in every SQLite since WAL began (3.7.0). */
const WAL_INDEX_VERSION = 3007000
const O_RDONLY = 0
const PROT_READ = 1
const MAP_SHARED = 1
const PAGE = 4096

type Libc = {
  open: (path: unknown, flags: number) => number
  close: (fd: number) => number
  mmap: (addr: null, length: number, prot: number, flags: number, fd: number, offset: number) => number | null
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
      close: { args: [FFIType.i32], returns: FFIType.i32 },
      mmap: { args: [FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i64], returns: FFIType.ptr },
      munmap: { args: [FFIType.ptr, FFIType.u64], returns: FFIType.i32 },
    })
    libc = symbols as unknown as Libc
  } catch {
    libc = null
  }
  return libc
}

type Mapping = { fd: number; address: number; header: Uint32Array; users: number }

/** Per -shm file, while a store of this process has its database open: one descriptor, one mapping. */
const mappings = new Map<string, Mapping>()

/** The header (12 words, live) and how to let go of it; null when there is none to read. */
export type WalIndexHeader = { words: Uint32Array; release: () => void }

/**
 * The WAL index header of the database at `path`, which the caller has open (so the file exists,
 * and stays while it is open). Null for an in-memory database, or where it cannot be mapped.
 * Call release() once the caller's connections to the database are closed.
 */
export function walIndexHeader(path: string): WalIndexHeader | null {
  if (path === ':memory:' || path === '') return null
  const file = `${resolve(path)}-shm`
  let mapping = mappings.get(file)
  if (mapping === undefined) {
    const made = map(file)
    if (made === null) return null
    mapping = made
    mappings.set(file, mapping)
  }
  mapping.users++
  let released = false
  const held = mapping
  return {
    words: held.header,
    // The caller's connections are closed by now; when no store here has the database open, SQLite
    // holds no lock on the file in this process, and closing the descriptor drops none.
    release: () => {
      if (released) return
      released = true
      if (--held.users > 0) return
      mappings.delete(file)
      libc!.munmap(held.address, PAGE)
      libc!.close(held.fd)
    },
  }
}

function map(file: string): Mapping | null {
  const c = loadLibc()
  if (c === null) return null
  try {
    if (statSync(file).size < PAGE) return null
  } catch {
    return null
  }
  const fd = c.open(ptr(Buffer.from(`${file}\0`)), O_RDONLY)
  if (fd < 0) return null
  const address = c.mmap(null, PAGE, PROT_READ, MAP_SHARED, fd, 0)
  // On failure the descriptor stays open: closing it would drop SQLite's locks (see above).
  if (address === null || address <= 0 || address >= 2 ** 53 - PAGE) return null
  const header = new Uint32Array(toArrayBuffer(address, 0, HEADER_WORDS * 4))
  // A header SQLite has written (isInit is the low byte of word 3 on little-endian machines).
  if (header[0] !== WAL_INDEX_VERSION || (header[3]! & 0xff) !== 1) {
    c.munmap(address, PAGE)
    return null
  }
  return { fd, address, header, users: 0 }
}
