// The index builds that failed on a locator's rows or met a busy database, and when each may be
// tried again (BUILD_RETRY_MS, BUSY_RETRY_MS in bounds.ts).
import { isBusyError } from '../store/db'
import { buildUnavailable, databaseBusy } from './errors'

/** A locator whose index could not be built from its rows, and why. */
export type BuildFailure = { locatorId: string; message: string }

export class BuildAttempts {
  /** Locators whose index build failed, with when (the registry's clock); see BUILD_RETRY_MS. */
  private failures = new Map<string, { message: string; at: number }>()
  /** Locators whose index build last met a busy database, with when (the registry's clock); see BUSY_RETRY_MS. */
  private busyAt = new Map<string, number>()

  constructor(
    private readonly buildRetryMs: number,
    private readonly busyRetryMs: number,
    /** Told of an index build that failed on its rows, unless the try before failed for the same reason (src/server/app.ts logs it). */
    private readonly onBuildFailed: (locatorId: string, error: unknown) => void,
  ) {}

  /** Whether the locator's last build failed on its rows. */
  hasFailed(locatorId: string): boolean {
    return this.failures.has(locatorId)
  }

  /** Whether the locator's last build met a busy database. */
  metBusy(locatorId: string): boolean {
    return this.busyAt.has(locatorId)
  }

  /** Throws when a build of the locator begun at `t0` comes too soon after its last failed or busy one. */
  refuseTooSoon(locatorId: string, t0: number): void {
    const failed = this.failures.get(locatorId)
    if (failed && t0 - failed.at < this.buildRetryMs)
      throw buildUnavailable(failed.at + this.buildRetryMs, t0, new Error(failed.message))
    const busy = this.busyAt.get(locatorId)
    if (busy !== undefined && t0 - busy < this.busyRetryMs) throw databaseBusy()
  }

  /** Notes a build begun at `t0` that threw `e`, and returns the error its query throws. */
  failed(locatorId: string, t0: number, e: unknown): Error {
    // A busy database is another process's lock, not this locator's rows: tried again after
    // BUSY_RETRY_MS (the app's path, asked after the fast path failed, does not wait for the lock again).
    if (isBusyError(e)) {
      this.busyAt.set(locatorId, t0)
      return databaseBusy(e)
    }
    this.busyAt.delete(locatorId)
    const before = this.failures.get(locatorId)
    const message = `The index of locator ${locatorId} could not be built from its rows: ${(e as Error)?.message ?? String(e)}`
    this.failures.set(locatorId, { message, at: t0 })
    // Logged when it is new: not again at every retry (every BUILD_RETRY_MS, queried or not) while the row stays bad.
    if (before?.message !== message) this.onBuildFailed(locatorId, e)
    return buildUnavailable(t0 + this.buildRetryMs, t0, e)
  }

  /** Forgets the locator's failed and busy builds: it was built, or nobody can query it. */
  forget(locatorId: string): void {
    this.failures.delete(locatorId)
    this.busyAt.delete(locatorId)
  }

  clear(): void {
    this.failures.clear()
    this.busyAt.clear()
  }

  /** The locators whose build failed at least buildRetryMs before `now`. */
  due(now: number): string[] {
    const due: string[] = []
    for (const [locatorId, failed] of this.failures) if (now - failed.at >= this.buildRetryMs) due.push(locatorId)
    return due
  }

  /** The locators whose index could not be built the last time it was tried. */
  list(): BuildFailure[] {
    return [...this.failures].map(([locatorId, { message }]) => ({ locatorId, message }))
  }
}
