// The layers of src/ import only downwards: each folder's imports are read from its files and
// checked against the folders (and packages) it may use. docs/architecture.md draws the same map.
// Files stay small enough to hold in mind.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SRC = join(import.meta.dir, '..', 'src')

/** Each layer, and the layers below it that it may import (itself always). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  engine: ['core'],
  store: ['core'],
  geocode: ['core', 'store'],
  locations: ['core', 'store', 'geocode'],
  indexes: ['core', 'engine', 'store'],
  operator: ['core', 'store', 'locations'],
  api: ['core', 'engine', 'store', 'geocode', 'locations', 'indexes', 'operator'],
  cli: ['core', 'store', 'geocode', 'locations', 'operator'],
  server: ['core', 'engine', 'store', 'geocode', 'locations', 'indexes', 'operator', 'api'],
  // Nothing: the client builds to plain JS for any script, without the server's modules.
  client: [],
  // Browser code (widget.js): served by api/pages, built from its own files and the core modules
  // written for both sides (core/directions.ts, core/languages.ts); its tsconfig has no Node types
  // to catch others.
  widget: ['core'],
  'main.ts': ['server'],
  'storeloc.ts': ['server', 'cli'],
}

/** A file longer than this is split by job (one module, one job). */
const MAX_FILE_LINES = 600

/** Packages only some layers may use: HTTP serving is the api's and the server's, SQL the store's and the geocoder's. */
const PACKAGE_OWNERS: Record<string, readonly string[]> = {
  elysia: ['api', 'server'],
  '@elysiajs/cors': ['api', 'server'],
  'bun:sqlite': ['store', 'geocode'],
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') ? [path] : []
  })
}

/** The layer a path under src/ belongs to: its first folder, or the file itself at the top. */
const layerOf = (path: string) => relative(SRC, path).split('/')[0]!

/** Every module specifier a file imports or re-exports, statically or dynamically. */
function specifiers(text: string): string[] {
  const found: string[] = []
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g
  for (const m of text.matchAll(pattern)) found.push(m[2]!)
  return found
}

type Edge = { file: string; layer: string; target: string }

function edges(): Edge[] {
  return sourceFiles(SRC).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8')).map((spec) => ({
      file: relative(SRC, file),
      layer: layerOf(file),
      target: spec.startsWith('.') ? layerOf(resolve(dirname(file), spec)) : spec,
    })),
  )
}

describe('layers', () => {
  const all = edges()

  test('every file of src/ is in a known layer', () => {
    const unknown = [...new Set(all.map((e) => e.layer))].filter((layer) => !(layer in MAY_IMPORT))
    expect(unknown).toEqual([])
  })

  test('each layer imports only itself and the layers below it', () => {
    const upward = all
      .filter((e) => e.target in MAY_IMPORT && e.target !== e.layer && !MAY_IMPORT[e.layer]!.includes(e.target))
      .map((e) => `${e.file} imports ${e.target}`)
    expect(upward).toEqual([])
  })

  test('HTTP and SQL packages are imported only by the layers that own them', () => {
    const misplaced = all
      .filter((e) => {
        const owners = Object.entries(PACKAGE_OWNERS).find(
          ([pkg]) => e.target === pkg || e.target.startsWith(`${pkg}/`),
        )?.[1]
        return owners !== undefined && !owners.includes(e.layer)
      })
      .map((e) => `${e.file} imports ${e.target}`)
    expect(misplaced).toEqual([])
  })

  test('no file of src/, test/, bench/ or examples/ is over 600 lines', () => {
    const root = join(SRC, '..')
    const long = ['src', 'test', 'bench', 'examples']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
    expect(long).toEqual([])
  })

  test('the check sees imports: a file of each layer below the top has some', () => {
    for (const layer of ['engine', 'indexes', 'locations', 'operator', 'api', 'server']) {
      expect(all.some((e) => e.layer === layer && e.target !== e.layer)).toBe(true)
    }
  })
})
