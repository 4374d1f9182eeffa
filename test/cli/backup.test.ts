// storeloc backup and restore, on real files and a real server process: a copy taken under write
// load holds every write acknowledged before it started, a restore puts it back for the next
// start to serve, and a restore refuses files that are not sound storeloc databases and a target
// a process uses.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { MIGRATIONS } from '../../src/store/migrations'
import {
  cliRunner,
  newerSchemaDatabase,
  olderSchemaDatabase,
  serverUrl,
  startServer,
  storeBody,
  tempDir,
} from '../helpers'

let dir: string
let dbPath: string

beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { storeloc, json } = cliRunner(() => dbPath)
const root = join(import.meta.dir, '..', '..')
const SERVER_ENV = { LOG_REQUESTS: '0', DEMO: '0', GEOCODER: 'none' }

/** Every location id the Management API lists, page by page. */
async function listedIds(url: string, key: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/admin/v1/locations?limit=500&page=${page}`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { locations: { id: string }[]; pagination: { next: string | null } }
    for (const l of body.locations) ids.add(l.id)
    if (body.pagination.next === null) return ids
  }
}

/** Every row of every table, in a stable order: two databases holding the same are equal. */
function allRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true })
  try {
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name)
    const ordered = (t: string) =>
      db
        .query(`SELECT * FROM "${t}"`)
        .all()
        .map((r) => JSON.stringify(r))
        .sort()
    return Object.fromEntries(tables.map((t) => [t, ordered(t)]))
  } finally {
    db.close()
  }
}

const fileBytes = (path: string) => readFileSync(path).toString('base64')

/** A database made by the CLI with something in every kind of table, and a backup of it. */
function populated(): { locator: string; key: string; backup: string } {
  const made = json('locator', 'create', '--name', 'Whole')
  const locator = made.locator.id as string
  json('locator', 'set', locator, '--query-api', 'on', '--referrers', 'shop.example.com')
  json('key', 'create', locator, '--expires', '2099-01-01')
  json('custom-field', 'add', locator, '--id', 'parking', '--name', 'Parking', '--type', 'text')
  const filters = join(dir, 'filters.json')
  writeFileSync(
    filters,
    JSON.stringify([{ id: 'kind', name: 'Kind', label: 'Kind', tags: [{ value: 'bikes', label: 'Bikes' }] }]),
  )
  json('filters', 'set', locator, '--file', filters)
  const stores = join(dir, 'stores.json')
  writeFileSync(
    stores,
    JSON.stringify(
      Array.from({ length: 30 }, (_, i) => ({
        ...storeBody({ name: `Store ${i}`, tags: ['bikes'] }),
        custom_fields: { parking: 'yes' },
      })),
    ),
  )
  json('locations', 'import', locator, '--file', stores)
  const rules = join(dir, 'rules.json')
  writeFileSync(rules, JSON.stringify([{ custom_field: 'parking', value: 'yes' }]))
  json('priority', 'set', locator, '--file', rules)
  const backup = join(dir, 'whole.db')
  expect(storeloc('backup', backup).code).toBe(0)
  return { locator, key: made.key.secret_key, backup }
}

describe('restore drill', () => {
  test('a backup under write load holds every write acknowledged before it started; the restored file is served', async () => {
    const key = json('locator', 'create', '--name', 'Drill').key.secret_key as string
    const server = startServer(dbPath, SERVER_ENV)
    const url = await serverUrl(server)
    const acked: string[] = []
    /** Acknowledged writes whose request was sent once the backup had ended: in no snapshot it took. */
    const sentAfter: string[] = []
    const refused: number[] = []
    let writing = true
    let backupEnded = false
    let next = 0
    const writer = async () => {
      while (writing) {
        const late = backupEnded
        const res = await fetch(`${url}/admin/v1/locations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(storeBody({ name: `Store ${next++}` })),
        })
        const body = (await res.json()) as { location: { id: string } }
        if (res.status !== 201) refused.push(res.status)
        else {
          acked.push(body.location.id)
          if (late) sentAfter.push(body.location.id)
        }
      }
    }
    const writers = Array.from({ length: 4 }, writer)
    while (acked.length < 100) await Bun.sleep(5)

    const backup = join(dir, 'drill.db')
    const before = [...acked]
    const proc = Bun.spawn([process.execPath, join(root, 'src/cli/main.ts'), 'backup', backup, '--json'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ])
    backupEnded = true
    const during = acked.length - before.length
    while (sentAfter.length < 20) await Bun.sleep(5)
    writing = false
    await Promise.all(writers)
    server.proc.kill('SIGKILL') // a crash: its -wal and -shm stay beside the file
    await server.proc.exited

    expect(err).toBe('')
    expect(code).toBe(0)
    expect(during).toBeGreaterThan(0) // the server wrote while the backup ran
    expect(refused).toEqual([]) // and the backup held up none of its writes
    const report = JSON.parse(out)
    expect(report.integrity_check).toBe('ok')
    expect(report.locations).toBeGreaterThanOrEqual(before.length)
    expect(existsSync(`${dbPath}-wal`)).toBe(true)

    const restored = storeloc('restore', backup)
    expect(restored.stderr).toBe('')
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain(`Restored ${backup} into ${dbPath}`)
    expect(existsSync(`${dbPath}-wal`)).toBe(false) // the old file's WAL would be replayed into the new one
    // What was replaced, its -wal's writes in it: the writes after the backup are what it gives up.
    const replaced =
      /It replaced (\d+) locator\(s\), (\d+) location\(s\), (\d+) key\(s\), last written at (\S+)\./.exec(
        restored.stdout,
      )
    expect(replaced?.slice(1, 4).map(Number)).toEqual([report.locators, acked.length, report.keys])
    expect(Date.now() - Date.parse(replaced![4]!)).toBeLessThan(60_000)

    const again = startServer(dbPath, SERVER_ENV)
    try {
      const ids = await listedIds(await serverUrl(again), key) // the key came back with the backup
      expect(before.filter((id) => !ids.has(id))).toEqual([])
      expect(sentAfter.filter((id) => ids.has(id))).toEqual([]) // written after the backup: the old file's, gone
      expect(ids.size).toBe(report.locations)
    } finally {
      again.proc.kill('SIGTERM')
      await again.proc.exited
    }
  }, 60_000)

  test('the copy holds every row of every table: keys, settings, filters, rules, locations, change log', () => {
    const { backup } = populated()
    const rows = allRows(dbPath)
    expect(rows.changes!.length).toBeGreaterThan(30)
    expect(rows.filter_tags!.length).toBe(1)
    expect(allRows(backup)).toEqual(rows)
    expect(existsSync(`${backup}-wal`)).toBe(false) // one self-contained file

    // Restored over a database since changed, it brings back every row as it was.
    const saved = rows
    json('locator', 'create', '--name', 'Later')
    const r = storeloc('restore', backup, '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({
      file: backup,
      locators: 1,
      locations: 30,
      keys: 2,
      migrated_at_start: false,
    })
    expect(allRows(dbPath)).toEqual(saved)
    expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['Whole'])
  })
})

