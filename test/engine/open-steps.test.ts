// A build finds its open states in steps (openSteps) between other work: the same states as openAt() at once.
import { expect, test } from 'bun:test'
import { type IndexDoc, LocatorIndex } from '../../src/engine/locator-index'
import { HOURS, INSTANTS } from './oracle-fixture'

test('openSteps() with its time up stops after a few keys; called again until done, the states are those openAt() finds', () => {
  const docs = Array.from(
    { length: 300 },
    (_, n): IndexDoc => ({
      id: `loc_${n}`,
      lat: n / 100,
      lng: 0,
      json: null,
      nameSort: `s${n}`,
      name: `s${n}`,
      rank: 0,
      tags: [],
      text: `s${n}`,
      hours: HOURS[n % HOURS.length]!,
    }),
  )
  const stepped = new LocatorIndex(docs)
  const atOnce = new LocatorIndex(docs)
  const t = INSTANTS[0]!
  let calls = 1
  while (!stepped.openSteps(t, 0)) calls++ // end 0: past, so each call finds 63 keys and stops
  expect(calls).toBe(5)
  const until = atOnce.openAt(t)
  expect(stepped.openAt(t)).toBe(until) // nothing left due
  for (const doc of docs) {
    const [a, b] = [stepped, atOnce].map((index) => index.openState(index.keyOf(index.get(doc.id)!)))
    expect(a).toEqual(b!)
  }
})
