// storeloc doctor on opening hours it cannot read: published locations' days and dates named with
// their texts, days open by appointment as a note, rows whose JSON is not JSON.
import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { openStore } from '../../src/store'
import { quietApp, storeBody } from '../helpers'
import { dbPath, doctor, healthy, json, problemsOf, storeloc, writeJson, useDoctorDatabase } from './doctor-fixture'

useDoctorDatabase()

describe('opening hours', () => {
  test('published locations with a day or date not read are named with their texts; drafts are not', async () => {
    const { locator } = await healthy()
    const stores = Array.from({ length: 7 }, (_, i) =>
      storeBody({ name: `Shop ${i}`, hours: { monday: '9-18', tuesday: 'sometimes' } }),
    )
    stores.unshift(storeBody({ name: 'Fair', special_hours: { '2026-12-24': 'ask us' }, hours: { friday: '10-16' } }))
    stores.push(storeBody({ name: 'Draft', status: 'draft', hours: { monday: 'sometimes' } }))
    const imported = await json('locations', 'import', locator, '--file', await writeJson('hours.json', stores))
    const ids = imported.results.map((r: { id: string }) => r.id)
    const report = await doctor()
    expect(report.healthy).toBe(false)
    const fair = `${ids[0]} (Fair: 2026-12-24 "ask us")`
    const shops = ids.slice(1, 5).map((id: string, i: number) => `${id} (Shop ${i}: tuesday "sometimes")`)
    expect(problemsOf(report, 'locator')).toEqual([
      {
        problem: `8 published location(s) have opening hours that cannot be read: ${[fair, ...shops].join('; ')} and 3 more. Such a day counts as unknown: open_now is null, and open_now=true leaves the location out.`,
        fix: `Write those days as times, such as 09:00-18:00, closed or 24 hours (docs/management-api.md, Opening hours): storeloc locations export ${locator} --database ${dbPath} > stores.json, correct them, and import the file back.`,
      },
    ])
    // Fixed as the message says: exported, corrected, imported back.
    const exported = await json('locations', 'export', locator)
    for (const l of exported) {
      if (l.hours.tuesday === 'sometimes') l.hours.tuesday = 'closed'
      if (l.special_hours['2026-12-24']) l.special_hours['2026-12-24'] = '10:00-14:00'
    }
    await json('locations', 'import', locator, '--file', await writeJson('fixed.json', exported))
    expect((await doctor()).healthy).toBe(true)
  })

  test('days open by appointment are a note (exit 0), as the import warns; a text not read beside one is a problem', async () => {
    const { locator } = await healthy()
    const stores = [
      storeBody({ name: 'Atelier', hours: { monday: '9-18', saturday: 'by appointment' } }),
      storeBody({ name: 'Werkstatt', hours: { monday: '9-18', friday: 'nach Vereinbarung' } }),
    ]
    const imported = await json('locations', 'import', locator, '--file', await writeJson('appt.json', stores))
    const [atelier, werkstatt] = imported.results.map((r: { id: string }) => r.id)
    const note = {
      problem: `2 published location(s) open by appointment on some days, with no hours: ${atelier} (Atelier: saturday "by appointment"); ${werkstatt} (Werkstatt: friday "nach Vereinbarung"). Such a day counts as unknown: open_now is null, and open_now=true leaves the location out.`,
      fix: `None if they open only by appointment. To show those days as open or closed, write them as times or closed: storeloc locations export ${locator} --database ${dbPath} > stores.json, correct them, and import the file back.`,
    }
    const report = await doctor()
    expect(report.healthy).toBe(true)
    expect(report.checks.find((c) => c.check === 'locator')).toMatchObject({
      ok: true,
      summary: 'Query API on, filter groups, keys and placements ok',
      problems: [],
      notes: [note],
    })
    const text = await storeloc('doctor')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(`note     locator ${locator} "Healthy": ${note.problem}`)

    const mixed = storeBody({ name: 'Mixed', hours: { monday: 'sometimes', saturday: 'by appointment' } })
    const added = await json('locations', 'import', locator, '--file', await writeJson('mixed.json', [mixed]))
    const problems = problemsOf(await doctor(), 'locator')
    expect(problems.map((p) => p.problem)).toEqual([
      `1 published location(s) have opening hours that cannot be read: ${added.results[0].id} (Mixed: monday "sometimes"). Such a day counts as unknown: open_now is null, and open_now=true leaves the location out.`,
    ])
  })

  test('a row whose JSON columns hold other text (a hand edit): named with its columns, not a crash', async () => {
    const { locator, key } = await healthy()
    const db = new Database(dbPath)
    db.exec(`UPDATE locations SET hours = '{9-5', tags = 'bikes' WHERE locator_id = '${locator}'`)
    const id = db.query<{ id: string }, []>('SELECT id FROM locations').get()!.id
    db.close()
    const report = await doctor()
    expect(problemsOf(report, 'locator')).toEqual([
      {
        problem: `1 location(s) hold text that is not JSON where the service writes JSON: ${id} (tags, hours). The service did not write it (a hand edit, another program): a Management API answer that includes one is a 500, and its locator's index may not build.`,
        fix: `Delete each with the Management API (POST /admin/v1/locations/{id}/delete, which does not read it) and send it again, or restore the last good backup (storeloc restore FILE --database ${dbPath}).`,
      },
    ])
    // Fixed as it says.
    const store = openStore(dbPath)
    const res = await quietApp(store).handle(
      new Request(`http://localhost/admin/v1/locations/${id}/delete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      }),
    )
    store.close()
    expect(res.status).toBe(200)
    expect(problemsOf(await doctor(), 'locator')).toEqual([])
  })
})
