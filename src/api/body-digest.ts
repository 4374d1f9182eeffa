// What an Idempotency-Key's retry is compared by: a body's digests, its bytes' and its meaning's
// by each fingerprint version's rule.
import { sha256Hex } from '../core/ids'
import { mediaTypeOf, paramOf } from './content-type'
import type { MultipartBody } from './multipart/fields'
import { multipartMeant } from './multipart/meaning'

/** A multipart body as readMultipartBody reads it, read at the first call. */
export type MultipartOf = () => Promise<MultipartBody>

/**
 * What an Idempotency-Key's retry is compared by, each a SHA-256 (hex): the body's bytes, and what
 * it means (a multipart body's parts, whatever its boundary, else its bytes with its boundary,
 * which the Content-Type compared leaves out; any other body's bytes). `v4`, `v3` and `v2`: what
 * it means by the rules of fingerprints v4, v3 and v2, each when other than `meant`. `v5`: what it
 * means by the v5 rule that reads no delimiter line's padding (a `v5:` fingerprint may be kept by
 * either v5 rule), when other. `plain`: what it means by the rules of v5, v4, v3 and v2 as they read
 * a file's name before `filename*` was, from `filename` alone, when other (a padded body: v5's alone,
 * as the others compared its bytes; a folded body: none, as each compared its bytes). `kept`: what
 * it means by the v5 rule that read a backslash in a quoted name as FormData does, when other.
 */
export type BodyDigest = {
  bytes: string
  meant: string
  v5?: string
  plain?: { v5: string; v4?: string; v3?: string; v2?: string }
  kept?: string
  v4?: string
  v3?: string
  v2?: string
}

export async function bodyDigest(request: Request, bytes: Uint8Array, multipartOf: MultipartOf): Promise<BodyDigest> {
  const contentType = request.headers.get('content-type') ?? ''
  const raw = sha256Hex(bytes)
  if (mediaTypeOf(contentType) !== 'multipart/form-data') return { bytes: raw, meant: raw }
  const multipart = await multipartOf()
  const parts = await multipartMeant(multipart)
  const sent = () => sha256Hex(`${raw}\nboundary=${paramOf(contentType, 'boundary') ?? ''}`)
  if (parts === null) return { bytes: raw, meant: sent() }
  const plain = /filename\*/i.test(multipart.text) ? await multipartMeant(multipart, 'plain') : null
  const byPlain = plain === null || plain.meant === parts.meant ? undefined : plain
  const kept = parts.kept === parts.meant ? undefined : { kept: parts.kept }
  // A padded delimiter line or a folded header line (the text shorter than the bytes): rules blind
  // to padding read it as a value's text, and every rule before read no field of a fold; each
  // compares the bytes with the boundary.
  if (multipart.text.length !== bytes.length) {
    const before = sent()
    const v5Plain = byPlain && !multipart.folded && { plain: { v5: byPlain.meant } }
    return { bytes: raw, meant: parts.meant, ...v5Plain, ...kept, v5: before, v4: before, v3: before, v2: before }
  }
  // Where v3's rule found no parts (a name beyond ASCII), v2's found none either: the bytes told both.
  const { meant, v4 } = parts
  const v3 = parts.v3 ?? sent()
  const v2 = parts.v2 ?? v3
  const plainV3 = byPlain && (byPlain.v3 ?? sent())
  return {
    bytes: raw,
    meant,
    ...kept,
    ...(byPlain && { plain: { v5: byPlain.meant, v4: byPlain.v4, v3: plainV3, v2: byPlain.v2 ?? plainV3 } }),
    ...(v4 !== meant && { v4 }),
    ...(v3 !== meant && { v3 }),
    ...(v2 !== meant && { v2 }),
  }
}
