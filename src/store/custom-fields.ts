import type { Database } from 'bun:sqlite'
import type { ChangeLog } from './changes'

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'url', 'email', 'phone', 'button', 'badge'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]
/** Lowercase letters, digits and underscores, starting with a letter: safe as a JSON key path. */
export const CUSTOM_FIELD_ID = /^[a-z][a-z0-9_]{0,63}$/

export type CustomField = {
  id: string
  name: string
  type: CustomFieldType
  label: string | null
  color: string | null
  position: number
}

/** A statement listing a locator's custom fields in their order: the repo's, and a snapshot's (snapshot.ts). */
export const customFieldList = (db: Database) =>
  db.prepare<CustomField, [string]>(
    'SELECT id, name, type, label, color, position FROM custom_fields WHERE locator_id = ? ORDER BY position, id',
  )

export function customFieldRepo(db: Database, changes: ChangeLog) {
  const list = customFieldList(db)
  const byId = db.prepare<CustomField, [string, string]>(
    'SELECT id, name, type, label, color, position FROM custom_fields WHERE locator_id = ? AND id = ?',
  )
  const nextPosition = db.prepare<{ p: number }, [string]>(
    'SELECT coalesce(max(position) + 1, 0) AS p FROM custom_fields WHERE locator_id = ?',
  )
  const insert = db.prepare<
    unknown,
    {
      locator_id: string
      id: string
      name: string
      type: string
      label: string | null
      color: string | null
      position: number
    }
  >(
    'INSERT INTO custom_fields (locator_id, id, name, type, label, color, position) VALUES ($locator_id, $id, $name, $type, $label, $color, $position)',
  )
  const remove = db.prepare<unknown, [string, string]>('DELETE FROM custom_fields WHERE locator_id = ? AND id = ?')
  return {
    list(locatorId: string): CustomField[] {
      return list.all(locatorId)
    },
    get(locatorId: string, id: string): CustomField | null {
      return byId.get(locatorId, id) ?? null
    },
    /** Call inside a write transaction. */
    insert(locatorId: string, field: Omit<CustomField, 'position'>): CustomField {
      const position = nextPosition.get(locatorId)!.p
      insert.run({ locator_id: locatorId, ...field, position })
      changes.append(locatorId, 'custom_field', field.id, 'upsert')
      return { ...field, position }
    },
    /** Call inside a write transaction. */
    remove(locatorId: string, id: string): boolean {
      const removed = remove.run(locatorId, id).changes > 0
      if (removed) changes.append(locatorId, 'custom_field', id, 'delete')
      return removed
    },
  }
}
export type CustomFieldRepo = ReturnType<typeof customFieldRepo>
