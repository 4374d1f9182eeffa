// docs/management-api.md's table of what a sync script does with each error the client throws
// names every status and code the Management API answers with, and the client's own two, and no
// other: a script written from it handles each error the service can give.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ADMIN_ERRORS } from '../../src/api/admin/errors'

const DOC = readFileSync(join(import.meta.dir, '..', '..', 'docs/management-api.md'), 'utf8')

/** The table's rows as "status code" pairs, one a code a row names. */
function tableRows(): string[] {
  const start = DOC.indexOf('What a sync script does with each error')
  expect(start).toBeGreaterThan(-1)
  const lines = DOC.slice(start).split('\n').slice(2)
  const rows = lines.slice(
    2,
    lines.findIndex((line, i) => i > 0 && !line.startsWith('|')),
  )
  return rows.flatMap((row) => {
    const [status, codes] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim())
    return [...codes!.matchAll(/`([^`]+)`/g)].map(([, code]) => `${status} ${code}`)
  })
}

test("the client's error table names every status and code the Management API answers with, and no other", () => {
  // A 405 answers a method no route takes: the client sends each route's own.
  const answered = Object.entries(ADMIN_ERRORS)
    .filter(([kind]) => kind !== 'method_not_allowed')
    .map(([, { status, error }]) => `${status} ${error}`)
  const own = ['0 network_error', 'any invalid_response']
  expect(tableRows().sort()).toEqual([...new Set([...answered, ...own])].sort())
})
