// A working key of the locator a first start made (the service reads a body only for one), and a
// request sent with it whose body never comes whole: under way, it holds a stop.
import { expect } from 'bun:test'
import { connect, type Socket } from 'node:net'
import { cliRunner, type Running } from './helpers'

/** A key the CLI makes on `db` for the locator the first start of `server` made (its "locator id:" line). */
export async function firstLocatorKey(server: Running, db: string) {
  const locatorId = /locator id: +(lct_\w+)/.exec(await server.waitFor(/locator id:/))![1]!
  const made = cliRunner(() => db).json('key', 'create', locatorId)
  return { locatorId, id: made.id as string, secret: made.secret_key as string }
}

/** A create whose body never comes whole, sent with `key`: under way once Bun answers 100 Continue (it hands the request to the app). */
export async function requestUnderWay(port: number, key: string): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect(port, '127.0.0.1', () => resolve(opened))
    opened.once('error', reject)
  })
  socket.on('error', () => {})
  const continued = new Promise((resolve) => socket.once('data', resolve))
  socket.write(
    `POST /admin/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n`,
  )
  expect(String(await continued)).toStartWith('HTTP/1.1 100 Continue')
  socket.write('{"name":')
  return socket
}
