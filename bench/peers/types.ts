// What a peers run measures and returns: each engine's figures per query type, the sanity check of
// their answers, and the options of a run.
import type { Store } from '../../src/store'
import type { SyntheticSet } from '../synthetic'
import type { PeerAnswer } from './query'

export type PeerStat = {
  n: number
  median: number
  p99: number
  max: number
  meanHits: number
  /**
   * Ours on the queries this peer answered (its time budget may stop it short of the N ours
   * answers): what its ratio is taken against, the same query strings on both sides.
   */
  ours?: { n: number; median: number; p99: number }
}

export type PeerResult = {
  engine: string
  version: string
  method: string
  /** Rows loaded, indexes built, statistics gathered (ms). */
  loadMs: number
  /** µs per query, from the query string to the page's rows and the total in hand. meanHits: rows returned (at most the limit). */
  queries: Record<string, PeerStat>
}

export type PeerSkipped = { skipped: string }

/** What the sanity check compares of an answer: its ids in order, and its total. */
export type Compared = { ids: string[]; total: number }
export const compared = (a: PeerAnswer): Compared => ({ ids: a.rows.map((r) => r.id), total: a.total })

export type SanityCheck = {
  /** Queries compared per type (the first timed query strings of each type). */
  perType: number
  /** Engines compared: "ours", "sqlite", "postgis" (those that ran). */
  engines: string[]
  /** Per type: how many of the compared queries gave the same ordered ids and the same total on every engine. */
  identical: Record<string, number>
  /** A few differing answers, for the report. */
  differences: { type: string; qs: string; ids: Record<string, Compared> }[]
}

export type PeersResult = {
  size: number
  seed: number
  run: number
  /** Query type key -> label (bench/scenario.ts). */
  labels: Record<string, string>
  /** Our in-process answer (the route's body path, as bench/query.ts times it); null with ours: false. */
  ours: { queries: Record<string, Omit<PeerStat, 'meanHits'> & { meanTotal: number }> } | null
  sqlite: PeerResult
  postgis: PeerResult | PeerSkipped
  sanity: SanityCheck
  /** 1-minute load average at the start and the end: above ~1 on 2 cores, other processes competed. */
  loadAverage: { start: number; end: number }
  /** The rounds each type's timed queries were cut into, the engines taking turns (measureTogether). */
  rounds: number
}

export type PeersOptions = {
  size: number
  seed: number
  run: number
  /** A short run: at most 200 timed queries and 1 s per type and engine. */
  quick?: boolean
  /** Also time our own answer to the same query strings (default true). */
  ours?: boolean
  /** Use this already seeded locator (and its synthetic set) instead of seeding a new store. */
  from?: { store: Store; locatorId: string; set: SyntheticSet }
  /** Log each peer's query plan for the first timed query of each type. */
  explain?: boolean
  /** Progress lines (default: stderr). */
  log?: (line: string) => void
}