describe('backup', () => {
  test("the line says what the copy holds and its size in binary units, as the doctor's storage check does", () => {
    const { backup } = populated()
    const again = join(dir, 'again.db')
    const said = storeloc('backup', again)
    const size = statSync(again).size
    expect(size).toBeLessThan(1024 ** 2) // a small file: KiB, not "0.1 MiB"
    expect(said.stdout).toBe(
      `Backed up ${dbPath} to ${again}: 1 locator(s), 30 location(s), 2 key(s), schema version ${MIGRATIONS.length}; ${(size / 1024).toFixed(1)} KiB, integrity_check ok.\n`,
    )
    expect(statSync(backup).size).toBe(statSync(again).size)
  })

  test('an existing FILE is kept unless --force; the database itself and a missing one are refused', () => {
    const { backup } = populated()
    const old = fileBytes(backup)
    json('locator', 'create', '--name', 'Second')
    expect(storeloc('backup', backup)).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: ${backup} exists: name a new file, or give --force to replace it.\n`,
    })
    expect(fileBytes(backup)).toBe(old)
    const forced = storeloc('backup', backup, '--force', '--json')
    expect(forced.code).toBe(0)
    expect(JSON.parse(forced.stdout).locators).toBe(2)

    expect(storeloc('backup', dbPath, '--force').stderr).toBe(
      `storeloc: ${dbPath} is the database itself: name another file.\n`,
    )
    expect(storeloc('backup', join(dir, 'no', 'such', 'b.db')).stderr).toBe(
      `storeloc: No folder ${join(dir, 'no', 'such')} for ${join(dir, 'no', 'such', 'b.db')}.\n`,
    )
    // A folder (the one the cron line writes into): a file in it is named, by the time, UTC.
    const folder = storeloc('backup', dir)
    expect(folder.code).toBe(1)
    expect(folder.stderr).toMatch(
      new RegExp(
        `^storeloc: ${dir} is a folder\\. Name a file in it, such as ${dir}/\\d{4}-\\d\\d-\\d\\d-\\d{4}\\.db\\.\n$`,
      ),
    )
    dbPath = join(dir, 'missing.db')
    const r = storeloc('backup', join(dir, 'b2.db'))
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith(`storeloc: No database at ${dbPath}`)
    expect(existsSync(dbPath)).toBe(false)
  })

  test('a new database, its -wal and -shm, and a backup are for their owner only; an existing file keeps its mode', () => {
    const mode = (path: string) => statSync(path).mode & 0o777
    const store = openStore(dbPath) // open: its -wal and -shm are there to see
    try {
      expect(json('locator', 'create', '--name', 'Private').locator.name).toBe('Private')
      expect([dbPath, `${dbPath}-wal`, `${dbPath}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600])
    } finally {
      store.close()
    }
    const backup = join(dir, 'private-backup.db')
    expect(storeloc('backup', backup).code).toBe(0)
    expect(mode(backup)).toBe(0o600)
    const restored = join(dir, 'restored.db')
    dbPath = restored
    expect(storeloc('restore', backup).code).toBe(0)
    expect(mode(restored)).toBe(0o600)
    chmodSync(restored, 0o640) // the operator's choice, kept
    json('locator', 'create', '--name', 'Second')
    expect(mode(restored)).toBe(0o640)
  })

  test('usage errors exit 2', () => {
    json('locator', 'create', '--name', 'A')
    expect(storeloc('backup').code).toBe(2)
    expect(storeloc('backup', 'a.db', 'b.db').code).toBe(2)
    expect(storeloc('restore', 'a.db', '--into', 'x').code).toBe(2)
  })

  /** The CLI with a file size limit of `blocks` × 512 bytes (SIGXFSZ ignored: a write past it fails with EFBIG). */
  const limited =
    (blocks: number) =>
    (...argv: string[]) => {
      const quoted = [process.execPath, join(root, 'src/cli/main.ts'), ...argv].map((a) => `'${a}'`).join(' ')
      const p = Bun.spawnSync(['sh', '-c', `trap '' XFSZ; ulimit -f ${blocks} && exec ${quoted}`], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: dbPath },
      })
      return { code: p.exitCode, stderr: p.stderr.toString() }
    }

  test('a backup the disk refuses leaves no file at FILE, and an older FILE as it was', () => {
    const { backup } = populated()
    for (let i = 0; i < 4; i++)
      json('locations', 'import', json('locator', 'list')[0].id, '--file', join(dir, 'stores.json'))
    const old = fileBytes(backup)
    expect(statSync(dbPath).size).toBeGreaterThan(64 * 512)
    const fresh = join(dir, 'fresh.db')
    const r = limited(64)('backup', fresh)
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith(`storeloc: Could not write ${fresh} (`)
    expect(r.stderr).toEndWith(`; nothing was left at ${fresh}. Free space, or name a writable place.\n`)
    expect(readdirSync(dir).filter((f) => f.startsWith('fresh.db'))).toEqual([])

    const over = limited(64)('backup', backup, '--force')
    expect(over.code).toBe(1)
    expect(over.stderr).toContain(`; ${backup} was left as it was.`)
    expect(fileBytes(backup)).toBe(old)
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([])
  })

  test('a large backup cut short by the disk leaves no journal beside FILE', () => {
    populated()
    // 12 MB, more than SQLite's page cache holds: the copy spills, and keeps a rollback journal.
    const db = new Database(dbPath)
    db.exec('CREATE TABLE ballast (b BLOB)')
    const add = db.prepare('INSERT INTO ballast VALUES (randomblob(65536))')
    db.transaction(() => {
      for (let i = 0; i < 192; i++) add.run()
    })()
    db.close()
    const big = join(dir, 'big.db')
    const r = limited(16384)('backup', big)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`nothing was left at ${big}`)
    expect(readdirSync(dir).filter((f) => f.startsWith('big.db'))).toEqual([])
  })
})

