// The KDBush and its nodes' boxes built in a worker thread, and built here instead whenever the
// worker fails: a job is never left without its answer, and the answer is the same either way.
import { afterAll, describe, expect, test } from 'bun:test'
import { buildKd, buildKdInWorker, type KdTree } from '../../src/engine/geo/kd-build'
import { useWorkerScript } from '../../src/engine/worker-jobs'

const NODE_SIZE = 16
const coords = new Float64Array(2 * 3000)
for (let i = 0; i < coords.length; i += 2) {
  coords[i] = ((i * 7919) % 36000) / 100 - 180
  coords[i + 1] = ((i * 104729) % 18000) / 100 - 90
}
const expected = buildKd(coords, NODE_SIZE)

const script = (name: string) => new URL(`./kd-workers/${name}`, import.meta.url).href
const build = () =>
  new Promise<{ kd: KdTree; inWorker: boolean }>((resolve) =>
    buildKdInWorker(coords, NODE_SIZE, (kd, inWorker) => resolve({ kd, inWorker })),
  )
const expectSame = ({ kd, boxes }: KdTree) => {
  expect(Array.from(kd.ids)).toEqual(Array.from(expected.kd.ids))
  expect(Array.from(kd.coords)).toEqual(Array.from(expected.kd.coords))
  expect(Array.from(boxes)).toEqual(Array.from(expected.boxes))
}

afterAll(() => useWorkerScript(new URL('../../src/engine/worker-thread.ts', import.meta.url).href))

describe('buildKd', () => {
  test.each([
    [0, 4],
    [1, 4],
    [5, 4],
    [6, 4],
    [1000, 4],
    [1000, 64],
    [3000, 16],
  ])("%i points, leaves of %i: each node's box is the one its points fill, every other box empty", (n, nodeSize) => {
    const { kd, boxes } = buildKd(coords.subarray(0, 2 * n), nodeSize)
    const seen = new Set<number>()
    // The nodes as KDBush splits them: positions left..right, the median between the children.
    const visit = (left: number, right: number, node: number) => {
      seen.add(node)
      let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
      for (let i = left; i <= right; i++) {
        const [x, y] = [kd.coords[2 * i]!, kd.coords[2 * i + 1]!]
        ;[minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)]
      }
      expect(Array.from(boxes.subarray(4 * node, 4 * node + 4))).toEqual([minX, minY, maxX, maxY])
      if (right - left <= nodeSize) return
      const m = (left + right) >> 1
      visit(left, m - 1, 2 * node + 1)
      visit(m + 1, right, 2 * node + 2)
    }
    visit(0, n - 1, 0)
    expect(boxes.length).toBe(4 * (Math.max(...seen) + 1))
    for (let node = 0; node < boxes.length / 4; node++) {
      if (!seen.has(node))
        expect(Array.from(boxes.subarray(4 * node, 4 * node + 4))).toEqual([Infinity, Infinity, -Infinity, -Infinity])
    }
  })
})

describe('buildKdInWorker', () => {
  test('the worker sorts it, the same KDBush as one built here', async () => {
    useWorkerScript(new URL('../../src/engine/worker-thread.ts', import.meta.url).href)
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
      useWorkerScript(script(name))
      const first = await build()
      expect(first.inWorker).toBe(false)
      expectSame(first.kd)
      const later = await build()
      expect(later.inWorker).toBe(false)
      expectSame(later.kd)
    })
  }

  test('a worker answering with node boxes that do not fit its KDBush: that job is built here', async () => {
    useWorkerScript(script('badboxes.ts'))
    const { kd, inWorker } = await build()
    expect(inWorker).toBe(false)
    expectSame(kd)
  })

  test('a worker answering with a buffer KDBush cannot read: that job is built here', async () => {
    useWorkerScript(script('unreadable.ts'))
    const { kd, inWorker } = await build()
    expect(inWorker).toBe(false)
    expectSame(kd)
  })

  test('jobs pending when the worker fails are all answered', async () => {
    useWorkerScript(script('throws.ts'))
    const all = await Promise.all([build(), build(), build()])
    for (const { kd, inWorker } of all) {
      expect(inWorker).toBe(false)
      expectSame(kd)
    }
  })
})
