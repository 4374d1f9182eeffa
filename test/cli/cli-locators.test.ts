// storeloc locator and custom-field, run as a real subprocess against a real database file: names
// and labels as people write them, and custom fields as the Management API then shows them.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isWellFormedSecretKey } from '../../src/core/ids'
import { openStore } from '../../src/store'
import { MIGRATIONS } from '../../src/store/migrations'
import { cliRunner, olderSchemaDatabase, quietApp } from '../helpers'
import { adminGet, countRows, dbPath, dir, json, storeloc, useTempDatabase } from './cli-fixture'

useTempDatabase()

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

  test('human output lines the secret key up with the settings above it', () => {
    const lines = storeloc('locator', 'create', '--name', 'Aligned').stdout.split('\n')
    const column = (label: string) => {
      const line = lines.find((l) => l.startsWith(label))!
      return line.length - line.slice(label.length).trimStart().length
    }
    expect(column('secret key:')).toBe(column('public_token:'))
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

  test('a public token given for a locator id is refused naming the locator id it belongs to', () => {
    const { locator } = json('locator', 'create', '--name', 'Acme')
    const r = storeloc('locations', 'export', locator.public_token)
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `storeloc: ${locator.public_token} is the public token of the locator ${locator.id} ("Acme"): commands take the locator id, ${locator.id}.\n`,
    })
  })

  test("a locator's name given for its id is refused naming the id; a name two locators share, not", () => {
    const { locator } = json('locator', 'create', '--name', 'Radhaus Fahrräder')
    const r = storeloc('locations', 'export', 'Radhaus Fahrräder')
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `storeloc: "Radhaus Fahrräder" is the name of the locator ${locator.id}: commands take the locator id, ${locator.id}.\n`,
    })
    json('locator', 'create', '--name', 'Radhaus Fahrräder')
    expect(storeloc('locations', 'export', 'Radhaus Fahrräder').stderr).toBe(
      `storeloc: No locator "Radhaus Fahrräder". \`storeloc locator list --database ${dbPath}\` shows them.\n`,
    )
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
  }, 60_000) // 31 processes of about 150 ms each

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

  test('a group without its command, a command without its group, and a misspelt option say what there is (exit 2)', () => {
    const { locator } = json('locator', 'create', '--name', 'Kept')
    for (const [argv, says] of [
      [
        ['locator'],
        'Unknown command "locator": locator is followed by one of create, list, show, set, rotate-token, delete.',
      ],
      [
        ['key', 'lst'],
        'Unknown command "key lst": key is followed by one of create, list, revoke, rotate. Did you mean "key list"?',
      ],
      // A command's last word without its group.
      [['import', 'lct_x', '--file', 'a.csv'], 'Unknown command "import". Did you mean "locations import"?'],
      [['list'], 'Unknown command "list": give its group first, as in locator list, key list, custom-field list.'],
      [['locator', 'create', '--nme', 'A'], 'Unknown option --nme. Did you mean --name?'],
      [['locator', 'create', '--name', 'A', '--jsn'], 'Unknown option --jsn. Did you mean --json?'],
      [['locator', 'create', '--colour', 'A'], 'Unknown option --colour.'],
      // The option the name begins, else the nearest.
      [['locator', 'set', locator.id, '--rate', '3'], 'Unknown option --rate. Did you mean --rate-limit?'],
      [['locator', 'set', locator.id, '--nam', 'x'], 'Unknown option --nam. Did you mean --name?'],
    ] as const) {
      const r = storeloc(...argv)
      expect(r.code).toBe(2)
      expect(r.stderr.split('\n')[0]).toBe(`storeloc: ${says}`)
    }
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

describe('an older schema', () => {
  test('is left as it is, with what to do: only a start upgrades it, after a backup', () => {
    olderSchemaDatabase(dbPath, 9)
    for (const argv of [
      ['locator', 'list'],
      ['locator', 'create', '--name', 'X'],
    ]) {
      const r = storeloc(...argv)
      expect(r.code).toBe(1)
      expect(r.stderr.trim()).toBe(
        `storeloc: The database schema is version 9; this program's is ${MIGRATIONS.length}. Only a start of the service upgrades it: back it up (storeloc backup FILE --database ${dbPath}), start the service, then run this command again (database ${dbPath}).`,
      )
    }
    const after = new Database(dbPath, { readonly: true })
    expect(after.query<{ user_version: number }, []>('PRAGMA user_version').get()!.user_version).toBe(9)
    after.close()
    expect(storeloc('backup', join(dir, 'before-upgrade.db')).code).toBe(0)
  })
})

describe('a file that is no database', () => {
  test('is left as it is, and the line says what the file is and how to name the right one', () => {
    writeFileSync(dbPath, 'id,name\n1,Shop\n')
    for (const argv of [
      ['locator', 'list'],
      ['locator', 'create', '--name', 'X'],
    ]) {
      const r = storeloc(...argv)
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `storeloc: file is not a database (database ${dbPath}). It is no database, or a damaged one; it was left as it is. Name the service's database with --database FILE (or DATABASE_PATH).\n`,
      })
    }
    expect(readFileSync(dbPath, 'utf8')).toBe('id,name\n1,Shop\n')
  })
})

describe('an empty file at the database path', () => {
  test('is no database to list or change: left empty, and the line says so', () => {
    writeFileSync(dbPath, '')
    for (const argv of [
      ['locator', 'list'],
      ['locator', 'show', 'lct_x'],
    ]) {
      const r = storeloc(...argv)
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `storeloc: ${dbPath} is an empty file, no database; it was left as it is. Set DATABASE_PATH to the service's database file (storeloc locator create --database ${dbPath} makes a new one).\n`,
      })
    }
    expect(readFileSync(dbPath, 'utf8')).toBe('')
    // Making a locator there makes the database.
    expect(storeloc('locator', 'create', '--name', 'X').code).toBe(0)
    expect(storeloc('locator', 'list').stdout).toContain('X')
  })
})

describe("a database's -wal, -shm or -journal file named as the database", () => {
  test('is left as it is, and the line names the database it belongs to', () => {
    expect(storeloc('locator', 'create', '--name', 'X').code).toBe(0)
    const backup = join(dir, 'sidecar-backup.db')
    expect(storeloc('backup', backup).code).toBe(0)
    for (const suffix of ['-wal', '-shm', '-journal']) {
      const path = `${dbPath}${suffix}`
      const stderr = `storeloc: ${path} is SQLite's ${suffix} file of the database ${dbPath}, no database itself. Nothing was changed. Name the database: --database ${dbPath} (or DATABASE_PATH).\n`
      const { storeloc: at } = cliRunner(() => path)
      // There or not yet there (a WAL checkpointed away): locator create would make a database of it.
      for (const bytes of ['not a database page\n', '', null]) {
        if (bytes === null) rmSync(path)
        else writeFileSync(path, bytes)
        for (const argv of [
          ['locator', 'list'],
          ['locator', 'create', '--name', 'Y'],
          ['restore', backup],
          ['doctor'],
        ]) {
          const r = at(...argv)
          expect({ argv, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
            argv,
            code: 1,
            stdout: '',
            stderr,
          })
        }
        expect(bytes === null ? existsSync(path) : readFileSync(path, 'utf8')).toBe(bytes ?? false)
      }
    }
  })
})
