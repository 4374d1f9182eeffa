// The storeloc CLI, run as a real subprocess against a real database file.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isWellFormedSecretKey } from '../../src/core/ids'
import { openStore } from '../../src/store'
import { cliRunner, newerSchemaDatabase, tempDir, quietApp } from '../helpers'

let dir: string
let dbPath: string

beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'cli.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { storeloc, json } = cliRunner(() => dbPath)

/** Calls the Management API on the same database file, as a running server would. */
async function adminGet(key: string, path = '/admin/v1/locations') {
  const store = openStore(dbPath)
  try {
    const app = quietApp(store)
    const res = await app.handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }),
    )
    return { status: res.status, body: (await res.json()) as any }
  } finally {
    store.close()
  }
}

const countRows = (table: string) => {
  const store = openStore(dbPath)
  try {
    return (store.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  } finally {
    store.close()
  }
}

describe('locator', () => {
  test('create prints the locator and a working secret key, stored only as a hash', async () => {
    const out = json('locator', 'create', '--name', 'Acme Stores')
    expect(out.locator.id).toMatch(/^lct_[0-9a-z]{16}$/)
    expect(out.locator.name).toBe('Acme Stores')
    expect(out.locator.public_token).toMatch(/^pk_[0-9A-Za-z]{24}$/)
    expect(out.locator.query_api_enabled).toBe(false)
    expect(out.key.id).toMatch(/^key_[0-9a-z]{16}$/)
    expect(isWellFormedSecretKey(out.key.secret_key)).toBe(true)

    const res = await adminGet(out.key.secret_key)
    expect(res.status).toBe(200)
    expect(res.body.pagination.total).toBe(0)

    const fileBytes =
      readFileSync(dbPath).toString('latin1') + readFileSync(`${dbPath}-wal`, { flag: 'a+' }).toString('latin1')
    expect(fileBytes.includes(out.key.secret_key)).toBe(false)
  })

  test('human output shows the key once with a note to store it', () => {
    const r = storeloc('locator', 'create', '--name', 'Human')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/secret key:\s+sk_[0-9A-Za-z]{38}/)
    expect(r.stdout).toContain('shown this once')
  })

  test('list and show', () => {
    const a = json('locator', 'create', '--name', 'A')
    const b = json('locator', 'create', '--name', 'B')
    const list = json('locator', 'list')
    expect(list.map((l: any) => l.id).sort()).toEqual([a.locator.id, b.locator.id].sort())
    const shown = json('locator', 'show', a.locator.id)
    expect(shown.id).toBe(a.locator.id)
    expect(shown.locations).toEqual({ published: 0, draft: 0 })
    expect(shown.keys).toHaveLength(1)
    expect(JSON.stringify(shown)).not.toContain(a.key.secret_key)
  })

  test('set --active off switches the locator off for both APIs; on brings it back; a bad value changes nothing', async () => {
    const { locator, key } = json('locator', 'create', '--name', 'A')
    json('locator', 'set', locator.id, '--query-api', 'on')
    const publicGet = async () => {
      const store = openStore(dbPath)
      try {
        const app = quietApp(store)
        const res = await app.handle(new Request(`http://localhost/public/v1/${locator.public_token}/filters`))
        return { status: res.status, body: (await res.json()) as any }
      } finally {
        store.close()
      }
    }
    expect((await publicGet()).status).toBe(200)
    expect((await adminGet(key.secret_key)).status).toBe(200)

    expect(json('locator', 'set', locator.id, '--active', 'off').active).toBe(false)
    expect(await publicGet()).toMatchObject({ status: 404, body: { error: { code: 'INVALID_TOKEN' } } })
    const admin = await adminGet(key.secret_key)
    expect(admin.status).toBe(401)
    expect(admin.body.message).toMatch(/locator/i)

    const bad = storeloc('locator', 'set', locator.id, '--active', 'maybe')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('--active must be on or off')
    expect(json('locator', 'show', locator.id).active).toBe(false)

    expect(json('locator', 'set', locator.id, '--active', 'on').active).toBe(true)
    expect((await publicGet()).status).toBe(200)
    expect((await adminGet(key.secret_key)).status).toBe(200)
  })

  test('show of an unknown locator exits 1 with a message', () => {
    json('locator', 'create', '--name', 'A')
    const r = storeloc('locator', 'show', 'lct_nope')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('No locator "lct_nope"')
  })

  test('a name with a line break or another control character is refused and writes nothing', () => {
    for (const name of ['Two\nlines', 'Tab\there', 'Bell\u0007']) {
      const r = storeloc('locator', 'create', '--name', name)
      expect({ name, code: r.code }).toEqual({ name, code: 1 })
      expect(r.stderr).toContain('control characters')
    }
    expect(existsSync(dbPath) ? countRows('locators') : 0).toBe(0)
  })

  test('line and paragraph separators, bidi controls and other invisible format characters are refused in names and labels, naming the character', () => {
    const refused: [string, string][] = [
      ['Line\u2028separator', 'U+2028'],
      ['Para\u2029graph', 'U+2029'],
      ['\u202Eevil.exe', 'U+202E'],
      ['Shop \u2066Nord\u2069', 'U+2066'],
      ['a\u202Ab', 'U+202A'],
      ['zero\u200Bwidth', 'U+200B'],
      ['\u200Fmark', 'U+200F'],
      ['soft\u00ADhyphen', 'U+00AD'],
      ['B\uFEFFOM', 'U+FEFF'],
      ['smuggled\u{E0041}\u{E0042}', 'U+E0041'],
    ]
    const { locator } = json('locator', 'create', '--name', 'A')
    for (const [text, char] of refused) {
      const r = storeloc('locator', 'create', '--name', text)
      expect({ text, code: r.code }).toEqual({ text, code: 1 })
      expect(r.stderr).toContain(
        `The locator name may not hold line breaks, tabs, other control characters or invisible format characters (such as bidi controls); it holds ${char}.`,
      )
      for (const option of ['--name', '--label']) {
        const f = storeloc(
          'custom-field',
          'add',
          locator.id,
          '--id',
          'f',
          '--type',
          'button',
          ...(option === '--name' ? ['--label', 'L'] : ['--name', 'N']),
          option,
          text,
        )
        expect({ text, option, code: f.code }).toEqual({ text, option, code: 1 })
        expect(f.stderr).toContain(`${option} may not hold`)
        expect(f.stderr).toContain(char)
      }
    }
    expect(countRows('locators')).toBe(1)
    expect(countRows('custom_fields')).toBe(0)
  }, 20_000) // 31 processes of about 150 ms each

  test('joiners that spelling and emoji need are kept, and names are stored composed (NFC) as the Management API stores text', () => {
    const names = [
      '👨\u200D👩\u200D👧 Family',
      'می\u200Cخواهم',
      'Flag \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
      'नमस्ते',
    ]
    for (const name of names) expect(json('locator', 'create', '--name', name).locator.name).toBe(name)
    const { locator } = json('locator', 'create', '--name', ' Cafe\u0301 ')
    expect(locator.name).toBe('Caf\u00e9')
    expect(
      json(
        'custom-field',
        'add',
        locator.id,
        '--id',
        'f',
        '--name',
        'Cafe\u0301',
        '--type',
        'badge',
        '--label',
        'Cre\u0300me ',
      ),
    ).toMatchObject({ name: 'Caf\u00e9', label: 'Cr\u00e8me' })
  })

  test('names and labels are counted in characters, not UTF-16 units: 200 emoji make a locator name, 201 do not', () => {
    const { locator } = json('locator', 'create', '--name', '🏪'.repeat(200))
    expect(locator.name).toBe('🏪'.repeat(200))
    const r = storeloc('locator', 'create', '--name', '🏪'.repeat(201))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('1 to 200 characters')
    json(
      'custom-field',
      'add',
      locator.id,
      '--id',
      'book',
      '--name',
      '📅'.repeat(100),
      '--type',
      'button',
      '--label',
      '📅'.repeat(100),
    )
    expect(
      storeloc(
        'custom-field',
        'add',
        locator.id,
        '--id',
        'book2',
        '--name',
        'Book',
        '--type',
        'button',
        '--label',
        '📅'.repeat(101),
      ).stderr,
    ).toContain('--label must be 1 to 100 characters')
    expect(countRows('locators')).toBe(1)
  })

  test('create without a name is a usage error and writes nothing', () => {
    const r = storeloc('locator', 'create')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--name is required')
    expect(r.stderr).toContain('Usage: storeloc')
    expect(countRows('locators')).toBe(0)
  })
})

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

