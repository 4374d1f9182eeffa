// parseDayHours', eitherHalf's and clockText's answers kept for the week reader (week-give.ts,
// week-again.ts), which asks them of a week's few day texts ("9-18", "10-13") again for each day a
// spec names.
// Apart from hours.ts, which widget.js bundles: the browser has no use for them.
import { clockText, type DayHours, eitherHalf, parseDayHours } from './hours'
import { KeptAnswers } from './kept-answers'

/** A day's hours text is short: a longer one is a week's, seldom read twice. */
const READS = new KeptAnswers<DayHours>(4096, 120)
const EITHER = new KeptAnswers<string[] | null>(4096, 120)
const CLOCKS = new KeptAnswers<string | null>(4096, 120)

/** parseDayHours(text), one object for a text asked again: no caller changes it. */
export const dayRead = (text: string | null | undefined): DayHours => READS.of(text ?? '', parseDayHours)

/** eitherHalf(text), one array for a text asked again: no caller changes it. */
export const eitherRead = (text: string): string[] | null => EITHER.of(text, eitherHalf)

/** A day's text as HH:MM-HH:MM when it reads open, else null: kept, as a spec's days each ask it. */
export const clockRead = (text: string): string | null =>
  CLOCKS.of(text, () => {
    const read = dayRead(text)
    return read.kind === 'open' ? clockText(read.intervals) : null
  })
