// GET /clusters and GET /clusters/{id}/leaves: a map's clusters and single locations for a box at
// a zoom, and one cluster's locations, from the locator's index (src/engine/clusters/), with the
// filters of GET /locations applied first.
import { randomBytes } from 'node:crypto'
import { MAX_LIMIT, MAX_MAP_TILES } from '../../core/limits'
import { mercY } from '../../engine/clusters/levels'
import { type Bbox, bboxMiddle, type IndexQuery, MAX_ZOOM } from '../../engine/locator-index'
import { changedMeanwhile } from '../../indexes/errors'
import type { Entry } from '../../indexes/entry'
import type { IndexRegistry } from '../../indexes/registry'
import { DEFAULT_FILTER_GROUP } from '../../store/filters'
import type { Locator } from '../../store/locators'
import { locationJson, pageLinks, prevOffset } from './answer'
import { PublicError } from './errors'
import { bboxOf, flag, integer, once, type Params, queryParams, tagsAndSearch } from './params'
import { beforeAndQuery } from './url'

const invalid = (message: string) => new PublicError('INVALID_PARAMETER', message)

/** Names this process in the ETags of answers only it gives (clustersVersionMark): made once, compared per request. */
const PROCESS_MARK = `*${randomBytes(6).toString('base64url')}`

/**
 * More of a clusters answer's version: clusters joined by points written since their tree's build
 * are this process's own answer (another, its tree built at another time, may answer otherwise),
 * and their ETag says so.
 */
export const clustersVersionMark = (registry: IndexRegistry, locatorId: string): string =>
  registry.clustersExact(locatorId) ? '' : PROCESS_MARK

/** CLUSTER_NOT_FOUND's message for an id no clusters answer gave, or gave before the clusters were built anew. */
export const noCluster = (id: string) =>
  `Cluster ${JSON.stringify(id)} was not found: no clusters answer gave it, or the clusters were built anew since (they are after changes to the locations). Ask for the clusters again.`

/** 503 while a large locator's first cluster tree is built in the background. */
const building = () =>
  new PublicError(
    'UNAVAILABLE',
    "This locator's clusters are being built (about a second per 100,000 locations). Retry in a moment.",
    { 'retry-after': '1' },
  )

/** Cluster centres to 7 decimals (about a centimetre): the rest is noise of their sums. */
const round7 = (x: number) => Math.round(x * 1e7) / 1e7

/** The filters of GET /locations (tags[], tagLogic, search, open_now) as an index query over `bbox`. */
function filteredQuery(params: Params, entry: Entry, bbox: Bbox, now: number): IndexQuery {
  const { tagLogic, tags, search } = tagsAndSearch(params)
  const openNow = flag(params, 'open_now')
  return {
    center: bboxMiddle(bbox),
    radiusKm: 0,
    bbox,
    tags,
    tagLogic,
    groupOf: (tag) => entry.ctx.groupOfTag.get(tag)?.group.id ?? DEFAULT_FILTER_GROUP,
    search,
    sort: 'name',
    offset: 0,
    limit: 0,
    openAt: openNow ? now : null,
  }
}

/** Refuses a box larger than a map shows at `zoom`: its answer could hold every location alone. */
function checkMapSize([w, s, e, n]: Bbox, zoom: number): void {
  const tiles = 2 ** zoom
  const across = ((w <= e ? e - w : e - w + 360) / 360) * tiles
  const down = (mercY(s) - mercY(n)) * tiles
  // A box of exactly 16 tiles, worked out in floating point, may come to a hair more.
  if (Math.max(across, down) <= MAX_MAP_TILES + 1e-6) return
  const degrees = +((360 * MAX_MAP_TILES) / tiles).toPrecision(2)
  throw invalid(
    `bbox is larger than a map shows at zoom ${zoom}: ${+Math.max(across, down).toFixed(1)} tiles across or down, more than ${MAX_MAP_TILES} (about ${degrees}° of longitude at this zoom). Send the box the map shows, or a lower zoom.`,
  )
}

/**
 * A GET /clusters request's query string, read once for both what the route asks of it: whether
 * its answer shows open states (its version), and the answer.
 */
export class ClustersQuery {
  private params: Params | undefined
  constructor(private readonly href: string) {}

