// The KDBush built in a worker thread, and built here instead whenever the worker fails: a job is
// never left without its answer, and the answer is the same KDBush either way.
import { afterAll, describe, expect, test } from 'bun:test'
import type KDBush from 'kdbush'
import { buildKd, buildKdInWorker, useKdWorkerScript } from '../../src/search/kd-build'

const NODE_SIZE = 16
const coords = new Float64Array(2 * 3000)
for (let i = 0; i < coords.length; i += 2) {
  coords[i] = ((i * 7919) % 36000) / 100 - 180
  coords[i + 1] = ((i * 104729) % 18000) / 100 - 90
}
const expected = buildKd(coords, NODE_SIZE)

const script = (name: string) => new URL(`./kd-workers/${name}`, import.meta.url).href
const build = () => new Promise<{ kd: KDBush; inWorker: boolean }>((resolve) => buildKdInWorker(coords, NODE_SIZE, (kd, inWorker) => resolve({ kd, inWorker })))
const expectSame = (kd: KDBush) => {
  expect(Array.from(kd.ids)).toEqual(Array.from(expected.ids))
  expect(Array.from(kd.coords)).toEqual(Array.from(expected.coords))
}

afterAll(() => useKdWorkerScript(new URL('../../src/search/kd-worker.ts', import.meta.url).href))

describe('buildKdInWorker', () => {
  test('the worker sorts it, the same KDBush as one built here', async () => {
    useKdWorkerScript(new URL('../../src/search/kd-worker.ts', import.meta.url).href)
    const { kd, inWorker } = await build()
    expect(inWorker).toBe(true)
    expectSame(kd)
  })

  for (const [name, what] of [
    ['throws.ts', 'a worker that throws'],
    ['stray.ts', 'a worker answering with a message that names no job'],
    ['exits.ts', 'a worker that exits'],
    ['missing.ts', 'a worker script that does not exist'],
  ] as const) {
    test(`${what}: the job is built here, and so are later ones`, async () => {
      useKdWorkerScript(script(name))
      const first = await build()
      expect(first.inWorker).toBe(false)
      expectSame(first.kd)
      const later = await build()
      expect(later.inWorker).toBe(false)
      expectSame(later.kd)
    })
  }

  test('a worker answering with a buffer KDBush cannot read: that job is built here', async () => {
    useKdWorkerScript(script('unreadable.ts'))
    const { kd, inWorker } = await build()
    expect(inWorker).toBe(false)
    expectSame(kd)
  })

  test('jobs pending when the worker fails are all answered', async () => {
    useKdWorkerScript(script('throws.ts'))
    const all = await Promise.all([build(), build(), build()])
    for (const { kd, inWorker } of all) {
      expect(inWorker).toBe(false)
      expectSame(kd)
    }
  })
})
