// Charset labels as the Encoding Standard reads them, and UTF-8's byte order mark.

/** Whether bytes start with UTF-8's byte order mark, which says they are UTF-8 whatever the charset named. */
export const utf8Marked = (bytes: Uint8Array): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf

/** The encoding a charset label names, as the Encoding Standard reads labels ("utf8" is utf-8, "latin1" windows-1252); null when none it knows. */
export function encodingNamed(label: string): string | null {
  try {
    // Bun's types list a few labels; TextDecoder knows the WHATWG standard's every one.
    return new TextDecoder(label.trim() as ConstructorParameters<typeof TextDecoder>[0]).encoding
  } catch {
    return null
  }
}

/** Labels of ASCII, which has no letter beyond 0x7F. */
const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968'])

/** Whether `label` names ASCII, which no body beyond 0x7F is read in (the Standard reads it as windows-1252). */
export const isAsciiLabel = (label: string): boolean => ASCII_LABELS.has(label.trim().toLowerCase())

/**
 * The label inside single quotes (PHP's header("Content-Type: text/csv; charset='utf-8'")), when
 * it names an encoding: quotes no label holds. Null otherwise.
 */
export function singleQuoted(label: string): string | null {
  const unquoted = /^'(.+)'$/.exec(label.trim())?.[1]?.trim()
  return unquoted !== undefined && encodingNamed(unquoted) !== null ? unquoted : null
}

/** The refusal of an encoding named in single quotes (`label` as sent, a charset or the CLI's --encoding), ending with how to name it (`fix`). */
export const singleQuotedRefused = (label: string, fix: string) =>
  `The encoding ${JSON.stringify(label.slice(0, 40))} is in single quotes, which no encoding's name holds: ${fix}.`

/**
 * The WHATWG label that a Python codec's name means ("latin-1": latin1, "utf_8" and "utf-8-sig":
 * utf-8, "mac_roman": x-mac-roman, "utf_16_le": utf-16le), for a label TextDecoder does not know; else null.
 */
export function pythonCodecLabel(label: string): string | null {
  const dashed = label.trim().toLowerCase().replace(/_/g, '-').replace(/-sig$/, '')
  const joined = [dashed.replace(/([a-z])-(\d)/g, '$1$2'), dashed.replace(/-([lb]e)$/, '$1')]
  for (const meant of [dashed, ...joined, `x-${dashed}`]) if (encodingNamed(meant) !== null) return meant
  return null
}
