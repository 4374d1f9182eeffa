// locations.replace writes the columns that changed (store/locations.ts): the row read back is
// the record it says it wrote, whichever fields changed, and past the statements it keeps (a new set of
// columns writes them all).
import { expect, test } from 'bun:test'
import { createLocator } from '../../src/operator'
import type { LocationRecord } from '../../src/store/locations'
import { locationRecord, withTempStore } from '../helpers'

const env = withTempStore()

/** Each field of a location given another value, one at a time. */
const EDITS: ((r: LocationRecord) => Partial<LocationRecord>)[] = [
  (r) => ({ externalId: `${r.externalId ?? 'x'}-2` }),
  (r) => ({ status: r.status === 'published' ? 'draft' : 'published' }),
  (r) => ({ name: `${r.name}!` }),
  (r) => ({ address: `${r.address}, France` }),
  (r) => ({ lat: r.lat + 0.001 }),
  (r) => ({ lng: r.lng - 0.001 }),
  (r) => ({ description: `${r.description} More.` }),
  (r) => ({ tags: [...r.tags, `t${r.tags.length}`] }),
  (r) => ({ contact: { ...r.contact, phone: `+33 1 ${r.tags.length}` } }),
  (r) => ({ social: { ...r.social, instagram: `https://instagram.com/s${r.tags.length}` } }),
  (r) => ({ hours: { ...r.hours, monday: r.hours.monday === '9-17' ? '10-18' : '9-17' } }),
  (r) => ({ specialHours: { ...r.specialHours, '2026-12-24': 'closed' } }),
  (r) => ({ timezone: r.timezone === 'Europe/Paris' ? null : 'Europe/Paris' }),
  (r) => ({ customFields: { ...r.customFields, tier: `${r.customFields.tier ?? ''}g` } }),
  (r) => ({ imageUrl: `${r.imageUrl || 'https://example.com/a.png'}?2` }),
  (r) => ({ geocoding: r.geocoding ? null : { precision: 'street', source: 'test' } }),
  (r) => ({ geocodedAt: r.geocodedAt ? null : new Date(0).toISOString() }),
  (r) => ({ addressParts: { ...r.addressParts, city: `${r.addressParts.city ?? ''}P` } }),
  (r) => ({ townNames: `${r.townNames ?? ''} paris` }),
]

test('the row read back after replace is the record written, for each field and set of fields changed', () => {
  const { store } = env
  const { locator } = createLocator(store, 'Replace')
  const first = locationRecord(locator.id, {
    name: 'Shop',
    address: '1 Rue de Rivoli, Paris',
    coordinates: { lat: 48.85, lng: 2.35 },
    status: 'published',
  })
  store.write(() => store.locations.insert(first))
  let seed = 1
  // 19 single fields, then 100 sets of several: more sets of columns than statements kept.
  const sets = [
    ...EDITS.map((_, i) => [i]),
    ...Array.from({ length: 100 }, () =>
      EDITS.map((_, i) => i).filter(() => (seed = (seed * 48271) % 2147483647) % 3 === 0),
    ),
  ]
  for (const set of sets) {
    const current = store.locations.get(locator.id, first.id)!
    let next: LocationRecord = { ...current, updatedAt: new Date(Date.now() + seed).toISOString() }
    for (const i of set) next = { ...next, ...EDITS[i]!(next) }
    // `next`, or the row as it was (but a new geocodedAt) when nothing else changed: replace()'s answer.
    const written = store.write(() => store.locations.replace(next, current))
    expect(store.locations.get(locator.id, first.id)).toEqual(written)
  }
})
