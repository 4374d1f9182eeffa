// What a run of the HTTP bench records: its --json file, and what the report is written from.
//
// --json <path> writes: { benchmark: "http", date, commit, dirty, machine, versions, options, setup,
// targets, runs: [{ run, paths, meanBodyBytes, repeated: { path, bodyBytes }, scenarios: { <key>:
// WrkResult }, ratios: { varied_vs_bare, repeated_vs_bare, workers<N>_vs_varied } }], writes:
// [{ run, result: WrkResult, created, rowsAdded, inFlightAtStop, landed }], summary: { scenarios:
// { <key>: { label, rps, p50Us, p99Us, bytesPerResponse, serverCpu, clientCpu, otherCpu,
// serverCoreBusy, clientCoreBusy: Spread, faultsPerRequest: Spread | null, errors } }, ratios:
// { <key>: Spread }, writes: { rps, p50Us, p99Us, serverCpu, otherCpu: Spread, allLanded,
// fileRows: { api, file } } } }, where Spread = { median, min, max, runs: number[] } and WrkResult
// is its type in wrk.ts (times in µs, CPU as a fraction of one core over the measured window,
// serverCpuS the server's CPU seconds over it; a scenario measured in slices keeps each slice's
// own WrkResult under `slices`). Scenario keys: bare, bareBlob, copies, answer, varied, repeated,
// workers<N>; ratios add copies_vs_bare, answer_vs_bare, varied_vs_bare_per_cpu and
// repeated_vs_bare_per_cpu (each server's requests ÷ its CPU seconds: what the targets are judged
// on), and the same two against bareBlob (varied_vs_bare_blob_per_cpu, repeated_vs_bare_blob_per_cpu).
import { type Spread, spread } from '../spread'
import type { Provenance } from '../system'
import type { Options } from './options'
import { socketErrors, type WrkResult } from './wrk'

export const TARGETS = { variedVsBare: 0.4, repeatedVsBare: 0.8, createsPerSecond: 500 }

export type RunRecord = {
  run: number
  paths: number
  meanBodyBytes: number
  /** Pieces per body of the copies stand-in: an answer's locations, on average. */
  pieces: number
  repeated: { path: string; bodyBytes: number }
  order: string[]
  scenarios: Record<string, WrkResult>
  ratios: Record<string, number>
}
export type WriteRecord = {
  run: number
  result: WrkResult
  created: number
  rowsAdded: number
  inFlightAtStop: number
  landed: boolean
}
export type ScenarioSummary = {
  label: string
  rps: Spread
  p50Us: Spread
  p99Us: Spread
  bytesPerResponse: Spread
  serverCpu: Spread
  clientCpu: Spread
  otherCpu: Spread
  serverCoreBusy: Spread
  clientCoreBusy: Spread
  /** The server's minor page faults a request (serverMinorFaults ÷ requests); absent or null in records made before they were counted. */
  faultsPerRequest?: Spread | null
  errors: number
}
export type HttpSummary = {
  scenarios: Record<string, ScenarioSummary>
  ratios: Record<string, Spread>
  writes: {
    rps: Spread
    p50Us: Spread
    p99Us: Spread
    serverCpu: Spread
    otherCpu: Spread
    allLanded: boolean
    fileRows: { api: number; file: number } | null
  } | null
}

/** What a run of this bench records (its --json file), and what report() writes the markdown from. */
export type HttpRecord = Provenance & {
  benchmark: 'http'
  versions: { bun: string; wrk: string; sqlite: string }
  options: Options
  setup: {
    serverCpu: string
    clientCpu: string
    wrk: string
    workersUnpinned: number[]
    workersUnsupported: number[]
    tmpFs: string
    synchronous: number | undefined
  }
  targets: typeof TARGETS
  runs: RunRecord[]
  writes: WriteRecord[]
  summary: HttpSummary
}

/** Scenarios of servers without the response cache: a path asked again is answered again. */
export const UNCACHED = new Set(['bare', 'bareBlob', 'copies', 'answer'])

/**
 * Requests a second of the server's own CPU: its rate were its core full (the bare server's often
 * is not, wrk's is). A record made before f9e178d has no serverCpuS: its serverCpu was taken over
 * wrk's whole run, start-up included, which is ~1 s longer for the scenarios whose scripts read
 * 400,000 paths than for the one repeated: their CPU a request, the bare server's among them,
 * was understated by about a tenth, and so the repeated scenario's ratio (report() says so).
 */
export const perCpu = (r: WrkResult) => (r.serverCpuS === undefined ? r.rps / r.serverCpu : r.requests / r.serverCpuS)

/** Whether a record's server CPU was taken over wrk's whole run (before f9e178d): perCpu. */
export const cpuOverWholeRun = (runs: RunRecord[]) =>
  runs.some((r) => Object.values(r.scenarios).some((s) => s.serverCpuS === undefined))

/** Each scenario's and the writes' figures across runs (median and min-max), and the ratios'. */
export function summarize(
  keys: string[],
  labels: Record<string, string>,
  runs: RunRecord[],
  writes: WriteRecord[],
  fileRows: { api: number; file: number } | null,
): HttpSummary {
  return {
    scenarios: Object.fromEntries(
      keys.map((k) => {
        const rs = runs.map((r) => r.scenarios[k]!)
        return [
          k,
          {
            label: labels[k]!,
            rps: spread(rs.map((r) => r.rps)),
            p50Us: spread(rs.map((r) => r.latencyUs.p50)),
            p99Us: spread(rs.map((r) => r.latencyUs.p99)),
            bytesPerResponse: spread(rs.map((r) => r.bytesPerResponse)),
            serverCpu: spread(rs.map((r) => r.serverCpu)),
            clientCpu: spread(rs.map((r) => r.clientCpu)),
            otherCpu: spread(rs.map((r) => r.otherCpu)),
            serverCoreBusy: spread(rs.map((r) => r.coreBusy.server)),
            clientCoreBusy: spread(rs.map((r) => r.coreBusy.client)),
            faultsPerRequest: rs.every((r) => r.serverMinorFaults !== undefined && r.requests > 0)
              ? spread(rs.map((r) => r.serverMinorFaults! / r.requests))
              : null,
            errors: rs.reduce((a, r) => a + r.errors.status + socketErrors(r), 0),
          },
        ]
      }),
    ),
    ratios: Object.fromEntries(Object.keys(runs[0]!.ratios).map((k) => [k, spread(runs.map((r) => r.ratios[k]!))])),
    writes:
      writes.length > 0
        ? {
            rps: spread(writes.map((w) => w.result.rps)),
            p50Us: spread(writes.map((w) => w.result.latencyUs.p50)),
            p99Us: spread(writes.map((w) => w.result.latencyUs.p99)),
            serverCpu: spread(writes.map((w) => w.result.serverCpu)),
            otherCpu: spread(writes.map((w) => w.result.otherCpu)),
            allLanded: writes.every((w) => w.landed) && fileRows !== null && fileRows.api === fileRows.file,
            fileRows,
          }
        : null,
  }
}
