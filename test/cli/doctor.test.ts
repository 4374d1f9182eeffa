// storeloc doctor on real database files: exit 0 on a healthy one; on each problem it names,
// exit 1 with the problem and its fix. It only reads: nothing is migrated or built.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { MIGRATIONS } from '../../src/store/migrations'
import { DEFAULT_GEODATA_PATH, GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { newerSchemaDatabase, olderSchemaDatabase, storeBody, quietApp } from '../helpers'
import {
  dbPath,
  dir,
  doctor,
  env,
  healthy,
  json,
  problemsOf,
  type Report,
  root,
  storeloc,
  useDoctorDatabase,
  writeJson,
} from './doctor-fixture'

const BUILD_SCRIPT = join(import.meta.dir, '../../src/geocode/embedded/build.ts')

useDoctorDatabase()

test('a healthy database: exit 0, every check ok', async () => {
  await healthy()
  const r = await storeloc('doctor')
  expect(r.code).toBe(0)
  const lines = r.stdout.split('\n')
  expect(lines[0]).toBe(`ok       database ${dbPath}: schema version ${MIGRATIONS.length} (current), journal mode wal`)
  expect(lines[1]).toMatch(new RegExp(`^ok {7}storage ${dir}: writable, [0-9.]+ [MG]iB free$`))
  expect(lines[2]).toBe(`ok       integrity ${dbPath}: integrity_check ok, foreign keys ok`)
  expect(lines[3]).toBe(
    `ok       geocoder data data/geocoder.sqlite: version ${GEODATA_VERSION}, current, quick_check ok`,
  )
  expect(lines[4]).toMatch(
    /^ok {7}locator lct_\w+ "Healthy": Query API on, filter groups, keys, placements and opening hours ok$/,
  )
  expect(lines.slice(5)).toEqual(['No problems found.'])
  const report = await doctor()
  expect(report.healthy).toBe(true)
  expect(report.checks.map((c) => c.check)).toEqual(['database', 'storage', 'integrity', 'geocoder data', 'locator'])
  // Read only: the doctor's connection leaves no -wal or -shm behind.
  expect(existsSync(`${dbPath}-wal`)).toBe(false)
})

test('no database at DATABASE_PATH: exit 1, and none is made', async () => {
  const r = await storeloc('doctor')
  expect(r.code).toBe(1)
  expect(r.stderr).toStartWith(`storeloc: No database at ${dbPath}:`)
  expect(existsSync(dbPath)).toBe(false)
})

describe('each locator problem: exit 1, named, with its fix', () => {
  test('the Query API off; a locator switched off is not checked', async () => {
    const { locator } = await healthy()
    await json('locator', 'set', locator, '--query-api', 'off')
    const report = await doctor()
    expect(problemsOf(report, 'locator')).toEqual([
      {
        problem:
          'The Query API is off: its public token gets 403 API_NOT_ENABLED, so no store finder can show its 1 published location(s).',
        fix: `storeloc locator set ${locator} --query-api on --database ${dbPath}`,
      },
    ])
    await json('locator', 'set', locator, '--active', 'off')
    const off = await doctor()
    expect(off.healthy).toBe(true)
    expect(off.checks.at(-1)).toMatchObject({ ok: true, summary: 'switched off (--active off): not checked' })
  })

  test('the Query API off on a locator with nothing published (a new database) is no problem; drafts are not published', async () => {
    await json('locator', 'create', '--name', 'Fresh')
    const { locator } = await healthy()
    await json(
      'locations',
      'import',
      locator,
      '--file',
      await writeJson('draft.json', [storeBody({ status: 'draft' })]),
    )
    await json('locator', 'set', locator, '--query-api', 'off')
    await json(
      'locations',
      'delete',
      locator,
      ...(await json('locations', 'export', locator, '--status', 'published')).map((l: { id: string }) => l.id),
    )
    const report = await doctor()
    expect(report.healthy).toBe(true)
    expect(report.checks.filter((c) => c.check === 'locator').map((c) => c.summary)).toEqual([
      'Query API off, nothing published yet, filter groups, keys, placements and opening hours ok',
      'Query API off, nothing published yet, filter groups, keys, placements and opening hours ok',
    ])
  })

  test('no filter groups while its locations have tags is a note, not a problem: the finder works (none needed without tags)', async () => {
    const { locator } = await healthy()
    await json('filters', 'set', locator, '--file', await writeJson('none.json', []))
    const report = await doctor()
    expect(report.healthy).toBe(true)
    expect(report.checks.find((c) => c.check === 'locator')).toMatchObject({
      ok: true,
      problems: [],
      notes: [
        {
          problem:
            'No filter groups: the tags of its 1 tagged location(s) are all shown under "Other" (_default), labelled by their raw values.',
          fix: `storeloc filters set ${locator} --file FILTERS.json --database ${dbPath} (see docs/cli.md, Filters)`,
        },
      ],
      summary: 'Query API on, keys, placements and opening hours ok',
    })
    const untagged = await json('locator', 'create', '--name', 'Untagged')
    await json('locator', 'set', untagged.locator.id, '--query-api', 'on')
    await json('locations', 'import', untagged.locator.id, '--file', await writeJson('plain.json', [storeBody()]))
    const second = (await doctor()).checks.find((c) => c.subject.startsWith(untagged.locator.id))!
    expect({ notes: second.notes, summary: second.summary }).toEqual({
      notes: [],
      summary: 'Query API on, filter groups, keys, placements and opening hours ok',
    })
  })

  test('a key expiring within 14 days; one expiring later, revoked or expired is no problem', async () => {
    const { locator } = await healthy()
    const day = 86_400_000
    const soon = await json('key', 'create', locator, '--expires', new Date(Date.now() + 7 * day).toISOString())
    await json('key', 'create', locator, '--expires', new Date(Date.now() + 20 * day).toISOString())
    const revoked = await json('key', 'create', locator, '--expires', new Date(Date.now() + 3 * day).toISOString())
    await json('key', 'revoke', revoked.id)
    const rotated = await json('key', 'create', locator)
    await json('key', 'rotate', rotated.id, '--grace-hours', '0')
    const problems = problemsOf(await doctor(), 'locator')
    expect(problems).toHaveLength(1)
    expect(problems[0]!.problem).toBe(
      `Key ${soon.id} (${soon.prefix}) expires at ${soon.expires_at}, within 7 day(s): whatever still uses it gets 401 then.`,
    )
    expect(problems[0]!.fix).toStartWith(`storeloc key rotate ${soon.id} --database ${dbPath}, and give the new key`)
  })

  test('a key seen in a public request, until it is rotated with no grace', async () => {
    const { keyId, key, token } = await healthy()
    const store = openStore(dbPath)
    try {
      const app = quietApp(store)
      const res = await app.handle(new Request(`http://localhost/public/v1/${token}/locations?all=true&key=${key}`))
      expect(res.status).toBe(400)
      await store.writeSoon(() => {}) // the exposed mark is written by now
    } finally {
      store.close()
    }
    const problems = problemsOf(await doctor(), 'locator')
    expect(problems).toHaveLength(1)
    expect(problems[0]!.problem).toMatch(
      new RegExp(`^Key ${keyId} \\(sk_\\S+\\) was seen in a public request at \\S+ and still works: `),
    )
    expect(problems[0]!.fix).toBe(`storeloc key rotate ${keyId} --grace-hours 0 --database ${dbPath}`)
    await json('key', 'rotate', keyId, '--grace-hours', '0')
    expect((await doctor()).healthy).toBe(true)
  })

  test('locations the geocoder placed only at city level: a note, not a problem (exit 0); not those whose coordinates were sent', async () => {
    const { locator } = await healthy()
    const file = await writeJson('milano.json', [
      { name: 'Duomo', address: 'Piazza del Duomo, 20122 Milano', tags: ['bikes'] },
      { name: 'Dante', address: 'Via Dante 1', coordinates: { lat: 45.466, lng: 9.186 }, tags: ['bikes'] },
    ])
    const imported = await json('locations', 'import', locator, '--file', file)
    const id = imported.results[0].id as string
    expect(imported.results[0].geocoding.precision).toBe('city')
    const exported = await json('locations', 'export', locator)
    expect(exported.find((l: { name: string }) => l.name === 'Dante').geocoding).toEqual({
      precision: 'city',
      source: 'reverse',
    })
    const report = await doctor()
    expect(report.healthy).toBe(true)
    const note = {
      problem: `1 location(s) were placed by the geocoder only at city level or coarser: ${id} (Duomo, city). The Query API gives their town's centre, marked coordinates.approximate: the widget and store pages send directions to their address, but maps and distances use that point.`,
      fix: `Send their own coordinates: storeloc locations export ${locator} --format csv --database ${dbPath} > stores-export.csv, correct lat and lng in those rows, and import that file back.`,
    }
    expect(report.checks.find((c) => c.check === 'locator')).toMatchObject({ ok: true, problems: [], notes: [note] })
    const text = await storeloc('doctor')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(
      `ok       locator ${locator} "Healthy": Query API on, filter groups, keys and opening hours ok\nnote     locator ${locator} "Healthy": ${note.problem}\n         fix: ${note.fix}`,
    )
  })

  test("a locator whose pages are in German, French, Spanish, Italian or Dutch is advised a CSV with ';', as Excel there opens it", async () => {
    const { locator } = await healthy()
    const file = await writeJson('koeln.json', [{ name: 'Dom', address: 'Domkloster 4, 50667 Köln', tags: ['bikes'] }])
    await json('locations', 'import', locator, '--file', file)
    await json('locator', 'set', locator, '--language', 'de')
    const [note] = (await doctor()).checks.find((c) => c.check === 'locator')!.notes!
    expect(note!.fix).toBe(
      `Send their own coordinates: storeloc locations export ${locator} --format csv --separator ';' --database ${dbPath} > stores-export.csv, correct lat and lng in those rows, and import that file back.`,
    )
  })
})

describe('the geocoder data', () => {
  test('missing, of another version or damaged: exit 1 with how to build it; not needed with GEOCODER=none', async () => {
    await healthy()
    const missing = join(dir, 'geo', 'none.sqlite')
    env.GEODATA_PATH = missing
    expect(problemsOf(await doctor(), 'geocoder data')).toEqual([
      {
        problem: `The embedded geocoder's data file ${missing} is missing or unreadable: the next start spends up to 25 s building it, and addresses cannot be placed offline until then.`,
        // This Bun and the script by their whole paths: an npm-only install has no `bun` on PATH.
        fix: `Start the service once (its first start builds it, in up to 25 s), or build it now: ${process.execPath} ${BUILD_SCRIPT} ${missing}`,
      },
    ])
    expect(existsSync(missing)).toBe(false) // the doctor builds nothing

    // There but not the data: the start refuses it and stops (exit 3), building nothing.
    env.GEODATA_PATH = dir
    expect(problemsOf(await doctor(), 'geocoder data')).toEqual([
      {
        problem: `GEODATA_PATH names ${dir}, a folder: the service does not start (exit 3), as it builds the geocoder's data only where no file is.`,
        fix: `Set GEODATA_PATH to a file in it, such as ${join(dir, 'geocoder.sqlite')} (the start builds it there), or to the service's data file.`,
      },
    ])
    const other = join(dir, 'notes.txt')
    writeFileSync(other, 'not a database')
    env.GEODATA_PATH = other
    expect(problemsOf(await doctor(), 'geocoder data')).toEqual([
      {
        problem: `${other} is not the geocoder's data, or this user may not read it: the service does not start (exit 3), as it replaces no file that is not its data.`,
        fix: `If it is the geocoder's data, let the service's user read it; else set GEODATA_PATH to a file of its own (the start builds it there), or delete ${other} if it is an old copy.`,
      },
    ])

    const old = join(dir, 'old-geo.sqlite')
    const db = new Database(old)
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('version', '5')")
    db.close()
    env.GEODATA_PATH = old
    expect(problemsOf(await doctor(), 'geocoder data')[0]!.problem).toBe(
      `The embedded geocoder's data file ${old} is of version 5; this program needs version ${GEODATA_VERSION}: the next start rebuilds it, in up to 25 s.`,
    )

    // Damaged past its first pages (its version still read): quick_check's words, and how to build it again.
    const damaged = join(dir, 'damaged-geo.sqlite')
    copyFileSync(join(root, DEFAULT_GEODATA_PATH), damaged)
    const fd = openSync(damaged, 'r+')
    writeSync(fd, Buffer.alloc(4096 * 64, 0x5a), 0, 4096 * 64, 4096 * 256)
    closeSync(fd)
    env.GEODATA_PATH = damaged
    const [problem] = problemsOf(await doctor(), 'geocoder data')
    expect(problem!.problem).toStartWith(`The embedded geocoder's data file ${damaged} is damaged: quick_check says `)
    expect(problem!.problem).not.toContain('\n')
    expect(problem!.fix).toBe(
      `Build it again: ${process.execPath} ${BUILD_SCRIPT} ${damaged} (up to 25 s; the service reads the new file at its next start).`,
    )

    env.GEOCODER = 'none'
    const none = await doctor()
    expect(none.healthy).toBe(true)
    expect(none.checks.find((c) => c.check === 'geocoder data')).toMatchObject({ summary: 'not used (GEOCODER=none)' })
  })
})

describe('the geocoder data, GEODATA_PATH left out', () => {
  test("run elsewhere than the service's folder: checks the data beside the database, as geocode reads it", async () => {
    await healthy()
    const beside = join(dir, 'geocoder.sqlite')
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), beside) // as the unit's StateDirectory holds both
    const { GEODATA_PATH: _, ...environment } = { ...process.env, ...env }
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), 'doctor', '--json'], {
      cwd: dir, // where cron or a shell runs it: no data/ here
      env: environment,
    })
    expect(p.stderr.toString()).toBe('')
    expect(p.exitCode).toBe(0)
    const report = JSON.parse(p.stdout.toString()) as Report
    expect(report.checks.find((c) => c.check === 'geocoder data')).toMatchObject({
      subject: beside,
      summary: `version ${GEODATA_VERSION}, current, quick_check ok`,
      problems: [],
    })
    expect(existsSync(join(dir, 'data'))).toBe(false) // nothing built
  })
  test("a relative DATABASE_PATH, a quote and a space; data of another version here: the folder's data is checked", async () => {
    const folder = join(dir, "the shop's data")
    mkdirSync(folder)
    env.DATABASE_PATH = join(folder, 'doctor.db')
    await healthy()
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(folder, 'geocoder.sqlite'))
    mkdirSync(join(dir, 'data'))
    const old = new Database(join(dir, 'data', 'geocoder.sqlite'))
    old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('version', '5')")
    old.close()
    const environment = { ...process.env, DATABASE_PATH: "the shop's data/doctor.db", GEODATA_PATH: undefined }
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), 'doctor', '--json'], {
      cwd: dir,
      env: environment,
    })
    expect(p.exitCode).toBe(0)
    const report = JSON.parse(p.stdout.toString()) as Report
    expect(report.checks.find((c) => c.check === 'geocoder data')).toMatchObject({
      subject: join(folder, 'geocoder.sqlite'),
      problems: [],
    })
  })
  test('data here and other data beside the database: says which it checked, and how to check the other', async () => {
    await healthy()
    mkdirSync(join(dir, 'data'))
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(dir, 'data', 'geocoder.sqlite'))
    const beside = join(dir, 'geocoder.sqlite')
    const db = new Database(beside)
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('version', '5')")
    db.close()
    const { GEODATA_PATH: _, ...environment } = { ...process.env, ...env }
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), 'doctor', '--json'], {
      cwd: dir,
      env: environment,
    })
    expect(p.exitCode).toBe(0)
    const report = JSON.parse(p.stdout.toString()) as Report
    expect(report.checks.find((c) => c.check === 'geocoder data')).toMatchObject({
      subject: 'data/geocoder.sqlite',
      problems: [],
      notes: [
        {
          problem: `GEODATA_PATH is not set, so this command checked data/geocoder.sqlite under ${dir}. The database's folder has other data: ${beside}. The service reads the file its own GEODATA_PATH names.`,
          fix: `Run it as GEODATA_PATH=${beside} storeloc doctor --database ${dbPath} to check that one.`,
        },
      ],
    })
  })
  test('data here and beside the database the same file: no note', async () => {
    await healthy()
    mkdirSync(join(dir, 'data'))
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(dir, 'data', 'geocoder.sqlite'))
    symlinkSync(join(root, DEFAULT_GEODATA_PATH), join(dir, 'geocoder.sqlite'))
    const { GEODATA_PATH: _, ...environment } = { ...process.env, ...env }
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), 'doctor', '--json'], {
      cwd: dir,
      env: environment,
    })
    const report = JSON.parse(p.stdout.toString()) as Report
    expect(report.checks.find((c) => c.check === 'geocoder data')).toMatchObject({ problems: [], notes: [] })
  })
  test("none here nor beside the database: names neither folder to build in, and asks for the service's GEODATA_PATH", async () => {
    await healthy()
    const { GEODATA_PATH: _, ...environment } = { ...process.env, ...env }
    const p = Bun.spawnSync([process.execPath, join(root, 'src/cli/main.ts'), 'doctor', '--json'], {
      cwd: dir, // a folder the service may not even write: its data is not here
      env: environment,
    })
    const report = JSON.parse(p.stdout.toString()) as Report
    expect(problemsOf(report, 'geocoder data')).toEqual([
      {
        problem: `GEODATA_PATH is not set, so this command looked for the geocoder's data at data/geocoder.sqlite under ${dir}, where there is none, and beside the database (${join(dir, 'geocoder.sqlite')}), where there is none either. The service reads it at its own GEODATA_PATH (data/geocoder.sqlite under the folder it runs in when unset), which this command cannot know.`,
        fix: "Run it again with GEODATA_PATH set as the service's is (the systemd unit and the image set it beside the database): it then checks that file, and says how to build it there if it is missing.",
      },
    ])
    expect(existsSync(join(dir, 'data'))).toBe(false)
  })
})