describe('custom-field', () => {
  test('add, list, and see them on GET /custom_fields', async () => {
    const { locator, key } = json('locator', 'create', '--name', 'A')
    json('custom-field', 'add', locator.id, '--id', 'parking', '--name', 'Parking', '--type', 'text')
    json('custom-field', 'add', locator.id, '--id', 'book', '--name', 'Book', '--type', 'button', '--label', 'Book now')
    const list = json('custom-field', 'list', locator.id)
    expect(list).toEqual([
      { id: 'parking', name: 'Parking', type: 'text', label: null, color: null },
      { id: 'book', name: 'Book', type: 'button', label: 'Book now', color: null },
    ])
    const res = await adminGet(key.secret_key, '/admin/v1/custom_fields')
    expect(res.body).toEqual({
      success: true,
      custom_fields: [
        { id: 'parking', name: 'Parking', type: 'text' },
        { id: 'book', name: 'Book', type: 'button' },
      ],
    })
  })

  test('list lines its columns up by display width: wide East Asian characters and emoji take two columns, combining marks none', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    const fields = [
      ['ascii', 'Parking', 'Free'],
      ['cjk', '駐車場の案内', 'ラベル'],
      ['emoji', '👨\u200D👩\u200D👧 family 🏪', '🇩🇪 Deutsch'],
      ['marks', 'q\u0307\u0323 नमस्ते', 'x\u0301\u0301'],
      ['hangul', '한국어', '가나다'],
    ]
    for (const [id, name, label] of fields)
      json(
        'custom-field',
        'add',
        locator.id,
        '--id',
        id!,
        '--name',
        name!,
        '--type',
        'badge',
        '--label',
        label!,
        '--color',
        '#fff',
      )
    const r = storeloc('custom-field', 'list', locator.id)
    expect(r.code).toBe(0)
    const [header, ...lines] = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(fields.length)
    /** The display column where `word` starts in `line`. */
    const column = (line: string, word: string) => Bun.stringWidth(line.slice(0, line.lastIndexOf(word)))
    for (const line of lines) {
      expect({ line, type: column(line, 'badge'), color: column(line, '#fff') }).toEqual({
        line,
        type: column(header!, 'type'),
        color: column(header!, 'color'),
      })
    }
  })

  test('bad type, bad id, duplicate id are refused and write nothing', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    const badType = storeloc('custom-field', 'add', locator.id, '--id', 'x', '--name', 'X', '--type', 'colour')
    expect(badType.code).toBe(1)
    expect(badType.stderr).toContain('--type must be one of text, number, url, email, phone, button, badge')
    expect(storeloc('custom-field', 'add', locator.id, '--id', 'Bad Id', '--name', 'X', '--type', 'text').code).toBe(1)
    expect(storeloc('custom-field', 'add', locator.id, '--name', 'X', '--type', 'text').code).toBe(2)
    json('custom-field', 'add', locator.id, '--id', 'x', '--name', 'X', '--type', 'text')
    expect(storeloc('custom-field', 'add', locator.id, '--id', 'x', '--name', 'X', '--type', 'text').code).toBe(1)
    for (const bad of [
      ['--color', ''],
      ['--color', 'red'],
      ['--label', ''],
      ['--label', 'L'.repeat(101)],
      ['--label', 'Two\nlines'],
      ['--name', 'Tab\there'],
    ]) {
      const r = storeloc(
        'custom-field',
        'add',
        locator.id,
        '--id',
        'y',
        '--type',
        'badge',
        ...(bad[0] === '--name' ? [] : ['--name', 'Y']),
        ...bad,
      )
      expect({ bad, code: r.code }).toEqual({ bad, code: 1 })
      expect(r.stderr).toContain(bad[0]!)
    }
    // A label or a colour a field of its type never shows.
    for (const [type, option, says] of [
      ['number', '--label', '--label is for button and badge fields'],
      ['text', '--color', '--color is for badge fields'],
      ['button', '--color', '--color is for badge fields'],
    ] as const) {
      const r = storeloc(
        'custom-field',
        'add',
        locator.id,
        '--id',
        'z',
        '--name',
        'Z',
        '--type',
        type,
        ...(type === 'button' ? ['--label', 'Go'] : []),
        option,
        option === '--color' ? '#1a7f37' : 'L',
      )
      expect({ type, option, code: r.code }).toEqual({ type, option, code: 1 })
      expect(r.stderr).toContain(says)
    }
    expect(countRows('custom_fields')).toBe(1)
  })

  test('a field a priority rule names is not removed until the rules change', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    json('custom-field', 'add', locator.id, '--id', 'parking', '--name', 'Parking', '--type', 'text')
    const rules = join(dir, 'rules.json')
    writeFileSync(rules, JSON.stringify([{ tag: 'outlet' }, { custom_field: 'parking', value: 'Free' }]))
    json('priority', 'set', locator.id, '--file', rules)
    const refused = storeloc('custom-field', 'remove', locator.id, '--id', 'parking')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('Priority rule 2')
    expect(json('custom-field', 'list', locator.id).map((f: { id: string }) => f.id)).toEqual(['parking'])
    writeFileSync(rules, JSON.stringify([{ tag: 'outlet' }]))
    json('priority', 'set', locator.id, '--file', rules)
    expect(json('custom-field', 'remove', locator.id, '--id', 'parking')).toEqual({
      removed: 'parking',
      cleared_locations: 0,
    })
  })

  test('remove deletes the definition and its values on locations', async () => {
    const { locator, key } = json('locator', 'create', '--name', 'A')
    json('custom-field', 'add', locator.id, '--id', 'parking', '--name', 'Parking', '--type', 'text')
    const store = openStore(dbPath)
    const app = quietApp(store)
    const res = await app.handle(
      new Request('http://localhost/admin/v1/locations', {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'S',
          address: 'A',
          coordinates: { lat: 1, lng: 2 },
          custom_fields: { parking: 'Free' },
        }),
      }),
    )
    const { location } = (await res.json()) as any
    expect(location.custom_fields).toEqual({ parking: 'Free' })
    store.close()

    const removed = json('custom-field', 'remove', locator.id, '--id', 'parking')
    expect(removed).toEqual({ removed: 'parking', cleared_locations: 1 })
    const after = await adminGet(key.secret_key, `/admin/v1/locations/${location.id}`)
    expect(after.body.location.custom_fields).toEqual({})
    expect(storeloc('custom-field', 'remove', locator.id, '--id', 'parking').code).toBe(1)
  })
})

