// NaN and Infinity, which Python's json.dumps writes for float('nan') and float('inf') and JSON
// has no number for: the 400 names the value and where it is, on the single and the bulk routes.
import { test, expect } from 'bun:test'
import { withEnv, BASE, rawRequest, snapshot } from './locations-fixture'

withEnv()

test('NaN or Infinity in a JSON body: the 400 names it, where, and what to send', async () => {
  const snap = snapshot()
  const point = (lat: string) => `{"name": "A", "address": "1 Main St",\n "coordinates": {"lat": ${lat}, "lng": 1}}`
  for (const [path, sent, value, where] of [
    [BASE, point('NaN'), 'NaN', 'line 2, column 25'],
    [`${BASE}/bulk`, `{"locations": [${point('Infinity')}]}`, 'Infinity', 'line 2, column 25'],
    [BASE, point('-Infinity'), '-Infinity', 'line 2, column 25'],
    // Inside a string it is text.
    [BASE, '{"name": "NaN Infinity", "address": NaN}', 'NaN', 'line 1, column 37'],
  ] as const) {
    const res = await rawRequest('POST', path, new TextEncoder().encode(sent), { 'content-type': 'application/json' })
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
      400,
      `The request body is not valid JSON: it has ${value} (${where}), which is no JSON number (Python's json.dumps writes float('nan') and float('inf') so). Send a number, or leave the field out.`,
    ])
  }
  expect(snapshot()).toEqual(snap)
})

test('NaN or Infinity where a name belongs is not called a number', async () => {
  const snap = snapshot()
  for (const sent of [
    '{"name": "A", "address": "x" , Infinity}',
    '{"locations": [{"name": "A", "address": "x", NaN: 1}]}',
  ]) {
    const res = await rawRequest('POST', `${BASE}/bulk`, new TextEncoder().encode(sent), {
      'content-type': 'application/json',
    })
    const { message } = (await res.json()) as { message: string }
    expect(res.status).toBe(400)
    expect(message).toStartWith('The request body is not valid JSON: ')
    expect(message).not.toContain('JSON number')
  }
  // In an array after a comma, it stands where a value does.
  const res = await rawRequest('POST', `${BASE}/bulk`, new TextEncoder().encode('{"locations": [{}, NaN]}'), {
    'content-type': 'application/json',
  })
  expect(((await res.json()) as { message: string }).message).toContain(
    'it has NaN (line 1, column 20), which is no JSON number',
  )
  expect(snapshot()).toEqual(snap)
})
