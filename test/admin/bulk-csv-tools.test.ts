// POST /admin/v1/locations/bulk with files as spreadsheets and back offices write them, sent as
// they are: Google Sheets' and Excel's tab separated text, a Windows-1252 dump.
import { describe, expect, test } from 'bun:test'
import { BULK, env, snapshot, useBulkEnv } from './bulk-fixture'

useBulkEnv()

async function post(body: string | Uint8Array, type: string, query = '?dry_run=true') {
  const headers = { authorization: `Bearer ${env.key}`, 'content-type': type }
  const res = await env.app.handle(new Request(`http://localhost${BULK}${query}`, { method: 'POST', headers, body }))
  return { status: res.status, body: (await res.json()) as any }
}

/** Text as Excel's "Unicode Text" writes it: UTF-16 LE after its byte order mark. */
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])

describe('tab separated values', () => {
  const tsv =
    'Store Code\tName\tAddress\tLatitude\tLongitude\r\n' +
    'G1\tCycle Hub\t12 Briggate, Leeds LS1 6HD, United Kingdom\t53.7972\t-1.5417'

  test('sent as text/tab-separated-values (Google Sheets, Excel "Unicode Text") are read as CSV', async () => {
    for (const body of [tsv, utf16(tsv)]) {
      const dry = await post(body, 'text/tab-separated-values')
      expect(dry.status).toBe(200)
      expect(dry.body).toMatchObject({ created: 1, unknown_columns: [] })
    }
    const before = snapshot()
    expect((await post(tsv, 'text/tab-separated-values; charset=utf-8', '')).body).toMatchObject({ created: 1 })
    expect(snapshot().locations).toHaveLength(before.locations.length + 1)
    expect((await post(tsv, 'text/tab-separated-values', '')).body).toMatchObject({ created: 0, unchanged: 1 })
  })

  test('sent as text/tab-separated-values are read by tabs, though a header cell holds more commas', async () => {
    const notes = 'Delivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'
    const dry = await post(`${tsv.replace('\r\n', `\t${notes}\r\n`)}\tYes`, 'text/tab-separated-values')
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ created: 1, unknown_columns: [notes] })
    expect(dry.body.results[0]).toMatchObject({ external_id: 'G1', warnings: [] })
    // A file of commas sent so, with no tab in its header, is read by its commas.
    const commas = await post(
      'external_id,name,address,lat,lng\r\nG2,Depot,"1 Main St, Leeds",53.8,-1.55',
      'text/tab-separated-values',
    )
    expect(commas.body).toMatchObject({ created: 1, unknown_columns: [] })
  })

  test('sent as text/plain or bytes are told to send them as text/tab-separated-values, which reads them', async () => {
    const notes = 'Delivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'
    const commas = `${tsv.replace('\r\n', `\t${notes}\r\n`)}\tYes`
    for (const body of [tsv, utf16(tsv), commas])
      for (const type of ['text/plain', 'application/octet-stream']) {
        const sent = await post(body, type)
        expect(sent.status).toBe(400)
        expect(sent.body.message).toEndWith(
          `It was sent as "${type}", and reads as tab separated values: send it as text/tab-separated-values, with curl --data-binary @stores.tsv -H "Content-Type: text/tab-separated-values".`,
        )
        // The advice taken as written: the same bytes are read, by tabs.
        expect((await post(body, 'text/tab-separated-values')).body).toMatchObject({ created: 1 })
      }
  })
})

