// Bounds of the Query API's parameters, shared by the API, its docs page and the operator's settings.

export const KM_PER_MILE = 1.609344
/** Locations in one page of GET /locations. */
export const MAX_LIMIT = 500
/** The radius of a query that sends none, for a locator that sets none, in the request's unit. */
export const DEFAULT_RADIUS = 25
/** The largest radius, in the request's unit. */
export const MAX_RADIUS = 1000
/** Tags in one query. */
export const MAX_TAGS = 50
/** Characters of a search. */
export const MAX_SEARCH = 200
/** The deepest zoom a map asks GET /clusters for (512-pixel Web Mercator tiles: Leaflet's zoom less one). */
export const MAX_ZOOM = 20
/**
 * Tiles a GET /clusters box may span, across or down, at its zoom (the whole world is 2^zoom tiles
 * across): a map 4,096 pixels wide that sends its own zoom of 256-pixel tiles, 8,192 for the
 * widget, which sends its zoom less one. It bounds an answer's markers.
 */
export const MAX_MAP_TILES = 16

/**
 * The longest path and query string read, in characters (as sent: percent-encoded). Any query
 * within the Query API's bounds (50 tags, 200-character search) is well inside it; the server
 * lets up to twice as long through (server/listen.ts HEADER_LIMIT), so a URL grown past it is
 * told why (server/app.ts), and the /docs error guide says so.
 */
export const MAX_URL_LENGTH = 16 * 1024
