// Each locator's locations, as the triggers of migration 12 keep them in step with every statement
// that adds or removes one, in any process: read in a write's transaction, it counts every commit.
import type { Database } from 'bun:sqlite'

export function locationCountRepo(db: Database) {
  const of = db.prepare<{ n: number }, [string]>('SELECT n FROM location_counts WHERE locator_id = ?')
  return {
    /** How many locations `locatorId` holds, drafts included: one row read, however many it holds. */
    of(locatorId: string): number {
      return of.get(locatorId)?.n ?? 0
    },
  }
}
export type LocationCountRepo = ReturnType<typeof locationCountRepo>
