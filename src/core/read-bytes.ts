// Reading a message's body with a bound, for request bodies and HTTP geocoders' answers alike.

/**
 * Of a request body the answer does not need, the most bytes read and let go before answering,
 * on a connection the client closes after it (closesAfter). Bun then closes once it answers, and
 * a client that sends its whole body before it reads (Python's http.client, whose urllib sends
 * Connection: close) would meet a broken pipe, not the answer. On a connection kept open Bun
 * reads the rest itself. Past this bound the connection is cut.
 */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024

/**
 * A request's or a response's body, or null once it passes `max` bytes, declared or read (what is
 * left is never held in memory, however much is sent). Declared so, it is not read; `drain` reads
 * the rest of one that passes `max` as it comes, to DRAIN_MAX_BYTES (its reason is there).
 */
export async function bytesUpTo(message: Request | Response, max: number, drain = false): Promise<Uint8Array | null> {
  if (Number(message.headers.get('content-length') ?? 0) > max) return null
  if (message.body === null) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of message.body) {
    size += chunk.byteLength
    if (size > (drain ? Math.max(max, DRAIN_MAX_BYTES) : max)) return null
    if (size <= max) chunks.push(chunk)
  }
  return size > max ? null : Buffer.concat(chunks)
}

/** Whether the client closes the connection after this request (`Connection: close`). */
export const closesAfter = (request: Request): boolean =>
  /(^|[\s,])close($|[\s,])/i.test(request.headers.get('connection') ?? '')

/**
 * Reads and lets go what is left of `request`'s body, to DRAIN_MAX_BYTES, when its client closes
 * the connection after it, so that the client reads the answer (DRAIN_MAX_BYTES).
 */
export async function drainUnread(request: Request): Promise<void> {
  if (!leftUnread(request)) return
  let size = 0
  try {
    for await (const chunk of request.body!) {
      size += chunk.byteLength
      if (size > DRAIN_MAX_BYTES) return
    }
  } catch {
    // The client went before its body's end: no one reads the answer.
  }
}

/** Whether drainUnread has anything to read of `request`: a body not read, its client closing after it. */
export const leftUnread = (request: Request): boolean =>
  request.body !== null && !request.bodyUsed && closesAfter(request)
