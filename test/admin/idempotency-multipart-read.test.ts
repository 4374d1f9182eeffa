// Idempotency-Key on multipart bodies whose parts FormData reads otherwise than their bytes say: a
// name beyond ASCII (read as UTF-8), a text value after a byte-order mark, a name holding a
// backslash, a name whose bytes are not UTF-8. A retry with a new boundary replays.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { sha256Hex } from '../../src/core/ids'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n
const FIELDS = { name: 'Café', address: '1 Rue', 'coordinates[lat]': '48.87', 'coordinates[lng]': '2.33' }

type Entry = [string, string | File]
/** FIELDS and one more entry, as fetch sends a FormData: each time with a new boundary. */
const form = (extra: Entry) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(FIELDS)) f.append(k, v)
  f.append(...extra)
  return f
}
const send = async (body: FormData, key: string) => {
  const headers = { authorization: `Bearer ${env.key}`, 'idempotency-key': key }
  const res = await env.app.handle(new Request(`http://localhost${BASE}`, { method: 'POST', headers, body }))
  const answer = (await res.json()) as { error?: string }
  return [res.status, answer.error ?? res.headers.get('idempotent-replayed')]
}

describe('Idempotency-Key on multipart bodies FormData reads otherwise', () => {
  test('a FormData with a field or file name beyond ASCII, retried with a new boundary, replays', async () => {
    // An empty file says nothing to the route, but is a part of the body compared.
    const tries: [string, Entry, Entry][] = [
      ['k-field', ['désignation', 'Café'], ['désignation', 'Cafe']],
      ['k-file', ['plan', new File([], 'carte-été.txt')], ['plan', new File([], 'carte-ete.txt')]],
    ]
    for (const [key, extra, other] of tries) {
      expect(await send(form(extra), key)).toEqual([201, null])
      expect(await send(form(extra), key)).toEqual([201, 'true'])
      expect(await send(form(other), key)).toEqual([422, 'idempotency_key_reused'])
    }
    expect(count()).toBe(2)
  })

  test('a FormData with a value after a byte-order mark or a name with a backslash, retried, replays', async () => {
    // fetch writes a backslash in a name as it is; FormData reads it so, and drops a value's leading mark.
    const tries: [string, Entry, Entry][] = [
      ['k-bom', ['description', '\uFEFFPrès du port'], ['description', 'Près du port']],
      ['k-backslash', ['note\\1', 'x'], ['note\\2', 'x']],
    ]
    for (const [key, extra, other] of tries) {
      expect(await send(form(extra), key)).toEqual([201, null])
      expect(await send(form(extra), key)).toEqual([201, 'true'])
      expect(await send(form(other), key)).toEqual([422, 'idempotency_key_reused'])
    }
    expect(count()).toBe(2)
  })

  test('a name read as sent where FormData reads it otherwise, retried with a new boundary, replays', async () => {
    // fetch writes a backslash last as it is (name="note\"), Go a quote as \": FormData reads \" as
    // an escaped quote, and the name is read as sent.
    const tries: [string, Entry, Entry][] = [
      ['k-last', ['note\\', 'x'], ['note2\\', 'x']],
      ['k-path', ['plan', new File([], 'C:\\dir\\')], ['plan', new File([], 'C:\\dir2\\')]],
    ]
    for (const [key, extra, other] of tries) {
      expect(await send(form(extra), key)).toEqual([201, null])
      expect(await send(form(extra), key)).toEqual([201, 'true'])
      expect(await send(form(other), key)).toEqual([422, 'idempotency_key_reused'])
    }
    const quoted = 'name="plan"; filename="The 5\\" list.csv"'
    expect(await sendLatin1(latin1Body(quoted), 'k-quote')).toEqual([201, null])
    expect(await sendLatin1(latin1Body(quoted, 'C'), 'k-quote', 'C')).toEqual([201, 'true'])
    const other = latin1Body('name="plan"; filename="The 6\\" list.csv"')
    expect(await sendLatin1(other, 'k-quote')).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(3)
  })

  test('a key kept by v5 or v4 before a quoted backslash was read as sent replays', async () => {
    // Both rules read each name as FormData does: filename="C:\dir\" as C:\dir\".
    const path = 'name="photo"; filename="C:\\dir\\"'
    for (const version of ['v5', 'v4']) {
      const key = `k-kept-${version}`
      expect(await sendLatin1(latin1Body(path), key)).toEqual([201, null])
      const kept = `${version}:${sha256Hex(`POST ${BASE}\n${partsAsRead('C:\\dir\\"')}\nmultipart/form-data`)}`
      env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
      expect(await sendLatin1(latin1Body(path, 'C'), key, 'C')).toEqual([201, 'true'])
      const other = latin1Body('name="photo"; filename="C:\\dir2\\"')
      expect(await sendLatin1(other, key)).toEqual([422, 'idempotency_key_reused'])
    }
    expect(count()).toBe(2)
  })

  test('a key kept by v3 or v2 for such a body is compared as they kept it: by its bytes', async () => {
    const part = (name: string, value: string) =>
      `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const start = Object.entries(FIELDS)
      .map(([k, v]) => part(k, v))
      .join('')
    const send = (body: string, key: string, boundary = 'B') =>
      env.call('POST', BASE, {
        body: body.replaceAll('--B', `--${boundary}`),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': key },
      })
    const replayed = (res: { status: number; headers: Headers }) => [res.status, res.headers.get('idempotent-replayed')]
    const bodies = [`${start}${part('description', '\uFEFFPort')}--B--\r\n`, `${start}${part('note\\1', 'x')}--B--\r\n`]
    for (const [i, body] of bodies.entries())
      for (const version of ['v3', 'v2']) {
        const key = `k-${version}-${i}`
        expect((await send(body, key)).status).toBe(201)
        // Both rules found no parts alike FormData's here: the bytes with the boundary told it.
        const bytes = sha256Hex(`${sha256Hex(body)}\nboundary=B`)
        const kept = `${version}:${sha256Hex(`POST ${BASE}\n${bytes}\nmultipart/form-data`)}`
        env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
        expect(replayed(await send(body, key))).toEqual([201, 'true'])
        expect((await send(body, key, 'C')).body.error).toBe('idempotency_key_reused')
      }
    expect(count()).toBe(4)
  })

  test('an empty file named in bytes that are not UTF-8 is told apart from another so named', async () => {
    const kinds: [string, string, string[]][] = [
      ['k-file', 'name="photo"; filename="caf\xe9.csv"', ['caf\xe8.csv', 'caf\xef\xbf\xbd.csv', 'cafe.csv']],
      ['k-name', 'name="ph\xe9to"; filename=""', ['ph\xe8to', 'ph\xef\xbf\xbdto']],
    ]
    for (const [key, disposition, others] of kinds) {
      expect(await sendLatin1(latin1Body(disposition), key)).toEqual([201, null])
      expect(await sendLatin1(latin1Body(disposition, 'C'), key, 'C')).toEqual([201, 'true'])
      // Another byte, or U+FFFD itself in UTF-8: each another request.
      for (const other of others) {
        const sent = latin1Body(disposition.replace(/caf\xe9\.csv|ph\xe9to/, other))
        expect([other, ...(await sendLatin1(sent, key))]).toEqual([other, 422, 'idempotency_key_reused'])
      }
    }
    expect(count()).toBe(2)
  })

  test('a name not UTF-8 is kept under v5 by the parts as read, then the list of such names as sent', async () => {
    expect(await sendLatin1(latin1Body('name="photo"; filename="caf\xe9.csv"'), 'k-v5')).toEqual([201, null])
    // Each such part's index among the parts and both names, a character a byte.
    const names = sha256Hex(`multipart/form-data names not UTF-8\n${JSON.stringify([[4, 'photo', 'caf\xe9.csv']])}`)
    const meant = sha256Hex(`${partsAsRead('caf\uFFFD.csv')}\n${names}`)
    const kept = env.store.db.query<{ fingerprint: string }, []>('SELECT fingerprint FROM idempotency_keys').get()!
    expect(kept.fingerprint).toBe(`v5:${sha256Hex(`POST ${BASE}\n${meant}\nmultipart/form-data`)}`)
  })

  test('a key kept by v4 for a name not UTF-8 is compared as v4 kept it: by the name as read', async () => {
    const disposition = 'name="photo"; filename="caf\xe9.csv"'
    expect(await sendLatin1(latin1Body(disposition), 'k-v4')).toEqual([201, null])
    // v4 hashed each name as FormData reads it, a byte not UTF-8 as U+FFFD.
    const kept = `v4:${sha256Hex(`POST ${BASE}\n${partsAsRead('caf\uFFFD.csv')}\nmultipart/form-data`)}`
    env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, 'k-v4'])
    expect(await sendLatin1(latin1Body(disposition, 'C'), 'k-v4', 'C')).toEqual([201, 'true'])
    expect(await sendLatin1(latin1Body('name="photo"; filename="other.csv"'), 'k-v4')).toEqual([
      422,
      'idempotency_key_reused',
    ])
    expect(count()).toBe(1)
  })

  test('a key kept before padding was read (v5, v4, v3, v2) replays the same padded bytes', async () => {
    // The field after a padded delimiter was read into the value before it: stored, and kept by
    // its bytes and boundary, as no part then matched FormData's reading.
    const padded = latin1Body('name="description"').replace(
      '\r\n--B\r\nContent-Disposition: form-data; name="description"',
      '\r\n--B \r\nContent-Disposition: form-data; name="description"',
    )
    const byBytes = sha256Hex(`${sha256Hex(Buffer.from(padded, 'latin1'))}\nboundary=B`)
    for (const version of ['v5', 'v4', 'v3', 'v2']) {
      const key = `k-padded-${version}`
      expect(await sendLatin1(padded, key)).toEqual([201, null])
      const kept = `${version}:${sha256Hex(`POST ${BASE}\n${byBytes}\nmultipart/form-data`)}`
      env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
      expect(await sendLatin1(padded, key)).toEqual([201, 'true'])
      // That rule told the same parts unpadded apart.
      expect(await sendLatin1(latin1Body('name="description"'), key)).toEqual([422, 'idempotency_key_reused'])
    }
    expect(count()).toBe(4)
  })

  test('a key kept by v5 before filename* was read replays: a part of filename* alone was a text field', async () => {
    // Its name whole, or split in RFC 2231's sections, which were read later still.
    for (const [i, starred] of [
      `filename*=UTF-8''st%C3%B6res.csv`,
      `filename*0*=UTF-8''st%C3%B6; filename*1=res.csv`,
    ].entries()) {
      const key = `k-starred-${i}`
      expect(await sendLatin1(latin1Body(`name="photo"; ${starred}`), key)).toEqual([201, null])
      const kept = `v5:${sha256Hex(`POST ${BASE}\n${partsAsRead(null)}\nmultipart/form-data`)}`
      env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
      expect([starred, await sendLatin1(latin1Body(`name="photo"; ${starred}`, 'C'), key, 'C')]).toEqual([
        starred,
        [201, 'true'],
      ])
      // That rule told another field apart.
      expect(await sendLatin1(latin1Body(`name="plan"; ${starred}`), key)).toEqual([422, 'idempotency_key_reused'])
    }
    expect(count()).toBe(2)
  })
  test('a folded Content-Disposition is kept by its parts; a key kept before folds were read is not its', async () => {
    const starred = `filename*=UTF-8''st%C3%B6res.csv`
    const folded = latin1Body(`name="photo";\r\n ${starred}`)
    expect(await sendLatin1(folded, 'k-folded')).toEqual([201, null])
    // The same parts, unfolded and with another boundary: the same request.
    expect(await sendLatin1(latin1Body(`name="photo"; ${starred}`, 'C'), 'k-folded', 'C')).toEqual([201, 'true'])
    expect(await sendLatin1(latin1Body(`name="plan";\r\n ${starred}`), 'k-folded')).toEqual([
      422,
      'idempotency_key_reused',
    ])
    // Kept by v5 before filename* was read, for the body unfolded: no rule then read the folded one.
    expect(await sendLatin1(latin1Body(`name="photo"; ${starred}`), 'k-plain')).toEqual([201, null])
    const kept = `v5:${sha256Hex(`POST ${BASE}\n${partsAsRead(null)}\nmultipart/form-data`)}`
    env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, 'k-plain'])
    expect(await sendLatin1(folded, 'k-plain')).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(2)
  })
})

describe('Idempotency-Key kept by v4, v3 and v2 before filename* was read', () => {
  test('replays: each rule read a part of filename* alone, whole or in sections, as a text field', async () => {
    // v2 counted no text/plain apart here: each rule's parts are those v5 read then.
    for (const starred of [`filename*=UTF-8''st%C3%B6res.csv`, `filename*0*=UTF-8''st%C3%B6; filename*1=res.csv`])
      for (const version of ['v4', 'v3', 'v2']) {
        const key = `k-${version}-${starred.length}`
        expect(await sendLatin1(latin1Body(`name="photo"; ${starred}`), key)).toEqual([201, null])
        const kept = `${version}:${sha256Hex(`POST ${BASE}\n${partsAsRead(null)}\nmultipart/form-data`)}`
        env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
        const retried = await sendLatin1(latin1Body(`name="photo"; ${starred}`, 'C'), key, 'C')
        expect([version, starred, retried]).toEqual([version, starred, [201, 'true']])
        // That rule told another field apart.
        expect(await sendLatin1(latin1Body(`name="plan"; ${starred}`), key)).toEqual([422, 'idempotency_key_reused'])
      }
    expect(count()).toBe(6)
  })

  test('replays a part that gave both names: each rule named its file by filename', async () => {
    const starred = [`filename*=UTF-8''st%C3%B6res.csv`, `filename*0*=UTF-8''st%C3%B6; filename*1=res.csv`]
    for (const both of starred.map((s) => `name="photo"; filename="stores.csv"; ${s}`))
      for (const version of ['v5', 'v4']) {
        const key = `k-both-${version}-${both.length}`
        expect(await sendLatin1(latin1Body(both), key)).toEqual([201, null])
        const kept = `${version}:${sha256Hex(`POST ${BASE}\n${partsAsRead('stores.csv')}\nmultipart/form-data`)}`
        env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
        const retried = await sendLatin1(latin1Body(both, 'C'), key, 'C')
        expect([version, both, retried]).toEqual([version, both, [201, 'true']])
      }
    expect(count()).toBe(4)
  })
})

/** The hash of FIELDS, then an empty file part named photo, `file` as FormData reads it (null: a text field). */
function partsAsRead(file: string | null): string {
  const digest = (value: string) => sha256Hex(Buffer.from(value))
  const parts = [
    ...Object.entries(FIELDS).map(([k, v]) => [k, null, null, digest(v)]),
    ['photo', file, null, digest('')],
  ]
  return sha256Hex(`multipart/form-data parts\n${JSON.stringify(parts)}`)
}

/** FIELDS in UTF-8, then an empty file part of `disposition` written a byte a character (as latin1). */
function latin1Body(disposition: string, boundary = 'B'): string {
  const fields = Object.entries(FIELDS).map(
    ([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  )
  return `${Buffer.from(fields.join('')).toString('latin1')}--B\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n\r\n--B--\r\n`.replaceAll(
    '--B',
    `--${boundary}`,
  )
}

/** A body written as latin1 text, sent as its bytes (as curl -F sends a name typed in a Latin-1 shell). */
async function sendLatin1(text: string, key: string, boundary = 'B') {
  const headers = {
    authorization: `Bearer ${env.key}`,
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'idempotency-key': key,
  }
  const body = Buffer.from(text, 'latin1')
  const res = await env.app.handle(new Request(`http://localhost${BASE}`, { method: 'POST', headers, body }))
  const answer = (await res.json()) as { error?: string }
  return [res.status, answer.error ?? res.headers.get('idempotent-replayed')]
}
