// The widget's files, served by the service itself so a page needs no other server: widget.js and
// map.js, the map's code it loads with Leaflet (each built from src/widget with Bun's bundler on
// first request), its stylesheet, Leaflet from npm, and the country shapes of world-atlas as
// GeoJSON. Each is made once a process, kept with its gzip form and an ETag for each form.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { feature } from 'topojson-client'
import type { GeometryObject, Topology } from 'topojson-specification'
import { weighted } from '../../core/weighted'
import { etagMatches } from '../public/headers'
import { widgetTexts } from './widget-texts'

/**
 * A file: its body whole and gzipped, each with its own strong ETag (RFC 9110 8.8.3: a strong
 * validator differs from one content coding to another, else a cache could answer a request for
 * one with the other's bytes), the hash of the bytes sent.
 */
export type Asset = { body: Uint8Array; gzip: Uint8Array; type: string; etag: string; gzipEtag: string }

const WIDGET_DIR = join(import.meta.dir, '..', '..', 'widget')
const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'

// widget.js's budget is its gzip size: libdeflate's deepest level writes a plain gzip stream some
// 4% smaller than zlib's level 9, at several times the one-off cost a process pays on a file's first
// request, so only the widget's own bundles take it.
function assetOf(body: Uint8Array<ArrayBuffer>, type: string, deepest = false): Asset {
  const gzip = deepest ? Bun.gzipSync(body, { level: 12, library: 'libdeflate' }) : Bun.gzipSync(body, { level: 9 })
  return { body, gzip, type, etag: strongEtag(body), gzipEtag: strongEtag(gzip) }
}

const strongEtag = (bytes: Uint8Array) => `"${Bun.hash(bytes).toString(36)}"`

/** A file of an installed package, found the way `import` finds the package. */
const packageFile = (name: string, file: string): Uint8Array<ArrayBuffer> =>
  readFileSync(fileURLToPath(import.meta.resolve(`${name}/${file}`)))

/** A file's version: the hash of its whole bytes, its ETag without quotes. */
export const versionOf = (a: Asset): string => a.etag.slice(1, -1)

/** `define`: names the bundle's code reads as constants, each a JSON value. */
async function bundle(
  entry: string,
  type: string,
  deepest = false,
  define: Record<string, string> = {},
): Promise<Asset> {
  // An IIFE: widget.js and map.js run as classic scripts, where top-level names would be the
  // page's globals (Leaflet's L among them).
  const built = await Bun.build({
    entrypoints: [join(WIDGET_DIR, entry)],
    minify: true,
    target: 'browser',
    format: 'iife',
    plugins: [widgetTexts],
    define,
    throw: false, // its messages, each with the file and line, in built.logs
  })
  if (!built.success || !built.outputs[0]) throw new AggregateError(built.logs, `Building ${entry} failed.`)
  return assetOf(new Uint8Array(await built.outputs[0].arrayBuffer()), type, deepest)
}

/** A ring's longitudes made continuous: one that crosses the antimeridian runs on past ±180 (Leaflet draws it whole). */
function unwrapped(ring: number[][]): number[][] {
  let shift = 0
  return ring.map(([lng, lat], i) => {
    const before = ring[i - 1]
    if (before) shift += Math.abs(lng! - before[0]!) > 180 ? (lng! > before[0]! ? -360 : 360) : 0
    return [Math.round((lng! + shift) * 100) / 100, Math.round(lat! * 100) / 100]
  })
}

/**
 * Country outlines at 1:110m, coordinates to 0.01°: enough to show where stores are, ~50 KB
 * gzipped. Antarctica is left out: its ring goes round the pole, which a flat map draws as a band.
 */
function countries(): Asset {
  const topology = JSON.parse(packageFile('world-atlas', 'countries-110m.json').toString()) as Topology
  const shapes = feature(topology, topology.objects.countries as GeometryObject)
  const features = 'features' in shapes ? shapes.features : [shapes]
  const slim = {
    type: 'FeatureCollection',
    features: features
      .filter((f) => (f.properties as { name?: string } | null)?.name !== 'Antarctica')
      .map((f) => {
        const g = f.geometry as { type: string; coordinates: number[][][] | number[][][][] }
        const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][]
        return {
          type: 'Feature',
          properties: {},
          geometry: { type: 'MultiPolygon', coordinates: polygons.map((rings) => rings.map(unwrapped)) },
        }
      }),
  }
  return assetOf(new TextEncoder().encode(JSON.stringify(slim)), JSON_TYPE)
}

