// examples/sync.ts given a STORELOC_URL that is not the service's address, as a newcomer copies
// one: the Query API's (refused before the secret key is sent there), or one with a path too many
// or a finder page's (the answer says to check STORELOC_URL). Nothing is written. A service older
// than GET /admin/v1/locator, at the right address, is synced: it names no locator, and that is said.
import { expect, test } from 'bun:test'
import { LOCATOR_LINE, runSync, runSyncAsIs, standIn, syncServer } from './sync-server'

const served = syncServer()

const LIST = 'Store Code,Name,Address,Latitude,Longitude\nS1,One,"1 Main St, Town",40.1,-3.1\n'

test("the Query API's address is refused before any request: the secret key is not sent there, nor marked exposed", async () => {
  const [{ id, public_token }] = served.json('locator', 'list')
  const copied = `${served.url}/public/v1/${public_token}/locations?lat=40&lng=-3`
  const run = await runSync(served, copied, LIST)
  expect(run.code).toBe(2)
  expect(run.stderr).toStartWith(
    `STORELOC_URL must be the service's address, such as "http://127.0.0.1:3000", not the public Query API's; got "${copied}": give "${served.url}". The secret key goes to the Management API alone: sent under /public/v1, it is marked exposed.\n`,
  )
  // Without the query, as the refusal of a query would have it given.
  const bare = await runSync(served, `${served.url}/public/v1`, LIST)
  expect(bare.code).toBe(2)
  expect(bare.stderr).toContain(`not the public Query API's; got "${served.url}/public/v1": give "${served.url}".`)
  expect(served.json('key', 'list', id).map((k: { exposed: boolean }) => k.exposed)).toEqual([false])
}, 30_000)

test("an address with a path too many, or a finder page's, is said to be STORELOC_URL to check", async () => {
  const [{ public_token }] = served.json('locator', 'list')
  const check = (url: string) =>
    ` Check that STORELOC_URL is the service's address, such as http://127.0.0.1:3000, which the sync's /admin/v1/... paths follow; it is "${url}".\n`
  const admin = await runSync(served, `${served.url}/admin`, LIST)
  expect([admin.code, admin.stderr]).toEqual([
    1,
    `sync: No route GET /admin/admin/v1/locator. The Management API lives under /admin/v1.${check(`${served.url}/admin`)}`,
  ])
  const page = `${served.url}/l/${public_token}`
  const finder = await runSync(served, page, LIST)
  expect([finder.code, finder.stderr]).toEqual([
    1,
    `sync: GET /admin/v1/locator: Not found (an HTML page, not the Management API's answer).${check(page)}`,
  ])
}, 30_000)

/** The routes a service before GET /admin/v1/locator named in its 404 under /admin/v1. */
const OLDER_ROUTES =
  'The Management API has GET /admin/v1/locations, GET /admin/v1/locations/export, GET /admin/v1/locations/{id}, GET /admin/v1/custom_fields, POST /admin/v1/locations (create), POST /admin/v1/locations/{id} (update), POST /admin/v1/locations/{id}/delete (delete) and POST /admin/v1/locations/bulk (many at once).'

test('a service older than GET /admin/v1/locator is said to name no locator, and the list is synced', async () => {
  // Its 404 as such a service answered it; every other request is the server's.
  const older = standIn(served, (body, on, request) =>
    new URL(request.url).pathname === '/admin/v1/locator'
      ? new Response(
          JSON.stringify({
            success: false,
            error: 'not_found',
            message: `No route GET /admin/v1/locator. ${OLDER_ROUTES}`,
          }),
          { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' } },
        )
      : on(body),
  )
  try {
    const dry = await runSyncAsIs(served, older.url, LIST, ['--dry-run'])
    expect([dry.code, dry.stderr, dry.stdout.split('\n')[0]]).toEqual([
      0,
      '',
      'locator not named: the service is older than GET /admin/v1/locator; upgrade it to see the locator its key writes.',
    ])
    const run = await runSyncAsIs(served, older.url, LIST)
    expect([run.code, run.stderr, run.stdout.split('\n').at(-2)]).toEqual([
      0,
      '',
      '1 created, 0 updated, 0 unchanged, 0 deleted.',
    ])
  } finally {
    older.stop()
  }
  // The service of today names it.
  expect((await runSyncAsIs(served, served.url, LIST)).stdout).toMatch(LOCATOR_LINE)
}, 60_000)
