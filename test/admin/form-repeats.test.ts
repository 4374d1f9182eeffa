// A form's field given twice, as a query parameter given twice is: refused by name, not the last
// value kept; but an HTML form's hidden field and its ticked checkbox, which give the box's value.
import { describe, expect, test } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { BASE, env, form, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const ADDRESS = 'address=1+Rue&coordinates[lat]=48.87&coordinates[lng]=2.33'

/** A multipart body of these fields, boundary B, as curl -F writes it. */
const multipart = (fields: [string, string][]) =>
  fields
    .map(([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')
    .concat('--B--\r\n')

async function postMultipart(fields: [string, string][], path = BASE) {
  const res = await rawRequest('POST', path, Buffer.from(multipart(fields)), {
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

  test("a hidden field then its ticked checkbox give the box's value; any other repeat is refused", async () => {
    addCustomField(env.store, env.locatorId, { id: 'wifi', name: 'Wifi', type: 'text' })
    // <input type=hidden name=custom_fields[wifi] value=0><input type=checkbox name=custom_fields[wifi] value=1>
    const res = await form(BASE, `name=Cafe&${ADDRESS}&custom_fields[wifi]=0&custom_fields[wifi]=1`)
    expect([res.status, res.body.location?.custom_fields]).toEqual([201, { wifi: '1' }])
    const box = await form(BASE, `name=Cafe&${ADDRESS}&custom_fields[wifi]=FALSE&custom_fields[wifi]=on`)
    expect([box.status, box.body.location?.custom_fields]).toEqual([201, { wifi: 'on' }])
    // A flag as a value, no location's field: read, and the location written.
    expect((await form(BASE, `name=Cafe&${ADDRESS}&dry_run=off&dry_run=true`)).status).toBe(201)
    const fields: [string, string][] = [
      ['name', 'Cafe'],
      ['address', '1 Rue'],
      ['coordinates[lat]', '48.87'],
      ['coordinates[lng]', '2.33'],
      ['custom_fields[wifi]', 'false'],
      ['custom_fields[wifi]', 'true'],
    ]
    const sent = await rawRequest('POST', BASE, Buffer.from(multipart(fields)), {
      'content-type': 'multipart/form-data; boundary=B',
    })
    const { location } = (await sent.json()) as { location?: { custom_fields: unknown } }
    expect([sent.status, location?.custom_fields]).toEqual([201, { wifi: 'true' }])
    // Any other repeat is refused.
    const before = snapshot()
    const refusal = (values: string) =>
      `The form body could not be read: the field "custom_fields[wifi]" may be given once; got it ${values}. Send each field once (a list's items each with [] after its name, as tags[]=A&tags[]=B), or send JSON.`
    // ASP.NET MVC writes its box first, and reads the first: which was meant is not guessed.
    for (const [values, told] of [
      [['1', '0'], '2 times ("1", "0")'],
      [['0', '1', '1'], '3 times ("0", "1", "1")'],
      [['0', '0'], '2 times ("0", "0")'],
      [['no', 'yes'], '2 times ("no", "yes")'],
    ] as const) {
      const res = await form(BASE, `name=Cafe&${ADDRESS}${values.map((v) => `&custom_fields[wifi]=${v}`).join('')}`)
      expect([res.status, res.body.message]).toEqual([400, refusal(told)])
    }
    expect(snapshot()).toEqual(before)
  })

  test("a location's own field given false-ish then true-ish is refused: no checkbox gives it", async () => {
    const before = snapshot()
    const twice = (name: string, values: string) =>
      `The form body could not be read: the field "${name}" may be given once; got it 2 times (${values}). Send each field once (a list's items each with [] after its name, as tags[]=A&tags[]=B), or send JSON.`
    const lat = await form(BASE, `name=Cafe&address=1+Rue&coordinates[lat]=0&coordinates[lat]=1&coordinates[lng]=2.33`)
    expect([lat.status, lat.body.message]).toEqual([400, twice('coordinates[lat]', '"0", "1"')])
    const name = await form(BASE, `name=off&name=on&${ADDRESS}`)
    expect([name.status, name.body.message]).toEqual([400, twice('name', '"off", "on"')])
    const phone: [string, string][] = [
      ['name', 'Cafe'],
      ['address', '1 Rue'],
      ['contact[phone]', 'false'],
      ['contact[phone]', 'true'],
    ]
    expect(await postMultipart(phone)).toEqual([400, twice('contact[phone]', '"false", "true"')])
    expect(snapshot()).toEqual(before)
  })

  test("on bulk, a hidden field and its ticked checkbox are told to go in the query string as the box's value", async () => {
    const before = snapshot()
    const query = ', and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.'
    const urlencoded = await form(`${BASE}/bulk`, 'locations[0][name]=A&dry_run=false&dry_run=on')
    expect(urlencoded.body.message).toEndWith(query)
    const [, told] = await postMultipart(
      [
        ['dry_run', '0'],
        ['dry_run', '1'],
        ['name', 'A'],
      ],
      `${BASE}/bulk`,
    )
    expect(told).toEndWith(query.replace('true', '1'))
    // Its advice taken as written: a dry run.
    const [, path] = /POST (\S+)\.$/.exec(urlencoded.body.message)!
    const csv = await rawRequest('POST', path!, Buffer.from('name,address,lat,lng\nCafe,1 Rue,48.87,2.33\n'), {
      'content-type': 'text/csv',
    })
    expect([csv.status, ((await csv.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
    expect(snapshot()).toEqual(before)
  })

  test('on bulk, a ticked checkbox before its hidden field is told once, as the box', async () => {
    // <input type=checkbox name=dry_run><input type=hidden name=dry_run value=0>, as ASP.NET MVC orders them.
    const query = ', and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.'
    const urlencoded = await form(`${BASE}/bulk`, 'locations[0][name]=A&dry_run=on&dry_run=0')
    expect(urlencoded.body.message).toEndWith(query)
    const [, told] = await postMultipart(
      [
        ['dry_run', 'true'],
        ['dry_run', 'false'],
        ['name', 'A'],
      ],
      `${BASE}/bulk`,
    )
    expect(told).toEndWith(query)
    // Its advice taken as written: one dry_run, which the query string reads.
    const [, path] = /POST (\S+)\.$/.exec(urlencoded.body.message)!
    const csv = await rawRequest('POST', path!, Buffer.from('name,address,lat,lng\nCafe,1 Rue,48.87,2.33\n'), {
      'content-type': 'text/csv',
    })
    expect([csv.status, ((await csv.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
  })

  test('on bulk, a hidden field and its ticked checkbox far apart are told as the box, however far', async () => {
    const query = ', and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.'
    // A textarea of CSV over 64 KiB between them, or more than 20 other fields.
    const csv = encodeURIComponent(`name,address\n${'Cafe,1 Rue de la Paix\n'.repeat(3000)}`)
    const far = await form(`${BASE}/bulk`, `dry_run=false&csv=${csv}&dry_run=on`)
    expect(far.body.message).toEndWith(query)
    const others = Array.from({ length: 21 }, (_, i): [string, string] => [`f${i}`, 'x'])
    const many = await form(
      `${BASE}/bulk`,
      new URLSearchParams([['dry_run', 'false'], ...others, ['dry_run', 'on']]).toString(),
    )
    expect(many.body.message).toEndWith(query)
    const [, told] = await postMultipart([['dry_run', 'false'], ...others, ['dry_run', 'true']], `${BASE}/bulk`)
    expect(told).toEndWith(query)
  })

  test('on bulk, a flag after more than 20 other fields is still told, so its advice is a dry run', async () => {
    const before = snapshot()
    const others = Array.from({ length: 25 }, (_, i): [string, string] => [`f${i}`, 'x'])
    const query =
      ', and the fields "delete_missing", "dry_run" in the query string: POST /admin/v1/locations/bulk?delete_missing=true&dry_run=true.'
    const flags: [string, string][] = [
      ['delete_missing', 'on'],
      ['dry_run', 'on'],
    ]
    const urlencoded = await form(`${BASE}/bulk`, new URLSearchParams([...others, ...flags]).toString())
    expect(urlencoded.body.message).toEndWith(query)
    const [, told] = await postMultipart([...others, ...flags], `${BASE}/bulk`)
    expect(told).toEndWith(query)
    // Its advice taken as written: a dry run, nothing stored.
    const [, path] = /POST (\S+)\.$/.exec(urlencoded.body.message)!
    const csv = await rawRequest('POST', path!, Buffer.from('name,address,lat,lng\nCafe,1 Rue,48.87,2.33\n'), {
      'content-type': 'text/csv',
    })
    expect([csv.status, ((await csv.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
    expect(snapshot()).toEqual(before)
  })
})
