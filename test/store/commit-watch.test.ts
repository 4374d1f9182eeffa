// store.commitWatch(): tells from the WAL index header, with no query, whether any connection
// (this one, another in this process, another process) may have committed since its last answer.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
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
    const child = Bun.spawnSync([process.execPath, '-e', `const { Database } = require('bun:sqlite'); new Database(${JSON.stringify(path)}).exec('CREATE TABLE scratch (x)')`])
    expect(child.exitCode).toBe(0)
    expect(moved()).toBe(true)
    expect(moved()).toBe(false)
  } finally {
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
