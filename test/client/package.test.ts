// The client as a project outside this one gets it: `storeloc/client` is plain JS with a .d.ts
// that needs neither Bun nor the server's modules, built from src/client and in step with it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
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
    const built = readdirSync(out).sort()
    expect(readdirSync(DIST).sort()).toEqual(built)
    for (const file of built)
      expect({ file, text: readFileSync(join(DIST, file), 'utf8') }).toEqual({
        file,
        text: readFileSync(join(out, file), 'utf8'),
      })
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
      })
    })
  })
})
