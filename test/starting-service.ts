// A service right after a first start, on a real port of 127.0.0.1: its first requests get the
// answers src/server/starting-answers.ts gives while the geocoder's data is built, the later ones
// the app's.
import { afterAll, afterEach, beforeEach } from 'bun:test'
import { startingResponder } from '../src/server/starting-answers'
import { makeEnv, type TestEnv } from './helpers'

type App = { handle(request: Request): Response | Promise<Response> }

/**
 * Serves on a port the kernel picks (`url`). The first `startingFor` requests (set it per test; Infinity: never started)
 * are answered "starting", the later ones by `app`; `seen` keeps a copy of each request.
 */
function startingService() {
  const starting = startingResponder(false, () => {})
  const service = { startingFor: 0, seen: [] as Request[], app: null as App | null, url: '', stop: () => {} }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      service.seen.push(request.clone() as Request)
      return service.seen.length <= service.startingFor ? starting(request) : service.app!.handle(request)
    },
  })
  service.url = `http://127.0.0.1:${server.port}`
  service.stop = () => server.stop(true)
  return service
}

/**
 * Registers, in the calling test file, a startingService for the file, answered by each test's
 * own environment (makeEnv): `env()` is the running test's; each test starts with nothing seen and
 * startingFor 0.
 */
export function useStartingService() {
  let env: TestEnv
  const service = startingService()
  afterAll(() => service.stop())
  beforeEach(() => {
    env = makeEnv()
    service.app = env.app
    service.startingFor = 0
    service.seen.length = 0
  })
  afterEach(() => env.close())
  return { service, env: () => env }
}
