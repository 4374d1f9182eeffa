// The uids useradd gives people, as /etc/login.defs says them (a person is told to run a command
// as themselves, a service's user through sudo): read as useradd reads the file.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { peopleUidsIn } from '../src/operator/login-defs'

const fixture = (name: string) => readFileSync(join(import.meta.dir, 'fixtures/login-defs', name), 'utf8')

test('UID_MIN and UID_MAX in hex or octal are read as C reads numbers', () => {
  expect(peopleUidsIn(fixture('hex.defs'))).toEqual([1000, 60000])
  expect(peopleUidsIn(fixture('octal.defs'))).toEqual([1000, 60000])
})

test('a quoted value counts, and of a key written twice the last line', () => {
  expect(peopleUidsIn(fixture('quoted.defs'))).toEqual([2000, 40000])
})

test("a value useradd cannot read, or none, is useradd's own: 1000 and 60000", () => {
  expect(peopleUidsIn(fixture('unreadable.defs'))).toEqual([1000, 60000])
  expect(peopleUidsIn(fixture('crlf.defs'))).toEqual([1000, 60000])
  expect(peopleUidsIn('')).toEqual([1000, 60000])
})
