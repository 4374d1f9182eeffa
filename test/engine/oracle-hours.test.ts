// Opening hours against Intl: a key's hours of the day, kept with its state, follow its local date.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { LocatorIndex, type IndexDoc, hoursTextOn } from '../../src/engine/locator-index'
import { HOURS, oracleHoursText, INSTANTS } from './oracle-fixture'

describe('LocatorIndex agrees with a naive scan', () => {
  test("a key's hours of the day, kept with its state, follow its local date as time goes on", () => {
    // Every 37 minutes over the four days, forward only: a state found the day before is then kept.
    const steps = Array.from({ length: 160 }, (_, i) => INSTANTS[0]! + i * 37 * 60_000)
    fc.assert(
      fc.property(
        fc.subarray(steps, { minLength: 1 }),
        fc.uniqueArray(fc.nat(HOURS.length - 1), { minLength: 1 }),
        (at, picked) => {
          const docs = picked.map(
            (h, n): IndexDoc => ({
              id: `loc_${n}`,
              lat: 0,
              lng: 0,
              json: null,
              nameSort: `s${n}`,
              name: `s${n}`,
              rank: 0,
              tags: [],
              text: `s${n}`,
              hours: HOURS[h]!,
            }),
          )
          const index = new LocatorIndex(docs)
          for (const t of at) {
            index.openAt(t)
            for (const doc of docs) {
              const key = index.keyOf(index.get(doc.id)!)
              const today = index.openMade(key, (state, hours) => hoursTextOn(hours!, state.at))
              expect(today).toBe(oracleHoursText(doc.hours!, t))
            }
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
