import type { Database } from 'bun:sqlite'
import { newLocatorId, newPublicToken } from '../core/ids'
import type { Lang } from '../core/languages'
import type { ChangeLog } from './changes'
import { StoreError } from './db'

export type Locator = {
  id: string
  name: string
  publicToken: string
  active: boolean
  queryApiEnabled: boolean
  referrers: string[]
  defaultRadius: number | null
  defaultUnit: 'miles' | 'km'
  rateLimit: number
  /** Whether the Query API shows each location's external_id. */
  publicExternalId: boolean
  /** The language of its own pages (finder, store pages, directory) when a link asks for none; null: English. */
  language: Lang | null
  createdAt: string
  updatedAt: string
}

/** The operator-set fields of a locator; each one left out stays as it is. */
export type LocatorSettings = {
  name?: string
  /** false: switched off; its keys and public token answer as for no locator until it is on again. */
  active?: boolean
  queryApiEnabled?: boolean
  referrers?: string[]
  /** In `defaultUnit`; null: the Query API's default of 25. */
  defaultRadius?: number | null
  defaultUnit?: 'miles' | 'km'
  rateLimit?: number
  publicExternalId?: boolean
  language?: Lang | null
}

type Row = {
  id: string
  name: string
  public_token: string
  active: number
  query_api_enabled: number
  referrers: string
  default_radius: number | null
  default_unit: 'miles' | 'km'
  rate_limit: number
  public_external_id: number
  language: Lang | null
  created_at: string
  updated_at: string
}

const fromRow = (r: Row): Locator => ({
  id: r.id,
  name: r.name,
  publicToken: r.public_token,
  active: r.active === 1,
  queryApiEnabled: r.query_api_enabled === 1,
  referrers: JSON.parse(r.referrers) as string[],
  defaultRadius: r.default_radius,
  defaultUnit: r.default_unit,
  rateLimit: r.rate_limit,
  publicExternalId: r.public_external_id === 1,
  language: r.language,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

export function locatorRepo(db: Database, changes: ChangeLog) {
  const byId = db.prepare<Row, [string]>('SELECT * FROM locators WHERE id = ?')
  const all = db.prepare<Row, []>('SELECT * FROM locators ORDER BY created_at, id')
  const count = db.prepare<{ n: number }, []>('SELECT count(*) AS n FROM locators')
  const insert = db.prepare<unknown, { id: string; name: string; public_token: string; now: string }>(
    'INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ($id, $name, $public_token, $now, $now)',
  )
  const byToken = db.prepare<Row, [string]>('SELECT * FROM locators WHERE public_token = ?')
  const update = db.prepare<
    unknown,
    {
      id: string
      name: string
      active: number
      query_api_enabled: number
      referrers: string
      default_radius: number | null
      default_unit: string
      rate_limit: number
      public_external_id: number
      language: string | null
      now: string
    }
  >(
    `UPDATE locators SET name = $name, active = $active, query_api_enabled = $query_api_enabled, referrers = $referrers, default_radius = $default_radius,
       default_unit = $default_unit, rate_limit = $rate_limit, public_external_id = $public_external_id,
       language = $language, updated_at = $now WHERE id = $id`,
  )
  const setToken = db.prepare<unknown, { id: string; public_token: string; now: string }>(
    'UPDATE locators SET public_token = $public_token, updated_at = $now WHERE id = $id',
  )
  const remove = db.prepare<unknown, [string]>('DELETE FROM locators WHERE id = ?')
  // Kept by triggers on locations, whose cascaded deletes may run after the rules they test are gone.
  const removeRanked = db.prepare<unknown, [string]>('DELETE FROM ranked_custom_values WHERE locator_id = ?')
  const existing = (id: string): Row => {
    const row = byId.get(id)
    if (!row) throw new StoreError(`No locator ${id}.`)
    return row
  }
  return {
    get(id: string): Locator | null {
      const row = byId.get(id)
      return row ? fromRow(row) : null
    },
    list(): Locator[] {
      return all.all().map(fromRow)
    },
    count(): number {
      return count.get()!.n
    },
    /** Inserts a locator; call inside a transaction (with its first key, when there is one). */
    insert(name: string): Locator {
      const id = newLocatorId()
      insert.run({ id, name, public_token: newPublicToken(), now: new Date().toISOString() })
      changes.append(id, 'locator', id, 'upsert')
      return fromRow(byId.get(id)!)
    },
    /** The locator a public token names (active or not), or null. Uses the UNIQUE index on public_token. */
    byToken(token: string): Locator | null {
      const row = byToken.get(token)
      return row ? fromRow(row) : null
    },
    /** Changes the fields `patch` sets; call inside a write transaction. Throws StoreError for an unknown id. */
    updateSettings(id: string, patch: LocatorSettings): Locator {
      const current = fromRow(existing(id))
      update.run({
        id,
        name: patch.name ?? current.name,
        active: (patch.active ?? current.active) ? 1 : 0,
        query_api_enabled: (patch.queryApiEnabled ?? current.queryApiEnabled) ? 1 : 0,
        referrers: JSON.stringify(patch.referrers ?? current.referrers),
        default_radius: patch.defaultRadius === undefined ? current.defaultRadius : patch.defaultRadius,
        default_unit: patch.defaultUnit ?? current.defaultUnit,
        rate_limit: patch.rateLimit ?? current.rateLimit,
        public_external_id: (patch.publicExternalId ?? current.publicExternalId) ? 1 : 0,
        language: patch.language === undefined ? current.language : patch.language,
        now: new Date().toISOString(),
      })
      changes.append(id, 'locator', id, 'upsert')
      return fromRow(byId.get(id)!)
    },
    /** Issues a new public token; the old one names nothing from the commit on. Call inside a write transaction. */
    rotateToken(id: string): Locator {
      existing(id)
      setToken.run({ id, public_token: newPublicToken(), now: new Date().toISOString() })
      changes.append(id, 'locator', id, 'upsert')
      return fromRow(byId.get(id)!)
    },
    /**
     * Deletes a locator with everything it holds (its keys, locations, custom fields, filters,
     * priority rules and idempotency answers, by ON DELETE CASCADE). Call inside a write transaction.
     */
    delete(id: string): void {
      existing(id)
      removeRanked.run(id)
      remove.run(id)
      changes.append(id, 'locator', id, 'delete')
    },
  }
}
export type LocatorRepo = ReturnType<typeof locatorRepo>
