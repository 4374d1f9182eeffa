// store.commitWatch(): tells from the WAL index header, with no query, whether any connection
// (this one, another in this process, another process) may have committed since its last answer.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { rmSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'

function fileStore() {
  const dir = tempDir()
  const path = join(dir, 'store.db')
  const store = openStore(path)
  return { path, store, done: () => (store.close(), rmSync(dir, { recursive: true, force: true })) }
}

test('a file database: true at the first call, then false until something commits', () => {
  const { store, done } = fileStore()
  try {
    const moved = store.commitWatch()
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
    expect(moved()).toBe(false)
    store.write(() => store.locators.insert('A'))
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
  } finally {
    done()
  }
})

test('a commit by another connection to the file moves it; a read does not', () => {
  const { path, store, done } = fileStore()
  const other = new Database(path)
  try {
    const moved = store.commitWatch()
    moved()
    other.query('SELECT count(*) FROM locators').get()
    expect(moved()).toBe(false)
    other.exec('BEGIN IMMEDIATE; CREATE TABLE scratch (x); COMMIT')
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
    other.exec('INSERT INTO scratch VALUES (1)')
    expect(moved()).toBe(true)
  } finally {
    other.close()
    done()
  }
})

test('a commit in another process moves it', () => {
  const { path, store, done } = fileStore()
  try {
    const moved = store.commitWatch()
    moved()
    const child = Bun.spawnSync([
      process.execPath,
      '-e',
      `const { Database } = require('bun:sqlite'); new Database(${JSON.stringify(path)}).exec('CREATE TABLE scratch (x)')`,
    ])
    expect(child.exitCode).toBe(0)
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
  } finally {
    done()
  }
})

/** Run in another process: whether some process holds a POSIX lock on byte `offset` of `file` (fcntl F_GETLK, Linux x86-64/arm64 struct flock). */
const LOCK_PROBE = `
const { dlopen, FFIType, ptr } = require('bun:ffi')
const [file, offset] = process.argv.slice(-2)
const { symbols } = dlopen('libc.so.6', { open: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 }, fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } })
const fd = symbols.open(ptr(Buffer.from(file + '\\0')), 2)
const lock = Buffer.alloc(32)
lock.writeInt16LE(1, 0) // F_WRLCK: would a write lock be granted?
lock.writeBigInt64LE(BigInt(offset), 8)
lock.writeBigInt64LE(1n, 16)
if (fd < 0 || symbols.fcntl(fd, 5, ptr(lock)) !== 0) process.exit(2) // F_GETLK
console.log(lock.readInt16LE(0) === 2 ? 'free' : 'held') // F_UNLCK: nobody holds it
`

test('reading the header leaves SQLite its lock on the -shm file (other processes must not reset it)', () => {
  // Closing any descriptor of a file drops every POSIX lock the process holds on it. A mapping
  // made through a descriptor then closed (Bun.mmap) left SQLite here without its lock on the
  // "DMS" byte (128), so the next process to open the database took itself for the first and
  // reset the file under this one: a bus error in the benchmark.
  const { path, store, done } = fileStore()
  try {
    const moved = store.commitWatch()
    moved()
    const probe = Bun.spawnSync([process.execPath, '-e', LOCK_PROBE, `${path}-shm`, '128'])
    expect(probe.exitCode).toBe(0)
    expect(probe.stdout.toString().trim()).toBe('held')
  } finally {
    done()
  }
})

test('two stores of one process on one file share the mapping: closing one leaves the other its watch and SQLite its lock', () => {
  const { path, store, done } = fileStore()
  const second = openStore(path)
  try {
    const moved = store.commitWatch()
    moved()
    second.close()
    const child = Bun.spawnSync([
      process.execPath,
      '-e',
      `const { Database } = require('bun:sqlite'); new Database(${JSON.stringify(path)}).exec('CREATE TABLE scratch (x)')`,
    ])
    expect(child.exitCode).toBe(0)
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
    const probe = Bun.spawnSync([process.execPath, '-e', LOCK_PROBE, `${path}-shm`, '128'])
    expect(probe.stdout.toString().trim()).toBe('held')
  } finally {
    second.close()
    done()
  }
})

test('one file opened by two names (a symlinked folder): closing the store of one name leaves SQLite its lock for the other', () => {
  const { path, store, done } = fileStore()
  const alias = `${dirname(path)}-alias`
  symlinkSync(dirname(path), alias)
  const second = openStore(join(alias, 'store.db'))
  try {
    second.commitWatch()()
    second.close()
    const moved = store.commitWatch()
    moved()
    const probe = Bun.spawnSync([process.execPath, '-e', LOCK_PROBE, `${path}-shm`, '128'])
    expect(probe.stdout.toString().trim()).toBe('held')
    store.write(() => store.locators.insert('A'))
    expect(moved()).toBe(true)
  } finally {
    second.close()
    rmSync(alias, { force: true })
    done()
  }
})

test('each watch keeps its own place: one seeing a commit does not hide it from another', () => {
  const { store, done } = fileStore()
  try {
    const a = store.commitWatch()
    const b = store.commitWatch()
    a()
    b()
    store.write(() => store.locators.insert('A'))
    expect(a()).toBe(true)
    expect(a()).toBe(false)
    expect(b()).toBe(true)
  } finally {
    done()
  }
})

test('an in-memory database has no header to read: always true', () => {
  const store = openStore(':memory:')
  try {
    const moved = store.commitWatch()
    expect([moved(), moved(), moved()]).toEqual([true, true, true])
  } finally {
    store.close()
  }
})

test('once the store is closed it says true and reads nothing, even when the file was removed and made again', () => {
  const { path, store, done } = fileStore()
  const moved = store.commitWatch()
  moved()
  expect(moved()).toBe(false)
  done()
  expect(moved()).toBe(true)
  // Another store on a new file at the same path: the old watch stays closed, the new one works.
  const again = openStore(path)
  try {
    expect(moved()).toBe(true)
    const fresh = again.commitWatch()
    fresh()
    expect(fresh()).toBe(false)
  } finally {
    again.close()
    rmSync(dirname(path), { recursive: true, force: true })
  }
})
