// The client as a project outside this one gets it: `storeloc/client` is plain JS with a .d.ts
// that needs neither Bun nor the server's modules, built from src/client and in step with it; and
// dist/client is a package of its own, storeloc-client, with no dependencies.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')
const TSC = join(ROOT, 'node_modules/.bin/tsc')
const DIST = join(ROOT, 'dist/client')

const run = (argv: string[], env: Record<string, string> = {}) => {
  const p = Bun.spawnSync(argv, { cwd: ROOT, env: { ...process.env, ...env } })
  return { code: p.exitCode, out: `${p.stdout}${p.stderr}` }
}

let dir: string
beforeAll(() => {
  dir = tempDir()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the storeloc/client package entry', () => {
  test('dist/client is the build of src/client (npm run build:client)', () => {
    const out = join(dir, 'build')
    expect(run([TSC, '-p', 'src/client', '--outDir', out])).toEqual({ code: 0, out: '' })
    // Its package.json is src/client's, with the service's version after the name.
    const { name, ...rest } = JSON.parse(readFileSync(join(ROOT, 'src/client/package.json'), 'utf8'))
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    writeFileSync(join(out, 'package.json'), `${JSON.stringify({ name, version, ...rest }, null, 2)}\n`)
    const built = readdirSync(out).sort()
    expect(readdirSync(DIST).sort()).toEqual(built)
    for (const file of built)
      expect({ file, text: readFileSync(join(DIST, file), 'utf8') }).toEqual({
        file,
        text: readFileSync(join(out, file), 'utf8'),
      })
  })

  test("the root package asks for the Node its storeloc/client export needs, as dist/client's does", () => {
    // The client uses the global crypto (Node 19 on, unflagged) for its Idempotency-Keys.
    const engines = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')).engines
    expect(engines('src/client/package.json')).toEqual({ node: '>=20' })
    expect(engines('package.json').node).toBe(engines('src/client/package.json').node)
  })

  describe('on Node, against a running server', () => {
    let server: Running
    let url: string
    let key: string
    const { json } = cliRunner(() => join(dir, 'node.db'))
    beforeAll(async () => {
      key = json('locator', 'create', '--name', 'Node').key.secret_key
      server = startServer(join(dir, 'node.db'), { GEOCODER: 'none' })
      url = await serverUrl(server)
    })
    afterAll(() => server.proc.kill())

    test('a plain JS script creates, finds, dry-runs a bulk upsert and lists', () => {
      const node = Bun.which('node')
      expect(node).not.toBeNull()
      expect(run([node!, '-p', 'process.release.name']).out).toBe('node\n')
      const r = run([node!, 'test/fixtures/client-node/sync.mjs'], { STORELOC_URL: url, STORELOC_KEY: key })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.out)).toEqual({
        created: 'N1',
        found: 'Node Store',
        dryRun: ['N1 updated', 'N2 created'],
        clash: '409 conflict',
        all: ['N1'],
        csvBodies: ['N3 created', 'N3 created', 'N3 created', 'N3 created'],
        exported: ['N1'],
        exportedCsv: 1,
      })
    })

    test('a request no server answers says why on Node, not fetch\'s bare "fetch failed"', () => {
      const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
      const address = `127.0.0.1:${closed.port}`
      closed.stop(true)
      const script = `const { StorelocClient } = await import(${JSON.stringify(join(DIST, 'index.js'))})
        const c = new StorelocClient({ baseUrl: 'http://${address}', apiKey: 'sk_test', attempts: 1 })
        await c.customFields().catch((e) => console.log(e.code, e.message))`
      const ran = run([Bun.which('node')!, '--input-type=module', '-e', script])
      expect(ran).toEqual({
        code: 0,
        out: `network_error GET /admin/v1/custom_fields: fetch failed (connect ECONNREFUSED ${address})\n`,
      })
    })

    test('twenty calls at once sharing one signal add one listener to it, so Node warns of none', () => {
      // Node warns past 10 'abort' listeners on one signal: a script passes its Ctrl-C signal to
      // each call of a Promise.all.
      const script = `const { StorelocClient } = await import(${JSON.stringify(join(DIST, 'index.js'))})
        const c = new StorelocClient({ baseUrl: process.env.STORELOC_URL, apiKey: process.env.STORELOC_KEY })
        const { signal } = new AbortController()
        const all = await Promise.all(Array.from({ length: 20 }, () => c.customFields({ signal })))
        console.log(all.length)`
      const ran = run([Bun.which('node')!, '--input-type=module', '-e', script], {
        STORELOC_URL: url,
        STORELOC_KEY: key,
      })
      expect(ran).toEqual({ code: 0, out: '20\n' })
    })

    test('dist/client is a package of its own: another project installs it alone, with its types', () => {
      const npm = Bun.which('npm')!
      const version = (path: string) => JSON.parse(readFileSync(path, 'utf8')).version
      expect(version(join(DIST, 'package.json'))).toBe(version(join(ROOT, 'package.json')))
      const project = join(dir, 'outside')
      mkdirSync(project)
      const packed = Bun.spawnSync([npm, 'pack', DIST, '--pack-destination', project, '--silent'], { cwd: project })
      expect(packed.exitCode).toBe(0)
      const tarball = `${packed.stdout}`.trim()
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'erp-sync', type: 'module', private: true }))
      const installed = Bun.spawnSync(
        [npm, 'install', '--offline', '--no-audit', '--no-fund', '--silent', `./${tarball}`],
        { cwd: project },
      )
      expect({ code: installed.exitCode, err: `${installed.stderr}` }).toEqual({ code: 0, err: '' })
      expect(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['storeloc-client'])
      writeFileSync(
        join(project, 'sync.ts'),
        [
          "import { StorelocClient, type AdminLocation } from 'storeloc-client'",
          'const client = new StorelocClient({ baseUrl: process.env.STORELOC_URL!, apiKey: process.env.STORELOC_KEY! })',
          "const found: AdminLocation | null = await client.findByExternalId('N1')",
          'console.log(found?.name)',
        ].join('\n'),
      )
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            target: 'ES2022',
            strict: true,
            types: [],
            lib: ['ES2022', 'DOM'],
            noEmit: true,
          },
          files: ['sync.ts', 'env.d.ts'],
        }),
      )
      writeFileSync(join(project, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> }\n')
      const typed = Bun.spawnSync([TSC, '-p', project])
      expect(`${typed.stdout}${typed.stderr}`).toBe('')
      const script =
        'import { StorelocClient } from "storeloc-client"; const c = new StorelocClient({ baseUrl: process.env.STORELOC_URL, apiKey: process.env.STORELOC_KEY }); console.log((await c.findByExternalId("N1")).name)'
      const ran = Bun.spawnSync([Bun.which('node')!, '--input-type=module', '-e', script], {
        cwd: project,
        env: { ...process.env, STORELOC_URL: url, STORELOC_KEY: key },
      })
      expect(`${ran.stdout}${ran.stderr}`).toBe('Node Store\n')
    }, 120_000) // npm pack, npm install, tsc and Node, each a process of its own
  })
})
