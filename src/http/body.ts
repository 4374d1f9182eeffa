// Request bodies, read once and classified, so routes decide what each case means.

export type ParsedBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, unknown> }
  /** `unread`: a body was sent, but with this Content-Type ('' for none), which is not read. */
  | { kind: 'empty'; unread?: string }
  | { kind: 'invalid_json'; reason: string }
  | { kind: 'too_large' }

/**
 * JSON when the Content-Type says so; urlencoded and multipart bodies become form fields (with
 * `a[b]` and `a[]` nesting); anything else, or nothing, is empty (`unread` naming the type when
 * something was sent).
 */
export async function parseBody(request: Request, maxBytes: number): Promise<ParsedBody> {
  const bytes = await bytesUpTo(request, maxBytes)
  if (bytes === null) return { kind: 'too_large' }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json')) {
    let text: string
    try {
      // JSON is UTF-8 (RFC 8259): other bytes would be stored as U+FFFD, the text sent lost.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      return { kind: 'invalid_json', reason: 'it is not valid UTF-8. Send JSON encoded as UTF-8 (a Latin-1 or Windows-1252 "é" is one byte that UTF-8 does not allow).' }
    }
    if (text.trim() === '') return { kind: 'empty' }
    try {
      return { kind: 'json', value: JSON.parse(text) }
    } catch (e) {
      return { kind: 'invalid_json', reason: (e as Error).message }
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { kind: 'form', value: nestFields(new URLSearchParams(new TextDecoder().decode(bytes))) }
  }
  if (type === 'multipart/form-data') {
    try {
      const form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type')! } }).formData()
      const fields: [string, string][] = []
      for (const [k, v] of form.entries()) if (typeof v === 'string') fields.push([k, v])
      return { kind: 'form', value: nestFields(fields) }
    } catch {
      return { kind: 'empty' }
    }
  }
  return bytes.some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) ? { kind: 'empty', unread: type } : { kind: 'empty' }
}

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

/** `tags[]=a&tags[]=b&contact[phone]=1` -> `{ tags: ['a', 'b'], contact: { phone: '1' } }`. */
export function nestFields(entries: Iterable<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of entries) {
    const m = /^([^[\]]+)(?:\[([^[\]]*)\])?$/.exec(key)
    if (!m) continue
    const [, head, sub] = m as unknown as [string, string, string | undefined]
    if (sub === undefined) {
      out[head] = value
    } else if (sub === '') {
      const list = Array.isArray(out[head]) ? (out[head] as unknown[]) : (out[head] = [])
      ;(list as unknown[]).push(value)
    } else {
      const obj = typeof out[head] === 'object' && out[head] !== null && !Array.isArray(out[head]) ? (out[head] as Record<string, unknown>) : (out[head] = Object.create(null))
      ;(obj as Record<string, unknown>)[sub] = value
    }
  }
  return { ...out }
}
