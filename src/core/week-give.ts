// Each day's hours from the days a week of hours names and the hours after each, for
// week-hours.ts: days named again (a span's exception, a closing alone, hours in doubt), days of a
// word for some days ("Weekends"), a day given its hours twice in doubt.
import { type Grammar, isHoliday } from './day-names'
import { clockRead, dayRead, eitherRead } from './day-read'
import { clockText, type DayHours, halfClosed } from './hours'
import { again, closeAt, doubt, isTill, lateNoHour } from './week-again'
import { daysOf, isGroup, type Spec } from './week-days'
import {
  clashDoubt,
  clockBackDoubt,
  coverDoubt,
  groupDays,
  lostDoubt,
  say,
  twelveHourShown,
  twentyFourShown,
} from './week-words'

/** A week's days as found: its text's days, how they read, each one's hours after it, and it as written. */
export type Found = {
  specs: Spec[]
  read: ReadonlyMap<string, number> | null
  g: Grammar
  hours: string[]
  daysAt: (i: number) => string
  /** Specs whose hours were read from their days' hours before (middayRead): meant to replace them. */
  derived: boolean[]
}

/** What giving days their hours keeps: how each day was named, and by which spec (markNamed). */
type Given = {
  week: string[]
  /** Days whose hours came from every day's ("Daily 7-11, Sun 12-4"): a day named after them has its own. */
  general: Set<number>
  /**
   * How each day was last named: alone ("Sat 10-2") or in a span ("Mon-Sat 9-5"). A word for days
   * after it leaves a day named alone its hours, as a day named after one has its own ("Daily
   * 9-5, Sun 10-4"); after a span ("Mon-Sat 9-5, Weekends closed": Saturday?) it is not guessed.
   */
  named: Map<number, 'alone' | 'span'>
  /** The spec that last named each day alone, while no span has named it since. */
  aloneAt: Map<number, number>
  /** The spec that last named each day. */
  lastAt: Map<number, number>
  /** The spec that last gave each day its hours: named, or in a word for days ("Weekdays"). */
  givenAt: Map<number, number>
  /** Each day's open hours as each spec gave them (HH:MM-HH:MM): two or more when joined (again). */
  parts: Map<number, string[]>
}

/**
 * Each day's hours, Monday first ('' for a day not named), from the days found and their hours;
 * null, saying why when it can, when a day's are in doubt or not read. `skip`: specs of holidays,
 * which give no day hours; `blank`: specs left empty ("Sat:"), whose days keep their name as
 * written, unread; `clock`: bare hours in doubt are the 24-hour clock's (clock24).
 */
