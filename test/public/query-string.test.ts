// Query strings read and written without URLSearchParams where they are plain, with the same
// results: queryParams() reads parameters as URLSearchParams does, and pagination links made by
// pageLinks() are the same text (in JSON) as setting the offset through URLSearchParams (which
// re-encodes the whole query string), for any query string.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { pageLinks } from '../../src/api/public/answer'
import { beforeAndQuery } from '../../src/api/public/url'
import { queryParams } from '../../src/api/public/params'

/** The link as URLSearchParams makes it. */
function naive(url: URL, to: number): string {
  const q = new URLSearchParams(url.searchParams)
  q.set('offset', String(to))
  return `${url.origin}${url.pathname}?${q}`
}

const BASE = 'http://localhost:3000/public/v1/pk_token/locations'
/** Pieces of query strings: plain ones, and every kind URLSearchParams writes differently. */
const piece = fc.oneof(
  fc.constantFrom(
    'lat',
    'lng',
    'radius',
    'limit',
    'offset',
    'tags[]',
    'search',
    'unit',
    'all',
    'x',
    '1.5',
    '-0.1278',
    'km',
    'a_b',
    'A*',
    '',
  ),
  fc.constantFrom(
    '=',
    '&',
    '&&',
    '+',
    ' ',
    '%20',
    '%',
    '%2',
    '%zz',
    '[',
    ']',
    '%5B',
    '%5D',
    '%5b',
    '%5d',
    '%2C',
    '%2c',
    '~',
    "'",
    '!',
    '(',
    'é',
    '%C3%A9',
    '/',
    '?',
    ';',
    ',',
    '"',
    '%E9',
    '%FF',
    '%C3',
    '%A9',
    '%F0%9F%9A%B2',
  ),
)
const queryString = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''))

/** Every name a query string of `piece`s may hold, and some it cannot. */
const NAMES = [
  'lat',
  'lng',
  'radius',
  'limit',
  'offset',
  'tags[]',
  'tags',
  'search',
  'unit',
  'all',
  'x',
  'a_b',
  'A*',
  '',
  'tags%5B%5D',
  'missing',
  '1.5',
  'km',
]

/** The names GET /locations reads: one of them with an escape that is not UTF-8 is refused. */
const READ = ['all', 'unit', 'limit', 'offset', 'tagLogic', 'tags[]', 'tags', 'search', 'sort', 'lat', 'lng', 'radius']

/**
 * Whether a pair of a name GET /locations reads holds an escape whose bytes are not UTF-8, read
 * another way: every "%" without two hex digits after it escaped as %25 (the character typed),
 * then decodeURIComponent, which refuses only bytes that are not UTF-8.
 */
function brokenReadPair(search: string): boolean {
  return search.split('&').some((pair) => {
    const name = [...new URLSearchParams(`?_=&${pair.split('=')[0]}=`).keys()][1]
    if (!READ.includes(name!)) return false
    try {
      decodeURIComponent(pair.replace(/%(?![0-9a-f]{2})/gi, '%25'))
      return false
    } catch {
      return true
    }
  })
}

describe('queryParams', () => {
  test('reads every name as URLSearchParams does, for any query string, or refuses a read one whose escapes are not UTF-8', () => {
    fc.assert(
      fc.property(queryString, (qs) => {
        const url = new URL(`${BASE}?${qs}`)
        const search = url.search.slice(1)
        if (brokenReadPair(search)) {
          expect(() => queryParams(search)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }))
          return
        }
        const params = queryParams(search)
        for (const name of NAMES) {
          expect(params.get(name)).toBe(url.searchParams.get(name))
          expect(params.getAll(name)).toEqual(url.searchParams.getAll(name))
        }
      }),
      { numRuns: 20_000 },
    )
  })

  test('plain query strings are read without URLSearchParams: repeated names, empty values, brackets', () => {
    const params = queryParams('lat=51.5&tags[]=a&tags%5B%5D=b&search=&x=1&x=2')
    expect(params).not.toBeInstanceOf(URLSearchParams)
    expect(params.get('lat')).toBe('51.5')
    expect(params.getAll('tags[]')).toEqual(['a', 'b'])
    expect(params.get('search')).toBe('')
    expect(params.get('x')).toBe('1')
    expect(params.getAll('x')).toEqual(['1', '2'])
    expect(params.get('lng')).toBeNull()
    expect(params.getAll('lng')).toEqual([])
    // Anything else is URLSearchParams' to read.
    expect(queryParams('search=caf%C3%A9+au+lait')).toBeInstanceOf(URLSearchParams)
    expect(queryParams('search=caf%C3%A9+au+lait').get('search')).toBe('café au lait')
  })
})

