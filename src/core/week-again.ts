// A day a week of hours names again after some days ("Mo-Fr 8-12, Mo/Di 14-17", "Mo-Fr 9-12.30 u.
// 14-18, Mi nachmittag geschlossen"), for week-hours.ts: its hours then, or why they are in doubt.
import { DAYS_IN_ENGLISH, daysAsIn } from './day-names'
import { clockText, eitherHalf, eitherText, foldHours, halfClosed, isTimeOfDay, normalHours } from './hours'
import { dayRead, eitherRead } from './day-read'
import { isClosed, MIDDAY, say } from './week-words'

/**
 * A day's hours when it is named again after some days (after every day's, splitWith takes the
 * new ones): its first hours and the new ones, when the two are apart ("Mo-Fr 8-12, Mo/Di
 * 14-17": Monday 8-12 and 14-17), the earlier first; else the new ones ("Mo-Sa 9-18, Sa 9-13":
 * Saturday 9-13). Null when the new ones read otherwise beside the first ("Mo-Fr 9-12, Mo 7-8":
 * 7-8 after 9-12 is the evening's, alone the morning's), or are in doubt alone ("Mo 5-7"): which
 * is meant is not guessed.
 */
export function again(first: string, next: string): string | null {
  const a = first === '' ? null : dayRead(first)
  const half = halfClosed(next)
  if (half !== null && a?.kind === 'open') return otherHalf(a.intervals, half) ?? atNoon(a.intervals, half) ?? next
  const b = dayRead(next)
  if (a?.kind === 'open' && eitherRead(next) !== null) return null // "Mo-Fr 8-12, Mo 5-7"
  if (a?.kind !== 'open' || b.kind !== 'open') return next
  const overlap = a.intervals.some(([s, e]) => b.intervals.some(([s2, e2]) => s < e2 && s2 < e))
  if (overlap) return next
  const written = `${first}, ${next}`
  // "nachmittags 15-18" after "9-12": hours that say their half of the day read alone, not joined.
  if (dayRead(written).kind === 'unknown')
    return clockText([...a.intervals, ...b.intervals].sort((x, y) => x[0] - y[0]))
  const both = b.intervals[0]![0] < a.intervals[0]![0] ? `${next}, ${first}` : written
  const union = JSON.stringify(dayRead(`${clockText(a.intervals)}, ${clockText(b.intervals)}`))
  const same = (text: string) => JSON.stringify(dayRead(text)) === union
  return same(written) && same(both) ? both : null
}

/**
 * A day's hours less its half closed ("Mi nachmittag geschlossen"), as HH:MM-HH:MM, when they
 * break at noon: each ends by 14:00 or starts from 12:00, and some do each. Else null: "9-18"
 * less its afternoon closes when?
 */
function otherHalf(intervals: [number, number][], closed: 'morning' | 'afternoon'): string | null {
  const morning = intervals.filter(([from, to]) => from < 720 && to <= 840)
  const afternoon = intervals.filter(([from]) => from >= 720)
  if (morning.length === 0 || afternoon.length === 0 || morning.length + afternoon.length !== intervals.length)
    return null
  return clockText(closed === 'morning' ? afternoon : morning)
}

/**
 * A day's hours less its half closed when some run through noon, as HH:MM-HH:MM: it closes or
 * opens at noon ("8-18" less its afternoon: 08:00-12:00; "7-10, 11-19": 07:00-10:00,
 * 11:00-12:00; less its morning: 12:00-18:00, 12:00-19:00). Else null.
 */
function atNoon(intervals: [number, number][], closed: 'morning' | 'afternoon'): string | null {
  if (!intervals.some(([from, to]) => from < 720 && to > 720)) return null
  const kept: [number, number][] =
    closed === 'afternoon'
      ? intervals.filter(([from]) => from < 720).map(([from, to]) => [from, Math.min(to, 720)])
      : intervals.filter(([, to]) => to > 720).map(([from, to]) => [Math.max(from, 720), to])
  return clockText(kept)
}

