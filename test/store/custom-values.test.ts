// idsWithCustomFieldValue (a priority rule of a custom field) reads, for the fields the locator's
// rules name, a table the locations' triggers keep and new rules fill; after any sequence of
// writes and rule changes it must give what a scan of every row gives.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import type { LocationRecord } from '../../src/store/locations'
import { locationRecord, withTempStore } from '../helpers'

const env = withTempStore()

const FIELDS = ['tier', 'offer', 'phone_support'] // ids as CUSTOM_FIELD_ID allows
const VALUES = ['gold', 'silver', 'Spring sale', '5']

/** The answer as the rows say it: every published row of the locator read, its field's value compared. */
function scanned(locatorId: string, field: string, value: string): string[] {
  const rows = env.store.db
    .query<{ id: string; custom_fields: string }, [string]>(
      "SELECT id, custom_fields FROM locations WHERE locator_id = ? AND status = 'published'",
    )
    .all(locatorId)
  return rows
    .filter((r) => JSON.parse(r.custom_fields)[field] === value)
    .map((r) => r.id)
    .sort()
}

const customFields = fc.dictionary(fc.constantFrom(...FIELDS), fc.constantFrom(...VALUES), { maxKeys: 3 })
const op = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), slot: fc.nat(7), published: fc.boolean(), customFields }),
  fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(7) }),
  fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...FIELDS) }),
  fc.record({ kind: fc.constant('rules' as const), fields: fc.subarray(FIELDS) }),
)

/** Priority rules naming `fields` (and a tag, which keeps nothing). */
const rulesNaming = (fields: string[]) => [
  { tag: 'flagship' },
  ...fields.map((field) => ({ custom_field: field, value: 'gold' })),
]

/** Rows kept for a locator (the table is read by the store only). */
const keptRows = (locatorId: string) =>
  env.store.db
    .query<{ n: number }, [string]>('SELECT count(*) AS n FROM ranked_custom_values WHERE locator_id = ?')
    .get(locatorId)!.n

test('after any writes, the ids with a custom field value are those a scan of the rows finds', () => {
  fc.assert(
    fc.property(fc.subarray(FIELDS), fc.array(op, { maxLength: 30 }), (named, ops) => {
      const locatorId = env.store.write(() => env.store.locators.insert('Values')).id
      env.store.write(() => env.store.priority.replace(locatorId, rulesNaming(named)))
      const other = env.store.write(() => env.store.locators.insert('Other')).id
      const slots: (LocationRecord | null)[] = new Array(8).fill(null)
      // The other locator's rows have every value: none may show in the first's answers.
      env.store.write(() => {
        for (const value of VALUES) {
          const record = locationRecord(other, { name: 'X', address: 'A', coordinates: { lat: 1, lng: 1 } })
          env.store.locations.insert({ ...record, customFields: Object.fromEntries(FIELDS.map((f) => [f, value])) })
        }
      })
      for (const o of ops) {
        env.store.write(() => {
          if (o.kind === 'drop') env.store.locations.dropCustomField(locatorId, o.field)
          else if (o.kind === 'rules') env.store.priority.replace(locatorId, rulesNaming(o.fields))
          else if (o.kind === 'remove') {
            const at = slots[o.slot]
            if (at) env.store.locations.remove(locatorId, at.id)
            slots[o.slot] = null
          } else {
            const at = slots[o.slot]
            const base =
              at ?? locationRecord(locatorId, { name: `L${o.slot}`, address: 'A', coordinates: { lat: 2, lng: 2 } })
            const record: LocationRecord = {
              ...base,
              status: o.published ? 'published' : 'draft',
              customFields: o.customFields,
            }
            if (at) env.store.locations.replace(record, at)
            else env.store.locations.insert(record)
            slots[o.slot] = record
          }
        })
        for (const field of FIELDS) {
          for (const value of VALUES)
            expect(env.store.locations.idsWithCustomFieldValue(locatorId, field, value).sort()).toEqual(
              scanned(locatorId, field, value),
            )
        }
      }
      // A locator whose rules name no custom field keeps nothing (its writes pay one look at its rules).
      expect(keptRows(other)).toBe(0)
    }),
    { numRuns: 60 },
  )
})

test('a write rolled back leaves the values as they were', () => {
  const locatorId = env.store.write(() => env.store.locators.insert('Rollback')).id
  env.store.write(() => env.store.priority.replace(locatorId, rulesNaming(['tier'])))
  const record = locationRecord(locatorId, { name: 'R', address: 'A', coordinates: { lat: 2, lng: 2 } })
  env.store.write(() => env.store.locations.insert({ ...record, customFields: { tier: 'gold' } }))
  expect(() =>
    env.store.write(() => {
      env.store.locations.replace(
        { ...record, customFields: { tier: 'silver' } },
        { ...record, customFields: { tier: 'gold' } },
      )
      throw new Error('abort')
    }),
  ).toThrow('abort')
  expect(env.store.locations.idsWithCustomFieldValue(locatorId, 'tier', 'gold')).toEqual([record.id])
  expect(env.store.locations.idsWithCustomFieldValue(locatorId, 'tier', 'silver')).toEqual([])
  expect(keptRows(locatorId)).toBe(1)
})
