// Multipart part header lines folded onto the next (RFC 5322: a line starting with a space or tab
// continues the one before), as Python's email package and JavaMail write a long one: each read
// as one line, on a location write and on bulk; a value's own line breaks are its text, and an
// indented header line is no fold.
import { describe, expect, test } from 'bun:test'
import { BASE, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const TYPE = { 'content-type': 'multipart/form-data; boundary=B' }

/** A text part as Python's email package writes it (policy SMTP), its Content-Disposition `disposition`. */
const pythonPart = (disposition: string, value: string) =>
  `--B\r\nContent-Type: text/plain; charset="us-ascii"\r\nMIME-Version: 1.0\r\nContent-Transfer-Encoding: 7bit\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`

async function answer(path: string, body: string) {
  const res = await rawRequest('POST', path, Buffer.from(body), TYPE)
  return [res.status, (await res.json()) as { location?: Record<string, unknown>; message?: string }] as const
}

describe('folded part header lines', () => {
  test('a Content-Disposition or Content-Type folded with a space or a tab is read as one line', async () => {
    // Python folds past 78 characters before a parameter; a tab, or two folds, read alike.
    const body = [
      pythonPart('form-data;\r\n name="name"', 'Cafe'),
      pythonPart('form-data;\r\n\tname="address"', '1 Rue'),
      pythonPart('form-data;\r\n name="coordinates[lat]"', '48.87'),
      `--B\r\nContent-Disposition:\r\n form-data;\r\n name="coordinates[lng]"\r\nContent-Type: text/plain;\r\n charset=utf-8\r\n\r\n2.33\r\n`,
      // A value's line breaks are its text, a space after them too.
      pythonPart('form-data;\r\n name="description"', 'Open late\r\n and early'),
      '--B--\r\n',
    ].join('')
    const [status, sent] = await answer(BASE, body)
    expect([status, sent.location?.name, sent.location?.address, sent.location?.description]).toEqual([
      201,
      'Cafe',
      '1 Rue',
      'Open late\r\n and early',
    ])
    // A line that reads as a header, indented, is no fold: refused naming it, as a first line so is.
    const before = snapshot()
    const indented = `${pythonPart('form-data; name="name"', 'Cafe')}--B\r\nContent-Type: text/plain\r\n\tContent-Disposition: form-data; name="description"\r\n\r\nOpen late\r\n--B--\r\n`
    const [refusedStatus, refused] = await answer(BASE, indented)
    expect([refusedStatus, refused.message]).toEqual([
      400,
      'The form body could not be read: part 2\'s header line "\\tContent-Disposition: form-data; name=\\"description\\"" has a space before its name, which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field: its text would be lost. Give each part a Content-Disposition of form-data; name="..." (its field), or send JSON.',
    ])
    expect(snapshot()).toEqual(before)
  })

  test("a file's name in RFC 2231 sections on folded lines, as Python's email package writes it, is named on bulk", async () => {
    const body = `--B\r\nContent-Type: text/csv; charset="us-ascii"\r\nMIME-Version: 1.0\r\nContent-Transfer-Encoding: 7bit\r\nContent-Disposition: form-data; name="file";\r\n filename*0*=utf-8''magasins-de-la-r%C3%A9gion-%C3%AEle-de-france-export;\r\n filename*1*=%C3%A9s-lundi.csv\r\n\r\nexternal_id,name,lat,lng\r\nS1,One,1,2\r\n\r\n--B--\r\n`
    const before = snapshot()
    const [status, sent] = await answer(`${BASE}/bulk`, body)
    expect([status, sent.message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as "multipart/form-data", a form\'s file upload (curl -F): send the file itself as the body, with curl --data-binary @"magasins-de-la-région-île-de-france-exportés-lundi.csv" -H "Content-Type: text/csv; charset=us-ascii".',
    ])
    expect(snapshot()).toEqual(before)
  })
})

describe('a fold inside a quoted value', () => {
  test('is read as one line though the rest of the value reads as a header name (Python compat32)', async () => {
    // Python's compat32 policy folds a long quoted file name at its ", ": the line after is the name's rest.
    const part = (filename: string) =>
      `--B\r\nContent-Type: text/csv; charset="us-ascii"\r\nMIME-Version: 1.0\r\nContent-Transfer-Encoding: 7bit\r\nContent-Disposition: form-data; name="file";\r\n filename="${filename}"\r\n\r\nname,address\r\nA,B\r\n\r\n--B--\r\n`
    const told = (file: string) =>
      `Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as "multipart/form-data", a form's file upload (curl -F): send the file itself as the body, with curl --data-binary @${file} -H "Content-Type: text/csv; charset=us-ascii".`
    const before = snapshot()
    for (const [filename, file] of [
      ['Paris and Lyon,\r\n Nice: stores.csv', '"Paris and Lyon, Nice: stores.csv"'],
      ['Report Q1 stores of the whole region of Ile de France,\r\n Paris: exported.csv', 'stores.csv'],
    ]) {
      const [status, sent] = await answer(`${BASE}/bulk`, part(filename!))
      expect([status, sent.message]).toEqual([400, told(file!)])
    }
    expect(snapshot()).toEqual(before)
  })
})

describe('a backslash in a quoted value', () => {
  test("before the closing quote it is the value's own, as browsers write it; before another, an escape", async () => {
    // Chromium, curl, Bun and Node write a name's \ as it is and its " as %22: "C:\dir\" ends there.
    const part = (type: string) =>
      `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafe\r\n--B\r\nContent-Type: ${type}\r\n\tContent-Disposition: form-data; name="description"\r\n\r\nOpen late\r\n--B--\r\n`
    const before = snapshot()
    for (const type of ['text/plain; name="C:\\dir\\"', 'text/plain; name="C:\\dir\\" ; charset=utf-8']) {
      const [status, sent] = await answer(BASE, part(type))
      expect([status, sent.message]).toEqual([
        400,
        'The form body could not be read: part 2\'s header line "\\tContent-Disposition: form-data; name=\\"description\\"" has a space before its name, which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field: its text would be lost. Give each part a Content-Disposition of form-data; name="..." (its field), or send JSON.',
      ])
    }
    // Before a quote within the value, it escapes it, as Python writes one: a fold after is one line.
    // Python's compat32 folds a long quoted file name at its ", ", and writes its " as \".
    const body = `--B\r\nContent-Type: text/csv; charset="us-ascii"\r\nContent-Disposition: form-data; name="file";\r\n filename="The 5\\" list/Paris and Lyon,\r\n Nice: stores.csv"\r\n\r\nname,address\r\nA,B\r\n\r\n--B--\r\n`
    const [status, sent] = await answer(`${BASE}/bulk`, body)
    expect([status, sent.message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as "multipart/form-data", a form\'s file upload (curl -F): send the file itself as the body, with curl --data-binary @"Paris and Lyon, Nice: stores.csv" -H "Content-Type: text/csv; charset=us-ascii".',
    ])
    expect(snapshot()).toEqual(before)
  })
})