/** Whether a day's text is hours that break at noon (otherHalf reads them), "8-12 14-18". */
function breaksAtNoon(text: string): boolean {
  const day = dayRead(text)
  return day.kind === 'open' && otherHalf(day.intervals, 'afternoon') !== null
}

/** A day's text of German midday closed alone ("mittags geschlossen", "- mittag zu"), and its hours before it ("8-12 14-18, mittags zu"). */
const MIDDAY_AFTER = /^(.*\d.*?)[\s,;]+((?:über\s+)?mittags?\s+\p{L}+)$/iu
const middayClosed = (text: string) => isClosed(MIDDAY.exec(text)?.[1] ?? '')

/**
 * A day's hours closed from noon on, as HH:MM-HH:MM, when they run through noon ("8-18":
 * 08:00-12:00; "7-10, 11-19": 07:00-10:00, 11:00-12:00); else null.
 */
function untilNoon(text: string): string | null {
  const day = dayRead(text)
  return day.kind === 'open' ? atNoon(day.intervals, 'afternoon') : null
}

/**
 * German midday closed after some days' hours, in `hours` (each spec's, its days in `days`).
 * Where they break at noon already, over lunch would say nothing, so it closes their afternoon
 * ("Mo-Fr 8-12 14-18, Mi mittags geschlossen", "Mittwochmittag geschlossen": Wednesday 8-12), and
 * after the same days' own hours it is their lunch break ("Mo-Fr 8-12 14-18, mittags geschlossen":
 * as written). Where they run through noon, a day singled out closes at noon ("Mo-Fr 8-18,
 * Mittwochmittag geschlossen": Wednesday 8-12): a lunch break of one day alone, of no length
 * said, gives no hours. Naming every day of those hours ("Mo-Fr 8-18, mittags geschlossen":
 * over lunch, or from noon on?) it stays, in doubt.
 */
export function middayRead(hours: string[], days: readonly (readonly number[])[]): void {
  for (const [i, h] of hours.entries()) {
    const own = MIDDAY_AFTER.exec(h)
    if (own !== null && middayClosed(own[2]!) && breaksAtNoon(own[1]!)) hours[i] = own[1]!.trim()
    if (!middayClosed(h) || days[i]!.length === 0) continue
    const given = days[i]!.map((d) => hours.findLastIndex((_, k) => k < i && days[k]!.includes(d)))
    if (given.some((k) => k < 0)) continue // a day with no hours before ("Mo-Fr 8-18, Mo-Sa mittags zu")
    const before = given.map((k) => hours[k]!)
    // Naming every day of the hours before it ("Mo-Fr 8-12 14-18, Mo-Fr mittags geschlossen"), it
    // is their lunch break; when those hours differ ("Mo-Mi 8-12 14-18, Do-Fr 8-13 15-19") it stays.
    const theirs = given.every((k) => days[k]!.every((d) => days[i]!.includes(d)))
    const noon = theirs ? [] : before.map(untilNoon)
    if (before.every(breaksAtNoon) && !theirs) hours[i] = 'nachmittags geschlossen'
    else if (before.every(breaksAtNoon) && before.every((b) => b === before[0])) hours[i] = before[0]!
    else if (noon.length > 0 && noon.every((n) => n !== null && n === noon[0])) hours[i] = noon[0]!
  }
}

/** Why a day named again is in doubt (again gives null): its hours' two readings, and how to write one. */
export function doubt(days: string, first: string, next: string): string {
  const b = dayRead(next)
  const intervals = b.kind === 'open' ? b.intervals : []
  const evening = intervals.map(([from, to]): [number, number] => [from + 720, to + 720])
  const readings = eitherHalf(next) ?? [clockText(intervals), clockText(evening)]
  return `"${days} ${next}" beside "${first}" could be ${eitherText(readings)}. Write it with the 24-hour clock or am and pm.`
}

/**
 * Words for a late opening, folded ("late night shopping", "late nights", "langer Donnerstag",
 * Dutch "koopavond", French "nocturne", Italian "apertura serale", Swedish "kvällsöppet", Swiss
 * German "Abendverkauf"): the day closes later than its hours before, so in the evening. Accents
 * as written or folded: LATE_BEFORE reads the text as written.
 */