describe('restore refuses', () => {
  test('while a server uses the database: it names the process and leaves the file', async () => {
    const { backup } = populated()
    const server = startServer(dbPath, SERVER_ENV)
    try {
      await serverUrl(server)
      const inode = statSync(dbPath).ino
      const r = storeloc('restore', backup)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(
        new RegExp(
          `^storeloc: ${dbPath} is in use by process ${server.proc.pid} \\([^)]*src/main\\.ts\\)\\. Stop it first: a server keeps writing to the file it opened, which no later start would read\\.\\n$`,
        ),
      )
      expect(statSync(dbPath).ino).toBe(inode)
      // --force is for a system that cannot tell, not for one that can.
      expect(storeloc('restore', backup, '--force').code).toBe(1)
      expect(statSync(dbPath).ino).toBe(inode)
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
    expect(readdirSync(dir).filter((f) => f.includes('.restoring-'))).toEqual([])
  }, 30_000)

  // As `docker run --rm` runs it beside the service's container: /proc/locks shows it no lock of
  // the service's. Needs unshare's PID namespace (root here); left out where it cannot be made.
  const unshare = ['unshare', '--pid', '--fork', '--mount-proc']
  test.skipIf(Bun.spawnSync([...unshare, 'true']).exitCode !== 0)(
    'while a server of another PID namespace (another container) uses the database',
    async () => {
      const { backup } = populated()
      const server = startServer(dbPath, SERVER_ENV)
      try {
        await serverUrl(server)
        const inode = statSync(dbPath).ino
        const p = Bun.spawnSync([...unshare, process.execPath, join(root, 'src/cli/main.ts'), 'restore', backup], {
          cwd: root,
          env: { ...process.env, DATABASE_PATH: dbPath },
        })
        expect([p.exitCode, p.stderr.toString()]).toEqual([
          1,
          `storeloc: ${dbPath} is in use by a process this system does not show: one of another PID namespace, such as the service in another container. Stop it first: a server keeps writing to the file it opened, which no later start would read.\n`,
        ])
        expect(statSync(dbPath).ino).toBe(inode)
      } finally {
        server.proc.kill('SIGTERM')
        await server.proc.exited
      }
      // Stopped, it is restored from there too.
      const p = Bun.spawnSync([...unshare, process.execPath, join(root, 'src/cli/main.ts'), 'restore', backup], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: dbPath },
      })
      expect([p.exitCode, p.stderr.toString()]).toEqual([0, ''])
    },
    30_000,
  )

  /** `file` refused with one line ending in `why`; the database unchanged, no partial file left. */
  function refused(file: string, why: string): void {
    const before = fileBytes(dbPath)
    const r = storeloc('restore', file)
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: ${file} was not restored: ${why} The database was left as it was.\n`,
    })
    expect(fileBytes(dbPath)).toBe(before)
    expect(readdirSync(dir).filter((f) => f.includes('.restoring-'))).toEqual([])
  }

  test('a damaged, foreign, newer, empty or non-SQLite file', () => {
    const { backup } = populated()
    // A page in the middle of the file overwritten: the tables' b-trees no longer hold together.
    const bytes = readFileSync(backup)
    const pages = bytes.length / 4096
    bytes.fill(0x5a, Math.floor(pages / 2) * 4096, Math.floor(pages / 2) * 4096 + 4096)
    const damaged = join(dir, 'damaged.db')
    writeFileSync(damaged, bytes)
    const r = storeloc('restore', damaged)
    expect(r.code).toBe(1)
    expect(r.stderr).toStartWith(`storeloc: ${damaged} was not restored: it is damaged: integrity_check says `)

    const foreign = join(dir, 'foreign.db')
    const f = new Database(foreign)
    f.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)')
    f.close()
    refused(foreign, "it is another program's SQLite database (tables invoices), not storeloc's.")

    const newer = newerSchemaDatabase(join(dir, 'newer.db'))
    refused(
      newer,
      `its schema (version 999) is newer than this program's (version ${MIGRATIONS.length}). Restore it with the storeloc version that made it.`,
    )

    const empty = join(dir, 'empty.db')
    new Database(empty).close()
    refused(empty, 'it is a SQLite file with no tables, not a storeloc backup.')

    const text = join(dir, 'notes.db')
    writeFileSync(text, 'not a database\n'.repeat(200))
    refused(text, 'SQLite cannot read it (file is not a database): it is no database, or a damaged one.')

    expect(storeloc('restore', join(dir, 'absent.db')).stderr).toBe(`storeloc: No file ${join(dir, 'absent.db')}.\n`)
    expect(storeloc('restore', dbPath).stderr).toBe(`storeloc: ${dbPath} is the database itself: nothing to restore.\n`)
  })

  test("the restored file keeps the replaced file's owner and mode, so the service's user can still write it", () => {
    json('locator', 'create', '--name', 'Owned')
    const backup = join(dir, 'owned-backup.db')
    expect(storeloc('backup', backup).code).toBe(0)
    chmodSync(dbPath, 0o640)
    // Run as root (a service's operator often is), the file belongs to the service's user: here nobody.
    const asRoot = process.getuid?.() === 0
    if (asRoot) chownSync(dbPath, 65534, 65534)
    const before = statSync(dbPath)
    expect(storeloc('restore', backup, '--force').code).toBe(0)
    const after = statSync(dbPath)
    expect({ uid: after.uid, gid: after.gid, mode: after.mode & 0o777 }).toEqual({
      uid: asRoot ? 65534 : before.uid,
      gid: asRoot ? 65534 : before.gid,
      mode: 0o640,
    })
    expect(after.ino).not.toBe(before.ino) // a new file was put in place
  })

  test('an older schema is restored as it is; the CLI waits for a start to migrate it', () => {
    const old = join(dir, 'old.db')
    // An older storeloc's backup: rollback-journal mode, as VACUUM INTO writes it.
    olderSchemaDatabase(
      old,
      7,
      (db) =>
        db.exec(
          "INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ('lct_0123456789abcdef', 'Old', 'pk_000000000000000000000000', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
        ),
      'delete',
    )
    dbPath = join(dir, 'new', 'target.db') // a folder not made yet
    const r = storeloc('restore', old)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Its schema is migrated to version ${MIGRATIONS.length} when the service starts.`)
    const before = storeloc('locator', 'list')
    expect(before.code).toBe(1)
    expect(before.stderr).toContain('Only a start of the service upgrades it')
    openStore(dbPath).close() // as a start opens it
    expect(json('locator', 'list').map((l: { id: string }) => l.id)).toEqual(['lct_0123456789abcdef'])
  })
})