  /** The parameters; throws PublicError for a query string that cannot be read. */
  read(): Params {
    this.params ??= queryParams(beforeAndQuery(this.href)[1])
    return this.params
  }

  /**
   * Whether the answer depends on open states (the open_now filter). A query string or open_now
   * that cannot be read: true, and the answer's making reports it, in the order of its checks.
   */
  showsOpen(): boolean {
    try {
      return flag(this.read(), 'open_now')
    } catch {
      return true
    }
  }
}

/** The body of GET /clusters for its query. Throws PublicError for bad parameters, and 503 while the clusters are built. */
export function clustersBody(registry: IndexRegistry, locator: Locator, query: ClustersQuery): Uint8Array {
  const entry = registry.entry(locator.id)
  const params = query.read()
  const bbox = bboxOf(params)
  if (bbox === null) throw invalid('bbox is required: the box the map shows, west,south,east,north.')
  if (once(params, 'zoom') === null)
    throw invalid(`zoom is required: the map's zoom, a whole number from 0 to ${MAX_ZOOM}.`)
  const zoom = integer(params, 'zoom', 0, 0, MAX_ZOOM)
  checkMapSize(bbox, zoom)
  const q = filteredQuery(params, entry, bbox, registry.now())
  const found = entry.index.clusters(q, zoom)
  if (found === null) throw building()
  const { index } = entry
  const answer = {
    success: true,
    data: {
      clusters: found.clusters.map((c) => ({
        id: c.id,
        lat: round7(c.lat),
        lng: round7(c.lng),
        count: c.count,
        expansion_zoom: c.expansionZoom,
      })),
      locations: found.singles.map((key) => {
        const { id, name } = index.entryAt(key)
        return { id, ...index.pointAt(key), name }
      }),
      total: found.total,
    },
    meta: { query: { bbox, zoom } },
  }
  return Buffer.from(JSON.stringify(answer))
}

/** The body of GET /clusters/{id}/leaves: the cluster's locations by name, paged as GET /locations pages. */
export function leavesBody(
  registry: IndexRegistry,
  locator: Locator,
  id: string | undefined,
  href: string,
): Uint8Array {
  for (let attempt = 1; ; attempt++) {
    const body = leavesAnswer(registry, locator, id, href)
    if (body !== null) return body
    // A location's row vanished between the sync and its JSON (another process's write): again, synced.
    if (attempt === 3) throw changedMeanwhile()
    registry.sync()
  }
}

function leavesAnswer(
  registry: IndexRegistry,
  locator: Locator,
  id: string | undefined,
  href: string,
): Uint8Array | null {
  const entry = registry.entry(locator.id)
  const [at, search] = beforeAndQuery(href)
  const params = queryParams(search)
  const limit = integer(params, 'limit', 20, 1, MAX_LIMIT)
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const now = registry.now()
  const q = { ...filteredQuery(params, entry, [-180, -90, 180, 90], now), offset, limit }
  const notFound = (why: string) => new PublicError('CLUSTER_NOT_FOUND', why)
  // Elysia gives no id for a path segment that is not valid percent-encoded UTF-8 ("%zz").
  if (typeof id !== 'string') throw notFound('The cluster ID in the path is not valid percent-encoded UTF-8.')
  const found = entry.index.clusterLeaves(q, id)
  if (found === null) throw building()
  if (found === undefined) throw notFound(noCluster(id))
  entry.index.openAt(now)
  const parts: Uint8Array[] = []
  for (const hit of found.hits) {
    const json = locationJson(registry, locator, entry, hit)
    if (json === null) return null
    parts.push(json)
  }
  const more = offset + limit < found.total
  const link = more || offset > 0 ? pageLinks(at, search) : null
  const pagination = [
    `{"offset":${offset},"limit":${limit},"total":${found.total},"hasMore":${more}`,
    more ? `,"next":${link!(offset + limit)}` : '',
    offset > 0 ? `,"prev":${link!(prevOffset(offset, limit, found.total))}` : '',
    '}',
  ].join('')
  const head = Buffer.from('{"success":true,"data":{"locations":[')
  const tail = Buffer.from(`],"pagination":${pagination}},"meta":{"query":{"cluster":${JSON.stringify(id)}}}}`)
  const comma = Buffer.from(',')
  return Buffer.concat([head, ...parts.flatMap((p, i) => (i === 0 ? [p] : [comma, p])), tail])
}
