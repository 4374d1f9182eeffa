// The index registry's bounds: when builds are tried again, when a busy database is met again,
// and when changes are many enough to build an index again rather than apply them one by one.

/**
 * After an index build failed (a row it cannot read: written behind the service's back), queries
 * to its locator fail at once for this long instead of reading every row again, which holds the
 * event loop for a build's time (PERF-036); then the next query, or the idle sync
 * (retryFailedBuilds()), tries again, so a repaired row serves without a restart.
 */
export const BUILD_RETRY_MS = 10_000

/**
 * After a build or a page of the JSON fill met a busy database (another process's write lock,
 * which SQLite waited busy_timeout for), queries to its locator are told 503 at once, and the
 * page is read again, this much later: not at once, which would block the event loop for another
 * busy_timeout at every turn while the lock is held.
 */
export const BUSY_RETRY_MS = 1000

/**
 * A locator's index is built again from its rows, rather than changed once per change, when the
 * changes to apply hold at least this many of its location changes, and at least a quarter of
 * its size (rebuild.ts: isBacklog): another process's bulk write (`storeloc locations import`, a
 * sync script's one big transaction). That many take longer to apply one by one than a fresh
 * build, whose background work queries do not wait for (PERF-036).
 */
export const BACKLOG_MIN = 1000

/**
 * From this many locations (the index's, and the changes'), such a build runs in background
 * tasks while the old index answers (rebuild.ts); below, the index is let go and the next query
 * builds it, in a few ms, so it shows the write at once (PERF-041).
 */
export const BACKGROUND_BUILD_MIN = 5000

/**
 * From this many published locations, an index let go (evictIdle()) or not built yet is built in
 * background tasks (rebuild.ts), and its first query waits for them: built by that query, it
 * would hold every other locator's queries meanwhile, ~430 ms at 20,000 (PERF-062). Below, the
 * query builds it at once (~20 ms at 450, PERF-060), sooner than turns that rest between requests.
 */
export const COLD_BUILD_MIN = 1000