const LATE_ASIDE_WORDS =
  'late(?:\\s+nights?)?(?:\\s+(?:opening|shopping))?|koopavond|nocturne|apertura\\s+serale|kv[aä]lls[oö]ppet|abendverkauf'
const LATE_WORDS = `${LATE_ASIDE_WORDS}|lange[rn]?`
const LATE = new RegExp(`(?<!\\p{L})(?:${LATE_WORDS})(?!\\p{L})`, 'u')

/**
 * A day's closing alone ("Thu till 8", "Thu late opening till 8pm", "Do bis 20 Uhr", "do
 * koopavond tot 21 uur", "jeudi nocturne jusqu'à 21h", "gio fino alle ore 21", "jue hasta las
 * 21 horas", Danish "tor til kl. 20", Polish "czw do 20"): the words before it, its word, the hour
 * and German "nachts" or "früh" or Dutch "'s nachts" after it ("&" after it joins the next days).
 * Not "till late": no hour.
 */
const TILL = new RegExp(
  `^((?:(?:${LATE_WORDS})\\s+|open(?:s|ing)?\\s+(?:late\\s+)?)?)(till?|until|bis|tot|do|jusqu ?['’]? ?a|fino\\s+alle(?:\\s+ore)?|hasta\\s+las)\\s+(?:kl\\.?\\s*)?(.+?)(?:\\s+(?:uhr|uur|horas))?(?:\\s+(?:['’]?s\\s*)?(nachts|fruh))?(?:\\s*&)?$`,
)

/**
 * A word for a late opening before its days and their closing alone ("langer Donnerstag bis
 * 20", "open late Thursday till 9", "apertura serale giovedì fino alle 22"), the day's article or not.
 */
const LATE_BEFORE = new RegExp(
  `(?<![\\p{L}\\d])((?:open(?:s|ing)?\\s+)?(?:${LATE_WORDS}))\\s+(?:(?:le|el|il|op|on|am)\\s+)?(\\p{L}+\\.?(?:\\s*(?:&|,|\\+|and|und|et|en)\\s*\\p{L}+\\.?)*)(?=\\s+(?:till?|until|bis|tot|fino\\s+alle|hasta\\s+las)(?!\\p{L})|\\s+jusqu)`,
  'giu',
)

/**
 * A week's text with each word for a late opening after its days, as a closing alone reads it
 * ("Donnerstag langer bis 20"); asWritten: a text quoting it with those words as the week has them.
 */
export function lateAfterDays(
  text: string,
  isDay: (word: string) => boolean,
): { text: string; asWritten: (quoting: string) => string } {
  const moved: [string, string][] = []
  const after = text.replace(LATE_BEFORE, (words, late: string, day: string) => {
    if (!isDay(day)) return words
    moved.push([`${day} ${late}`, words])
    return `${day} ${late}`
  })
  const asWritten = (quoting: string) => moved.reduce((out, [as, written]) => out.replaceAll(as, written), quoting)
  return { text: after, asWritten }
}

/**
 * A word for a late opening beside a day's hours whole, right after them or before them and their
 * day ("Thu 9-8 (late night)", "Late night Thursday 9am-8pm", "ven apertura serale 9-22"), not
 * before a closing alone: it says no more than they do. Not "langer Samstag", one Saturday a month,
 * nor before days not named alone ("late night Fri-Sat 10pm-4am": more hours, or other?).
 */
const ASIDE_WORD = `(?:\\(\\s*(?:${LATE_ASIDE_WORDS})\\s*\\)|(?<![\\p{L}\\d])(?:${LATE_ASIDE_WORDS})(?!\\p{L})(?!\\s+(?:nights?|opening|shopping)(?!\\p{L})))`
const TILL_WORD = '(?:till?|until|bis|tot|fino\\s+alle|hasta\\s+las|jusqu)(?!\\p{L})'
const LATE_ASIDE = new RegExp(
  `(?<=\\d(?:\\s*(?:am|pm|h|uhr|uur))?)\\s*${ASIDE_WORD}(?!\\s*${TILL_WORD})|\\s*${ASIDE_WORD}(?!\\s*${TILL_WORD})(?=\\s+(?:(?:le|el|il|op|on|am)\\s+)?(?:(?!${TILL_WORD}|to\\s)\\p{L}+\\.?\\s+)?\\d)`,
  'giu',
)