export function giveDays(
  found: Found,
  skip: (i: number) => boolean,
  blank: boolean[],
  clock: boolean,
  keepUnread: boolean,
  doubts?: string[],
): string[] | null {
  const { specs, read, g, hours, daysAt } = found
  const given: Given = {
    week: ['', '', '', '', '', '', ''],
    general: new Set(),
    named: new Map(),
    aloneAt: new Map(),
    lastAt: new Map(),
    givenAt: new Map(),
    parts: new Map(),
  }
  const { week } = given
  let twelve: boolean | undefined
  for (let i = 0; i < specs.length; i++) {
    const all = skip(i) ? [] : daysOf(specs[i]![0], read, g)
    if (all.length === 0) continue // public holidays
    // Kept as written, unread, as a day's words are: '' would be a day not named, closed beside others.
    for (const d of blank[i] ? all : []) week[d] = daysAt(i)
    if (blank[i]) continue
    const day = /^off$/i.test(hours[i]!) ? 'closed' : hours[i]!
    const group = isGroup(specs[i]![0]) && halfClosed(day) === null
    // "Mo-Sa 5-11:30": hours in doubt as a day's first are the 24-hour clock's, written so to read
    // alone. Beside a day's first ones ("Mo-Fr 8-12, Mo/Di 2-5") they stay in doubt (again).
    const first = clock ? (eitherRead(day)?.[0] ?? day) : day
    const cellDays = (): [string, string] => [found.specs.map((_, k) => found.daysAt(k)).join(' '), hours.join(' ')]
    const same = (d: number) => sameHours(week[d]!, first)
    // A span's day the word gives other hours: the span's hours, or the word's?
    const spanDoubt = (d: number) =>
      coverDoubt(shownAt(found, given.givenAt.get(d)!), shownAt(found, i), d, week[d]!, first)
    const days = group ? groupDays(all, given.named, same, spanDoubt, () => shownAt(found, i), cellDays, doubts) : all
    if (days === null) return null
    if (!group && clashed(found, given, i, day, days, skip, doubts)) return null
    if (covered(found, given, i, first, group ? days : undefined, all, doubts)) return null
    if (!group) markNamed(found, i, given)
    for (const d of group ? days : []) given.givenAt.set(d, i)
    // "Mo-Sa 11-2": 11:00-14:00 as "Sat 10-2" reads, or 11:00-02:00 as the 24-hour clock writes it?
    // Beside days on the 12-hour clock alone ("Mo-Fr 9-6, Sa 10-2") it is that clock's afternoon.
    // The week's clock is read once, and only for a day in doubt: it reads every spec's hours.
    const inDoubt = clock ? clockBackDoubt(shownAt(found, i), day) : null
    const back = inDoubt !== null && !(twelve ??= twelveHour(hours)) ? inDoubt : null
    if (back !== null) say(doubts, back)
    if (back !== null) return null
    // A half of the day closed is read beside the day's hours before (again).
    const unread = notRead(first, day, week, days)
    if (unread && (!keepUnread || day === '')) return null
    if (!giveEach(given, daysAt(i), all, days, day, first, keepUnread, doubts)) return null
  }
  return week
}

/** Whether a week's hours show the 12-hour clock, and none the 24-hour clock ("Mo-Fr 8-12 14-18, Mo-Fr 9-6"). */
const twelveHour = (hours: string[]) => hours.some(twelveHourShown) && !hours.some(twentyFourShown)

/** Spec `i` as the text has it, its days and their hours. */
const shownAt = ({ daysAt, hours }: Found, i: number) => `${daysAt(i)} ${hours[i]}`.trim()

/**
 * Whether spec `i` gives one of its days hours in doubt beside those it was given before, saying
 * why: "zo 12-17, zon- en feestdagen gesloten", a day given its own hours, then closed (or open
 * after closed), as a day named with hours (not every day's) then a text not read ("Mo-Sa 9-18,
 * Sa im August geschlossen"). A span's day named again otherwise ("Mo-Sa 9-18, Mi geschlossen")
 * is its exception. `skip`: specs of holidays (giveDays).
 */
function clashed(
  found: Found,
  given: Given,
  i: number,
  day: string,
  days: number[],
  skip: (i: number) => boolean,
  doubts?: string[],
): boolean {
  const { specs, read, g, hours, daysAt } = found
  const { week, aloneAt, lastAt } = given
  const isGiven = (d: number) => aloneAt.has(d) || (lastAt.has(d) && lost(week[d]!, day))
  const clash = days.find((d) => isGiven(d) && clashes(week[d]!, day))
  if (clash === undefined) return false
  const j = aloneAt.get(clash) ?? lastAt.get(clash)!
  const holidays = namesHolidays(specs[j]![0], g) || namesHolidays(specs[i]![0], g)
  const open = dayRead(day).kind === 'open' ? day : week[clash]!
  const said = lost(week[clash]!, day) ? lostDoubt : clashDoubt
  const shown = shownAt(found, i)
  // The cell's other days and their hours, for a late closing's example: not holidays'.
  const others = () =>
    specs.flatMap((spec, k): [string, string][] =>
      skip(k) || daysOf(spec[0], read, g).length === 0 ? [] : [[daysAt(k), hours[k]!]],
    )
  const late = lateNoHour(shown, week[clash]!, day, clash, daysAt(i), others)
  say(doubts, late ?? said(shownAt(found, j), shown, clash, open, holidays))
  return true
}

