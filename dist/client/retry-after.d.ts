/**
 * Retry-After in seconds (0 for a date gone by), from `now` (ms); undefined when absent or
 * unreadable. Sent twice (the service's and a proxy's copy), it comes joined, "600, 600": the
 * longest of its readable values is kept, the safe side of a proxy's and the service's.
 */
export declare function retryAfterSeconds(header: string | null, now?: number): number | undefined;
