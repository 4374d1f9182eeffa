// storeloc key: secret keys created, listed, revoked and rotated, run as a real subprocess against a
// real database file, and each checked against the Management API on that file.
import { describe, expect, test } from 'bun:test'
import { closeSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { isWellFormedSecretKey } from '../../src/core/ids'
import { openStore } from '../../src/store'
import { adminGet, countRows, dbPath, json, storeloc, useTempDatabase } from './cli-fixture'

useTempDatabase()

describe('key', () => {
  test('create with an expiry, list without secrets', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    const k = json('key', 'create', locator.id, '--expires', '2099-01-31')
    expect(isWellFormedSecretKey(k.secret_key)).toBe(true)
    expect(k.expires_at).toBe('2099-01-31T00:00:00.000Z')
    const list = json('key', 'list', locator.id)
    expect(list).toHaveLength(2)
    const row = list.find((r: any) => r.id === k.id)
    expect(row).toEqual({
      id: k.id,
      locator_id: locator.id,
      prefix: `${k.secret_key.slice(0, 7)}…`,
      status: 'active',
      expires_at: '2099-01-31T00:00:00.000Z',
      last_used_at: null,
      exposed: false,
      created_at: row.created_at,
    })
    expect(JSON.stringify(list)).not.toContain(k.secret_key)
  })

  test('an expiry in the past or not a date is refused and creates no key', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    // 2030-02-30 is no day (Date.parse took it for 2030-03-02); a time needs its offset.
    // 9999-12-31T23:00:00-02:00 is in the year 10000, written "+010000-...".
    for (const bad of [
      '2001-01-01',
      'tomorrow',
      '2030-02-30',
      '2030-13-01',
      '2030-01-01T00:00:00',
      '2030-01-01T25:00:00Z',
      '9999-12-31T23:00:00-02:00',
    ]) {
      const r = storeloc('key', 'create', locator.id, '--expires', bad)
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('--expires')
    }
    expect(countRows('api_keys')).toBe(1)
    expect(json('key', 'create', locator.id, '--expires', '2030-01-01T00:00:00+02:00').expires_at).toBe(
      '2029-12-31T22:00:00.000Z',
    )
  })

  test('last use is recorded', async () => {
    const { locator, key } = json('locator', 'create', '--name', 'A')
    await adminGet(key.secret_key)
    const [row] = json('key', 'list', locator.id)
    expect(Date.parse(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000)
  })

  test('revoke makes the key fail with 401 inactive', async () => {
    const { key } = json('locator', 'create', '--name', 'A')
    const revoked = json('key', 'revoke', key.id)
    expect(revoked.status).toBe('revoked')
    const res = await adminGet(key.secret_key)
    expect(res.status).toBe(401)
    expect(res.body.message).toContain('revoked')
    expect(storeloc('key', 'revoke', key.id).code).toBe(1)
  })

  test('rotate with no grace: old key expired at once, new key works', async () => {
    const { key } = json('locator', 'create', '--name', 'A')
    const rotated = json('key', 'rotate', key.id, '--grace-hours', '0')
    expect(rotated.old.status).toBe('expired')
    expect((await adminGet(key.secret_key)).status).toBe(401)
    expect((await adminGet(key.secret_key)).body.message).toContain('expired')
    expect((await adminGet(rotated.key.secret_key)).status).toBe(200)
  })

  test('rotate with no grace stops a key whatever its expiry, one past 9999 too (as an older release stored it)', async () => {
    const { key } = json('locator', 'create', '--name', 'A')
    const store = openStore(dbPath)
    store.write(() => store.keys.setExpiry(store.keys.get(key.id)!, '+010000-01-01T01:00:00.000Z'))
    store.close()
    expect((await adminGet(key.secret_key)).status).toBe(200)
    const rotated = json('key', 'rotate', key.id, '--grace-hours', '0')
    expect(rotated.old.status).toBe('expired')
    expect((await adminGet(key.secret_key)).status).toBe(401)
  })

  test('rotate with a grace period keeps the old key working until it ends', async () => {
    const { key } = json('locator', 'create', '--name', 'A')
    const before = Date.now()
    const rotated = json('key', 'rotate', key.id, '--grace-hours', '2')
    const end = Date.parse(rotated.old.expires_at)
    expect(end).toBeGreaterThanOrEqual(before + 2 * 3_600_000 - 1000)
    expect(end).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000)
    expect(rotated.old.status).toBe('active')
    expect((await adminGet(key.secret_key)).status).toBe(200)
    expect((await adminGet(rotated.key.secret_key)).status).toBe(200)
  })

  test('bad grace hours and unknown key ids are refused', () => {
    const { key } = json('locator', 'create', '--name', 'A')
    for (const bad of ['soon', '-1', '', '9000']) {
      const r = storeloc('key', 'rotate', key.id, `--grace-hours=${bad}`)
      expect({ bad, code: r.code, usage: r.stderr.includes('Usage:') }).toEqual({ bad, code: 1, usage: false })
      expect(r.stderr).toContain('--grace-hours')
    }
    expect(storeloc('key', 'rotate', 'key_nope').code).toBe(1)
    expect(countRows('api_keys')).toBe(1)
  })

  test('a new secret key that cannot be written out is not kept, and the command fails', async () => {
    const { locator, key } = json('locator', 'create', '--name', 'A')
    // /dev/full refuses every write (ENOSPC), as a full disk would the file output went to.
    const full = openSync('/dev/full', 'w')
    const toFull = (...argv: string[]) => {
      const p = Bun.spawnSync([process.execPath, 'src/cli/main.ts', ...argv], {
        cwd: join(import.meta.dir, '../..'),
        env: { ...process.env, DATABASE_PATH: dbPath },
        stdout: full,
      })
      return { code: p.exitCode, stderr: p.stderr.toString() }
    }
    try {
      for (const argv of [
        ['locator', 'create', '--name', 'B'],
        ['key', 'create', locator.id],
        ['key', 'rotate', key.id, '--grace-hours', '0'],
        ['key', 'create', locator.id, '--json'],
      ]) {
        const r = toFull(...argv)
        expect({ argv, code: r.code }).toEqual({ argv, code: 1 })
        expect(r.stderr).toContain(
          'Could not write the new secret key to standard output (ENOSPC), so nothing was changed',
        )
        expect(r.stderr).not.toContain('sk_')
      }
      expect(countRows('locators')).toBe(1)
      expect(countRows('api_keys')).toBe(1)
      // The rotation was undone whole: the old key has no expiry and still works.
      expect(json('key', 'list', locator.id)[0]).toMatchObject({ id: key.id, status: 'active', expires_at: null })
      expect((await adminGet(key.secret_key)).status).toBe(200)
      // Other commands fail too (exit 1, not 0 with nothing shown), and say what they kept.
      const r = toFull('locator', 'set', locator.id, '--radius', '30')
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(
        'Could not write to standard output (ENOSPC); what the command changed, if anything, is kept.',
      )
      expect(json('locator', 'show', locator.id).default_radius).toBe(30)
    } finally {
      closeSync(full)
    }
  })

  test('a secret key given where an id belongs is not printed back', () => {
    json('locator', 'create', '--name', 'A')
    const secret = `sk_${'d'.repeat(38)}`
    for (const argv of [
      ['key', 'revoke', secret],
      ['key', 'rotate', secret],
      ['locator', 'show', secret],
    ]) {
      const r = storeloc(...argv)
      expect(r.code).toBe(1)
      expect(r.stderr).not.toContain(secret)
      expect(r.stderr).toContain('sk_[redacted]')
    }
  })
})
