// parseDayHours' and eitherHalf's answers kept for the week reader (week-give.ts, week-again.ts),
// which asks them of a week's few day texts ("9-18", "10-13") again for each day a spec names.
// Apart from hours.ts, which widget.js bundles: the browser has no use for them.
import { type DayHours, eitherHalf, parseDayHours } from './hours'
import { KeptAnswers } from './kept-answers'

/** A day's hours text is short: a longer one is a week's, seldom read twice. */
const READS = new KeptAnswers<DayHours>(4096, 120)
const EITHER = new KeptAnswers<string[] | null>(4096, 120)

/** parseDayHours(text), one object for a text asked again: no caller changes it. */
export const dayRead = (text: string | null | undefined): DayHours => READS.of(text ?? '', parseDayHours)

/** eitherHalf(text), one array for a text asked again: no caller changes it. */
export const eitherRead = (text: string): string[] | null => EITHER.of(text, eitherHalf)