describe('pageLinks', () => {
  /** The links as pageLinks makes them for a URL: JSON text, as the answer holds it. */
  const linksOf = (url: URL) => pageLinks(...beforeAndQuery(url.href))
  const pageLink = (url: URL, to: number) => JSON.parse(linksOf(url)(to)) as string

  test('agrees with URLSearchParams for any query string and offset', () => {
    fc.assert(
      fc.property(queryString, fc.integer({ min: 0, max: 100_000 }), (qs, to) => {
        const url = new URL(`${BASE}?${qs}`)
        expect(linksOf(url)(to)).toBe(JSON.stringify(naive(url, to)))
      }),
      { numRuns: 20_000 },
    )
  })

  test('plain query strings, an offset already there, empty values and pairs, encoded characters', () => {
    const cases = [
      'lat=51.5&lng=-0.12',
      'lat=51.5&lng=-0.12&offset=20',
      'offset=5',
      'lat=51.5&offset=1&offset=2',
      'a=',
      'a',
      '=b',
      'a=1&&b=2',
      'a=1&',
      'tags[]=x&lat=1',
      'tags%5B%5D=x&tags[]=y&lat=1',
      'tags%5b%5d=x',
      'search=caf%C3%A9&lat=1',
      'search=a+b',
      'search=a%20b',
      'x=1*2.3_4-5',
      'myoffset=3&lat=1',
      'tags[]=x&offset=40&lat=1',
      'offset=1&myoffset=2&offset=3&offsets=4',
      'all=true&offset=980',
      '',
    ]
    for (const qs of cases) {
      const url = new URL(`${BASE}?${qs}`)
      const links = linksOf(url)
      for (const to of [0, 20, 980]) expect(links(to)).toBe(JSON.stringify(naive(url, to)))
    }
    // The plain case keeps the string as sent and adds the offset last.
    expect(pageLink(new URL(`${BASE}?lat=51.5&lng=-0.12&radius=5`), 20)).toBe(
      `${BASE}?lat=51.5&lng=-0.12&radius=5&offset=20`,
    )
    expect(pageLink(new URL(`${BASE}?lat=51.5&tags[]=a-b&tags%5B%5D=c`), 20)).toBe(
      `${BASE}?lat=51.5&tags%5B%5D=a-b&tags%5B%5D=c&offset=20`,
    )
    // An offset already there takes the new value where it stands; a second one goes.
    expect(pageLink(new URL(`${BASE}?all=true&offset=40&limit=20&offset=60`), 20)).toBe(
      `${BASE}?all=true&offset=20&limit=20`,
    )
  })
})

describe('beforeAndQuery', () => {
  const part = fc.constantFrom(
    '',
    'a',
    '/',
    '?',
    '#',
    '@',
    ':',
    '%',
    '%2F',
    '.',
    '..',
    'é',
    ' ',
    '&',
    '=',
    'x=1',
    '[',
    '\\',
  )
  const text = fc.array(part, { maxLength: 6 }).map((parts) => parts.join(''))
  test("gives the URL's origin + pathname + '?' and its search without '?', for any http(s) URL", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'file'),
        fc.constantFrom('localhost', 'Stores.Example.com', '127.0.0.1', '[::1]', 'bücher.example', '0x7f.1'),
        fc.constantFrom('', ':80', ':443', ':3000'),
        fc.constantFrom('', 'user@', 'user:pw@', ':@'),
        text,
        (scheme, host, port, user, rest) => {
          let url: URL
          try {
            url = new URL(`${scheme}://${user}${host}${port}/${rest}`)
          } catch {
            return
          }
          if (url.protocol !== 'http:' && url.protocol !== 'https:') return
          expect(beforeAndQuery(url.href)).toEqual([`${url.origin}${url.pathname}?`, url.search.slice(1)])
        },
      ),
      { numRuns: 5_000 },
    )
  })
})

// The route makes its answers (their links) from request.url as it is, not parsed again: that
// holds while Bun writes request.url as URL's href does. Raw request targets, sent as they are.
test("Bun's request.url is already written as URL's href, for request targets of every kind", async () => {
  const { connect } = await import('node:net')
  const seen: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => (seen.push(request.url), new Response('ok')),
  })
  const targets = [
    '/p/pk/locations?lat=1&lng=2',
    '/p/pk/../pk/./locations?tags[]=a',
    '/p//pk/locations?q=%7e%41&a=%zz',
    '/p/%70k/loc%61tions#frag',
    '/p/pk/locations?a="<>`^|\\{}',
    '/P/pk/lo{c}|ations?',
    '/p/pk/locations?a=%E2%82%AC&b=+',
  ]
  try {
    for (const target of targets) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(server.port!, '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: Stores.Example.COM:80\r\nConnection: close\r\n\r\n`),
        )
        socket.on('data', () => {})
        socket.on('error', reject)
        socket.on('close', () => resolve())
      })
    }
  } finally {
    server.stop(true)
  }
  expect(seen).toHaveLength(targets.length)
  for (const href of seen) expect(href).toBe(new URL(href).href)
})