describe('the database', () => {
  test('damaged pages: the integrity problem, locators not checked', async () => {
    const { locator } = await healthy()
    const many = Array.from({ length: 300 }, (_, i) => storeBody({ name: `Store ${i}`, description: 'x'.repeat(500) }))
    await json('locations', 'import', locator, '--file', await writeJson('many.json', many))
    const bytes = readFileSync(dbPath)
    const middle = Math.floor(bytes.length / 4096 / 2) * 4096
    bytes.fill(0x5a, middle, middle + 4096)
    writeFileSync(dbPath, bytes)
    const report = await doctor()
    const problems = problemsOf(report, 'integrity')
    expect(problems).toHaveLength(1)
    expect(problems[0]!.problem).toStartWith(`${dbPath} is damaged: integrity_check says `)
    expect(problems[0]!.fix).toStartWith(
      `Stop the service and restore the last good backup (storeloc restore FILE --database ${dbPath})`,
    )
    expect(report.checks.some((c) => c.check === 'locator')).toBe(false)
    expect(report.not_checked).toContain("locators: not until the database's problems are solved")
  })

  test('a row whose locator is gone (foreign_key_check)', async () => {
    await healthy()
    const db = new Database(dbPath)
    db.exec(
      "INSERT INTO api_keys (id, locator_id, key_hash, prefix, created_at) VALUES ('key_orphan', 'lct_gone', 'h', 'sk_x', '2026-01-01T00:00:00.000Z')",
    )
    db.close()
    expect(problemsOf(await doctor(), 'integrity').map((p) => p.problem)).toEqual([
      '1 row(s) name a locator or filter group that is not there (foreign_key_check).',
    ])
  })

  test('a newer schema, and an older one, which the doctor leaves unmigrated', async () => {
    newerSchemaDatabase(dbPath)
    const newer = await doctor()
    expect(problemsOf(newer, 'database')).toEqual([
      {
        problem: `The schema (version 999) is newer than this program's (version ${MIGRATIONS.length}): this program cannot serve it.`,
        fix: 'Run the doctor of the storeloc version that serves it, or upgrade this one.',
      },
    ])
    expect(newer.not_checked).toContain("integrity and locators: not until the database's problems are solved")

    rmSync(dbPath)
    olderSchemaDatabase(dbPath, 7)
    expect(problemsOf(await doctor(), 'database')[0]!.problem).toBe(
      `The schema is version 7; this program's is ${MIGRATIONS.length}: the service running on it is older, or was not restarted since the upgrade.`,
    )
    const after = new Database(dbPath, { readonly: true })
    expect(after.query<{ user_version: number }, []>('PRAGMA user_version').get()!.user_version).toBe(7)
    after.close()
  })

  test("a file that is no database, and another program's database", async () => {
    writeFileSync(dbPath, 'not a database\n'.repeat(300))
    expect(problemsOf(await doctor(), 'database')).toEqual([
      {
        problem: `SQLite cannot read ${dbPath} (file is not a database): it is no database, or a damaged one.`,
        fix: `Stop the service and restore the last good backup (storeloc restore FILE --database ${dbPath}).`,
      },
    ])
    rmSync(dbPath)
    const db = new Database(dbPath)
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)')
    db.close()
    expect(problemsOf(await doctor(), 'database')[0]!.problem).toBe(
      `${dbPath} is not a storeloc database (tables invoices).`,
    )
  })
})
