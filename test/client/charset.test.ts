// The typed client's `charset` for a CSV body, against a real server: Latin-1 bytes are read as
// Latin-1, and a charset that cannot be sent is refused before anything is.
import { expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { syncServer } from '../examples/sync-server'

const served = syncServer()

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
const FILE = 'external_id,name,address,lat,lng\nS1,Café Zürich,1 Bahnhofstraße,47.37,8.54\n'

test('bulkUpsertCsv sends `charset` in the Content-Type: Latin-1 bytes are stored as written', async () => {
  const api = new StorelocClient({ baseUrl: served.url, apiKey: served.key })
  // A Blob without a charset of its own: the option names it.
  const report = await api.bulkUpsertCsv(new Blob([latin1(FILE)], { type: 'text/csv' }), { charset: 'iso-8859-1' })
  expect(report).toMatchObject({ created: 1 })
  const [stored] = await api.exportLocations()
  expect([stored!.name, stored!.address]).toEqual(['Café Zürich', '1 Bahnhofstraße'])
  // The same bytes as a Buffer, and the option over a File's own charset: in step.
  const file = new File([latin1(FILE)], 'stores.csv', { type: 'text/csv; charset=utf-8' })
  expect(await api.bulkUpsertCsv(file, { charset: 'latin1' })).toMatchObject({ unchanged: 1 })
  expect(await api.bulkUpsertCsv(Buffer.from(latin1(FILE)), { charset: 'windows-1252' })).toMatchObject({
    unchanged: 1,
  })
  // A string is UTF-8 already: naming UTF-8 is allowed.
  expect(await api.bulkUpsertCsv(FILE, { charset: 'utf-8', dry_run: true })).toMatchObject({ unchanged: 1 })
}, 30_000)

test('a charset the client cannot send is a TypeError, one the service does not know its 400', async () => {
  const api = new StorelocClient({ baseUrl: served.url, apiKey: served.key })
  const path = 'POST /admin/v1/locations/bulk?dry_run=true'
  const asString = await api.bulkUpsertCsv(FILE, { charset: 'latin1', dry_run: true }).catch((e) => e)
  expect(asString).toBeInstanceOf(TypeError)
  expect(asString.message).toBe(
    `${path}: charset latin1 is for a body of bytes: a string is sent as UTF-8. Pass the file's bytes (a Buffer or Blob) instead.`,
  )
  const injected = await api.bulkUpsertCsv(latin1(FILE), { charset: 'latin1; x=1', dry_run: true }).catch((e) => e)
  expect(injected).toBeInstanceOf(TypeError)
  expect(injected.message).toBe(
    `${path}: charset must be the name of an encoding, such as windows-1252; got "latin1; x=1".`,
  )
  const unknown = await api.bulkUpsertCsv(latin1(FILE), { charset: 'klingon', dry_run: true }).catch((e) => e)
  expect(unknown).toBeInstanceOf(StorelocError)
  expect([unknown.status, unknown.code]).toEqual([400, 'invalid_request'])
}, 30_000)

test('a stream of text with a charset other than UTF-8 is a TypeError: its text is sent as UTF-8', async () => {
  const api = new StorelocClient({ baseUrl: served.url, apiKey: served.key })
  const before = await api.exportLocations()
  // As fs.createReadStream(file, 'latin1') gives it: the file's text, decoded already.
  async function* text() {
    yield FILE.replace('S1', 'S2')
  }
  const sent = await api.bulkUpsertCsv(text(), { charset: 'latin1' }).catch((e) => e)
  expect(sent).toBeInstanceOf(TypeError)
  expect(sent.message).toBe(
    "POST /admin/v1/locations/bulk: charset latin1 is for a body of bytes: a stream of text is sent as UTF-8. Pass the file's bytes (a Buffer or Blob) instead.",
  )
  expect(await api.exportLocations()).toEqual(before)
  // Naming UTF-8 is allowed, as for a string.
  expect(await api.bulkUpsertCsv(text(), { charset: 'UTF-8', dry_run: true })).toMatchObject({ created: 1 })
}, 30_000)
