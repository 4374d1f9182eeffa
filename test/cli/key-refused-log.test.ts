// A key rotated, then revoked, while a script still sends it: the operator's way to find that
// script is the server's request log, which names the key's id and locator (never the key) on
// each request, the refused ones too. A real server and the real CLI on one database file.
import { expect, test } from 'bun:test'
import { startServer } from '../helpers'
import { dbPath, json, useTempDatabase } from './cli-fixture'

useTempDatabase()

test('the request log names the key id and locator of a revoked or expired key, never the key', async () => {
  const { locator } = json('locator', 'create', '--name', 'A')
  const old = json('key', 'create', locator.id)
  const server = startServer(dbPath, { DEMO: '0', GEOCODER: 'none' })
  try {
    const url = `http://127.0.0.1:${JSON.parse(await server.waitFor(/"listening"/)).url.split(':')[2]}`
    const send = async (key: string) =>
      (await fetch(`${url}/admin/v1/locations`, { headers: { authorization: `Bearer ${key}` } })).status
    expect(await send(old.secret_key)).toBe(200)
    const rotated = json('key', 'rotate', old.id, '--grace-hours', '0').key
    expect(await send(old.secret_key)).toBe(401) // expired at once
    expect(await send(rotated.secret_key)).toBe(200)
    json('key', 'revoke', rotated.id)
    expect(await send(rotated.secret_key)).toBe(401)
    // The lines come after the answers: the wait is for the fourth, not for a time.
    await server.waitFor(/"\/admin\/v1\/locations"/, undefined, 4)
    const lines = server.lines.filter((l) => l.includes('"/admin/v1/locations"')).map((l) => JSON.parse(l))
    const said = lines.map((l) => [l.status, l.locator, l.key])
    expect(said).toEqual([
      [200, locator.id, old.id],
      [401, locator.id, old.id],
      [200, locator.id, rotated.id],
      [401, locator.id, rotated.id],
    ])
    const all = server.lines.join('\n')
    for (const key of [old.secret_key, rotated.secret_key]) {
      expect(all).not.toContain(key)
      expect(all).not.toContain(key.slice(3))
    }
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})
