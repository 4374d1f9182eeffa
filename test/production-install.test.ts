// A production install, as docs/operations.md has it: the package's files, `npm ci --omit=dev`
// (offline, from the npm cache the test run's own `npm install` filled), then `npm start` and
// `bin/storeloc.js serve` with no Bun on PATH but the one the install brings.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { Readable } from 'node:stream'
import { stdoutLines, tempDir } from './helpers'

const ROOT = join(import.meta.dir, '..')
let dir: string
let install: string
beforeAll(() => {
  dir = tempDir()
  // As another project's dependency is: its files under a node_modules folder.
  install = join(dir, 'node_modules', 'storeloc')
  mkdirSync(join(install, 'data'), { recursive: true })
  for (const part of ['package.json', 'package-lock.json', 'bin', 'src', 'data/demo'])
    cpSync(join(ROOT, part), join(install, part), { recursive: true })
})
// The install's node_modules (Bun's binary among them) can take longer than a test to remove under load.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000)

/** PATH without any node_modules/.bin (npm test puts this checkout's there): Node.js and npm only. */
const PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((p) => !p.includes('node_modules'))
  .join(delimiter)

/**
 * widget.js and map.js are built by the install's own Bun from src/widget, under a node_modules
 * folder (where Bun runs no macro): each language's texts are in widget.js, the map's code in map.js.
 */
async function expectWidget(url: string) {
  const widget = await fetch(`${url}/widget.js`)
  const text = await widget.text()
  expect({ status: widget.status, start: widget.status === 200 ? '' : text.slice(0, 300) }).toEqual({
    status: 200,
    start: '',
  })
  for (const said of ['Town or postcode', 'Ort oder Postleitzahl', 'Ville ou code postal', 'Plaats of postcode'])
    expect(text).toContain(said)
  const map = await fetch(`${url}/widget/map.js`)
  const code = await map.text()
  expect({ status: map.status, start: map.status === 200 ? '' : code.slice(0, 300) }).toEqual({
    status: 200,
    start: '',
  })
  expect(code).toContain('.fitBounds(')
}

test('npm ci --omit=dev, then npm start and npx storeloc work with only Node.js and npm on PATH', async () => {
  const env = { PATH, HOME: process.env.HOME ?? dir, npm_config_update_notifier: 'false' }
  const ci = Bun.spawnSync(['npm', 'ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: install, env })
  expect({ code: ci.exitCode, stderr: ci.stderr.toString() }).toMatchObject({ code: 0 })
  expect(existsSync(join(install, 'node_modules/.bin/bun'))).toBe(true)
  for (const dev of ['@biomejs/biome', 'fast-check', 'ajv', 'bun-types'])
    expect(existsSync(join(install, 'node_modules', dev))).toBe(false)

  const help = Bun.spawnSync(['npx', 'storeloc', 'serve', '--help'], { cwd: install, env })
  expect(help.exitCode).toBe(0)
  expect(help.stdout.toString()).toContain('Usage: npx storeloc serve [options]')

  const database = join(dir, 'data', 'storeloc.db')
  // Its own process group, stopped as a terminal's Ctrl-C or a service manager stops one: the
  // signal to every process of the group (npm alone passes none on to the service).
  const proc = spawn(
    'npm',
    ['start', '--', '--port', '0', '--host', '127.0.0.1', '--database', database, '--no-demo'],
    {
      cwd: install,
      env: { ...env, GEODATA_PATH: join(ROOT, 'data/geocoder.sqlite') }, // built by the test run's setup
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()))
  const server = stdoutLines({ stdout: Readable.toWeb(proc.stdout!) as ReadableStream<Uint8Array> })
  let url = ''
  try {
    const listening = JSON.parse(await server.waitFor(/"listening"/))
    url = listening.url
    expect(listening.database).toBe(database)
    await server.waitFor(/"indexes loaded"/)
    expect((await fetch(`${url}/readyz`)).status).toBe(200)
    await expectWidget(url)
  } finally {
    process.kill(-proc.pid!, 'SIGTERM')
    await exited
  }
  await server.waitFor(/"shutting down"/)
  // Until the port is closed, however long a loaded machine takes: the test's timeout ends a hang.
  const answers = () =>
    fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    )
  while (await answers()) await Bun.sleep(100)

  // As README's "In production" and a service manager start it: a SIGTERM to that process alone stops the service.
  const direct = spawn(
    join(install, 'bin/storeloc.js'),
    ['serve', '--port', '0', '--host', '127.0.0.1', '--database', database, '--no-demo'],
    {
      cwd: install,
      env: { ...env, GEODATA_PATH: join(ROOT, 'data/geocoder.sqlite'), NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const directExited = new Promise<number | null>((resolve) => direct.on('exit', (code) => resolve(code)))
  const directLines = stdoutLines({ stdout: Readable.toWeb(direct.stdout!) as ReadableStream<Uint8Array> })
  const directUrl = JSON.parse(await directLines.waitFor(/"listening"/)).url
  expect((await fetch(`${directUrl}/healthz`)).status).toBe(200)
  await expectWidget(directUrl)
  direct.kill('SIGTERM')
  expect(await directExited).toBe(0)
  const refused = await fetch(`${directUrl}/healthz`).then(
    () => false,
    () => true,
  )
  expect(refused).toBe(true)
}, 180_000)
