// GET /admin/v1/locations/export: every location at once, as JSON or as CSV (plain, or for Excel),
// each of which the bulk route takes back with nothing changed.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { IN_MEMORY_BYTES, Spool } from '../../src/api/admin/spool'
import { PLAIN_CSV } from '../../src/locations/csv-write'
import { EXPORT_SLICE, exportTo } from '../../src/locations/export'
import { addCustomField } from '../../src/operator'
import { locationRecord, otherProcess, storeBody } from '../helpers'
import { all, bulk, csv, env, snapshot, store, useBulkEnv } from './bulk-fixture'

/** `n` stores with codes M1..Mn, written in bulk requests of 1,000; their ids, in order. */
async function manyStores(n: number, over: Record<string, unknown> = {}): Promise<string[]> {
  const bodies = Array.from({ length: n }, (_, i) => store(`M${i + 1}`, over))
  const ids: string[] = []
  for (let i = 0; i < n; i += 1000) {
    const res = await bulk({ locations: bodies.slice(i, i + 1000) })
    ids.push(...res.body.results.map((r: { id: string }) => r.id))
  }
  return ids
}

useBulkEnv()

describe('GET /locations/export', () => {
  test('every location as JSON or CSV; either sent back to the bulk route changes nothing', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    await bulk({
      locations: [
        store('S1', { custom_fields: { floor: '2' }, tags: ['Coffee', 'Wifi'], description: 'a, "quoted"\nline' }),
        store('S2', { status: 'draft' }),
        storeBody({ name: 'No code', hours: { monday: '9-5' } }),
      ],
    })
    const json = await env.call('GET', '/admin/v1/locations/export')
    expect(json.status).toBe(200)
    expect(json.body.locations).toEqual(await all())
    const drafts = await env.call('GET', '/admin/v1/locations/export?status=draft')
    expect(drafts.body.locations.map((l: { external_id: string }) => l.external_id)).toEqual(['S2'])
    const res = await env.app.handle(
      new Request('http://localhost/admin/v1/locations/export?format=csv', {
        headers: { authorization: `Bearer ${env.key}` },
      }),
    )
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="locations-${env.locatorId}.csv"`)
    const text = await res.text()
    expect(text.split('\r\n')[0]).toEndWith(',image_url,status,custom.floor')
    const before = snapshot()
    const back = await csv(text)
    expect(back.body).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0, unknown_columns: [] })
    // The JSON export too, as it is: its success field is taken, not refused.
    expect((await bulk(json.body)).body).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0 })
    // For Excel where numbers have a decimal comma: a BOM, ";" between cells; it reads back as it is.
    const excel = await env.app.handle(
      new Request('http://localhost/admin/v1/locations/export?format=csv&separator=%3B&bom=true', {
        headers: { authorization: `Bearer ${env.key}` },
      }),
    )
    const bytes = new Uint8Array(await excel.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const excelText = new TextDecoder().decode(bytes) // the decoder drops the BOM
    expect(excelText.split('\r\n')[0]).toStartWith('id;external_id;name;address;lat;lng;')
    expect(excelText).toContain(';40,01;-3,01;')
    expect((await csv(excelText)).body).toMatchObject({ unchanged: 3, unknown_columns: [] })
    expect(snapshot()).toEqual(before)
  })

  test('a day kept as "-" or "x" beside open days reads back as kept, not closed; typed bare, it is closed', async () => {
    const hours = { monday: '-', tuesday: '–', wednesday: 'x', thursday: "'-", friday: '09:00-17:00' }
    const special_hours = { '2026-12-24': 'X', '2026-12-25': "'x", '2026-12-26': '-' }
    await bulk({ locations: [store('K1', { hours, special_hours })] })
    const text = await (await exportRequest('csv')).text()
    // Each after a "'", as a spreadsheet keeps text as typed: the import takes one "'" off.
    expect(text).toContain(`,'-,'–,'x,''-,09:00-17:00,,,2026-12-24 'X; 2026-12-25 ''x; 2026-12-26 '-,`)
    const before = snapshot()
    expect((await csv(text)).body).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    expect(snapshot()).toEqual(before)
    // Typed without the "'" by a person editing the sheet, a dash or an "x" is a day closed.
    const typed = text.replace(",'-,'–,'x,", ',-,–,x,').replace("2026-12-24 'X", '2026-12-24 X')
    const read = await csv(typed, '?dry_run=true')
    expect(read.body.results[0].changes).toEqual([
      'hours.monday',
      'hours.tuesday',
      'hours.wednesday',
      'special_hours.2026-12-24',
    ])
    await csv(typed)
    const [kept] = await all()
    expect(kept.hours).toMatchObject({ monday: 'closed', tuesday: 'closed', wednesday: 'closed', thursday: "'-" })
    expect(kept.special_hours['2026-12-24']).toBe('closed')
  })

  test('a note kept unread under a short header ("Di") reads back kept under "tuesday": nothing changes', async () => {
    // Under "Di" the French "Samedi 10-13" is no note of the week's: the cell is kept, unread.
    // Under the export's "tuesday" it would be read as a note, Tuesday 9-18, unless marked to keep.
    const sheet = 'external_id,name,address,lat,lng,Mo,Di,Mi,Do,Fr,Sa,So\r\n'
    await csv(`${sheet}K1,Store K1,1 Main St,40,-3,9-18,"9-18, Samedi 10-13",9-18,9-18,9-18,,\r\n`)
    const [stored] = await all()
    expect(stored.hours.tuesday).toBe('9-18, Samedi 10-13')
    const text = await (await exportRequest('csv')).text()
    expect(text).toContain(`,9-18,"'9-18, Samedi 10-13",9-18,`)
    const before = snapshot()
    const dry = await csv(text, '?dry_run=true')
    expect(dry.body).toMatchObject({ updated: 0, unchanged: 1 })
    expect((await csv(text)).body).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    expect(snapshot()).toEqual(before)
    // Typed without the "'", the cell is read under "tuesday" as it reads: the note is Saturday's.
    const typed = text.replace('"\'9-18, Samedi 10-13"', '"9-18, Samedi 10-13"')
    expect((await csv(typed, '?dry_run=true')).body.results[0].changes).toEqual(['hours.tuesday'])
  })

  test("a day's note of other days' hours reads back as kept, giving the other days none", async () => {
    const hours = { monday: '9-18, Sa 10-13', tuesday: '9-18, Do bis 20', friday: '09:00-17:00' }
    await bulk({ locations: [store('N1', { hours })] })
    const text = await (await exportRequest('csv')).text()
    expect(text).toContain(`,"'9-18, Sa 10-13","'9-18, Do bis 20",,,09:00-17:00,,,`)
    const before = snapshot()
    expect((await csv(text)).body).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    expect(snapshot()).toEqual(before)
  })

  test('a bad format or status is 400 invalid_request; a tag holding "|" cannot be CSV', async () => {
    expect((await env.call('GET', '/admin/v1/locations/export?format=xml')).body.message).toContain('json or csv')
    expect((await env.call('GET', '/admin/v1/locations/export?status=gone')).status).toBe(400)
    for (const [query, message] of [
      ['format=csv&separator=%7C', 'The separator parameter must be ",", ";" or tab; got "|".'],
      ['format=csv&bom=yes', 'The bom parameter must be true, false, 1 or 0 (in any case); got "yes".'],
      ['format=csv&bom=', 'The bom parameter must be true, false, 1 or 0 (in any case); got "".'],
      ['bom=true', 'The separator and bom parameters are for format=csv.'],
    ])
      expect((await env.call('GET', `/admin/v1/locations/export?${query}`)).body).toMatchObject({
        error: 'invalid_request',
        message,
      })
    await bulk({ locations: [store('P', { tags: ['a|b'] })] })
    const piped = await env.call('GET', '/admin/v1/locations/export?format=csv')
    expect(piped.status).toBe(400)
    expect(piped.body.message).toContain('Or export as JSON (format=json)')
  })

  test('format in any case; Accept: text/csv without a format gives CSV', async () => {
    await bulk({ locations: [store('A1')] })
    const get = (query: string, accept?: string) =>
      env.app.handle(
        new Request(`http://localhost/admin/v1/locations/export${query}`, {
          headers: { authorization: `Bearer ${env.key}`, ...(accept ? { accept } : {}) },
        }),
      )
    const typeOf = async (query: string, accept?: string) => {
      const res = await get(query, accept)
      expect(res.status).toBe(200)
      return res.headers.get('content-type')
    }
    expect(await typeOf('?format=CSV&bom=0')).toBe('text/csv; charset=utf-8')
    expect(await typeOf('?format=Json')).toBe('application/json;charset=utf-8')
    expect(await typeOf('', 'text/csv')).toBe('text/csv; charset=utf-8')
    expect(await typeOf('?separator=%3B', 'application/json;q=0.5, text/csv')).toBe('text/csv; charset=utf-8')
    // A format sent wins; "*/*" and JSON ranked first keep JSON.
    expect(await typeOf('?format=json', 'text/csv')).toBe('application/json;charset=utf-8')
    expect(await typeOf('', '*/*')).toBe('application/json;charset=utf-8')
    expect(await typeOf('', 'application/json, text/csv')).toBe('application/json;charset=utf-8')
    const refused = (await (await get('?format=XLSX')).json()) as { message: string }
    expect(refused.message).toBe('The format parameter must be json or csv (in any case); got "XLSX".')
  })

  test('chosen by Accept (no format), the answer says Vary: Accept; with a format, Accept is not read', async () => {
    await bulk({ locations: [store('A1')] })
    const varyOf = async (query: string, accept?: string) => {
      const res = await env.app.handle(
        new Request(`http://localhost/admin/v1/locations/export${query}`, {
          headers: { authorization: `Bearer ${env.key}`, ...(accept ? { accept } : {}) },
        }),
      )
      expect(res.status).toBe(200)
      return [res.headers.get('content-type'), res.headers.get('vary')]
    }
    expect(await varyOf('', 'text/csv')).toEqual(['text/csv; charset=utf-8', 'Accept'])
    expect(await varyOf('', '*/*')).toEqual(['application/json;charset=utf-8', 'Accept'])
    expect(await varyOf('')).toEqual(['application/json;charset=utf-8', 'Accept'])
    expect(await varyOf('?format=csv', 'application/json')).toEqual(['text/csv; charset=utf-8', null])
    expect(await varyOf('?format=json', 'text/csv')).toEqual(['application/json;charset=utf-8', null])
  })

  test('an export of several slices has every location once, in order, as the listing gives them', async () => {
    const n = EXPORT_SLICE * 2 + 34
    const ids = await manyStores(n)
    const json = await env.call('GET', '/admin/v1/locations/export')
    const listed = []
    for (let page = 1; page <= 3; page++)
      listed.push(...(await env.call('GET', `/admin/v1/locations?limit=500&page=${page}`)).body.locations)
    expect(json.body.locations).toEqual(listed)
    expect(listed.map((l: { id: string }) => l.id)).toEqual(ids)
    const res = await env.app.handle(
      new Request('http://localhost/admin/v1/locations/export?format=csv', {
        headers: { authorization: `Bearer ${env.key}` },
      }),
    )
    const lines = (await res.text()).split('\r\n')
    expect(lines.length).toBe(n + 2) // the header, a row each, '' after the last line break
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(ids)
  })

  test('an export shows the locations as they were when it began, whatever commits between its slices', async () => {
    const ids = await manyStores(EXPORT_SLICE * 2 + 34)
    const before = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    const pieces: Uint8Array[] = []
    const running = exportTo(env.store, env.locatorId, null, { format: 'json', indent: 0 }, (p) => pieces.push(p))
    // exportTo has read its first slice; another process deletes, renames and adds meanwhile.
    otherProcess(env.store, (other) => {
      other.locations.remove(env.locatorId, ids.at(-1)!)
      const renamed = other.locations.get(env.locatorId, ids[EXPORT_SLICE + 1]!)!
      other.locations.replace({ ...renamed, name: 'Renamed' }, renamed)
      other.locations.insert(locationRecord(env.locatorId, storeBody({ name: 'Added' })))
    })
    await running
    expect(JSON.parse(Buffer.concat(pieces).toString())).toEqual(before)
    const after = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    expect(after.map((l: { name: string }) => l.name)).toContain('Renamed')
    expect(after).toHaveLength(before.length)
  })

  test('the event loop takes other work between the slices of an export', async () => {
    await manyStores(EXPORT_SLICE + 1)
    const done: string[] = []
    const running = exportTo(env.store, env.locatorId, null, { format: 'csv', style: PLAIN_CSV }, () => {}).then(() =>
      done.push('export'),
    )
    setImmediate(() => done.push('other work'))
    await running
    expect(done).toEqual(['other work', 'export'])
  })

  test('a big export waits in an unlinked file beside the database, closed once the answer is read', async () => {
    const ids = await manyStores(1200, LONG)
    const res = await exportRequest('json')
    // Open, and already gone from the folder: nothing is left behind, even after a crash.
    expect(answerFiles()).toHaveLength(1)
    expect(readdirSync(env.dir).filter((name) => name.includes('storeloc-answer'))).toEqual([])
    const text = await res.text()
    expect(text.length).toBeGreaterThan(IN_MEMORY_BYTES)
    expect(JSON.parse(text).locations.map((l: { id: string }) => l.id)).toEqual(ids)
    expect(answerFiles()).toEqual([])
  })

  test("a big export's file is closed when the client gives the answer up half-way", async () => {
    await manyStores(1200, LONG)
    const res = await exportRequest('csv')
    const reader = res.body!.getReader()
    expect((await reader.read()).value!.length).toBeGreaterThan(0)
    expect(answerFiles()).toHaveLength(1)
    await reader.cancel()
    expect(answerFiles()).toEqual([])
  })

  test('a folder that takes no file keeps the answer in memory, whole', async () => {
    const spool = new Spool(join(env.dir, 'not-a-folder'))
    const pieces = Array.from({ length: 5 }, (_, i) => new Uint8Array(IN_MEMORY_BYTES / 2).fill(65 + i))
    for (const piece of pieces) spool.write(piece)
    expect(answerFiles()).toEqual([])
    const bytes = new Uint8Array(await new Response(spool.body()).arrayBuffer())
    expect(bytes).toEqual(new Uint8Array(Buffer.concat(pieces)))
  })
})

/** A description that makes 1,200 stores' export several times IN_MEMORY_BYTES. */
const LONG = { description: 'A shop with a long description. '.repeat(120) }

const exportRequest = (format: 'json' | 'csv') =>
  env.app.handle(
    new Request(`http://localhost/admin/v1/locations/export?format=${format}`, {
      headers: { authorization: `Bearer ${env.key}` },
    }),
  )

/** This process's open answer files (spool.ts), by their descriptors. */
function answerFiles(): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes('.storeloc-answer-')
    } catch {
      return false
    }
  })
}
