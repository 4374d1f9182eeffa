/**
 * The updated_at a write that changes a row stamps on it, `previous` its last: now, or one ms past
 * `previous` while the clock has not passed it (the same millisecond, a clock set back), so each
 * change has a time of its own and a condition on the time read (if_updated_at) sees every one.
 */
export function stampAfter(previous: string, now: number = Date.now()): string {
  const last = Date.parse(previous)
  return new Date(Number.isNaN(last) || now > last ? now : last + 1).toISOString()
}
