// A bulk import's town, looked up by its checks, answers the write at the point the write keeps.
import { describe, expect, test } from 'bun:test'
import type { ReverseLookup, Reversed } from '../../src/geocode/embedded/reverse'
import { withKnownTown } from '../../src/locations/town'

const KOELN = { lat: 50.9375, lng: 6.9603 }
const TOWN: Reversed = { precision: 'city', parts: { city: 'Köln', country: 'DE' } }

/** A reverse lookup that counts its writtenAt calls and answers none. */
function counting() {
  const calls: [number, number, string][] = []
  const towns = {
    writtenAt: (lat: number, lng: number, address: string) => {
      calls.push([lat, lng, address])
      return null
    },
  } as unknown as ReverseLookup
  return { towns, calls }
}

describe('withKnownTown', () => {
  test('answers at the known point, and at one a sheet rounded (samePoint), without a lookup', () => {
    const { towns, calls } = counting()
    const known = withKnownTown(towns, { ...KOELN, address: '50667 Köln', town: TOWN })
    expect(known.writtenAt(KOELN.lat, KOELN.lng, '50667 Köln')).toBe(TOWN)
    // The stored point a write keeps for the one a sheet sent back rounded to its last digits.
    expect(known.writtenAt(KOELN.lat + 4e-10, KOELN.lng - 4e-10, '50667 Köln')).toBe(TOWN)
    expect(calls).toEqual([])
  })

  test('looks up another point or another address', () => {
    const { towns, calls } = counting()
    const known = withKnownTown(towns, { ...KOELN, address: '50667 Köln', town: TOWN })
    expect(known.writtenAt(KOELN.lat + 1e-6, KOELN.lng, '50667 Köln')).toBeNull()
    expect(known.writtenAt(KOELN.lat, KOELN.lng, '1 Domplatz, Köln')).toBeNull()
    expect(calls).toEqual([
      [KOELN.lat + 1e-6, KOELN.lng, '50667 Köln'],
      [KOELN.lat, KOELN.lng, '1 Domplatz, Köln'],
    ])
  })
})
