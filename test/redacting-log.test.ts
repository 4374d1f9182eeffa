// The service's log redacts a secret key wherever a line holds it as text: a field, or a list's item.
import { expect, test } from 'bun:test'
import { redactingLog } from '../src/server/app-log'

const KEY = `sk_${'a1'.repeat(20)}`

test('a key in a field or in a list of paths is redacted; other values are kept', () => {
  const lines: Record<string, unknown>[] = []
  const log = redactingLog((line) => lines.push(line))
  log({ message: `GET /x?key=${KEY}`, requests: 2, unanswered: [`GET /widget/${KEY}`, 'GET /docs', 3] })
  expect(lines).toEqual([
    { message: 'GET /x?key=sk_[redacted]', requests: 2, unanswered: ['GET /widget/sk_[redacted]', 'GET /docs', 3] },
  ])
})
