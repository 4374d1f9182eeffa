// The worker thread of quickCheck (integrity.ts): reads the whole file on a connection of its own.
import { Database } from 'bun:sqlite'

declare const self: Worker

self.onmessage = (event: MessageEvent<string>) => {
  let found: string | null = null
  try {
    const db = new Database(event.data, { readonly: true, strict: true })
    try {
      const rows = db.query<{ quick_check: string }, []>('PRAGMA quick_check(1)').all()
      if (rows[0]?.quick_check !== 'ok') found = rows.map((r) => r.quick_check).join('; ')
    } finally {
      db.close()
    }
  } catch (e) {
    found = (e as Error).message
  }
  self.postMessage(found)
}
