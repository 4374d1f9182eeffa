// Retries with an Idempotency-Key against GET /openapi.json: each write that takes a key documents
// what its retry may answer (the replay, and 410 when the answer was not kept), as real retries get.
import { describe, expect, test } from 'bun:test'
import { storeBody } from './helpers'
import { deref, doc, expectValid, f, type Json, useOpenApiDocument } from './openapi-fixture'

useOpenApiDocument()

/**
 * A keyed write: its operation's path in the document, how to send it, and the size its answer is
 * kept as when not kept whole: over 1 MiB (a bulk's only), else one the day's IDEMPOTENCY_MAX_MB had no room for.
 */
type Write = { op: string; send: (key: string) => ReturnType<typeof f.env.call>; notKept?: number }

async function writes(): Promise<Write[]> {
  const made = async () => (await f.env.call('POST', '/admin/v1/locations', { body: storeBody() })).body.location.id
  const [updated, deleted] = [await made(), await made()]
  const keyed = (key: string) => ({ 'idempotency-key': key })
  return [
    {
      op: '/admin/v1/locations',
      send: (key) => f.env.call('POST', '/admin/v1/locations', { body: storeBody(), headers: keyed(key) }),
    },
    {
      op: '/admin/v1/locations/{id}',
      send: (key) =>
        f.env.call('POST', `/admin/v1/locations/${updated}`, { body: { name: 'Renamed' }, headers: keyed(key) }),
    },
    {
      op: '/admin/v1/locations/{id}/delete',
      send: (key) => f.env.call('POST', `/admin/v1/locations/${deleted}/delete`, { headers: keyed(key) }),
    },
    {
      op: '/admin/v1/locations/bulk',
      send: (key) =>
        f.env.call('POST', '/admin/v1/locations/bulk', {
          body: { locations: [storeBody({ external_id: `KEYED-${key}` })] },
          headers: keyed(key),
        }),
      notKept: 1_468_006,
    },
  ]
}

describe('a write retried with its Idempotency-Key', () => {
  test('replays its answer, and once the answer is not kept, answers 410: both documented', async () => {
    for (const [i, write] of (await writes()).entries()) {
      const key = `oa-keyed-${i}`
      const responses = doc.paths[write.op].post.responses as Json
      const first = await write.send(key)
      expect({ op: write.op, ok: first.status < 300 }).toEqual({ op: write.op, ok: true })
      const replay = await write.send(key)
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect({
        op: write.op,
        declared: 'Idempotent-Replayed' in (deref(responses[replay.status]).headers ?? {}),
      }).toEqual({ op: write.op, declared: true })
      // An answer not kept whole is kept as its size alone.
      f.env.store.db.run('UPDATE idempotency_keys SET body = ? WHERE key = ?', [
        `not kept: ${write.notKept ?? 900}`,
        key,
      ])
      const retry = await write.send(key)
      expect({ op: write.op, status: retry.status }).toEqual({ op: write.op, status: 410 })
      const documented = responses['410']
      expect({ op: write.op, documented: documented !== undefined }).toEqual({ op: write.op, documented: true })
      const media = deref(documented).content['application/json']
      expectValid(media.schema, retry.body, `${write.op} 410`)
      // Its example says what this retry is told, key and time aside.
      const example = deref(media.examples.idempotency_answer_not_kept).value
      const alike = (m: string) => m.replaceAll(/"[^"]*"/g, '"..."').replaceAll(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
      expect({ op: write.op, said: alike(example.message) }).toEqual({ op: write.op, said: alike(retry.body.message) })
    }
  })

  test('sent again while its first try still runs: 409 with Retry-After, as documented for each write', async () => {
    for (const [i, write] of (await writes()).entries()) {
      const key = `oa-running-${i}`
      const [a, b] = await Promise.all([write.send(key), write.send(key)])
      const running = a.status === 409 ? a : b
      expect({ op: write.op, status: running.status }).toEqual({ op: write.op, status: 409 })
      const documented = deref((doc.paths[write.op].post.responses as Json)['409'])
      expectValid(documented.content['application/json'].schema, running.body, `${write.op} 409`)
      // A script told by the document to read Retry-After on a 409 finds it there, with its type.
      const declared = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase())
      for (const name of running.headers.keys())
        if (/^(retry-after|x-request-id|cache-control)$/.test(name))
          expect({ op: write.op, name, declared: declared.includes(name) }).toEqual({
            op: write.op,
            name,
            declared: true,
          })
      expect(Number(running.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })
})