describe('geocode', () => {
  test('prints coordinates with precision, source and the parsed parts', () => {
    const out = json('geocode', 'Piazza del Duomo, 20122 Milano, Italia')
    expect(out).toMatchObject({
      precision: 'city',
      source: 'embedded',
      parts: { city: 'Milano', postcode: '20122', country: 'IT' },
    })
    expect(Math.abs(out.lat - 45.4642) + Math.abs(out.lng - 9.19)).toBeLessThan(0.05)
    const human = storeloc('geocode', 'Stephansplatz 1, 1010 Wien')
    expect(human.code).toBe(0)
    expect(human.stdout).toContain('precision:  city')
    expect(human.stdout).toContain('source:     embedded')
  })

  test('an address it cannot resolve exits 1 saying the API would refuse it', () => {
    const r = storeloc('geocode', 'Nowhere Land')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('geocoding_failed')
  })

  test('with GEOCODER=none it says that no address is placed, and why', () => {
    const p = Bun.spawnSync([process.execPath, 'src/cli/main.ts', 'geocode', 'Milano'], {
      cwd: join(import.meta.dir, '../..'),
      env: { ...process.env, DATABASE_PATH: dbPath, GEOCODER: 'none' },
    })
    expect(p.exitCode).toBe(1)
    expect(p.stderr.toString()).toContain('GEOCODER=none places no address')
  })

  /** `storeloc geocode ADDRESS` with GEOCODER=provider at a stand-in answering `answer`; its exit code and stderr. */
  async function geocodeAt(provider: string, answer: () => Response, address: string) {
    const standIn = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: answer })
    try {
      // Spawned, not spawnSync: the stand-in answers from this process's event loop.
      const p = Bun.spawn([process.execPath, 'src/cli/main.ts', 'geocode', address], {
        cwd: join(import.meta.dir, '../..'),
        env: {
          ...process.env,
          DATABASE_PATH: dbPath,
          GEOCODER: provider,
          GEOCODER_URL: `http://127.0.0.1:${standIn.port}`,
          GEOCODER_API_KEY: 'test-key',
        },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()])
      return { code, stderr }
    } finally {
      standIn.stop(true)
    }
  }

  test('the configured HTTP geocoder down and an address the embedded one does not know: exit 1 saying the service is unavailable', async () => {
    const { code, stderr } = await geocodeAt(
      'nominatim',
      () => new Response('Service Unavailable', { status: 503 }),
      'Nowhere Land',
    )
    expect(code).toBe(1)
    expect(stderr).toContain(
      'Could not geocode "Nowhere Land" now: the geocoding service is unavailable (nominatim failed (HTTP 503))',
    )
    expect(stderr).not.toContain('    at ') // no stack trace
  })

  test('the configured HTTP geocoder refusing the address (Google INVALID_REQUEST): exit 1 saying it could not place it, not that it is unavailable', async () => {
    const { code, stderr } = await geocodeAt(
      'google',
      () => Response.json({ status: 'INVALID_REQUEST', results: [] }),
      'Nowhere Land',
    )
    expect(code).toBe(1)
    expect(stderr).toContain(
      'Could not geocode "Nowhere Land": the geocoding service could not place it (google rejected the request as invalid (INVALID_REQUEST))',
    )
  })

  test('without an address it is a usage error', () => {
    expect(storeloc('geocode').code).toBe(2)
  })

  test("while another process holds the database for writing it still answers (the cache's housekeeping and row wait, they do not fail it); expired rows are purged once it is free", async () => {
    json('geocode', 'Stephansplatz 1, 1010 Wien') // makes the database and caches a row
    const raw = new Database(dbPath)
    raw.run('UPDATE geocode_cache SET expires_at = 1')
    raw.exec('BEGIN IMMEDIATE')
    try {
      const p = Bun.spawn(
        [process.execPath, 'src/cli/main.ts', 'geocode', 'Piazza del Duomo, 20122 Milano, Italia', '--json'],
        {
          cwd: join(import.meta.dir, '../..'),
          env: { ...process.env, DATABASE_PATH: dbPath },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      )
      const [code, stdout, stderr] = await Promise.all([
        p.exited,
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
      ])
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(JSON.parse(stdout).parts).toMatchObject({ city: 'Milano', country: 'IT' })
    } finally {
      raw.exec('ROLLBACK')
    }
    expect(raw.query('SELECT count(*) AS n FROM geocode_cache WHERE expires_at <= 1').get()).toEqual({ n: 1 })
    json('geocode', 'Stephansplatz 1, 1010 Wien')
    expect(raw.query('SELECT count(*) AS n FROM geocode_cache WHERE expires_at <= 1').get()).toEqual({ n: 0 })
    raw.close()
  }, 20_000)
})