/** A late closing without its hour ("till late", "open late", "late night"): no closing to read. */
const LATE_ALONE = new RegExp(
  `^(?:open(?:s|ing)?\\s+)?(?:(?:till?|until)\\s+late|(?:${LATE_WORDS})(?:\\s+open(?:ing)?)?)$`,
  'u',
)

/**
 * Why a day given its hours, then a late closing without its hour ("Mon-Fri 9-5, Thu till
 * late"), is not read: it closes later, but when is not said. Null when `next` is no such text.
 * The example names the days as the cell does (`named`), and closes as the latest of the cell's
 * other days that close later (`others` gives each one's days and hours), when one does; else its
 * closing is left to fill in.
 */
export function lateNoHour(
  days: string,
  first: string,
  next: string,
  day: number,
  named: string,
  others: () => [days: string, hours: string][],
): string | null {
  const read = dayRead(first)
  if (!LATE_ALONE.test(foldHours(next).trim()) || read.kind !== 'open') return null
  const name = DAYS_IN_ENGLISH[day]!
  const last = read.intervals[read.intervals.length - 1]!
  const closing = (hours: string) => {
    const other = dayRead(hours)
    return other.kind === 'open' ? other.intervals[other.intervals.length - 1]![1] : 0
  }
  const later = others().filter(([, hours]) => closing(hours) > last[1])
  const latest = later.reduce<[string, string] | null>((a, b) => (a && closing(a[1]) >= closing(b[1]) ? a : b), null)
  // Midnight as 24:00, as tillDoubt writes it.
  const whole = (to: number) =>
    clockText([...read.intervals.slice(0, -1), [last[0], to]]).replace(/00:00$/, to === 1440 ? '24:00' : '00:00')
  const such =
    latest === null
      ? `"${named} ${whole(last[1]).replace(/\d\d:\d\d$/, 'HH:MM')}", HH:MM the hour it closes`
      : `"${named} ${whole(closing(latest[1]))}" if it closes as "${latest[0]} ${latest[1]}" does`
  return `its "${days}" gives ${name} a late closing without its hour. Write ${name}'s hours whole, such as ${such}.`
}

/**
 * A day's text as open hours and a closing alone after them ("9-17, do 20", "9-5, till 8"), or
 * null when it is no such text.
 */
export function closingAtEnd(day: string): [open: string, closing: string] | null {
  if (dayRead(day).kind !== 'unknown') return null
  // Each word's start, after a separator: the text before it is the open hours, the rest the closing.
  let at = 0
  for (const word of day.split(/(?<=[\s,;])(?=\S)/)) {
    const closing = day.slice(at).trim()
    // The closing first: few of a long text's ends are one, and reading the hours before each is quadratic.
    if (at > 0 && isTill(closing)) {
      const open = day.slice(0, at).replace(/[\s,;]+$/, '')
      if (dayRead(open).kind === 'open') return [open, closing]
    }
    at += word.length
  }
  return null
}

/**
 * Whether a day's hours end in a closing alone that names no day ("pn-pt 9-17, do 20", "Mon-Fri
 * 9-5, till 8"): some day closes then, which is not said, so none is guessed. Says how to write it.
 */
export function closingNoDay(hours: string[], daysAt: (i: number) => string, doubts?: string[]): boolean {
  const i = hours.findIndex((day) => closingAtEnd(day) !== null)
  if (i < 0) return false
  const [open, closing] = closingAtEnd(hours[i]!)!
  const [days, whole] = [daysAt(i), till(open, closing)]
  const all = whole === null ? '' : `, or "${days} ${whole}" if that closing is theirs`
  say(
    doubts,
    `its "${closing}" after "${days} ${open}" names no day that closes then. Write that day's name before it, as "${days}" names days${all}.`,
  )
  return true
}

