// Preloaded into a CLI run (bun --preload): its clock, Date.now, reads CLOCK_AHEAD_MS later than
// the machine's, as a run that late would read it. What /proc says of processes' starts, and the
// times of files, stay the machine's: a process the test just started reads as that much older.
const ahead = Number(process.env.CLOCK_AHEAD_MS)
if (!Number.isFinite(ahead)) throw new Error('Set CLOCK_AHEAD_MS to the milliseconds the clock reads ahead.')
const machine = Date.now
Date.now = () => machine() + ahead
