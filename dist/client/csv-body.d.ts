import type { CsvBody } from './types.js';
/**
 * A CsvBody as what fetch sends on each try: its text, or its bytes, a stream's read whole. A
 * TypeError names a body that is none of these, or a stream's text with a `charset` other than
 * UTF-8 (its text is sent as UTF-8), before anything is sent.
 */
export declare function csvBytes(csv: CsvBody, call: string, charset?: string): Promise<string | Uint8Array<ArrayBuffer>>;
/**
 * The Content-Type of a CSV body: `charset` when given, else a Blob's own when it is text/csv with
 * a charset, so its bytes are read in it. A TypeError names a charset that cannot be sent: not a
 * name (`;`, a space, a quote), or other than UTF-8 for a string, which fetch sends as UTF-8.
 */
export declare function csvType(csv: CsvBody, charset: string | undefined, call: string): string;
