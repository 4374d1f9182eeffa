/** A log line as JSON, led by its time (UTC, ISO 8601) so a log file read without journald or Docker still dates each line. */
export function jsonLine(line: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), ...line })
}
