// A form's field given twice, as a query parameter given twice is: refused by name, not the last
// value kept.
import { describe, expect, test } from 'bun:test'
import { BASE, form, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const ADDRESS = 'address=1+Rue&coordinates[lat]=48.87&coordinates[lng]=2.33'

/** A multipart body of these fields, boundary B, as curl -F writes it. */
const multipart = (fields: [string, string][]) =>
  fields
    .map(([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')
    .concat('--B--\r\n')

async function postMultipart(fields: [string, string][]) {
  const res = await rawRequest('POST', BASE, Buffer.from(multipart(fields)), {
    'content-type': 'multipart/form-data; boundary=B',
  })
  return [res.status, ((await res.json()) as { message?: string }).message]
}

describe('a form field given twice', () => {
  test('urlencoded and multipart alike, it is refused naming the field and each value; nothing is stored', async () => {
    const before = snapshot()
    const twice =
      'The form body could not be read: the field "name" may be given once; got it 2 times ("Cafe A", "Cafe B"). Send each field once (a list\'s items each with [] after its name, as tags[]=A&tags[]=B), or send JSON.'
    const res = await form(BASE, `name=Cafe+A&${ADDRESS}&name=Cafe+B`)
    expect([res.status, res.body.message]).toEqual([400, twice])
    const fields: [string, string][] = [
      ['name', 'Cafe A'],
      ['name', 'Cafe B'],
      ['address', '1 Rue'],
    ]
    expect(await postMultipart(fields)).toEqual([400, twice])
    // An object's key, and the same value twice, too.
    const lat = await form(BASE, `name=Cafe&${ADDRESS}&coordinates[lat]=48.87`)
    expect([lat.status, lat.body.message]).toEqual([
      400,
      'The form body could not be read: the field "coordinates[lat]" may be given once; got it 2 times ("48.87", "48.87"). Send each field once (a list\'s items each with [] after its name, as tags[]=A&tags[]=B), or send JSON.',
    ])
    expect(snapshot()).toEqual(before)
    // A list's items repeat, kept in order.
    const tags = await form(BASE, `name=Cafe&${ADDRESS}&tags[]=Parking&tags[]=Wifi`)
    expect([tags.status, tags.body.location?.tags]).toEqual([201, ['Parking', 'Wifi']])
  })

  test('given as a value and as a list or object, it is refused: one would be lost', async () => {
    const before = snapshot()
    const res = await form(BASE, `name=Cafe&${ADDRESS}&tags=Parking&tags[]=Wifi`)
    expect([res.status, res.body.message]).toEqual([
      400,
      'The form body could not be read: the field "tags" is given both as "tags" and as "tags[]", and one of them would be lost. Give it one way, or send JSON.',
    ])
    const coordinates = await form(BASE, `name=Cafe&${ADDRESS}&coordinates=48.87,2.33`)
    expect(coordinates.body.message).toStartWith(
      'The form body could not be read: the field "coordinates" is given both as "coordinates[lat]" and as "coordinates"',
    )
    expect(snapshot()).toEqual(before)
  })
})