const MAKERS: Record<string, () => Asset | Promise<Asset>> = {
  // widget.js asks for map.js by the version it is built with: a widget.js a browser has kept never
  // runs the map code of another build (see versionedResponse).
  'widget.js': async () =>
    bundle('main.ts', JS, true, { MAP_VERSION: JSON.stringify(versionOf(await asset('map.js')!)) }),
  'map.js': () => bundle('map-code.ts', JS, true),
  'widget.css': () => bundle('widget.css', CSS),
  'leaflet.js': () => assetOf(packageFile('leaflet', 'dist/leaflet.js'), JS),
  'leaflet.css': () => assetOf(packageFile('leaflet', 'dist/leaflet.css'), CSS),
  'countries.json': countries,
}

/**
 * A widget file that could not be made (its build failed, a package's file is missing): the
 * file's name, and why in words an operator acts on (each of the build's messages with its file
 * and line).
 */
export class AssetError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`The widget file ${file} could not be made: ${reasonOf(cause)}`, { cause })
  }
}

/** A failure's messages: a build's each with where it is ("main.ts:1:8"), else the error's own. */
function reasonOf(e: unknown): string {
  const parts: unknown[] = e instanceof AggregateError && e.errors.length > 0 ? e.errors : [e]
  return parts
    .map((part) => {
      const { message, position } = (part ?? {}) as {
        message?: unknown
        position?: { file: string; line: number; column: number } | null
      }
      const text = typeof message === 'string' ? message : String(part)
      return position ? `${text} (${position.file}:${position.line}:${position.column})` : text
    })
    .join('; ')
}

// Kept a process, not an app: each asset is a pure function of the files it is made from, alike for every app.
const made = new Map<string, Promise<Asset>>()

/**
 * How long a file that could not be made is answered with its failure before a request tries
 * again, s: its 503's Retry-After. A flood of requests for it builds it, and logs why, once.
 */
export const UNMADE_RETRY_S = 10

/** The asset of that name, made on first ask; null for a name there is none of. */
export function asset(name: string): Promise<Asset> | null {
  // Own keys only: "constructor" or "__proto__" name an inherited member of every object.
  const make = Object.hasOwn(MAKERS, name) ? MAKERS[name] : undefined
  if (!make) return null
  let found = made.get(name)
  if (!found) {
    found = Promise.resolve()
      .then(make)
      .catch((e) => {
        throw e instanceof AssetError ? e : new AssetError(name, e)
      })
    const failed = found
    failed.catch(() => {
      const forget = setTimeout(() => made.get(name) === failed && made.delete(name), UNMADE_RETRY_S * 1000)
      forget.unref()
    })
    made.set(name, found)
  }
  return found
}

/** Whether Accept-Encoding names gzip at a weight above 0 ("gzip;q=0" refuses it, RFC 9110 12.5.3). */
function takesGzip(accept: string): boolean {
  return weighted(accept).some(({ item, q }) => item === 'gzip' && q > 0)
}

/**
 * The asset's response: gzip when the client takes it, else the whole body; 304 when If-None-Match
 * holds the ETag of the form chosen (compared as the Query API compares: weakly, in a list, or
 * "*"). Cached for an hour, then revalidated; `immutable`: kept for a year, unasked.
 */
export function assetResponse(a: Asset, request: Request, immutable = false): Response {
  const gzip = takesGzip(request.headers.get('accept-encoding') ?? '')
  const etag = gzip ? a.gzipEtag : a.etag
  const headers: Record<string, string> = {
    'content-type': a.type,
    etag,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    vary: 'accept-encoding',
    // Loaded by pages on other sites: a <script> and fetch() from anywhere.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  }
  if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
  if (gzip) headers['content-encoding'] = 'gzip'
  return new Response(gzip ? a.gzip : a.body, { headers })
}

/**
 * The asset asked for by version (?v=, versionOf): its bytes never change under that URL, so they
 * are kept for good; null for another version, which this process cannot send.
 */
export function versionedResponse(a: Asset, request: Request, version: string): Response | null {
  return version === versionOf(a) ? assetResponse(a, request, true) : null
}