/**
 * Gives `days` (of `all` that spec names, as written `named`) the spec's hours `day` (`first` as
 * read first): a closing alone against their hours before (closeAt), hours beside a day's before
 * (again), or its own. False, saying why when it can, when a day's are in doubt or not read.
 */
function giveEach(
  given: Given,
  named: string,
  all: number[],
  days: number[],
  day: string,
  first: string,
  keepUnread: boolean,
  doubts?: string[],
): boolean {
  const { week, general } = given
  const every = new Set(all).size === 7
  // Asked once a spec, not once a day: its days' hours text is the same.
  const [till, half] = [isTill(day), halfClosed(day)]
  // A spec's days most often had the same hours before: each such pair is read once.
  const besides = new Map<string, string | null>()
  const beside = (before: string) => {
    if (!besides.has(before)) besides.set(before, again(before, day))
    return besides.get(before)!
  }
  for (const d of days) {
    const own = general.has(d) && !every && half === null
    // A closing alone ("Thu till 8") is read against the day's hours before (closeAt); the
    // hours it closes later are no longer those its specs gave.
    if (till && dayRead(week[d]).kind === 'open') {
      if (!closeAt(week, d, named, day, doubts)) return false
      given.parts.delete(d)
      continue
    }
    // Hours a spec gave a day joined from two ("Mo-Fr 8-12, Mo-Fr 14-18, Mo 14-18") keep it whole.
    if (repeats(given, d, first)) continue
    const whole = own || dayRead(week[d]).kind !== 'open'
    const hours = whole ? first : beside(week[d]!)
    if (hours === null) {
      doubts?.push(doubt(named, week[d]!, day))
      return false
    }
    if (!keepUnread && dayRead(hours).kind === 'unknown') return false // "Mi nachmittag geschlossen" alone
    week[d] = hours
    const joined = !whole && hours !== day && half === null
    const part = clockRead(joined ? day : hours)
    const kept = joined ? (given.parts.get(d) ?? []) : []
    given.parts.set(d, part === null ? kept : [...kept, part])
    if (every) general.add(d)
    else general.delete(d)
  }
  return true
}

/** Whether day `d`'s hours were joined from two or more specs' (giveEach's parts). */
const joined = ({ parts }: Given, d: number) => (parts.get(d)?.length ?? 0) >= 2

/**
 * A day's hours `first`, of two or more parts (8-12, 14-18), with open hours `next` in place of
 * those they overlap, when they overlap some, not all, and are none of them: null otherwise.
 */
function partlyReplaced(first: string, next: DayHours): string | null {
  const a = dayRead(first)
  if (a.kind !== 'open' || next.kind !== 'open' || a.intervals.length < 2) return null
  const kept = a.intervals.filter(([s, e]) => !overlaps([[s, e]], next.intervals))
  if (kept.length === 0 || kept.length === a.intervals.length || partOf(first, next)) return null
  return clockText([...kept, ...next.intervals].sort((x, y) => x[0] - y[0]))
}

/** Whether two days' texts read as the same hours, open or closed ("9-17", "09:00-17:00"). */
function sameHours(first: string, next: string): boolean {
  const [a, b] = [dayRead(first).kind, dayRead(next).kind]
  return a === b && (a === 'closed' || (a === 'open' && clockRead(first) === clockRead(next)))
}

/** Whether open hours `next` are some, not all, of a day's hours `first`. */
function partOf(first: string, next: DayHours): boolean {
  const a = dayRead(first)
  if (a.kind !== 'open' || next.kind !== 'open' || next.intervals.length >= a.intervals.length) return false
  return next.intervals.every(([s, e]) => a.intervals.some(([s2, e2]) => s === s2 && e === e2))
}

/** Whether any of two days' open hours overlap. */
const overlaps = (a: [number, number][], b: [number, number][]) =>
  a.some(([s, e]) => b.some(([s2, e2]) => s < e2 && s2 < e))