/** A week's text less its words for a late opening beside hours whole (LATE_ASIDE), after lateAfterDays. */
export const lateAside = (text: string): string => text.replace(LATE_ASIDE, '')

/** A closing alone as tillOf reads it. */
type Till = [words: string, hour: string, clock24: boolean, night: boolean]

/**
 * A closing alone (TILL) folded: the words before it, its hour (French noon and midnight as clock
 * hours), whether its word is of a 24-hour clock ("bis", "tot", "jusqu'à"), whose "12" is noon,
 * and whether German "nachts" or "früh" follows it.
 */
function tillOf(text: string): Till | null {
  const m = TILL.exec(foldHours(text).trim())
  if (m === null) return null
  const hour = m[3] === 'midi' ? '12:00' : m[3] === 'minuit' ? '24:00' : m[3]!
  return [m[1]!, hour, !/^(?:till?|until)$/.test(m[2]!), m[4] !== undefined]
}

/** Whether a day's text is a closing alone (TILL): read against the hours its days had before it (till). */
export const isTill = (text: string): boolean => {
  const m = tillOf(text)
  return m !== null && isTimeOfDay(m[1])
}

/**
 * A day's hours when a closing alone follows them ("Mon-Fri 9-5, Thu till 8"): their last
 * interval's opening to that closing. Null when no hours came before, the closing is past
 * midnight (unless said "nachts" or "früh": nightClosing) or in doubt, or said late it is not later.
 */
export function till(first: string, next: string): string | null {
  const read = tillRead(first, next)
  if (read === null) return null
  const night = nightClosing(read.hours, read.till)
  if (night !== null) return night
  const { intervals, ends, late } = closings(first, read.hours, read.till)
  const last = intervals[intervals.length - 1]!
  const to = ends[0]
  // Past midnight ("18:00-4") is not guessed, nor an earlier closing said late.
  if (to === undefined || to <= last[0] || ends.some((end) => end !== to) || (late && to <= last[1])) return null
  return clockText([...intervals.slice(0, -1), [last[0], to]])
}

/**
 * A closing alone by 06:00 said "nachts" or "früh" ("Sa bis 2 Uhr nachts", Dutch "tot 2 uur 's
 * nachts") after open hours closing later that day: that hour past midnight, whatever language
 * names the days ("Sat bis 2 nachts"): the words say it. Null for others.
 */
function nightClosing(intervals: [number, number][], m: Till): string | null {
  if (!m[3] || m[0] !== '') return null
  const at = hourOfClosing(m[1])
  const last = intervals[intervals.length - 1]!
  if (at === null || at === 0 || at > 360 || last[1] >= 1440) return null
  return clockText([...intervals.slice(0, -1), [last[0], at + 1440]])
}

/** A closing alone's day's open hours before it (`first`) and its reading (tillOf), each read once; null for none. */
function tillRead(first: string, next: string): { hours: [number, number][]; till: Till } | null {
  const m = tillOf(next)
  const a = m === null || first === '' ? null : dayRead(first)
  return a?.kind === 'open' ? { hours: a.intervals, till: m! } : null
}

/** A closing's hour as read from midnight ("8" is 08:00, "8pm" 20:00); null when it reads no one closing. */
function hourOfClosing(hour: string): number | null {
  const read = dayRead(`00:00-${hour}`)
  return read.kind === 'open' && read.intervals.length === 1 ? read.intervals[0]![1] : null
}

/**
 * A closing alone's hours before it (`first`, read as `intervals`) and the closings it could be
 * (`m`), earlier first, after the day's first opening.
 */
