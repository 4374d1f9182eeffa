// The store pages' test fixture: the Query API's fixture (test/public/fixture.ts: a locator with
// filters, custom fields and 30 locations) plus an app of the page routes alone, on a registry of
// its own over the same store, so these tests do not depend on how src/server wires the routes.
import { Elysia } from 'elysia'
import type { PageDeps } from '../../src/api/pages/deps'
import { type PagesDeps, pageRoutes } from '../../src/api/pages'
import { SHORT_HOSTS } from '../../src/api/public/url'
import { IndexRegistry } from '../../src/indexes/registry'
import type { LocationRecord } from '../../src/store/locations'
import { FIXTURE_NOW, type Fixture, makeFixture, type Res, send } from '../public/fixture'

export type PagesFixture = Fixture & {
  deps: PageDeps
  /** GET a path of the page routes ("/l/TOKEN/..."), or a full URL. */
  page: (path: string, headers?: Record<string, string>, app?: PagesApp) => Promise<Res>
  /** Creates a location through the Management API; returns its id. */
  create: (body: Record<string, unknown>) => Promise<string>
  /** The location as GET /public/v1/{token}/locations/{id} shows it. */
  publicLocation: (id: string) => Promise<any>
  /** The store directory's top page, as a full URL. */
  top: () => string
  /** The locator's published rows, with their address parts. */
  published: () => LocationRecord[]
}

export type PagesApp = { handle: (request: Request) => Promise<Response> }

/** The routes src/api/pages/index.ts serves, on `deps`; the sitemap with pages of `pageSize` URLs when given. */
export function pagesApp(deps: Omit<PagesDeps, 'mapTiles'>, pageSize?: number): PagesApp {
  return new Elysia({ handler: SHORT_HOSTS }).use(pageRoutes({ ...deps, mapTiles: null, sitemapPageSize: pageSize }))
}

export async function makePagesFixture(): Promise<PagesFixture> {
  const f = await makeFixture()
  const registry = new IndexRegistry(f.env.store, undefined, { now: () => FIXTURE_NOW, buildRetryMs: 0 })
  const deps: PageDeps = { store: f.env.store, registry, publicBaseUrl: null }
  const app = pagesApp(deps)
  return {
    ...f,
    deps,
    page: (path, headers = {}, on = app) =>
      send(on, path.startsWith('http') ? path : `http://localhost${path}`, { headers, redirect: 'manual' }),
    async create(body) {
      const res = await f.env.call('POST', '/admin/v1/locations', { body })
      if (res.status !== 201) throw new Error(`creating gave ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.location.id
    },
    async publicLocation(id) {
      return (await f.get(`/locations/${id}`)).body.data.location
    },
    top: () => `http://localhost/l/${f.token}/stores`,
    published: () => f.env.store.locations.all(f.env.locatorId).filter((r) => r.status === 'published'),
  }
}

/** The JSON-LD blocks of a page, parsed. */
export function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
}

/**
 * A page's HTML with each range of its hours tables as plain text ("<td>9:00–13:00, 14:00–18:00</td>"):
 * the page holds each in an element of its own, which no line ends within.
 */
export const rangesAsText = (html: string): string => html.replace(/<span class="slp-range">([^<]*)<\/span>/g, '$1')

/** The content of `<meta property=...>` or `<meta name=...>` tags, by that name. */
export function metaTags(html: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) out[m[1]!] = m[2]!
  return out
}

/** The `<loc>` values of a sitemap or sitemap index, XML entities decoded. */
export function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
    m[1]!
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'"),
  )
}

const decode = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

export type Item = { url: string; name: string; count?: number; address?: string }

/** The entries of a directory page's list, as a person reads them. */
export function items(html: string): Item[] {
  const list = /<ul class="slp-dir">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? ''
  return [
    ...list.matchAll(
      /<li><a href="([^"]+)">([^<]*)<\/a>(?: <span class="slp-count">\((\d+) [^<)]+\)<\/span>)?(?:<br><span class="slp-addr">([^<]*)<\/span>)?<\/li>/g,
    ),
  ].map((m) => ({
    url: decode(m[1]!),
    name: decode(m[2]!),
    ...(m[3] === undefined ? {} : { count: Number(m[3]) }),
    ...(m[4] === undefined ? {} : { address: decode(m[4]) }),
  }))
}

/** A page's breadcrumb: each step's name and link (none for the page itself). */
export function trail(html: string): [string, string | null][] {
  const nav = /<nav class="slp-crumbs" aria-label="[^"]*"><ol>([\s\S]*?)<\/ol><\/nav>/.exec(html)?.[1] ?? ''
  return [
    ...nav.matchAll(/<li>(?:<a href="([^"]+)">([^<]*)<\/a>|<span aria-current="page">([^<]*)<\/span>)<\/li>/g),
  ].map((m) => (m[1] === undefined ? [decode(m[3]!), null] : [decode(m[2]!), decode(m[1])]))
}

/** The hrefs of a page's `<link rel=...>` tags of `rel`. */
export const head = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)">`, 'g'))].map((m) => decode(m[1]!))