/** Whether `first` are hours a spec gave day `d` already, of hours joined from two or more specs. */
function repeats({ parts }: Given, d: number, first: string): boolean {
  const given = parts.get(d) ?? []
  if (given.length < 2) return false
  const part = clockRead(first)
  return part !== null && given.includes(part)
}

/** Whether a day's text is a closing alone after open hours (closeAt); with none before it, it is kept unread. */
const tillAfterHours = (day: string, before: string) => isTill(day) && dayRead(before).kind === 'open'

/** Whether a day's text (`first` as read first) gives no hours to its `days` of `week` as read so far. */
const notRead = (first: string, day: string, week: string[], days: number[]) =>
  dayRead(first).kind === 'unknown' && halfClosed(day) === null && !days.some((d) => tillAfterHours(day, week[d]!))

/** How spec `i` names each of its days (named), which it names alone (aloneAt: `i`), and that it names them (lastAt). */
function markNamed({ specs, read, g }: Found, i: number, { named, aloneAt, lastAt, givenAt }: Given): void {
  for (const part of specs[i]![0].matchAll(g.spanParts)) {
    // "So-Feiertag" is Sunday alone, and holidays.
    const alone = part[2] === undefined || isHoliday(part[2])
    for (const d of daysOf(part[0], read, g)) {
      named.set(d, alone ? 'alone' : 'span')
      lastAt.set(d, i)
      givenAt.set(d, i)
      if (alone) aloneAt.set(d, i)
      else aloneAt.delete(d)
    }
  }
}

/** Whether a day's hours and the next it is given are one open, the other closed: not a half closed. */
function opposed(first: string, next: string): boolean {
  const kinds = [dayRead(first).kind, dayRead(next).kind]
  return halfClosed(next) === null && kinds.includes('open') && kinds.includes('closed')
}

/** Whether a day named alone is given hours it had before in doubt (opposed, lost). */
const clashes = (first: string, next: string) => opposed(first, next) || lost(first, next)

/**
 * Whether a day's hours (open or closed) would be lost to a text of it not read ("Sun 12-5, Sun
 * closed in January", "Sa 9-13, Sa nach Vereinbarung"): not a half of the day closed, a closing
 * alone, nor hours in doubt (again's).
 */
function lost(first: string, next: string): boolean {
  if (dayRead(first).kind === 'unknown' || dayRead(next).kind !== 'unknown') return false
  return halfClosed(next) === null && !isTill(next) && eitherRead(next) === null
}

/**
 * Whether spec `i`, a span or a word for days ("Mon-Sun 10-20", "Weekdays": its days `groupDays`),
 * gives a day hours other than those it was given before, saying why: "Mon-Fri 9-5, Mon-Sun
 * 10-20" is Monday 9-5 or 10-20? Not its exception, as a day named alone after a span is ("Mo-Sa
 * 9-18, Mi 10-14"), nor a span naming fewer days than the one that gave the day ("Mo-Sa 9-20,
 * Do-Fr 9-21", "Mon-Sat 9-5, Sat-Sun closed") or after every day's hours ("Daily 10-20, Mon-Fri
 * 9-5"). Hours beside the day's before (again) lose none. A day named alone again with part of
 * the hours it was given alone is in doubt too ("Mo 9-12, 14-18, Mo 9-12": a repeat, or the later
 * hours?), and hours over part of a day joined from two specs ("Mo-Fr 8-12, Mo-Fr 14-18, Mo
 * 14-20": 8-12 kept?) or named alone again ("Mo 9-12, 14-18, Mo 9-13"). `all`: the spec's days.
 */
