import type { Database } from 'bun:sqlite'
import { newLocatorId, newPublicToken } from '../ids'
import type { ChangeLog } from './changes'

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
  createdAt: string
  updatedAt: string
}

type Row = {
  id: string; name: string; public_token: string; active: number; query_api_enabled: number; referrers: string
  default_radius: number | null; default_unit: 'miles' | 'km'; rate_limit: number; created_at: string; updated_at: string
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
  }
}
export type LocatorRepo = ReturnType<typeof locatorRepo>
