// What the WORKERS tests share: the processes and sockets of a server read from Linux's /proc
// (which worker holds a connection, which ports a process listens on), and raw HTTP/1.1 on a socket.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { QUIET_MS, workingTicks } from './process-waits'
export const ROOT = join(import.meta.dir, '..')

/** Live (not zombie) processes whose parent is `pid`, sorted. */
export function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(ppid) === pid && state !== 'Z') out.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return out.sort((a, b) => a - b)
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'
  } catch {
    return false
  }
}

/** The process among `pids` holding the server side of this connection, or null. */
export function ownerOf(socket: Socket, pids: number[]): number | null {
  const hex = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`
  let inode: string | undefined
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      // local address, remote address, ..., inode: the server side is local = the server's port.
      if (f.length > 9 && f[1]!.endsWith(hex(socket.remotePort!)) && f[2]!.endsWith(hex(socket.localPort!)))
        inode = f[9]
    }
  }
  if (!inode || inode === '0') return null
  for (const pid of pids) {
    let fds: string[] = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid
      } catch {
        // closed meanwhile
      }
    }
  }
  return null
}

export const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })

export type Reply = { status: number; headers: Record<string, string>; body: any }

/** One whole HTTP/1.1 response (Content-Length framed) read from the socket, which stays open. */
export function readReply(socket: Socket): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk])
      const end = buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine, ...lines] = buf.subarray(0, end).toString().split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      const length = Number(headers['content-length'])
      if (!Number.isInteger(length)) return reject(new Error(`no Content-Length in ${statusLine}`))
      if (buf.length < end + 4 + length) return
      socket.off('data', onData)
      const text = buf.subarray(end + 4, end + 4 + length).toString()
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : null })
    }
    socket.on('data', onData)
    socket.once('error', reject)
    socket.once('close', () => reject(new Error('connection closed before a whole response')))
  })
}

/** The TCP ports on which `pid` holds a listening socket (state 0A in /proc/net/tcp*), sorted. */
export function listeningPortsOf(pid: number): number[] {
  const inodes = new Set<string>()
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (m) inodes.add(m[1]!)
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return []
  }
  const ports = new Set<number>()
  if (inodes.size === 0) return []
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    // Split only a listening socket's line: a busy machine's file has tens of thousands (TIME_WAIT),
    // and a slow look can miss a hold that lasts a moment.
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      if (!line.includes(' 0A ')) continue
      const f = line.trim().split(/\s+/)
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!))
        ports.add(parseInt(f[1]!.slice(f[1]!.lastIndexOf(':') + 1), 16))
    }
  }
  return [...ports].sort((a, b) => a - b)
}

/** A GET on a fresh connection (the kernel picks the worker), and which worker answered it. */
export async function freshGet(port: number, path: string, workers: number[]): Promise<Reply & { pid: number | null }> {
  const socket = await open(port)
  try {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    const reply = await readReply(socket)
    return { ...reply, pid: ownerOf(socket, workers) }
  } finally {
    socket.destroy()
  }
}

/**
 * Polls `probe` until it gives a value. It fails after QUIET_MS in which the processes `working`
 * counts (their CPU time, as treeCpuTicks) did no work: a worker's start that a loaded machine
 * slows (seconds at load 20) is not cut short, one stalled or never begun fails naming `what`.
 * Answering a probe (a request to the server) is work of theirs too, and so is what follows it (an
 * idle server's tree used 1 % of a core polled each 250 ms): only the pauses between probes count,
 * and they grow to 1 s. Polled each 25 ms, a stalled server's /metrics alone passed for a start.
 */
export async function until<T>(
  what: string,
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  working: () => number,
  quietMs = QUIET_MS,
): Promise<T> {
  let since = performance.now()
  // The pauses' time since `since`, and the CPU time the processes used in them.
  let pausedMs = 0
  let pausedTicks = 0
  let pause = 25
  for (;;) {
    const value = await probe()
    if (value) return value
    const ticks = working()
    const at = performance.now()
    await Bun.sleep(pause)
    pause = Math.min(pause * 2, 1000)
    pausedTicks += working() - ticks
    pausedMs += performance.now() - at
    if (performance.now() - since < quietMs) continue
    if (pausedTicks < workingTicks(pausedMs))
      throw new Error(`waiting for ${what}: ${quietMs / 1000} s in which its processes did no work`)
    since = performance.now()
    pausedMs = 0
    pausedTicks = 0
  }
}
