// A location's opening hours as its index takes them (OpeningHours): its week of hours read from
// text, its dated exceptions, their texts, and the clock of its time zone. Locations of a chain
// share their hours' text, so each text is read once and each (hours, zone) made once, and shared.
import { type DayHours, parseDayHours } from '../core/hours'
import type { Schedule } from '../core/opening'
import { zoneOf } from '../core/zone'
import { ZoneClock } from '../core/zone-clock'
import type { OpeningHours } from '../engine/locator-index'
import { DAYS, type LocationRecord } from '../store/locations'

/** The most of each kind kept: past it, one is cleared and made again as needed. */
const KEEP = 20_000

const read = new Map<string, DayHours>()
const made = new Map<string, OpeningHours>()
const clocks = new Map<string, ZoneClock>()

function dayHours(text: string): DayHours {
  let hours = read.get(text)
  if (hours === undefined) {
    if (read.size >= KEEP) read.clear()
    hours = parseDayHours(text)
    read.set(text, hours)
  }
  return hours
}

/** The clock of a zone, one per zone in the process. */
export function zoneClock(zone: string): ZoneClock {
  let clock = clocks.get(zone)
  if (clock === undefined) {
    clock = new ZoneClock(zone)
    clocks.set(zone, clock)
  }
  return clock
}

/** A location's hours for its index; null when it has no hours text at all (never open nor closed). */
export function openingHoursOf(
  r: Pick<LocationRecord, 'hours' | 'specialHours' | 'timezone' | 'lat' | 'lng'>,
): OpeningHours | null {
  const texts = DAYS.map((d) => r.hours[d] ?? '')
  const dates = Object.keys(r.specialHours)
  if (dates.length === 0 && texts.every((t) => t === '')) return null
  const zone = zoneOf(r)
  let key = `${zone}\n${texts.join('\n')}`
  for (const date of dates) key += `\n${date}=${r.specialHours[date]}`
  let hours = made.get(key)
  if (hours === undefined) {
    if (made.size >= KEEP) made.clear()
    const schedule: Schedule = {
      week: texts.map(dayHours),
      special: new Map(dates.map((date) => [date, dayHours(r.specialHours[date]!)])),
    }
    const special = new Map(dates.map((date) => [date, r.specialHours[date]!]))
    hours = { schedule, texts: { week: texts, special }, clock: zoneClock(zone) }
    made.set(key, hours)
  }
  return hours
}
