// What is particular to each HTTP provider: its error bodies and statuses, its address parts, and
// Google's key redaction and failure scopes.
import { describe, expect, test } from 'bun:test'
import { createHttpGeocoder } from '../../src/geocode/http'
import { answering, CASES, config, expectUnavailable, fixture, KEY, variant, withStandIns } from './http-fixture'

withStandIns()

// ---- provider specifics ------------------------------------------------------------------------

describe('nominatim specifics', () => {
  test('HTTP 400 with its error body: the message is quoted', async () => {
    const server = answering(fixture('nominatim-error'), 400)
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: server.url })).geocode('x'),
      'nominatim',
      /refused the request \(HTTP 400: Parameter 'limit' must be a number\.\)/,
    )
  })

  test('lat or lon not decimal text ("", " ", "0x2D", "1e1"): an unexpected response, not a point at 0', async () => {
    for (const bad of ['', ' ', '0x2D', '1e1', '+5', 'Infinity']) {
      const server = answering(variant('nominatim-found', (b) => (b[0].lat = bad)))
      await expectUnavailable(
        createHttpGeocoder(config('nominatim', { url: server.url })).geocode('x'),
        'nominatim',
        /unexpected response \(coordinates\)/,
      )
    }
  })

  test('config.url with a path prefix and a trailing slash', async () => {
    const server = answering([])
    await createHttpGeocoder(config('nominatim', { url: `${server.url}/nominatim/` })).geocode('x')
    expect(server.hits[0]!.url.pathname).toBe('/nominatim/search')
  })

  test('street after the house number outside number-first countries; a whole city result', async () => {
    const server = answering(
      variant('nominatim-found', (b) => {
        b[0].address = {
          house_number: '77',
          road: 'Unter den Linden',
          suburb: 'Mitte',
          city: 'Berlin',
          state: 'Berlin',
          postcode: '10117',
          country: 'Deutschland',
          country_code: 'de',
        }
      }),
    )
    const result = await createHttpGeocoder(config('nominatim', { url: server.url })).geocode(
      'Unter den Linden 77, Berlin',
    )
    expect(result?.parts).toStrictEqual({
      street: 'Unter den Linden 77',
      city: 'Berlin',
      region: 'Berlin',
      postcode: '10117',
      country: 'DE',
    })
  })
})

describe('address parts a provider sends', () => {
  test('one over 200 characters, or with a line break or a bidi override, is left out (it is shown in public answers); the others kept, NFC', async () => {
    const server = answering(
      variant('nominatim-found', (b) => {
        b[0].address = {
          house_number: '77',
          road: 'Unter den Linden',
          city: 'B'.repeat(201),
          state: 'Berlin\u202Eevil',
          postcode: '10117\n<b>',
          country: 'Deutschland',
          country_code: 'de',
          suburb: 'Mitte',
        }
        b[0].address.road = 'Unter den Linde\u006e\u0301' // an n and a combining acute: one ń once NFC
      }),
    )
    const result = await createHttpGeocoder(config('nominatim', { url: server.url })).geocode(
      'Unter den Linden 77, Berlin',
    )
    expect(result?.parts).toStrictEqual({ street: 'Unter den Lindeń 77', country: 'DE' })
    expect(result?.parts.street).toBe('Unter den Linde\u0144 77')
    // 200 characters is a name still.
    const long = answering(variant('nominatim-found', (b) => void (b[0].address.city = 'C'.repeat(200))))
    expect((await createHttpGeocoder(config('nominatim', { url: long.url })).geocode('x'))?.parts.city).toBe(
      'C'.repeat(200),
    )
  })
})

describe('photon specifics', () => {
  test('a city result names the city in `name`; parts take it from there', async () => {
    const server = answering(fixture('photon-city'))
    const result = await createHttpGeocoder(config('photon', { url: server.url })).geocode('Berlin')
    expect(result).toStrictEqual({
      lat: 52.5170365,
      lng: 13.3888599,
      precision: 'city',
      source: 'photon',
      parts: { city: 'Berlin', region: 'Berlin', country: 'DE' },
    })
  })
})

describe('pelias specifics', () => {
  test('a self-hosted Pelias without a key: no api_key parameter', async () => {
    const server = answering(fixture('pelias-found'))
    await createHttpGeocoder(config('pelias', { url: server.url, apiKey: null })).geocode(
      '30 West 26th Street, New York, NY',
    )
    expect(server.hits[0]!.url.searchParams.has('api_key')).toBe(false)
  })

  test('HTTP 400 with geocoding.errors: the error is quoted', async () => {
    const server = answering(fixture('pelias-error'), 400)
    await expectUnavailable(
      createHttpGeocoder(config('pelias', { url: server.url })).geocode(' '),
      'pelias',
      /HTTP 400: invalid param 'text'/,
    )
  })

  test('geocoding.errors with HTTP 200 is a failure too', async () => {
    const server = answering(fixture('pelias-error'))
    await expectUnavailable(
      createHttpGeocoder(config('pelias', { url: server.url })).geocode(' '),
      'pelias',
      /reported an error/,
    )
  })
})

