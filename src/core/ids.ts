// Identifiers and secrets, in the formats fixed by shared/design.md.
import { createHash, timingSafeEqual } from 'node:crypto'
import { customAlphabet } from 'nanoid'

const LOWER_ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

const lowerId = customAlphabet(LOWER_ALNUM, 16)
const base62of32 = customAlphabet(BASE62, 32)
const base62of24 = customAlphabet(BASE62, 24)

/** `length` random characters of [0-9A-Za-z], each as likely as another. */
export const randomBase62: (length: number) => string = customAlphabet(BASE62)

export const newLocationId = () => `loc_${lowerId()}`
export const newLocatorId = () => `lct_${lowerId()}`
export const newKeyId = () => `key_${lowerId()}`
export const newPublicToken = () => `pk_${base62of24()}`

/**
 * Request ids: a random prefix per process (so workers and restarts do not collide) and a
 * counter, 16 characters of [0-9a-z]; cheaper per request than random ones.
 */
export function requestIds(): () => string {
  const prefix = customAlphabet(LOWER_ALNUM, 8)()
  // From 36^7, the counter is 8 digits in base 36 without padding (for 2.7 trillion ids), so no
  // padStart, a good part of an id's cost (PERF-036).
  let n = 36 ** 7
  return () => prefix + (n++).toString(36)
}

export const LOCATION_ID = /^loc_[0-9a-z]+$/
/**
 * A location's id in any case, as a sheet's UPPER() or a system blind to case writes it: of the
 * 16 characters after loc_ that every id has, so a chain's own "LOC_001" is no id.
 */
export const LOCATION_ID_ANY_CASE = /^loc_[0-9a-z]{16}$/i
export const PUBLIC_TOKEN = /^pk_[0-9A-Za-z]{24}$/
/** The shape of a secret key; anything of this shape is treated as a secret wherever it appears. */
export const SECRET_KEY_SHAPE = /sk_[0-9A-Za-z]{38}/

/**
 * Text safe to log: anything shaped like a secret key is replaced, percent-encoded too, in part or
 * whole ("sk%5F...", "%73k_..."), as the public API's check finds it (decoded). So is a key's text
 * sent without its "sk_": a run of exactly 38 letters and digits whose last 6 are its checksum.
 */
export const redactSecrets = (text: string) =>
  text
    .replace(/(?:s|%73)(?:k|%6b)(?:_|%5f)(?:[0-9a-z]|%[0-9a-f]{2}){38,}/gi, 'sk_[redacted]')
    .replace(/[0-9A-Za-z]{38,}/g, (run) =>
      run.length === 38 && checksum(run.slice(0, 32)) === run.slice(32) ? '[redacted]' : run,
    )

function base62(value: number, width: number): string {
  let out = ''
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out
  return out.padStart(width, '0')
}

/** CRC32 of the random part, base62, 6 characters: lets a key be recognised by its shape alone. */
const checksum = (random: string) => base62(Bun.hash.crc32(random), 6)

/** `sk_` + 32 random base62 characters + their 6-character checksum. */
export function newSecretKey(): string {
  const random = base62of32()
  return `sk_${random}${checksum(random)}`
}

/** True when the key is "sk_" and 38 letters and digits, whatever its checksum. */
export const isSecretKeyShaped = (key: string): boolean => key.length === 41 && /^sk_[0-9A-Za-z]{38}$/.test(key)

/** True when the key has the right shape and its checksum matches: no database lookup needed. */
export function isWellFormedSecretKey(key: string): boolean {
  return isSecretKeyShaped(key) && checksum(key.slice(3, 35)) === key.slice(35)
}

/** SHA-256 of text (as UTF-8) or bytes, in hex. */
export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')

/** Only this hash of a key is ever stored. Keys carry 190 bits of randomness, so a fast hash suffices. */
export const hashSecret = (key: string) => sha256Hex(key)

/** What is shown of a stored key: enough to tell keys apart, far too little to use. */
export const keyDisplayPrefix = (key: string) => `${key.slice(0, 7)}…`

export function sameSecretHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}
