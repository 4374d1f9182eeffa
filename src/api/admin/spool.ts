// An answer's body written once and then sent, kept in a file past IN_MEMORY_BYTES: a big export
// sent slowly to several clients at once holds a chunk of each in memory, not its whole text.
// The file is unlinked as soon as it is made, so nothing is left behind, even after a crash.
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { nanoid } from 'nanoid'

/** What an answer holds in memory before it goes to a file: a few thousand stores' text. */
export const IN_MEMORY_BYTES = 1 << 20

/** The bytes read from the file per chunk sent. */
const CHUNK_BYTES = 1 << 20

/** A body's file descriptor, closed by the body's stream, or here once the stream is collected unread. */
const unread = new FinalizationRegistry<{ fd: number | null }>((file) => closeFd(file))

function closeFd(file: { fd: number | null }) {
  if (file.fd === null) return
  try {
    closeSync(file.fd)
  } catch {}
  file.fd = null
}

/** The folder for spool files: the database's, on its disk, unless it is in memory. */
export function spoolDir(databasePath: string): string {
  return databasePath === ':memory:' ? tmpdir() : dirname(databasePath)
}

export class Spool {
  private pieces: Uint8Array[] = []
  private held = 0
  private readonly file: { fd: number | null } = { fd: null }
  private size = 0
  /** Set when a file could not be made or written: the rest stays in memory. */
  private inMemory = false

  constructor(private readonly dir: string) {}

  write(piece: Uint8Array): void {
    if (this.file.fd === null && !this.inMemory && this.held + piece.length > IN_MEMORY_BYTES) this.toFile()
    if (this.file.fd !== null) {
      try {
        this.append(piece)
        return
      } catch {
        this.backToMemory()
      }
    }
    this.pieces.push(piece)
    this.held += piece.length
  }

  /** The bytes written, as a Response body. The spool is not written to after this. */
  body(): Blob | ReadableStream<Uint8Array> {
    if (this.file.fd === null) return new Blob(this.pieces)
    const file = this.file
    const size = this.size
    let at = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (file.fd === null) return controller.error(new Error('The answer was given up.'))
        const chunk = new Uint8Array(Math.min(CHUNK_BYTES, size - at))
        const n = chunk.length === 0 ? 0 : readSync(file.fd, chunk, 0, chunk.length, at)
        at += n
        if (n > 0) controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n))
        if (n === 0 || at >= size) {
          closeFd(file)
          controller.close()
        }
      },
      cancel() {
        closeFd(file)
      },
    })
    unread.register(stream, file)
    return stream
  }

  /** Gives up what was written (a failed export). */
  discard(): void {
    closeFd(this.file)
    this.pieces = []
  }

  private toFile() {
    const path = join(this.dir, `.storeloc-answer-${nanoid(12)}`)
    try {
      this.file.fd = openSync(path, 'wx+', 0o600)
    } catch {
      this.inMemory = true
      return
    }
    try {
      unlinkSync(path)
      for (const piece of this.pieces) this.append(piece)
    } catch {
      // The pieces are all still held: the file is given up.
      closeFd(this.file)
      this.size = 0
      this.inMemory = true
      return
    }
    this.pieces = []
    this.held = 0
  }

  private append(piece: Uint8Array) {
    for (let done = 0; done < piece.length; )
      done += writeSync(this.file.fd!, piece, done, piece.length - done, this.size + done)
    this.size += piece.length
  }

  /** The file's bytes read back into memory, and the file closed: a write failed (a disk full). */
  private backToMemory() {
    const fd = this.file.fd!
    const written = new Uint8Array(this.size)
    let ok = true
    try {
      for (let at = 0; at < this.size; ) {
        const n = readSync(fd, written, at, this.size - at, at)
        if (n === 0) break
        at += n
      }
    } catch {
      ok = false
    }
    closeFd(this.file)
    this.inMemory = true
    if (!ok) throw new Error('An answer could not be read back from its spool file.')
    this.pieces = [written, ...this.pieces]
    this.held = this.size + this.held
    this.size = 0
  }
}