describe('google specifics', () => {
  for (const status of ['OVER_DAILY_LIMIT', 'REQUEST_DENIED', 'INVALID_REQUEST', 'UNKNOWN_ERROR']) {
    // INVALID_REQUEST is about the request's address; the others about the service or the key (the refresh stops asking).
    const scope = status === 'INVALID_REQUEST' ? 'address' : 'service'
    test(`status ${status} (HTTP 200): GeocoderUnavailableError naming the status, of scope ${scope}`, async () => {
      const server = answering({ error_message: 'Something went wrong.', results: [], status })
      const err = await expectUnavailable(
        createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
        'google',
        new RegExp(`\\(${status}: Something went wrong\\.\\)`),
      )
      expect(err.scope).toBe(scope)
    })
  }

  test('a status naming a member every object inherits (constructor) is an unexpected status', async () => {
    const server = answering({ results: [], status: 'constructor' })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /sent an unexpected status \(constructor\)/,
    )
    expect(err.message).not.toContain('function')
  })

  test('REQUEST_DENIED quoting the key: the key is redacted from the message', async () => {
    const server = answering(
      variant('google-request-denied', (b) => (b.error_message = `API key ${KEY} is not authorized for this API.`)),
    )
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /refused the request \(REQUEST_DENIED/,
    )
    expect(err.message).toContain('[key]')
  })

  test("a long message quoting the key across the reason's cut: no part of the key is left", async () => {
    // The old cut, at 160 characters, fell inside the key.
    const server = answering(
      variant(
        'google-request-denied',
        (b) =>
          (b.error_message = `${'This API project is not authorized to use this API. '.repeat(3).slice(0, 140)} key=${KEY}`),
      ),
    )
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /refused the request/,
    )
    expect(err.message.length).toBeLessThanOrEqual(260)
    for (let n = 6; n <= KEY.length; n++) expect(err.message).not.toContain(KEY.slice(0, n))
  })

  test('the key echoed URL-encoded is redacted too', async () => {
    const key = 'ab/cd+ef=gh&ij'
    const server = answering({
      error_message: `bad key ${encodeURIComponent(key)} or ${new URLSearchParams({ k: key }).toString().slice(2)}`,
      results: [],
      status: 'REQUEST_DENIED',
    })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url, apiKey: key })).geocode('x'),
      'google',
      /REQUEST_DENIED/,
    )
    expect(err.message).toContain('bad key [key] or [key]')
  })

  test('OK with no results is unexpected, not "not found": a failure of this address only', async () => {
    const server = answering({ results: [], status: 'OK' })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /unexpected response/,
    )
    expect(err.scope).toBe('address')
  })

  test('an HTTP 503 or 429 fails the service, not the address', async () => {
    for (const status of [503, 429]) {
      const server = answering({}, status)
      expect(
        (
          await expectUnavailable(
            createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
            'google',
            /HTTP/,
          )
        ).scope,
      ).toBe('service')
    }
  })

  test('a locality: parts from its components', async () => {
    const server = answering(fixture('google-locality'))
    const result = await createHttpGeocoder(config('google', { url: server.url })).geocode('Springfield, IL')
    expect(result).toStrictEqual({
      lat: 39.7817213,
      lng: -89.6501481,
      precision: 'city',
      source: 'google',
      parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
    })
  })
})

describe('mapbox specifics', () => {
  test('HTTP 401 with its message: GeocoderUnavailableError quoting it', async () => {
    const server = answering({ message: 'Not Authorized - Invalid Token' }, 401)
    await expectUnavailable(
      createHttpGeocoder(config('mapbox', { url: server.url })).geocode('x'),
      'mapbox',
      /refused the request \(HTTP 401: Not Authorized - Invalid Token\)/,
    )
  })

  test('semicolons (batch separators on the permanent endpoint) are sent as commas', async () => {
    const server = answering(fixture('mapbox-empty'))
    await createHttpGeocoder(config('mapbox', { url: server.url })).geocode('Suite 5; 1600 Pennsylvania Ave NW')
    expect(CASES.find((c) => c.provider === 'mapbox')!.sentAddress(server.hits[0]!.url)).toBe(
      'Suite 5, 1600 Pennsylvania Ave NW',
    )
  })

  test('a place: parts from the feature and its context', async () => {
    const server = answering(fixture('mapbox-place'))
    const result = await createHttpGeocoder(config('mapbox', { url: server.url })).geocode('Springfield, Illinois')
    expect(result).toStrictEqual({
      lat: 39.781721,
      lng: -89.650148,
      precision: 'city',
      source: 'mapbox',
      parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
    })
  })
})

describe('opencage specifics', () => {
  test('402 quota exceeded: GeocoderUnavailableError', async () => {
    const server = answering(fixture('opencage-402'), 402)
    await expectUnavailable(
      createHttpGeocoder(config('opencage', { url: server.url })).geocode('x'),
      'opencage',
      /HTTP 402: quota exceeded/,
    )
  })

  test('403 disabled key: GeocoderUnavailableError', async () => {
    const server = answering(fixture('opencage-403'), 403)
    await expectUnavailable(
      createHttpGeocoder(config('opencage', { url: server.url })).geocode('x'),
      'opencage',
      /HTTP 403: disabled key/,
    )
  })
})