function covered(
  found: Found,
  given: Given,
  i: number,
  first: string,
  groupDays: number[] | undefined,
  all: number[],
  doubts?: string[],
): boolean {
  const { specs, read, g } = found
  const { week, general, givenAt } = given
  // Days given these very hours again lose none: a long week's repeats ask no more.
  if (found.derived[i] || all.every((d) => !givenAt.has(d) || week[d] === first)) return false
  const b = dayRead(first)
  if (b.kind === 'unknown' || halfClosed(first) !== null) return false
  const every = new Set(all).size === 7
  // The days these hours would replace, read before the days of the spec's spans, whose regex is slow.
  const taken = all.filter(
    (d) => givenAt.has(d) && !(general.has(d) && !every) && !repeats(given, d, first) && replaced(week[d]!, b),
  )
  if (taken.length === 0) return false
  const spanned =
    groupDays ??
    [...specs[i]![0].matchAll(g.spanParts)].flatMap((part) =>
      part[2] === undefined || isHoliday(part[2]) ? [] : daysOf(part[0], read, g),
    )
  // A span naming fewer days than the one that named its days before is the more specific rule,
  // its exception within it ("Mo-Sa 9-20, Do-Fr 9-21") or past it ("Mon-Sat 9-5, Sat-Sun closed");
  // one naming as many or more ("Sat-Sun 10-14, Mon-Sat 9-18") may mean either.
  const narrower = (j: number) => new Set(all).size < new Set(daysOf(specs[j]![0], read, g)).size
  // A day joined from two specs is so only when the hours replace it whole ("Mo-Fr 8-12, Mo-Fr
  // 14-18, Sa-Mo closed"): over part of it, they leave the other in doubt (below).
  const exception = (d: number) =>
    narrower(givenAt.get(d)!) && (!joined(given, d) || partlyReplaced(week[d]!, b) === null)
  // A day named alone again with a part of the hours a spec naming it alone gave it ("Mo 9-12,
  // 14-18, Mo 9-12"): a repeat, or the later hours? Not its exception: it names no fewer days. Of
  // a list ("Mo, Mi, Fr 9-12 14-18, Mo 9-13"), named in fewer days, it is the list's exception.
  const alone = (d: number) =>
    !spanned.includes(d) && given.aloneAt.get(d) === givenAt.get(d) && !narrower(givenAt.get(d)!)
  const partAgain = (d: number) => alone(d) && !joined(given, d) && partOf(week[d]!, b)
  const d = spanned.find((d) => taken.includes(d) && !exception(d)) ?? taken.find(partAgain)
  if (d !== undefined) {
    say(doubts, coverDoubt(shownAt(found, givenAt.get(d)!), shownAt(found, i), d, week[d]!, first))
    return true
  }
  // Hours over part of a day joined from two specs ("Mo-Fr 8-12, Mo-Fr 14-18, Mo 14-20"), or named
  // alone again ("Mo 9-12, 14-18, Mo 9-13"): a longer afternoon, or the afternoon alone, as
  // "Mo-Sa 9-12, Mo-Sa 14-18, Sa 9-13" most often means?
  const partly = taken.find((d) => (joined(given, d) || alone(d)) && partlyReplaced(week[d]!, b) !== null)
  if (partly === undefined) return false
  const both = partlyReplaced(week[partly]!, b)!
  say(doubts, coverDoubt(shownAt(found, givenAt.get(partly)!), shownAt(found, i), partly, both, first))
  return true
}

/** Whether a day's hours before (`first`) are lost to `next` read after them: not the same, nor beside them (again). */
function replaced(first: string, next: DayHours): boolean {
  const a = dayRead(first)
  if (a.kind === 'unknown' || (a.kind === 'closed' && next.kind === 'closed')) return false
  if (a.kind !== 'open' || next.kind !== 'open') return true
  return overlaps(a.intervals, next.intervals) && clockText(a.intervals) !== clockText(next.intervals)
}

/** Whether days name public holidays among them ("zon- en feestdagen", "Sun & PH"). */
const namesHolidays = (spec: string, g: Grammar) =>
  [...spec.matchAll(g.spanParts)].some((part) => isHoliday(part[1]!) || (part[2] !== undefined && isHoliday(part[2])))
