// storeloc geocode, a database the CLI cannot use, and its usage errors: run as a real subprocess
// against a real database file.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { newerSchemaDatabase } from '../helpers'
import { countRows, dbPath, dir, json, storeloc, useTempDatabase } from './cli-fixture'

useTempDatabase()

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
    expect(human.stdout).toContain('precision:  postcode') // Vienna's 1st district's
    expect(human.stdout).toContain('source:     embedded')
  })

  test('an address it cannot resolve exits 1 saying the API would refuse it', () => {
    const r = storeloc('geocode', 'Nowhere Land')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('geocoding_failed')
  })

  test('a misspelt town is named as the API names it: Did you mean Edinburgh?', () => {
    const r = storeloc('geocode', '1 Princes St, Edinbrugh')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Did you mean Edinburgh, United Kingdom?')
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
  }, 60_000)
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
    expect(run('locator', 'lsit').stderr.toString()).toContain(
      'Unknown command "locator lsit": locator is followed by one of create, list, show, set, rotate-token, delete.',
    )
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

  test("the whole usage's notes in parentheses start in one column", () => {
    const lines = storeloc('help').stdout.split('\n')
    const noted = lines.filter((line) => /^ {2}[a-z].* \(/.test(line))
    expect(noted.length).toBeGreaterThan(10)
    expect([...new Set(noted.map((line) => line.indexOf(' (') + 1))]).toEqual([48])
  })

  test("a known command's usage error shows that command's usage, not every command's", () => {
    openStore(dbPath).close()
    const r = storeloc('locations', 'import', '--file', 'stores.csv')
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: [
        `storeloc: Missing LOCATOR_ID: \`storeloc locator list --database ${dbPath}\` shows the locator ids.`,
        '',
        'Usage: storeloc locations import LOCATOR_ID --file FILE.csv|FILE.tsv|FILE.json [--format csv|json] [--encoding NAME] [--dry-run] [--delete-missing]',
        '      [--max-delete N] [--progress]',
        '`storeloc help` lists every command, with what each option means.',
        '',
      ].join('\n'),
    })
    expect(storeloc('geocode').stderr).toContain(
      '\nUsage: storeloc geocode "ADDRESS" (with the configured GEOCODER)\n`',
    )
    expect(storeloc('locator', 'create').stderr).toContain('\nUsage: storeloc locator create --name NAME\n`')
  })

  test('a misspelt command says the one it most likely is, and shows its usage', () => {
    openStore(dbPath).close()
    for (const [argv, says, usage] of [
      [
        ['locatons', 'import'],
        'Unknown command "locatons import". Did you mean "locations import"?',
        'locations import',
      ],
      [
        ['location', 'export'],
        'Unknown command "location export". Did you mean "locations export"?',
        'locations export',
      ],
      [['keys', 'list'], 'Unknown command "keys list". Did you mean "key list"?', 'key list'],
      [['docter'], 'Unknown command "docter". Did you mean "doctor"?', 'doctor'],
      [
        ['locations', 'imprt'],
        'Unknown command "locations imprt": locations is followed by one of import, delete, export. Did you mean "locations import"?',
        'locations import',
      ],
    ] as const) {
      const r = storeloc(...argv)
      expect({ argv, code: r.code, lines: r.stderr.split('\n').slice(0, 3) }).toEqual({
        argv,
        code: 2,
        lines: [`storeloc: ${says}`, '', expect.stringMatching(new RegExp(`^Usage: storeloc ${usage} `))],
      })
    }
    // A group alone shows its own commands, not all of them.
    const group = storeloc('locations').stderr
    expect(group).toContain('\n  locations export LOCATOR_ID')
    expect(group).not.toContain('locator create')
    expect(storeloc('frobnicate').stderr).toContain('\n  locator create --name NAME\n')
  })

  test('a file given where the command takes --file, or an export given a file, says how to write it', () => {
    openStore(dbPath).close()
    const first = (...argv: string[]) => {
      const r = storeloc(...argv)
      return [r.code, r.stderr.split('\n')[0]]
    }
    expect(first('locations', 'import', 'lct_x', 'stores.csv')).toEqual([
      2,
      'storeloc: Unexpected argument stores.csv: give the file as --file stores.csv.',
    ])
    expect(first('filters', 'set', 'lct_x', 'filters.json')).toEqual([
      2,
      'storeloc: Unexpected argument filters.json: give the file as --file filters.json.',
    ])
    expect(first('locations', 'export', 'lct_x', 'stores.csv')).toEqual([
      2,
      'storeloc: Unexpected argument stores.csv: export prints the locations; put them in a file with > stores.csv.',
    ])
  })

  test('a missing argument is named as the usage names it, with where to find it; one too many is named', () => {
    openStore(dbPath).close()
    const first = (...argv: string[]) => {
      const r = storeloc(...argv)
      return [r.code, r.stderr.split('\n')[0]]
    }
    expect(first('key', 'revoke')).toEqual([
      2,
      `storeloc: Missing KEY_ID: \`storeloc key list LOCATOR_ID --database ${dbPath}\` shows the key ids.`,
    ])
    expect(first('custom-field', 'add', '--id', 'x')).toEqual([
      2,
      `storeloc: Missing LOCATOR_ID: \`storeloc locator list --database ${dbPath}\` shows the locator ids.`,
    ])
    expect(first('locations', 'delete', 'lct_x')).toEqual([
      2,
      "storeloc: Missing ID: each a location's id or external_id.",
    ])
    expect(first('backup', '--force')).toEqual([2, 'storeloc: Missing FILE.'])
    expect(first('geocode')).toEqual([2, 'storeloc: Missing ADDRESS.'])
    expect(first('locator', 'show', 'lct_a', 'lct_b')).toEqual([2, 'storeloc: Unexpected argument lct_b.'])
  })

  test('an option without its value, or a value for a switch, is said in plain words (exit 2)', () => {
    openStore(dbPath).close()
    const first = (...argv: string[]) => {
      const r = storeloc(...argv)
      return [r.code, r.stderr.split('\n')[0]]
    }
    expect(first('locator', 'set', 'lct_x', '--query-api')).toEqual([2, 'storeloc: --query-api needs a value.'])
    expect(first('locations', 'import', 'lct_x', '--file', 'a.csv', '--dry-run=yes')).toEqual([
      2,
      'storeloc: --dry-run takes no value: give --dry-run alone.',
    ])
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
    // With --json the failure is JSON on stdout, without the usage text.
    const asJson = storeloc('locator', 'create', '--name', 'A', '--name', 'B', '--json')
    expect({ code: asJson.code, stderr: asJson.stderr, stdout: JSON.parse(asJson.stdout) }).toEqual({
      code: 2,
      stderr: '',
      stdout: { success: false, error: 'usage', message: '--name is given more than once: give it once.' },
    })
    const { locator } = json('locator', 'create', '--name', 'A', '--json')
    const key = json('key', 'list', locator.id)[0]
    expect(storeloc('key', 'rotate', key.id, '--grace-hours', '24', '--grace-hours', '0').code).toBe(2)
    // A negative value is read as the option's value, so its own check answers, not the parser's.
    for (const [argv, says] of [
      [['key', 'rotate', key.id, '--grace-hours', '-1'], '--grace-hours must be a number of hours, 0 or more'],
      [['locator', 'set', locator.id, '--radius', '-5'], '--radius must be a number greater than 0'],
      [['locator', 'set', locator.id, '--rate-limit', '-1.5'], '--rate-limit must be a whole number'],
    ] as const) {
      const r = storeloc(...argv)
      expect({ argv, code: r.code, says: r.stderr.includes(says), parser: r.stderr.includes('ambiguous') }).toEqual({
        argv,
        code: 1,
        says: true,
        parser: false,
      })
    }
    expect(
      storeloc('custom-field', 'add', locator.id, '--id', 'a', '--id', 'b', '--name', 'N', '--type', 'text').code,
    ).toBe(2)
    expect(countRows('api_keys')).toBe(1)
    expect(countRows('custom_fields')).toBe(0)
  })

  test("help GROUP prints that group's commands and notes only; help with an unknown group, all of it (exit 2)", () => {
    const commandLines = (text: string) => text.split('\n').filter((line) => /^ {2}[a-z]/.test(line))
    const locator = storeloc('help', 'locator')
    expect(locator.code).toBe(0)
    expect(locator.stdout).toStartWith('Usage: storeloc <command> [options] [--json]\n\n  locator create --name NAME\n')
    expect(commandLines(locator.stdout).map((line) => line.split(' ').slice(2, 4).join(' '))).toEqual([
      'locator create',
      'locator list',
      'locator show',
      'locator set',
      'locator rotate-token',
      'locator delete',
    ])
    expect(locator.stdout).toContain('\nlocator set: --referrers')
    expect(locator.stdout).not.toContain('FILE.csv:')
    expect(locator.stdout).toEndWith('\n`storeloc help` lists every command.\n')

    const locations = storeloc('help', 'locations')
    expect(locations.code).toBe(0)
    expect(commandLines(locations.stdout).every((line) => line.startsWith('  locations '))).toBe(true)
    for (const note of ['\nImport: ', '\nFILE.json: ', '\nFILE.csv: ', '\nA CSV export '])
      expect(locations.stdout).toContain(note)
    expect(locations.stdout).not.toContain('locator set:')

    const key = storeloc('--database', dbPath, 'help', 'key')
    expect(key.code).toBe(0)
    expect(commandLines(key.stdout).map((line) => line.split(' ').slice(2, 4).join(' '))).toEqual([
      'key create',
      'key list',
      'key revoke',
      'key rotate',
    ])
    expect(storeloc('help', 'filters').stdout).toContain('\nFILTERS.json: ')
    expect(storeloc('help', 'backup').stdout).toContain('\nBackup: ')

    const whole = storeloc('help').stdout
    const unknown = storeloc('help', 'locatr')
    expect(unknown.code).toBe(2)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toBe(`storeloc: No command group "locatr". Did you mean "locator"?\n\n${whole}`)
    expect(storeloc('help', 'nothing').stderr).toStartWith('storeloc: No command group "nothing".\n\nUsage: ')
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