describe('comma separated values with a tab in a quoted cell', () => {
  const csv = 'name,address,lat,lng,notes\r\nA,1 Main St,40.1,-3.2,"x\ty"\r\nB,2 Main St,40.2,-3.2,ok\r\n'

  test('sent as text/plain or bytes are told to send them as text/csv, which reads them', async () => {
    for (const type of ['text/plain', 'application/octet-stream']) {
      const sent = await post(csv, type)
      expect([type, sent.status]).toEqual([type, 400])
      expect(sent.body.message).toEndWith(
        `It was sent as "${type}", and reads as CSV: send it as text/csv, with curl --data-binary @stores.csv -H "Content-Type: text/csv".`,
      )
      expect((await post(csv, 'text/csv')).body).toMatchObject({ created: 2 })
    }
    // Sent as text/tab-separated-values, read by its header's commas all the same.
    expect((await post(csv, 'text/tab-separated-values')).body).toMatchObject({ created: 2 })
  })
})

describe('a back office dump in Windows-1252', () => {
  const dump = Buffer.from(
    'FILIALNR|BEZEICHNUNG|STRASSE|PLZ|ORT|LAND|BREITE|LAENGE\r\n0001|Müller Räder|Königstraße 5|70173|Stuttgart|DE|48,7784|9,18\r\n\x1a',
    'latin1',
  )

  test('read with its charset named, "|" separated and ending in Ctrl-Z; unnamed, told the charset to name', async () => {
    const named = await post(dump, 'text/csv; charset=windows-1252')
    expect(named.status).toBe(200)
    expect(named.body).toMatchObject({ created: 1, unknown_columns: [] })
    const unnamed = await post(dump, 'text/csv')
    expect(unnamed.status).toBe(400)
    expect(unnamed.body.message).toContain('name it in the Content-Type: text/csv; charset=windows-1252')
  })

  test('its ID column gives the store codes before a FILIALE of branch numbers', async () => {
    const body =
      'ID,Filiale,Bezeichnung,Adresse,lat,lng\n' +
      '100,12,Müller,"Königstraße 5, 70173 Stuttgart",48.77,9.18\n' +
      '101,13,Café,"Marienplatz 1, 80331 München",48.13,11.57\n'
    const dry = await post(body, 'text/csv')
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ created: 2, unknown_columns: ['Filiale'] })
    expect(dry.body.results.map((r: { external_id: string }) => r.external_id)).toEqual(['100', '101'])
  })
})

describe('an export opened and saved again in Excel', () => {
  test("a row whose id's store has its code with leading zeros, sent without them, is warned", async () => {
    const header = 'id,external_id,name,address,lat,lng\n'
    await post(`external_id,name,address,lat,lng\n0012,Corner,"1 Main St, Springfield",39.78,-89.65\n`, 'text/csv', '')
    const [stored] = (await env.call('GET', '/admin/v1/locations')).body.locations
    const resaved = `${header}${stored.id},12,Corner,"1 Main St, Springfield",39.78,-89.65\n`
    const dry = await post(resaved, 'text/csv')
    expect(dry.body).toMatchObject({ updated: 1 })
    expect(dry.body.results[0].warnings).toEqual([
      'The external_id "12" replaces "0012", the same code without its leading zeros: Excel drops them from a file it opens and saves again (it reads 0012 as 12). If the code is not meant to change, format the column as text and give it as "0012".',
    ])
    // The code as stored: no change, no warning.
    const same = await post(resaved.replace(',12,', ',0012,'), 'text/csv')
    expect(same.body).toMatchObject({ updated: 0, unchanged: 1 })
    expect(same.body.results[0].warnings).toEqual([])
  })
})

