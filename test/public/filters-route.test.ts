// GET /filters: the configured groups in order, then _default with the tags in no group, and
// changes to either served at once.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { CENTER, FILTERS, idsOf, KM_PER_MILE, makeFixture, oracle, send, type Fixture } from './fixture'
import { NEAR } from './locations-helpers'

describe('GET /filters', () => {
  let f: Fixture
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())

  const configured = () =>
    FILTERS.map((g) => ({
      id: g.id,
      name: g.name,
      label: g.label,
      singleSelect: g.singleSelect ?? false,
      inline: g.inline ?? false,
      hidden: false,
      hideInLocationDetails: g.hideInLocationDetails ?? false,
      tags: g.tags,
    }))

  test('the configured groups, in order, then _default listing the tags in no group (published locations only)', async () => {
    const res = await f.get('/filters')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      data: {
        filters: [
          ...configured(),
          {
            id: '_default',
            name: expect.any(String),
            label: expect.any(String),
            singleSelect: false,
            inline: false,
            hidden: false,
            hideInLocationDetails: false,
            tags: [
              { value: 'outlet', label: 'Outlet' },
              { value: 'vintage', label: 'Vintage' },
            ],
          },
        ],
      },
      meta: { radius: 25, unit: 'miles', language: 'en' },
    })
    expect(res.text).not.toContain('draftonly')
  })

  test('a new ungrouped tag shows up in _default at once, as it was spelt, and filtering by it works', async () => {
    const res = await f.env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Tandem Hub',
        address: '3 Rue X',
        coordinates: { lat: 48.86, lng: 2.35 },
        tags: ['Tandem Friendly'],
      },
    })
    expect(res.status).toBe(201)
    const filters = (await f.get('/filters')).body.data.filters
    const dflt = filters.find((g: { id: string }) => g.id === '_default')
    expect(dflt.tags).toEqual([
      { value: 'outlet', label: 'Outlet' },
      { value: 'Tandem Friendly', label: 'Tandem Friendly' },
      { value: 'vintage', label: 'Vintage' },
    ])
    expect((await f.get(`/locations/${res.body.location.id}`)).body.data.location.tags._default.items).toEqual([
      { value: 'Tandem Friendly', label: 'Tandem Friendly' },
    ])
    for (const value of ['Tandem%20Friendly', 'tandem%20friendly']) {
      const found = await f.get(f.url('/locations', `all=true&tags[]=${value}`))
      expect(idsOf(found)).toEqual([res.body.location.id])
    }
    // Renamed to its lowercase spelling: the one spelling left is listed.
    expect(
      (await f.env.call('POST', `/admin/v1/locations/${res.body.location.id}`, { body: { tags: ['tandem friendly'] } }))
        .status,
    ).toBe(200)
    const after = (await f.get('/filters')).body.data.filters.find((g: { id: string }) => g.id === '_default')
    expect(after.tags.map((t: { value: string }) => t.value)).toEqual(['outlet', 'tandem friendly', 'vintage'])
  })

  test('a tag in no group, written as a slug or in lower case, is labelled as words; another as written', async () => {
    const tags = ['dog-friendly', 'wheelchair_access', 'café', 'e-Bikes', 'B&B', '24h']
    const res = await f.env.call('POST', '/admin/v1/locations', {
      body: { name: 'Labels', address: '3 Rue X', coordinates: { lat: 48.86, lng: 2.35 }, tags },
    })
    expect(res.status).toBe(201)
    const labels = ['Dog friendly', 'Wheelchair access', 'Café', 'e-Bikes', 'B&B', '24h']
    const items = (await f.get(`/locations/${res.body.location.id}`)).body.data.location.tags._default.items
    expect(items).toEqual(tags.map((value, i) => ({ value, label: labels[i] })))
    const listed = (await f.get('/filters')).body.data.filters.find((g: { id: string }) => g.id === '_default').tags
    for (const [i, value] of tags.entries()) expect(listed).toContainEqual({ value, label: labels[i] })
    expect((await f.env.call('POST', `/admin/v1/locations/${res.body.location.id}/delete`)).status).toBe(200)
  })

  test("changed filter groups are served at once, in /filters and in every location's tags", async () => {
    setFilters(f.env.store, f.env.locatorId, [
      { ...FILTERS[0]!, name: 'Workshop services' },
      {
        id: 'styles',
        name: 'Styles',
        label: 'Style',
        tags: [{ value: 'vintage', label: 'Vintage', color: '#abcdef' }],
      },
    ])
    const filters = (await f.get('/filters')).body.data.filters
    expect(filters.map((g: { id: string }) => g.id)).toEqual(['services', 'styles', '_default'])
    expect(filters[0].name).toBe('Workshop services')
    // Trek, Giant, Specialized are in no group now: each as most locations spell it (Giant 2, GIANT 1,
    // giant 1; specialized 2, Specialized 1; trek 3, Trek 2), as those locations' own tags show it.
    expect(filters[2].tags).toEqual(
      ['Giant', 'outlet', 'specialized', 'trek'].map((value) => ({
        value,
        label: value[0]!.toUpperCase() + value.slice(1),
      })),
    )
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.tags).toEqual({
      services: { name: 'Workshop services', items: [{ value: 'repair', label: 'Repair', color: '#d73a49' }] },
      _default: { name: expect.any(String), items: [{ value: 'trek', label: 'Trek' }] },
      styles: { name: 'Styles', items: [{ value: 'vintage', label: 'Vintage', color: '#abcdef' }] },
    })
  })

  test('a hidden group is served with hidden: true, and still filters (match) and labels tags', async () => {
    setFilters(f.env.store, f.env.locatorId, [FILTERS[0]!, { ...FILTERS[1]!, hidden: true }])
    const filters = (await f.get('/filters')).body.data.filters
    expect(filters.map((g: { id: string; hidden: boolean }) => [g.id, g.hidden])).toEqual([
      ['services', false],
      ['brands', true],
      ['_default', false],
    ])
    const match = await f.get(f.url('/locations', `${NEAR}&limit=100&tagLogic=match&tags[]=repair&tags[]=trek`))
    expect(idsOf(match)).toEqual(
      oracle(f.locs, { center: CENTER, radiusKm: 25 * KM_PER_MILE, tags: ['repair', 'trek'], tagLogic: 'match' }).map(
        (h) => h.loc.id,
      ),
    )
    expect(idsOf(match).length).toBeGreaterThan(0)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.tags.brands).toEqual({ name: 'Brands', items: [{ value: 'Trek', label: 'Trek' }] })
  })

  test('with no filter groups and no tags: an empty list', async () => {
    const other = createLocator(f.env.store, 'Empty')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const res = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      data: { filters: [] },
      meta: { radius: 25, unit: 'miles', language: 'en' },
    })
  })

  test("meta gives the locator's default radius and unit, its pages' language, and follows a change of them", async () => {
    const other = createLocator(f.env.store, 'Metric')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on', radius: '20', unit: 'km', language: 'de' })
    const url = `http://localhost/public/v1/${other.locator.publicToken}/filters`
    expect((await send(f.env.app, url)).body.meta).toEqual({ radius: 20, unit: 'km', language: 'de' })
    setLocatorSettings(f.env.store, other.locator.id, { radius: '', unit: 'miles', language: '' })
    expect((await send(f.env.app, url)).body.meta).toEqual({ radius: 25, unit: 'miles', language: 'en' })
  })
})