describe('a database it cannot use', () => {
  test('a directory, a file that is no database, a path it cannot make, a newer schema: one line, exit 1, no stack trace', () => {
    const notDb = join(dir, 'notes.json')
    writeFileSync(notDb, '{}')
    const newer = newerSchemaDatabase(join(dir, 'newer.db'))
    for (const path of [dir, notDb, '/proc/nope/x.db', newer]) {
      const p = Bun.spawnSync([process.execPath, 'src/cli/main.ts', 'locator', 'create', '--name', 'A'], {
        cwd: join(import.meta.dir, '../..'),
        env: { ...process.env, DATABASE_PATH: path },
      })
      const stderr = p.stderr.toString()
      expect({ path, code: p.exitCode, lines: stderr.trim().split('\n').length }).toEqual({ path, code: 1, lines: 1 })
      expect(stderr).toContain(`(database ${path})`)
    }
  })

  test("another program's SQLite database: refused by every command, read or write, and left as it was (no tables, no WAL mode)", () => {
    const foreign = join(dir, 'crm.db')
    const crm = new Database(foreign)
    crm.exec('CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE locators (id TEXT)')
    crm.close()
    const before = readFileSync(foreign)
    for (const argv of [
      ['locator', 'list'],
      ['locator', 'create', '--name', 'A'],
    ]) {
      const p = Bun.spawnSync([process.execPath, 'src/cli/main.ts', ...argv], {
        cwd: join(import.meta.dir, '../..'),
        env: { ...process.env, DATABASE_PATH: foreign },
      })
      expect({ argv, code: p.exitCode }).toEqual({ argv, code: 1 })
      expect(p.stderr.toString().trim()).toBe(
        `storeloc: The file is another program's SQLite database (tables contacts, locators), not storeloc's; it was left as it is. Set DATABASE_PATH to a storeloc database or to a new file (database ${foreign}).`,
      )
    }
    expect(readFileSync(foreign).equals(before)).toBe(true)
  })

  test('a command on locators, given a path with no database, says so and makes none', () => {
    for (const argv of [
      ['locator', 'list'],
      ['key', 'list', 'lct_x'],
      ['filters', 'show', 'lct_x'],
    ]) {
      const r = storeloc(...argv)
      expect({ argv, code: r.code }).toEqual({ argv, code: 1 })
      expect(r.stderr).toContain(`No database at ${dbPath}`)
    }
    expect(existsSync(dbPath)).toBe(false)
    json('locator', 'create', '--name', 'A') // makes one
    expect(json('locator', 'list')).toHaveLength(1)
  })

  test('an unknown command, or a locator create that is refused, makes no database and no folder', () => {
    const nested = join(dir, 'new', 'deeper', 'cli.db')
    const run = (...argv: string[]) =>
      Bun.spawnSync([process.execPath, 'src/cli/main.ts', ...argv], {
        cwd: join(import.meta.dir, '../..'),
        env: { ...process.env, DATABASE_PATH: nested },
      })
    for (const [argv, code] of [
      [['locator', 'lsit'], 2],
      [['lcoator', 'list'], 2],
      [['locator', 'create'], 2],
      [['locator', 'create', '--name', ''], 2],
      [['locator', 'create', '--name', 'x'.repeat(201)], 1],
    ] as const) {
      const r = run(...argv)
      expect({ argv, code: r.exitCode }).toEqual({ argv, code })
      expect({ argv, made: existsSync(join(dir, 'new')) }).toEqual({ argv, made: false })
    }
    expect(run('locator', 'lsit').stderr.toString()).toContain('Unknown command "locator lsit".')
    // One that succeeds makes them.
    expect(run('locator', 'create', '--name', 'A').exitCode).toBe(0)
    expect(existsSync(nested)).toBe(true)
  })

  test('a filters or priority file nested 100,000 deep is refused with a message, not a stack trace', () => {
    const { locator } = json('locator', 'create', '--name', 'A')
    const deep = join(dir, 'deep.json')
    writeFileSync(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    for (const what of ['filters', 'priority']) {
      const r = storeloc(what, 'set', locator.id, '--file', deep)
      expect({ what, code: r.code }).toEqual({ what, code: 1 })
      expect(r.stderr).toContain('were not changed')
      expect(r.stderr).not.toContain('RangeError')
    }
  })
})

describe('usage', () => {
  test('no command, unknown command and unknown option exit 2 with the usage', () => {
    openStore(dbPath).close() // a database, so that `locator show` reaches its arguments
    for (const argv of [
      [],
      ['frobnicate'],
      ['locator', 'create', '--name', 'A', '--colour', 'red'],
      ['locator', 'show'],
    ]) {
      const r = storeloc(...argv)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('Usage: storeloc')
    }
    expect(countRows('locators')).toBe(0)
  })

  test('-h or --help as the value of an option is no request for the usage: not exit 0 having done nothing', () => {
    const r = storeloc('locator', 'create', '--name', '-h')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("'--name'")
    expect(json('locator', 'create', '--name=--help').locator.name).toBe('--help')
    for (const argv of [
      ['locator', 'create', '--help'],
      ['locator', 'create', '--name', 'A', '-h'],
      ['key', 'list', '--json', '--help'],
    ]) {
      const help = storeloc(...argv)
      expect({ argv, code: help.code, usage: help.stdout.includes('Usage: storeloc') }).toEqual({
        argv,
        code: 0,
        usage: true,
      })
    }
    expect(countRows('locators')).toBe(1)
  })

  test('an option given twice exits 2 and writes nothing; --json twice is harmless', () => {
    const r = storeloc('locator', 'create', '--name', 'A', '--name', 'B')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--name is given more than once: give it once.')
    expect(existsSync(dbPath) ? countRows('locators') : 0).toBe(0)
    const { locator } = json('locator', 'create', '--name', 'A', '--json')
    const key = json('key', 'list', locator.id)[0]
    expect(storeloc('key', 'rotate', key.id, '--grace-hours', '24', '--grace-hours', '0').code).toBe(2)
    expect(
      storeloc('custom-field', 'add', locator.id, '--id', 'a', '--id', 'b', '--name', 'N', '--type', 'text').code,
    ).toBe(2)
    expect(countRows('api_keys')).toBe(1)
    expect(countRows('custom_fields')).toBe(0)
  })

  test('help exits 0', () => {
    const r = storeloc('help')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('custom-field add')
    for (const command of [
      'locator set',
      'locator rotate-token',
      'filters set',
      'filters show',
      'priority set',
      'priority show',
    ]) {
      expect(r.stdout).toContain(`  ${command} LOCATOR_ID`)
    }
  })
})
