/** A charset that names UTF-8, the encoding a body's text (a string, a stream's text) is sent in. */
const utf8 = (charset) => /^utf-?8$/i.test(charset);
/**
 * A CsvBody as what fetch sends on each try: its text, or its bytes, a stream's read whole. A
 * TypeError names a body that is none of these, or a stream's text with a `charset` other than
 * UTF-8 (its text is sent as UTF-8), before anything is sent.
 */
export async function csvBytes(csv, call, charset) {
    if (typeof csv === 'string')
        return csv;
    // A copy: the script may reuse its buffer (a Buffer's pool) while the tries are sent.
    if (csv instanceof Uint8Array)
        return new Uint8Array(csv);
    if (csv instanceof ArrayBuffer)
        return new Uint8Array(csv.slice(0));
    if (typeof Blob !== 'undefined' && csv instanceof Blob)
        return new Uint8Array(await csv.arrayBuffer());
    if (typeof csv === 'object' && csv !== null && Symbol.asyncIterator in csv) {
        const encoder = new TextEncoder();
        const chunks = [];
        for await (const chunk of csv) {
            if (typeof chunk === 'string' && charset !== undefined && !utf8(charset))
                throw new TypeError(`${call}: charset ${charset} is for a body of bytes: a stream of text is sent as UTF-8. Pass the file's bytes (a Buffer or Blob) instead.`);
            if (typeof chunk === 'string')
                chunks.push(encoder.encode(chunk));
            else if (chunk instanceof Uint8Array)
                chunks.push(chunk);
            else
                throw new TypeError(`${call}: the CSV stream must give bytes (Uint8Array) or text; got ${typeof chunk}.`);
        }
        const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const chunk of chunks) {
            bytes.set(chunk, at);
            at += chunk.length;
        }
        return bytes;
    }
    const got = csv === null ? 'null' : typeof csv === 'object' ? (csv.constructor?.name ?? 'an object') : typeof csv;
    throw new TypeError(`${call}: the CSV body must be the file's text, a Blob or File, bytes (Uint8Array, ArrayBuffer) or a stream of them; got ${got}.`);
}
/**
 * The Content-Type of a CSV body: `charset` when given, else a Blob's own when it is text/csv with
 * a charset, so its bytes are read in it. A TypeError names a charset that cannot be sent: not a
 * name (`;`, a space, a quote), or other than UTF-8 for a string, which fetch sends as UTF-8.
 */
export function csvType(csv, charset, call) {
    if (charset === undefined)
        return typeof Blob !== 'undefined' && csv instanceof Blob && /^text\/csv\s*;\s*charset=/i.test(csv.type)
            ? csv.type
            : 'text/csv';
    if (typeof charset !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(charset))
        throw new TypeError(`${call}: charset must be the name of an encoding, such as windows-1252; got ${JSON.stringify(charset)}.`);
    if (typeof csv === 'string' && !utf8(charset))
        throw new TypeError(`${call}: charset ${charset} is for a body of bytes: a string is sent as UTF-8. Pass the file's bytes (a Buffer or Blob) instead.`);
    return `text/csv; charset=${charset}`;
}
