// The default schedule of the index's background work: a task that throws is logged, not thrown
// in a timer (which would end the server process, and every locator's queries with it).
import { expect, spyOn, test } from 'bun:test'
import { defaultSchedule } from '../../src/engine/locator-index'

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