function closings(
  first: string,
  intervals: [number, number][],
  m: Till,
): { intervals: [number, number][]; ends: number[]; late: boolean } {
  // A bare hour is the closing after the opening of its two halves of the day: "till 8" after
  // 09:00 is 20:00, after 07:00 in doubt (08:00 or 20:00?), "till 12" noon or midnight; one after
  // midnight is no closing.
  const at = hourOfClosing(m[1]!)
  // A 24-hour clock's closing is its hour as written ("Mo-Fr 13-18, Mi bis 11": none), unless the
  // hours before it use am and pm, or a 12-hour clock ("9-6": no hour past 12 written, yet open
  // after 13:00; "1800" is 18). Its "12" stays noon ("9-6, Mi bis 12"; "1pm-6pm, Mi bis 12": none),
  // but after an opening before noon in am and pm, which write noon "12pm" as they write midnight
  // "12am", it is either, as "till 12" is ("10 a.m.-6 p.m., Mié hasta las 12" or "12:00": refused).
  const hours = foldHours(first)
    .replace(/[:.hu]\d{2}/g, '')
    .replace(/(?<!\d)(\d{1,2})\d{2}(?!\d)/g, '$1')
  const twelve = !/(?:^|\D)(?:1[3-9]|2\d)(?!\d)/.test(hours) && intervals.some(([, end]) => end > 780)
  const meridiem = /\d[ap]m\b/.test(normalHours(first))
  const clock24 = m[2] && !meridiem && !twelve
  const noonOrMidnight = /^12(?:[:.]00)?$/.test(m[1]) && (!m[2] || (meridiem && intervals[0]![0] < 720))
  const bare = /^[1-9]\d?(?:[:.]\d{2})?$/.test(m[1]) && at !== null && !clock24 && (at < 720 || noonOrMidnight)
  // Either half after the day's first opening is in doubt: "9-12, 14-18, Thu till 11" could close the morning.
  const ends = (at === null ? [] : bare ? [at, at + 720] : [at]).filter((end) => end > intervals[0]![0] && end <= 1440)
  const last = intervals[intervals.length - 1]!
  const late = LATE.test(m[0])
  // Said late, it closes after the day's hours before ("late opening till 10" after 9-5: 22:00).
  // Else a morning closing within an hour of the last opening ("7-3, Thu till 8": 07:00-08:00)
  // leaves no day: an early closing keeps its morning, so the evening's is meant. Past midnight
  // the evening's is not guessed ("12-8, Thu till 1": 13:00 or 01:00?), so neither is read.
  const short = (end: number) => end > last[0] && end <= last[0] + 60
  // A 24-hour clock's closing within an hour of the last opening ("9-18, Do bis 10") leaves no day
  // as written, and its evening is not said: either is in doubt.
  const left = late
    ? ends.filter((end) => end > last[1])
    : clock24 && ends.length === 1 && short(ends[0]!) && ends[0]! + 720 <= 1440
      ? [ends[0]!, ends[0]! + 720]
      : ends.length === 2 && short(ends[0]!)
        ? ends.slice(1)
        : bare && ends.length === 1 && ends[0] !== at && intervals.length === 1 && short(ends[0]!)
          ? []
          : ends
  return { intervals, ends: left, late }
}

/**
 * Why a closing alone is not read beside its day's hours (till gives null): the two closings it
 * could be, and the day's hours whole with the later; else that it is not read.
 */
function tillDoubt(days: string, first: string, next: string): string {
  // The day as the cell names it: an English name beside others ("Lun-Vie ..., Wed ...") is refused.
  const name = days.replace(/[\s:]+$/, '')
  const both = tillRead(first, next)
  const read = both === null ? null : closings(first, both.hours, both.till)
  const [early, later] = read?.ends ?? []
  if (read === null || early === undefined || later === undefined) return tillRefused(days, first, next, name)
  const last = read.intervals[read.intervals.length - 1]!
  // Before the last opening it closes an earlier part of the day ("9-12, 14-18, Thu till 11").
  const earlyText =
    early <= last[0] ? "the morning's closing" : early === 720 ? 'noon' : clockText([[0, early]]).slice(6)
  const laterText = later === 1440 ? 'midnight' : clockText([[0, later]]).slice(6)
  // Midnight as 24:00: "09:00-00:00" reads so too, but is less plain.
  const whole = clockText([...read.intervals.slice(0, -1), [last[0], later]])
  const wholeText = later === 1440 ? whole.replace(/00:00$/, '24:00') : whole
  return `its "${days} ${next}" could be ${earlyText} or ${laterText} beside that day's hours before it ("${first}"). Write the day's hours whole, such as "${name} ${wholeText}".`
}

