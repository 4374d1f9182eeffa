// The tries the client makes of each write, by its Idempotency-Key: a write refused at its last
// try may have been made at an earlier one whose answer was lost (a timeout while the service
// committed it), when the last try's refusal comes before the key's replay (a key revoked, a limit).
import { inFlight } from '../src/client/retry-rules'

/** Each write's tries so far, in order: whether the try may have made the write. */
const tries = new Map<string, boolean[]>()

/**
 * Whether a try may have made its write: one with no answer, or an answer other than those that
 * keep no decision (429, 503, the 409 with Retry-After of a try still running); a proxy's 502 or
 * 504 may follow a write, and a success may lose its body on the way.
 */
function mayHaveWritten(response: Response | undefined): boolean {
  if (response === undefined) return true
  const { status } = response
  return !(status === 429 || status === 503 || inFlight(response))
}

/** fetch, each try of a write counted under its Idempotency-Key. */
export const countingFetch = Object.assign(
  async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const key = new Headers(init?.headers).get('idempotency-key')
    const record = (made: boolean) => {
      if (key !== null) tries.set(key, [...(tries.get(key) ?? []), made])
    }
    try {
      const response = await fetch(input, init)
      record(mayHaveWritten(response))
      return response
    } catch (e) {
      record(true)
      throw e
    }
  },
  { preconnect: fetch.preconnect },
)

/**
 * How many times the write `key` names was sent, when a try before its last may have made it
 * (mayHaveWritten); 0 when none may have, or the key made no try.
 */
export function sentMaybeWritten(key: string | undefined): number {
  const made = (key === undefined ? undefined : tries.get(key)) ?? []
  return made.slice(0, -1).some(Boolean) ? made.length : 0
}