describe('rows giving their store codes and no name at the bottom', () => {
  test('with codes like "Total" and a phone, update those stores: they are not read as totals rows', async () => {
    const header = 'external_id,name,address,lat,lng,phone,sales\n'
    const seed = `${header}S1,A,"1 Main St, Springfield",39.78,-89.65,,\n`
    const stations =
      'TOTAL-7,Total Station,"2 Main St, Springfield",39.79,-89.66,,\nTotal,Total Bikes,"3 Main St, Springfield",39.8,-89.67,,\n'
    expect((await post(`${seed}${stations}`, 'text/csv', '')).body).toMatchObject({ created: 3 })
    // Stores' rows giving their phones alone: read as totals rows, delete_missing deleted their stores.
    const phones = `${seed}TOTAL-7,,,,,+1 555 0101,\nTotal,,,,,+1 555 0102,\n`
    const sent = await post(phones, 'text/csv', '?delete_missing=true')
    expect(sent.body).toMatchObject({ success: true, unchanged: 1, updated: 2, deleted: 0 })
    expect(sent.body.results.map((r: any) => [r.external_id, r.action, r.warnings])).toEqual([
      ['S1', 'unchanged', []],
      ['TOTAL-7', 'updated', []],
      ['Total', 'updated', []],
    ])
    // A sheet's sum under a column not read, beside "Total" in the code column, is a totals row.
    const sum = await post(`${seed}Total,,,,,,150\n`, 'text/csv')
    expect(sum.body).toMatchObject({ success: true, unchanged: 1 })
    expect(sum.body.results[0].warnings[0]).toStartWith('Line 3 ("Total, 150") at the bottom names no store')
  })
})

describe('a file of store codes alone, sent with delete_missing', () => {
  test('keeps each store it lists, the last too: its code is no count of the rows or a "Total"', async () => {
    const stores = ['17', '42', '2', 'Total'].map(
      (code, i) => `${code},Store ${code},"${i} Main St",${39.7 + i / 100},-89.6`,
    )
    const seed = await post(`external_id,name,address,lat,lng\n${stores.join('\n')}\n`, 'text/csv', '')
    expect(seed.body).toMatchObject({ created: 4 })
    for (const codes of ['17\n42\n2\n', '17\n42\nTotal\n']) {
      const kept = await post(`external_id\n${codes}`, 'text/csv', '?dry_run=true&delete_missing=true')
      expect(kept.body).toMatchObject({ success: true, unchanged: 3, deleted: 1 })
      const deleted = kept.body.results.filter((r: any) => r.action === 'deleted').map((r: any) => r.external_id)
      expect(deleted).toEqual(codes.includes('Total') ? ['2'] : ['Total'])
    }
  })
})

describe('a last line read as no store, sent with delete_missing', () => {
  const header = 'external_id,name,address,lat,lng\n'
  const rows = 'S1,Alpha,"1 Main St",39.7,-89.6\nS2,Beta,"2 Main St",39.71,-89.61\n'
  const seed = async () => {
    const gone = '2,Store 2,"3 Main St",39.72,-89.62\nX9,Shop 2,"4 Main St",39.73,-89.63\n'
    expect((await post(`${header}${rows}${gone}`, 'text/csv', '')).body).toMatchObject({ created: 4 })
  }

  test('is refused, dry run or not, when the line names a store it would delete: by its code or its name', async () => {
    await seed()
    const before = snapshot()
    for (const [line, named] of [
      ['2', 'the location "Store 2" (external_id "2")'],
      ['Shop 2', 'the location "Shop 2" (external_id "X9")'],
    ])
      for (const query of ['?delete_missing=true', '?dry_run=true&delete_missing=true']) {
        const sent = await post(`${header}${rows}${line}\n`, 'text/csv', query)
        expect(sent.status).toBe(422)
        expect(sent.body.message).toBe(
          'delete_missing would delete a location that line 4 names, though it was read as no store; nothing was written.',
        )
        expect(sent.body.details.delete_missing).toEqual([
          `Refused: line 4 ("${line}") was read as no store (a totals row, or a count of the rows above it), but it names ${named}, which nothing else in the request keeps. If line 4 is that store, write its row in full, with its name and its address or coordinates; if not, delete line 4. Then send it again.`,
        ])
      }
    expect(snapshot()).toEqual(before)
  })

  test("deletes as asked when the line names none of them: a dump's count of its rows", async () => {
    await seed()
    const sent = await post(`${header}${rows}(2 rows affected)\n`, 'text/csv', '?delete_missing=true')
    expect(sent.body).toMatchObject({ success: true, unchanged: 2, deleted: 2 })
  })
})
