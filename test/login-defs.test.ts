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

test('a line ending in CR LF is read: C trims every space it knows at the end, CR too', () => {
  expect(peopleUidsIn(fixture('crlf.defs'))).toEqual([1100, 50000])
})

test("a value useradd cannot read, or none, is useradd's own: 1000 and 60000", () => {
  expect(peopleUidsIn(fixture('unreadable.defs'))).toEqual([1000, 60000])
  expect(peopleUidsIn('')).toEqual([1000, 60000])
  // Past an unsigned long (64 bits), strtoul's ERANGE; a no-break space is no space to C.
  expect(peopleUidsIn('UID_MIN 2000\nUID_MAX 18446744073709551616\n')).toEqual([2000, 60000])
  expect(peopleUidsIn('UID_MIN 2000\u00a0\nUID_MAX 0x1000000000000000F\n')).toEqual([1000, 60000])
})

test('a value useradd reads is cut to the 32 bits of a uid, as useradd keeps it', () => {
  // 2^32 + 1000 is 1000; the largest unsigned long is 2^32 - 1.
  expect(peopleUidsIn('UID_MIN 4294968296\nUID_MAX 18446744073709551615\n')).toEqual([1000, 4294967295])
  expect(peopleUidsIn('UID_MAX 9007199254740993\n')).toEqual([1000, 1])
})
