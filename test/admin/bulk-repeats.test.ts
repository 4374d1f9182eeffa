// POST /admin/v1/locations/bulk: rows without a store code that repeat a stored location, against
// what the same request deletes; and a CSV row's coordinates of one column, named by it.
import { describe, expect, test } from 'bun:test'
import { all, csv, env, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const HEADER = 'Store Code,Name,Address,Lat,Lng\n'
const CORNER = 'Corner,"1 Main St, Springfield",39.78,-89.65'
const OTHER = 'S2,Other,"2 Main St, Springfield",39.79,-89.66'

describe('bulk upsert, repeated stores', () => {
  test('a row without its code of a store delete_missing deletes: told the code to give it, not counted as a repeat', async () => {
    await csv(`${HEADER}S1,${CORNER}\n${OTHER}\n`)
    const s1 = (await all()).find((l: any) => l.external_id === 'S1').id
    const answer = await csv(`${HEADER},${CORNER}\n${OTHER}\n`, '?delete_missing=true&dry_run=true')
    expect(answer.body).toMatchObject({ created: 1, deleted: 1 })
    expect(answer.body.notes).toBeUndefined()
    expect(answer.body.results[0].warnings).toEqual([
      `Location ${s1} has this name and address, and is deleted, its external_id "S1" in no row: if this row is that store, give it the external_id "S1", and the store is updated in place, its id kept.`,
    ])
    // Without delete_missing it stays: the row makes it a second time.
    const kept = await csv(`${HEADER},${CORNER}\n${OTHER}\n`, '?dry_run=true')
    expect(kept.body.notes).toHaveLength(1)
    expect(kept.body.results[0].warnings[0]).toStartWith(`Location ${s1} has this name and address: if it is`)
  })

  test('rows of one file without a code that repeat an earlier row are counted on a first import, naming both lines', async () => {
    const again = ',corner,"1 main st,  Springfield",39.781,-89.651'
    const answer = await csv(
      `${HEADER},${CORNER}\n${OTHER}\n,${CORNER}\n${again}\n,Elsewhere,"3 Main St, Springfield",1,1\n`,
    )
    expect(answer.body).toMatchObject({ created: 5 })
    expect(answer.body.notes).toEqual([
      '2 rows of 4 to create have the name and address of an earlier row of the file (line 4 repeats line 2; line 5 repeats line 2): where rows are one store, the file makes it more than once. Give each row its store code in an external_id column ("Store Code" is read as one), or delete the rows repeated.',
    ])
    const warnings = answer.body.results.map((r: any) => r.warnings)
    expect(warnings[3]).toEqual([
      "Line 2 has this row's name and address too: if it is the same store, the file makes it twice. Give each row its store code as external_id.",
    ])
    expect(warnings[0]).toEqual([])
    // A JSON body names its items.
    const same = { name: 'Kiosk', address: '9 Main St, Springfield', coordinates: { lat: 39.7, lng: -89.6 } }
    const json = await env.call('POST', '/admin/v1/locations/bulk?dry_run=true', { body: { locations: [same, same] } })
    expect(json.body.notes).toEqual([
      '1 location of 2 to create has the name and address of an earlier one of the request (locations[1] repeats locations[0]): if both are one store, the request makes it twice. Give each its store code as external_id, or leave out the one repeated.',
    ])
  })

  // The repeat check finds stored stores by their name_key: an update keeps it the name's.
  test('a store renamed through the API is repeated by its new name, case and accents aside, not its old', async () => {
    await csv(`${HEADER},${CORNER}\n`)
    const id = (await all())[0].id
    const renamed = await env.call('POST', `/admin/v1/locations/${id}`, { body: { name: 'Café Ecke' } })
    expect(renamed.status).toBe(200)
    const again = await csv(`${HEADER},CAFE ECKE,"1 Main St, Springfield",39.78,-89.65\n`, '?dry_run=true')
    expect(again.body.notes).toHaveLength(1)
    expect(again.body.results[0].warnings[0]).toStartWith(`Location ${id} has this name and address: if it is`)
    const old = await csv(`${HEADER},${CORNER}\n`, '?dry_run=true')
    expect(old.body.notes).toBeUndefined()
    expect(old.body.results[0].warnings).toEqual([])
  })

  test('a row of a store the request deletes by a delete item replaces it: no warning, no note', async () => {
    await csv(`${HEADER}S1,${CORNER}\n`)
    const body = {
      locations: [
        { external_id: 'S1', delete: true },
        { name: 'Corner', address: '1 Main St, Springfield', coordinates: { lat: 39.78, lng: -89.65 } },
      ],
    }
    const answer = await env.call('POST', '/admin/v1/locations/bulk?dry_run=true', { body })
    expect(answer.body).toMatchObject({ created: 1, deleted: 1 })
    expect(answer.body.notes).toBeUndefined()
    expect(answer.body.results.find((r: any) => r.action === 'created').warnings).toEqual([])
  })

  test('a store of the name of one 8 m off, a second in its mall, is told it may repeat it, not that it does', async () => {
    await csv(`${HEADER},Starbucks,"Westfield, London",51.50720,-0.22150\n`)
    const stored = (await all())[0].id
    const answer = await csv(
      `${HEADER},Starbucks,"Westfield Mall, Ariel Way, London",51.50720,-0.22162\n`,
      '?dry_run=true',
    )
    expect(answer.body.results[0].warnings).toEqual([
      `Location ${stored} has this name 8 m from this row's point: if it is this row's store, this row makes a second one. Give each row its store code as external_id, and imports update the stores they match.`,
    ])
    expect(answer.body.notes).toEqual([
      `1 row of 1 to create has the name and address of a location ${env.locatorId} has, or its name and a point within 10 m of it: if it is the same store, a file without store codes makes it a second time. Give each row its store code in an external_id column ("Store Code" is read as one), and imports update the stores they match.`,
    ])
  })
})

test('a coordinate out of range in a column of both is named as the latitude or longitude of that column', async () => {
  const answer = await csv(
    'name,address,Koordinaten\nA,"1 Main St, Berlin","95.5, 13.4"\nB,"2 Main St, Berlin","52.5, 213.4"\n',
  )
  expect(answer.status).toBe(422)
  expect(Object.values(answer.body.details).flat()).toEqual([
    'line 2 ("A"): The latitude in the "Koordinaten" column must be between -90 and 90; got 95.5, with 13.4 as the longitude: are latitude and longitude swapped?',
    'line 3 ("B"): The longitude in the "Koordinaten" column must be between -180 and 180; got 213.4.',
  ])
})