/**
 * Why a closing alone is not read at all: a 24-hour clock's hour at or before the last opening
 * says so; the example keeps the day's hours before, their closing to fill in ("Wed 13:00-HH:MM").
 */
function tillRefused(days: string, first: string, next: string, name: string): string {
  const said = `its "${days} ${next}"`
  const hours = first === '' ? null : dayRead(first)
  if (hours?.kind !== 'open')
    return `${said} gives a closing alone. Write the day's hours whole, such as "${name} 09:00-20:00".`
  const m = tillOf(next)
  const at = m === null ? null : hourOfClosing(m[1]!)
  const [lastOpening, lastClosing] = hours.intervals[hours.intervals.length - 1]!
  const clock = at === null ? '' : clockText([[0, at]]).slice(6)
  // By 06:00 and within 8 hours of the day's last closing it is most likely past midnight ("16-21,
  // Fr bis 2"), which is not read; further on ("9-18, Do bis 6") it is before the opening.
  const early = m?.[2] && at !== null && at <= 360
  const night = early && at + 1440 - lastClosing <= 480
  // Such a bare hour after a shop's day, closed by 21:00, that could close its afternoon after the
  // last opening ("9-18, Do bis 2": 14:00), or after its closing ("8-12, Do bis 2"), is that as
  // likely as past midnight: neither is guessed. After a night's closing ("11-23, Fr bis 2") it is
  // past midnight.
  const afternoon = early && (night || at + 720 > lastClosing)
  if (afternoon && lastClosing <= 1260 && at + 720 > lastOpening && /^[1-9](?:[:.]\d\d)?$/.test(m[1])) {
    const whole = (end: number) => `"${name} ${clockText([...hours.intervals.slice(0, -1), [lastOpening, end]])}"`
    const afternoon = clockText([[0, at + 720]]).slice(6)
    return `${said} could be ${afternoon} or ${clock}, past midnight, beside that day's hours before it ("${first}"). Write the day's hours whole, such as ${whole(at + 720)} or ${whole(at + 1440)}.`
  }
  const why =
    !m?.[2] || at === null || at > lastOpening
      ? `gives a closing alone, not read beside that day's hours before it ("${first}")`
      : night
        ? `closes at ${clock}, past midnight, which is not read beside that day's hours before it ("${first}")`
        : `closes at ${clock}, not after the last opening of that day's hours before it ("${first}")`
  const such = clockText(hours.intervals).replace(/\d\d:\d\d$/, 'HH:MM')
  return `${said} ${why}. Write the day's hours whole, such as "${name} ${such}", HH:MM the hour it closes.`
}

/**
 * Whether a closing alone is a German "langer Samstag" (Saturday said "lange[rn]"): in German
 * shop texts that was one Saturday a month, so beside Saturday's hours it is not read weekly.
 */
const monthlySaturday = (d: number, next: string) => d === 5 && /^lange[rn]?\s/.test(tillOf(next)?.[0] ?? '')

/** Why a "langer Samstag" is not read (monthlySaturday): the two readings, and how to write each. */
function saturdayDoubt(days: string, first: string, next: string): string {
  const whole = till(first, next) ?? '09:00-20:00'
  return `its "${days} ${next}" could be one Saturday a month, as a German "langer Samstag" long was, or every Saturday, beside Saturday's hours before it ("${first}"). Write that Saturday as a special date (special_hours), or Saturday's hours whole, such as "${daysAsIn(`${days} ${first}`, 'Sat')} ${whole}".`
}

/** `week[d]` with the closing alone `next` (till) after its hours; false, saying why, when not read. */
export function closeAt(week: string[], d: number, days: string, next: string, doubts?: string[]): boolean {
  if (monthlySaturday(d, next)) {
    say(doubts, saturdayDoubt(days, week[d]!, next))
    return false
  }
  const hours = till(week[d]!, next)
  if (hours !== null) week[d] = hours
  else say(doubts, tillDoubt(days, week[d]!, next))
  return hours !== null
}
