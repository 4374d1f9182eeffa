// Request bodies, read once and classified, so routes decide what each case means.

export type ParsedBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, unknown> }
  /** `unread`: a body was sent, but with this Content-Type ('' for none), which is not read. */
  | { kind: 'empty'; unread?: string }
  | { kind: 'invalid_json'; reason: string }
  /** A form body that cannot be read without losing what was sent (a charset not UTF-8, a broken escape, a file). */
  | { kind: 'invalid_form'; reason: string }
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
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers.get('content-type')!)?.[1]?.toLowerCase()
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
      return { kind: 'invalid_form', reason: `its charset is ${JSON.stringify(charset.slice(0, 40))}, and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.` }
    }
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      return { kind: 'invalid_form', reason: 'it is not valid UTF-8. Send it percent-encoded from UTF-8 (é is %C3%A9), or send JSON.' }
    }
    const fields = urlencodedFields(text)
    return typeof fields === 'string' ? { kind: 'invalid_form', reason: fields } : { kind: 'form', value: nestFields(fields) }
  }
  if (type === 'multipart/form-data') {
    const form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type')! } }).formData().catch(() => null)
    if (form === null) {
      return { kind: 'invalid_form', reason: 'it is not multipart/form-data that can be read: its parts and the boundary its Content-Type names do not match. Send the body your HTTP client makes from a form, or send JSON.' }
    }
    const fields: [string, string][] = []
    for (const [k, v] of form.entries()) {
      if (typeof v !== 'string') return { kind: 'invalid_form', reason: `the field ${JSON.stringify(k.slice(0, 60))} is a file; location fields are text.` }
      fields.push([k, v])
    }
    return { kind: 'form', value: nestFields(fields) }
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

/**
 * An urlencoded body's name-value pairs, as URLSearchParams reads them ("+" is a space), or why it
 * cannot be read: where URLSearchParams keeps a broken escape ("%ZZ") as it is and turns bytes
 * that are not UTF-8 ("%E9", Latin-1's é) into U+FFFD, the text sent would be stored changed.
 */
export function urlencodedFields(text: string): [string, string][] | string {
  const fields: [string, string][] = []
  for (const piece of text.split('&')) {
    if (piece === '') continue
    const eq = piece.indexOf('=')
    const pair = eq === -1 ? [piece, ''] : [piece.slice(0, eq), piece.slice(eq + 1)]
    try {
      fields.push(pair.map((part) => decodeURIComponent(part.replaceAll('+', ' '))) as [string, string])
    } catch {
      const name = pair[0]!.length > 60 ? `${pair[0]!.slice(0, 60)}...` : pair[0]!
      return `the field ${JSON.stringify(name)} is not percent-encoded UTF-8: each "%" must be followed by two hex digits, and the bytes they make must be UTF-8 (é is %C3%A9, not %E9). Send it encoded as UTF-8, or send JSON.`
    }
  }
  return fields
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
