// Reading a message's body with a bound, for request bodies and HTTP geocoders' answers alike.

/**
 * A request's or a response's body, or null once it passes `max` bytes, declared or read (read no
 * further: what is left is never held in memory, however much is sent).
 */
export async function bytesUpTo(message: Request | Response, max: number): Promise<Uint8Array | null> {
  if (Number(message.headers.get('content-length') ?? 0) > max) return null
  if (message.body === null) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of message.body) {
    size += chunk.byteLength
    if (size > max) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
