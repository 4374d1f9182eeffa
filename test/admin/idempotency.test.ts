// Idempotency-Key on the Management API's POSTs: replays, reuse with another request, requests in
// flight, another process racing on the same key, expiry, and what is not kept.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { sha256Hex } from '../../src/core/ids'
import { noGeocoder } from '../../src/geocode/geocoder'
import { createLocator } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore } from '../../src/store'
import { KNOWN_ADDRESSES, makeEnv, storeBody, type TestEnv, tableGeocoder } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const post = (path: string, body: unknown, key: string | null, authKey?: string) =>
  env.call('POST', path, { body, headers: key === null ? {} : { 'idempotency-key': key }, key: authKey })
const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n
const changes = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM changes').get()!.n

describe('Idempotency-Key', () => {
  test('a retry with the same key and body replays the first answer, marked, without writing again', async () => {
    const first = await post(BASE, storeBody(), 'k-1')
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const before = changes()
    const again = await post(BASE, storeBody(), 'k-1')
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(count()).toBe(1)
    expect(changes()).toBe(before)
    // A quoted key (the draft's structured-field string) is the same key.
    expect((await post(BASE, storeBody(), '"k-1"')).headers.get('idempotent-replayed')).toBe('true')
  })

  test('the same key with another body, path or method is 422 idempotency_key_reused, and writes nothing', async () => {
    const first = await post(BASE, storeBody(), 'k-2')
    const id = first.body.location.id
    const before = { n: count(), c: changes() }
    const other = await post(BASE, storeBody({ name: 'Other' }), 'k-2')
    expect(other.status).toBe(422)
    expect(other.body.error).toBe('idempotency_key_reused')
    expect(other.body.message).toContain('"k-2"')
    expect((await post(`${BASE}/${id}`, storeBody(), 'k-2')).status).toBe(422)
    expect({ n: count(), c: changes() }).toEqual(before)
  })

  test('the same bytes as another Content-Type are another request: CSV in another charset is other text', async () => {
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const send = (type: string) =>
      env.call('POST', `${BASE}/bulk`, { body: csv, headers: { 'content-type': type, 'idempotency-key': 'k-csv' } })
    expect((await send('text/csv; charset=utf-8')).status).toBe(200)
    const other = await send('text/csv; charset=windows-1252')
    expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused'])
    // The same type written otherwise is the same request.
    expect((await send('Text/CSV;charset=UTF-8')).headers.get('idempotent-replayed')).toBe('true')
    expect(env.store.locations.byExternalId(env.locatorId, 'C1')!.name).toBe('Café')
  })

  test('a Content-Type is compared by what it means: its charset quoted, cased, spaced or spelt otherwise is one', async () => {
    const json = JSON.stringify(storeBody({ name: 'Café' }))
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const send = (path: string, body: string, type: string, key: string) =>
      env.call('POST', path, { body, headers: { 'content-type': type, 'idempotency-key': key } })
    const replayed = async (path: string, body: string, type: string, key: string) => {
      const res = await send(path, body, type, key)
      return [type, res.status, res.headers.get('idempotent-replayed')]
    }
    expect((await send(BASE, json, 'application/json', 'k-json')).status).toBe(201)
    for (const type of ['application/json; charset="utf-8"', 'Application/JSON ; Charset = "UTF8"'])
      expect(await replayed(BASE, json, type, 'k-json')).toEqual([type, 201, 'true'])
    expect((await send(`${BASE}/bulk`, csv, 'text/csv', 'k-utf8')).status).toBe(200)
    for (const type of ['text/csv; charset="UTF-8"', 'text/csv;charset=unicode-1-1-utf-8', 'text/csv; charset='])
      expect(await replayed(`${BASE}/bulk`, csv, type, 'k-utf8')).toEqual([type, 200, 'true'])
    // latin1 and windows-1252 are one encoding, as the Encoding Standard reads their labels.
    expect((await send(`${BASE}/bulk`, csv, 'text/csv; charset=latin1', 'k-1252')).status).toBe(200)
    expect(await replayed(`${BASE}/bulk`, csv, 'TEXT/CSV; CHARSET="Windows-1252"', 'k-1252')).toEqual([
      'TEXT/CSV; CHARSET="Windows-1252"',
      200,
      'true',
    ])
    const other = await send(`${BASE}/bulk`, csv, 'text/csv', 'k-1252')
    expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(2)
  })

  test('a charset named twice is compared by the first, the one its body is read in', async () => {
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const form = 'name=Caf%C3%A9&address=1+Rue&coordinates%5Blat%5D=48.87&coordinates%5Blng%5D=2.33'
    const send = (path: string, body: string, type: string, key: string) =>
      env.call('POST', path, { body, headers: { 'content-type': type, 'idempotency-key': key } })
    const outcome = async (path: string, body: string, type: string, key: string) => {
      const res = await send(path, body, type, key)
      return [type, res.status, res.body.error ?? res.headers.get('idempotent-replayed')]
    }
    // Read as UTF-8, the first charset: the same bytes named windows-1252 alone are other text.
    expect((await send(`${BASE}/bulk`, csv, 'text/csv; charset=utf-8; charset=windows-1252', 'k-csv')).status).toBe(200)
    expect(env.store.locations.byExternalId(env.locatorId, 'C1')!.name).toBe('Café')
    const csvOther = 'text/csv; charset=windows-1252'
    expect(await outcome(`${BASE}/bulk`, csv, csvOther, 'k-csv')).toEqual([csvOther, 422, 'idempotency_key_reused'])
    // "charset" without "=" names none: the one after it is read.
    const bare = 'text/csv; charset; charset=windows-1252'
    expect(await outcome(`${BASE}/bulk`, csv, bare, 'k-csv')).toEqual([bare, 422, 'idempotency_key_reused'])
    expect(await outcome(`${BASE}/bulk`, csv, 'text/csv', 'k-csv')).toEqual(['text/csv', 200, 'true'])
    // A form named windows-1252 beyond ASCII is refused: no replay of one read as UTF-8.
    const formType = 'application/x-www-form-urlencoded'
    expect((await send(BASE, form, `${formType}; charset=utf-8; charset=windows-1252`, 'k-form')).status).toBe(201)
    const formOther = `${formType}; charset=windows-1252`
    expect(await outcome(BASE, form, formOther, 'k-form')).toEqual([formOther, 422, 'idempotency_key_reused'])
    expect(await outcome(BASE, form, formType, 'k-form')).toEqual([formType, 201, 'true'])
    expect(count()).toBe(2)
  })

  test("a multipart boundary is compared with its case: another one's parts are not found", async () => {
    const part = (name: string, value: string) =>
      `--ABC\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const body = `${part('name', 'Café')}${part('address', '1 Rue')}${part('coordinates[lat]', '48.87')}${part('coordinates[lng]', '2.33')}--ABC--\r\n`
    const send = (type: string) =>
      env.call('POST', BASE, { body, headers: { 'content-type': type, 'idempotency-key': 'k-parts' } })
    expect((await send('multipart/form-data; boundary=ABC')).status).toBe(201)
    const quoted = await send('Multipart/Form-Data; Boundary="ABC"')
    expect([quoted.status, quoted.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    // Alone, this one is 400: its parts and its boundary do not match.
    const other = await send('multipart/form-data; boundary=abc')
    expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(1)
  })

  test('a FormData retried by fetch, with a new boundary, replays; another value or another part is another request', async () => {
    const form = (fields: Record<string, string>) => {
      const f = new FormData()
      for (const [k, v] of Object.entries(fields)) f.append(k, v)
      return f
    }
    const fields = { name: 'Café', address: '1 Rue', 'coordinates[lat]': '48.87', 'coordinates[lng]': '2.33' }
    const send = async (body: FormData, key = 'k-form-data') => {
      const headers = { authorization: `Bearer ${env.key}`, 'idempotency-key': key }
      const res = await env.app.handle(new Request(`http://localhost${BASE}`, { method: 'POST', headers, body }))
      const answer = (await res.json()) as { error?: string }
      return [res.status, answer.error ?? res.headers.get('idempotent-replayed')]
    }
    expect(await send(form(fields))).toEqual([201, null])
    expect(await send(form(fields))).toEqual([201, 'true'])
    expect(await send(form({ ...fields, name: 'Cafe' }))).toEqual([422, 'idempotency_key_reused'])
    expect(await send(form({ ...fields, description: '' }))).toEqual([422, 'idempotency_key_reused'])
    const file = form(fields)
    file.set('name', new File(['Café'], 'name.txt'))
    expect(await send(file)).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(1)
  })

  test('a .NET form with a value after a byte-order mark, retried with a new boundary, replays', async () => {
    const part = (name: string, value: string) => `Content-Disposition: form-data; name=${name}\r\n\r\n${value}\r\n`
    const body = (b: string) =>
      `--${b}\r\n${part('name; size=7', '\uFEFFShop')}--${b}\r\n${part('"coordinates[lat]"', '48.8')}--${b}\r\n${part('"coordinates[lng]"', '2.3')}--${b}\r\n${part('address', '1 Rue')}--${b}--\r\n`
    const send = async (b: string) => {
      const headers = { 'content-type': `multipart/form-data; boundary=${b}`, 'idempotency-key': 'k-bom' }
      const res = await env.call('POST', BASE, { body: body(b), headers })
      return [res.status, res.body.error ?? res.headers.get('idempotent-replayed')]
    }
    expect(await send('X')).toEqual([201, null])
    expect(await send('Y')).toEqual([201, 'true'])
  })

  test('multipart bodies the server reads otherwise are other requests, though a split at every boundary finds the same parts', async () => {
    const part = (name: string, value: string) => `Content-Disposition: form-data; name=${name}\r\n\r\n${value}\r\n`
    const body = (name: string, tail = '') =>
      `--B\r\n${part('"address"', '1 Rue')}--B\r\n${part('"coordinates[lat]"', '48.8')}--B\r\n${part('"coordinates[lng]"', '2.3')}--B\r\n${part(name, 'Shop')}--B--\r\n${tail}`
    const reused = [422, 'idempotency_key_reused']
    const send = async (sent: string, key: string) => {
      const headers = { 'content-type': 'multipart/form-data; boundary=B', 'idempotency-key': key }
      const res = await env.call('POST', BASE, { body: sent, headers })
      return [res.status, res.body.error ?? res.body.location.name]
    }
    // A delimiter followed by more than its line end is a value's text, as the server reads it.
    expect(await send(body('"name"').replace('Shop', 'Shop\r\n--Bjunk'), 'k-split')).toEqual([201, 'Shop\r\n--Bjunk'])
    expect(await send(body('"name"').replace('Shop', 'Shop\r\n--Bother'), 'k-split')).toEqual(reused)
    // Parts after a closing delimiter are read when another follows them.
    const more = (text: string) => `--B\r\n${part('"description"', text)}--B--\r\n`
    expect(await send(body('"name"', more('A')), 'k-closed')).toEqual([201, 'Shop\r\n--B--'])
    expect(await send(body('"name"', more('B')), 'k-closed')).toEqual(reused)
    // A name given twice is read two ways, refused; a backslash in a quoted name is a character.
    expect(await send(body('"description"; name="name"'), 'k-twice')).toEqual([400, 'invalid_request'])
    expect(await send(body('"name"'), 'k-slash')).toEqual([201, 'Shop'])
    expect(await send(body('"na\\me"'), 'k-slash')).toEqual(reused)
    expect(count()).toBe(3)
  })

  test('a key kept before fingerprints had a version is compared as it was kept: its retry replays', async () => {
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const send = (body: string, type: string) =>
      env.call('POST', `${BASE}/bulk`, { body, headers: { 'content-type': type, 'idempotency-key': 'k-old' } })
    expect((await send(csv, 'text/csv; charset=UTF-8')).status).toBe(200)
    // As the rule before kept it: the Content-Type lowercased and unspaced, the body's bytes.
    const old = sha256Hex(`POST ${BASE}/bulk\n${sha256Hex(csv)}\ntext/csv;charset=utf-8`)
    env.store.db.run('UPDATE idempotency_keys SET fingerprint = ?', [old])
    const replay = await send(csv, 'text/csv; charset=UTF-8')
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true'])
    // Compared the old way: another charset, or another body, is still another request.
    expect((await send(csv, 'text/csv')).body.error).toBe('idempotency_key_reused')
    expect((await send(csv.replace('Café', 'Cafe'), 'text/csv; charset=UTF-8')).body.error).toBe(
      'idempotency_key_reused',
    )
    expect(count()).toBe(1)
  })

  test('a key kept by the rule of meanings before versions replays: a multipart by its boundary, a CSV by its charset', async () => {
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const send = (path: string, body: string, type: string, key: string) =>
      env.call('POST', path, { body, headers: { 'content-type': type, 'idempotency-key': key } })
    const keep = (key: string, fingerprint: string) =>
      env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [fingerprint, key])
    expect((await send(`${BASE}/bulk`, csv, 'text/csv; charset="latin1"', 'k-meant')).status).toBe(200)
    keep('k-meant', sha256Hex(`POST ${BASE}/bulk\n${sha256Hex(csv)}\ntext/csv;charset=windows-1252`))
    const replay = await send(`${BASE}/bulk`, csv, 'text/csv; charset="latin1"', 'k-meant')
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true'])
    expect((await send(`${BASE}/bulk`, csv, 'text/csv', 'k-meant')).body.error).toBe('idempotency_key_reused')
    // A quoted value may hold ";": the rule before compared it whole, sorted among the others.
    const noted = 'text/csv; charset=latin1; note="b;a"'
    expect((await send(`${BASE}/bulk`, csv, noted, 'k-noted')).status).toBe(200)
    keep('k-noted', sha256Hex(`POST ${BASE}/bulk\n${sha256Hex(csv)}\ntext/csv;charset=windows-1252;note=b;a`))
    const notedAgain = await send(`${BASE}/bulk`, csv, noted, 'k-noted')
    expect([notedAgain.status, notedAgain.headers.get('idempotent-replayed')]).toEqual([200, 'true'])

    const form =
      '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafé\r\n--XyZ\r\nContent-Disposition: form-data; name="address"\r\n\r\n1 Rue\r\n--XyZ\r\nContent-Disposition: form-data; name="coordinates[lat]"\r\n\r\n48.87\r\n--XyZ\r\nContent-Disposition: form-data; name="coordinates[lng]"\r\n\r\n2.33\r\n--XyZ--\r\n'
    const multipart = 'multipart/form-data; boundary=XyZ'
    expect((await send(BASE, form, multipart, 'k-multipart')).status).toBe(201)
    keep('k-multipart', sha256Hex(`POST ${BASE}\n${sha256Hex(form)}\nmultipart/form-data;boundary=XyZ`))
    const again = await send(BASE, form, multipart, 'k-multipart')
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    const other = form.replaceAll('XyZ', 'AbC')
    expect((await send(BASE, other, 'multipart/form-data; boundary=AbC', 'k-multipart')).body.error).toBe(
      'idempotency_key_reused',
    )
    expect(count()).toBe(2)
  })

  test("a multipart field sent with text/plain or with no type is one request; a key kept by v2's rule still replays", async () => {
    const part = (name: string, value: string, type: string) =>
      `--B\r\nContent-Disposition: form-data; name="${name}"\r\n${type}\r\n${value}\r\n`
    const form = (type: string) =>
      `${part('name', 'Café', type)}${part('address', '1 Rue', type)}${part('coordinates[lat]', '48.87', '')}${part('coordinates[lng]', '2.33', '')}--B--\r\n`
    const send = (body: string, key: string) =>
      env.call('POST', BASE, {
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=B', 'idempotency-key': key },
      })
    const replayed = (res: { status: number; headers: Headers }) => [res.status, res.headers.get('idempotent-replayed')]
    expect((await send(form(''), 'k-plain')).status).toBe(201)
    expect(replayed(await send(form('Content-Type: text/plain\r\n'), 'k-plain'))).toEqual([201, 'true'])
    expect(replayed(await send(form('Content-Type: text/plain; charset=UTF-8\r\n'), 'k-plain'))).toEqual([201, 'true'])
    // Another charset is other text, and another type another request.
    for (const type of ['Content-Type: text/plain; charset=latin1\r\n', 'Content-Type: text/markdown\r\n'])
      expect((await send(form(type), 'k-plain')).body.error).toBe('idempotency_key_reused')
    expect(count()).toBe(1)

    // Kept by the release before: v2 counted the part's text/plain, its fingerprint over these parts.
    const typed = form('Content-Type: text/plain\r\n')
    expect((await send(typed, 'k-v2')).status).toBe(201)
    const digest = (value: string) => sha256Hex(Buffer.from(value))
    const parts = [
      ['name', null, 'text/plain', digest('Café')],
      ['address', null, 'text/plain', digest('1 Rue')],
      ['coordinates[lat]', null, null, digest('48.87')],
      ['coordinates[lng]', null, null, digest('2.33')],
    ]
    const meant = sha256Hex(`multipart/form-data parts\n${JSON.stringify(parts)}`)
    const v2 = `v2:${sha256Hex(`POST ${BASE}\n${meant}\nmultipart/form-data`)}`
    env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [v2, 'k-v2'])
    expect(replayed(await send(typed, 'k-v2'))).toEqual([201, 'true'])
    // By v2's rule, the part without its type was another request: it still is, for that key.
    expect((await send(form(''), 'k-v2')).body.error).toBe('idempotency_key_reused')
    expect(count()).toBe(2)
  })

  test('a key kept by v3 or v2 for a name beyond ASCII is compared as they kept it: by its bytes', async () => {
    const part = (name: string, value: string) =>
      `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const form = (note: string) =>
      `${part('name', 'Café')}${part('address', '1 Rue')}${part('coordinates[lat]', '48.87')}${part('coordinates[lng]', '2.33')}${part('désignation', note)}--B--\r\n`
    const send = (body: string, key: string, boundary = 'B') =>
      env.call('POST', BASE, {
        body: body.replaceAll('--B', `--${boundary}`),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': key },
      })
    const replayed = (res: { status: number; headers: Headers }) => [res.status, res.headers.get('idempotent-replayed')]
    // Both rules found no parts where a name was beyond ASCII: the bytes with the boundary told it.
    const bytes = sha256Hex(`${sha256Hex(form('Café'))}\nboundary=B`)
    for (const version of ['v3', 'v2']) {
      const key = `k-${version}-bytes`
      expect((await send(form('Café'), key)).status).toBe(201)
      const kept = `${version}:${sha256Hex(`POST ${BASE}\n${bytes}\nmultipart/form-data`)}`
      env.store.db.run('UPDATE idempotency_keys SET fingerprint = ? WHERE key = ?', [kept, key])
      expect(replayed(await send(form('Café'), key))).toEqual([201, 'true'])
      // By that rule, another boundary or another value was another request: it still is, for that key.
      expect((await send(form('Café'), key, 'C')).body.error).toBe('idempotency_key_reused')
      expect((await send(form('Cafe'), key)).body.error).toBe('idempotency_key_reused')
    }
    expect(count()).toBe(2)
  })

  test('a multipart body of many parts is kept under the v5 fingerprint of its whole list of parts', async () => {
    const part = (name: string, value: string, type = '') =>
      `--B\r\nContent-Disposition: form-data; name="${name}"\r\n${type}\r\n${value}\r\n`
    const notes = Array.from({ length: 600 }, (_, i) => `note ${i} é`)
    const body = [
      part('name', 'Café', 'Content-Type: text/plain; charset=UTF-8\r\n'),
      part('address', '1 Rue', 'Content-Type: text/markdown\r\n'),
      part('coordinates[lat]', '48.87'),
      part('coordinates[lng]', '2.33'),
      // A list's items, as a field is given once.
      ...notes.map((note) => part('notes[]', note)),
      part('désignation', 'Café'),
      '--B\r\nContent-Disposition: form-data; name="photo"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n',
      '--B--\r\n',
    ].join('')
    const headers = { 'content-type': 'multipart/form-data; boundary=B', 'idempotency-key': 'k-many' }
    const res = await env.call('POST', BASE, { body, headers })
    expect([res.status, res.body.location?.name]).toEqual([201, 'Café'])
    const digest = (value: string) => sha256Hex(Buffer.from(value))
    const parts = [
      ['name', null, null, digest('Café')],
      ['address', null, 'text/markdown', digest('1 Rue')],
      ['coordinates[lat]', null, null, digest('48.87')],
      ['coordinates[lng]', null, null, digest('2.33')],
      ...notes.map((note) => ['notes[]', null, null, digest(note)]),
      // A name as FormData reads it, in UTF-8.
      ['désignation', null, null, digest('Café')],
      ['photo', '', 'application/octet-stream', digest('')],
    ]
    const meant = sha256Hex(`multipart/form-data parts\n${JSON.stringify(parts)}`)
    const kept = env.store.db.query<{ fingerprint: string }, []>('SELECT fingerprint FROM idempotency_keys').get()!
    const fingerprint = sha256Hex(`POST ${BASE}\n${meant}\nmultipart/form-data`)
    expect(kept.fingerprint).toBe(`v5:${fingerprint}`)
    const again = () =>
      env.call('POST', BASE, {
        body: body.replaceAll('--B', '--C'),
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=C' },
      })
    const first = await again()
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    // Every name UTF-8: v4 kept the same list of parts.
    env.store.db.run('UPDATE idempotency_keys SET fingerprint = ?', [`v4:${fingerprint}`])
    const second = await again()
    expect([second.status, second.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
  })

  test('no Content-Type is JSON only over no body: JSON retried without one, unread alone, is another request', async () => {
    const send = async (path: string, body: string, type: string | null) => {
      const headers = { authorization: `Bearer ${env.key}`, 'idempotency-key': `k-${path}` }
      // Bytes, not a string: Request gives a string body a text/plain type.
      const request = new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: type === null ? headers : { ...headers, 'content-type': type },
        body: new TextEncoder().encode(body),
      })
      const res = await env.app.handle(request)
      const answer = (await res.json()) as { error?: string }
      return [res.status, answer.error ?? res.headers.get('idempotent-replayed')]
    }
    const json = JSON.stringify(storeBody())
    expect(await send(BASE, json, 'application/json')).toEqual([201, null])
    expect(await send(BASE, json, null)).toEqual([422, 'idempotency_key_reused'])
    expect(await send(BASE, json, 'application/json')).toEqual([201, 'true'])
    // A delete reads no body: without one, its Content-Type or none is one request.
    const id = (await env.call('GET', BASE)).body.locations[0].id as string
    expect(await send(`${BASE}/${id}/delete`, '', null)).toEqual([200, null])
    expect(await send(`${BASE}/${id}/delete`, '', 'application/json')).toEqual([200, 'true'])
    expect(count()).toBe(0)
  })

  test('the body is compared byte for byte: the same JSON spaced otherwise is another request', async () => {
    const body = storeBody()
    const send = (text: string, type = 'application/json') =>
      env.call('POST', BASE, { body: text, headers: { 'content-type': type, 'idempotency-key': 'k-bytes' } })
    expect((await send(JSON.stringify(body))).status).toBe(201)
    // JSON's type with its charset named is the same type.
    const typed = await send(JSON.stringify(body), 'application/json; charset=utf-8')
    expect(typed.headers.get('idempotent-replayed')).toBe('true')
    const spaced = await send(JSON.stringify(body, null, 2))
    expect([spaced.status, spaced.body.error]).toEqual([422, 'idempotency_key_reused'])
    expect(count()).toBe(1)
  })

  test('a request still in flight with the key gets 409 conflict; after it, the retry gets its answer', async () => {
    const [a, b] = await Promise.all([post(BASE, storeBody(), 'k-3'), post(BASE, storeBody(), 'k-3')])
    expect([a.status, b.status].sort()).toEqual([201, 409])
    const conflict = a.status === 409 ? a : b
    expect(conflict.body.error).toBe('conflict')
    expect(conflict.body.message).toContain('still being processed')
    expect(count()).toBe(1)
    const retry = await post(BASE, storeBody(), 'k-3')
    expect(retry.status).toBe(201)
    expect(retry.body).toEqual((a.status === 201 ? a : b).body)
  })

  test('another process racing with the same key: one write commits, the other is undone and replays its answer', async () => {
    const second = openStore(join(env.dir, 'test.db'))
    try {
      const app2 = createApp({
        store: second,
        geocoder: noGeocoder,
        config: { maxBodyBytes: 256 * 1024, logRequests: false },
        log: () => {},
      })
      const send = (app: { handle: (r: Request) => Response | Promise<Response> }) =>
        app.handle(
          new Request(`http://localhost${BASE}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${env.key}`,
              'content-type': 'application/json',
              'idempotency-key': 'k-4',
            },
            body: JSON.stringify(storeBody()),
          }),
        )
      const answers = await Promise.all([send(env.app), send(app2)].map((r) => Promise.resolve(r)))
      expect(answers.map((r) => r.status)).toEqual([201, 201])
      const bodies = await Promise.all(answers.map((r) => r.json()))
      expect(bodies[0]).toEqual(bodies[1])
      expect(answers.map((r) => r.headers.get('idempotent-replayed')).sort()).toEqual([null, 'true'])
      expect(count()).toBe(1)
    } finally {
      second.close()
    }
  })

  test('another process racing with the same key on a bulk sync: the loser replays the answer, not a conflict on an external id', async () => {
    const second = openStore(join(env.dir, 'test.db'))
    try {
      const app2 = createApp({
        store: second,
        geocoder: tableGeocoder(KNOWN_ADDRESSES),
        config: { maxBodyBytes: 256 * 1024, logRequests: false },
        log: () => {},
      })
      // Addresses only: each request geocodes between its plan and its write, so both plan new stores.
      const body = JSON.stringify({
        locations: Object.keys(KNOWN_ADDRESSES).map((address, i) => ({ external_id: `S${i}`, name: `S${i}`, address })),
      })
      const send = (app: { handle: (r: Request) => Response | Promise<Response> }) =>
        app.handle(
          new Request(`http://localhost${BASE}/bulk`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${env.key}`,
              'content-type': 'application/json',
              'idempotency-key': 'k-bulk',
            },
            body,
          }),
        )
      const answers = await Promise.all([send(env.app), send(app2)].map((r) => Promise.resolve(r)))
      const bodies = await Promise.all(answers.map((r) => r.json()))
      expect(answers.map((r) => r.status)).toEqual([200, 200])
      expect(bodies[0]).toEqual(bodies[1])
      expect(bodies[0]).toMatchObject({ created: 2 })
      expect(answers.map((r) => r.headers.get('idempotent-replayed')).sort()).toEqual([null, 'true'])
      expect(count()).toBe(2)
    } finally {
      second.close()
    }
  })

  test('a refused request keeps nothing: the key then serves the corrected request', async () => {
    const bad = await post(BASE, { name: 'No address' }, 'k-5')
    expect(bad.status).toBe(422)
    const good = await post(BASE, storeBody(), 'k-5')
    expect(good.status).toBe(201)
    expect(good.headers.get('idempotent-replayed')).toBeNull()
  })

  test('keys are per locator: another locator with the same key writes its own', async () => {
    await post(BASE, storeBody(), 'k-6')
    const other = createLocator(env.store, 'Other')
    const res = await post(BASE, storeBody(), 'k-6', other.secret)
    expect(res.status).toBe(201)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    expect(count()).toBe(2)
  })

  test('an answer is kept 24 hours: after that the key writes anew, and the prune removes only old answers', async () => {
    await post(BASE, storeBody(), 'old')
    await post(BASE, storeBody(), 'new')
    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 1000).toISOString()
    env.store.db.query("UPDATE idempotency_keys SET created_at = ? WHERE key = 'old'").run(dayAgo)
    const again = await post(BASE, storeBody(), 'old')
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(count()).toBe(3)
    env.store.db.query("UPDATE idempotency_keys SET created_at = ? WHERE key = 'new'").run(dayAgo)
    expect(env.store.write(() => env.store.idempotency.prune(100))).toBe(1)
    const left = env.store.db.query<{ key: string }, []>('SELECT key FROM idempotency_keys').all()
    expect(left).toEqual([{ key: 'old' }])
  })

  test('updates, deletes and bulk writes replay too; a dry run keeps nothing', async () => {
    const id = (await post(BASE, storeBody(), null)).body.location.id
    const upd = await post(`${BASE}/${id}`, { name: 'Renamed' }, 'u-1')
    expect((await post(`${BASE}/${id}`, { name: 'Renamed' }, 'u-1')).body).toEqual(upd.body)
    const del = await post(`${BASE}/${id}/delete`, undefined, 'd-1')
    expect(del.status).toBe(200)
    const delAgain = await post(`${BASE}/${id}/delete`, undefined, 'd-1')
    expect(delAgain.status).toBe(200) // not 404: the retry learns the delete it asked for was made
    expect(delAgain.headers.get('idempotent-replayed')).toBe('true')
    const locations = [storeBody({ external_id: 'B1' })]
    const dry = await post(`${BASE}/bulk`, { locations, dry_run: true }, 'b-1')
    expect(dry.body.dry_run).toBe(true)
    const real = await post(`${BASE}/bulk`, { locations }, 'b-2')
    expect(real.body.created).toBe(1)
    const replay = await post(`${BASE}/bulk`, { locations }, 'b-2')
    expect(replay.body).toEqual(real.body)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    // The dry run's key kept nothing: the real request may use it.
    expect((await post(`${BASE}/bulk`, { locations, dry_run: false }, 'b-1')).body.unchanged).toBe(1)
  })

  test('a key that is not 1 to 255 printable ASCII characters is 400 invalid_request', async () => {
    for (const key of ['', 'x'.repeat(256), 'a\tb', 'caf\u00e9']) {
      const res = await env.app.handle(
        new Request(`http://localhost${BASE}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(storeBody()),
        }),
      )
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).message).toContain('Idempotency-Key')
    }
    expect(count()).toBe(0)
  })

  test('two keys (the header sent twice, which fetch joins with a comma) are 400, not one key of both', async () => {
    const headers = new Headers({ authorization: `Bearer ${env.key}`, 'content-type': 'application/json' })
    headers.append('idempotency-key', 'dupA')
    headers.append('idempotency-key', 'dupB')
    const res = await env.app.handle(
      new Request(`http://localhost${BASE}`, { method: 'POST', headers, body: JSON.stringify(storeBody()) }),
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).message).toContain('sent twice')
    expect(count()).toBe(0)
    // A comma inside a quoted key (a structured-field string) is one key.
    expect((await post(BASE, storeBody(), '"a,b"')).status).toBe(201)
    // A quote inside a key is said as such.
    const quoted = await post(BASE, storeBody(), 'a"b')
    expect(quoted.status).toBe(400)
    expect(quoted.body.message).toContain('double quote')
  })
})
