// The default schedule of the index's background work: a task that throws is logged, not thrown
// in a timer (which would end the server process, and every locator's queries with it).
import { expect, spyOn, test } from 'bun:test'
import { defaultSchedule, stepEnd } from '../../src/engine/locator-index'

test('a background task that throws is logged on stderr as an error line; the tasks after it run', async () => {
  const logged = spyOn(console, 'error').mockImplementation(() => {})
  try {
    const ran: string[] = []
    defaultSchedule(() => {
      ran.push('first')
      throw new Error('a row that cannot be read')
    })
    defaultSchedule(() => ran.push('second'))
    await Bun.sleep(20)
    expect(ran).toEqual(['first', 'second'])
    expect(logged).toHaveBeenCalledTimes(1)
    expect(JSON.parse(logged.mock.calls[0]![0] as string)).toMatchObject({
      level: 'error',
      message: 'a background task failed',
      error: 'a row that cannot be read',
    })
  } finally {
    logged.mockRestore()
  }
})

test('tasks run in turns: in order, a task scheduled during a turn in a later one, and a sliced task stops at its turn’s end', async () => {
  const order: string[] = []
  let turnOfFirst = -1
  let turnOfLater = -1
  let turns = 0
  let ends: number[] = []
  // A timer between turns counts them: a turn is one timer, so this one's callbacks fall between.
  const counter = setInterval(() => turns++, 0)
  try {
    await new Promise<void>((resolve) => {
      defaultSchedule(() => {
        order.push('a')
        turnOfFirst = turns
        ends.push(stepEnd())
        defaultSchedule(() => {
          order.push('later')
          turnOfLater = turns
          resolve()
        })
      })
      defaultSchedule(() => {
        order.push('b')
        ends.push(stepEnd())
      })
    })
  } finally {
    clearInterval(counter)
  }
  expect(order).toEqual(['a', 'b', 'later'])
  expect(turnOfLater).toBeGreaterThan(turnOfFirst)
  // a and b ran in one turn (a short one): both stop at its end, within TURN_MS of its start.
  expect(ends[0]).toBe(ends[1])
  ends = []
  // Outside a turn (a test's own schedule), a sliced task gets STEP_MS from now.
  const before = performance.now()
  const end = stepEnd()
  expect(end - before).toBeGreaterThan(0)
})
