// The check of a table of week cells: each read into its days' hours, or refused with a message
// that quotes the cell, never read otherwise.
import { expect, test } from 'bun:test'
import { clockText, parseDayHours } from '../src/core/hours'
import { splitWeekHours } from '../src/core/week-hours'
import { weekInto } from '../src/locations/csv-week'

/**
 * A cell and its week: "1-5 09:00-18:00; 6 10:00-14:00; 7 closed" (Monday = 1, days not named
 * left out, "?" for a day's text kept unread, as "by appointment"), or null: refused, with a message.
 */
export type WeekCells = [string, string | null][]

/** A day's text as compared: its hours as HH:MM-HH:MM, "closed", "?" unread, '' not named. */
function read(text: string): string {
  if (text === '' || text === '?') return text
  const day = parseDayHours(text)
  return day.kind === 'open' ? clockText(day.intervals) : day.kind === 'closed' ? 'closed' : '?'
}

function expected(week: string): string[] {
  const days = ['', '', '', '', '', '', '']
  for (const part of week.split('; ')) {
    const [named, hours] = [part.slice(0, part.indexOf(' ')), part.slice(part.indexOf(' ') + 1)]
    for (const span of named.split(',')) {
      const [from, to = from] = span.split('-').map(Number)
      for (let d = from!; d <= to!; d++) days[d - 1] = read(hours)
    }
  }
  return days
}

/** A test of each cell of the table, named by the cell. */
export function testCells(cells: WeekCells): void {
  for (const [cell, week] of cells)
    test(JSON.stringify(cell), () => {
      const problems = weekInto({}, cell)
      if (week === null) {
        expect(problems).toHaveLength(1)
        expect(problems[0]!.message).toStartWith(JSON.stringify(cell))
        return
      }
      expect(problems).toEqual([])
      expect(splitWeekHours(cell, true)?.map(read)).toEqual(expected(week))
    })
}
