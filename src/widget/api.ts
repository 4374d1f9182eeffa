// The Query API as the widget calls it: one GET, its JSON, and its error as an ApiError.

export type Place = { label: string; lat: number; lng: number; country: string; precision: string }

export type Tag = { value: string; label: string; color?: string }

export type CustomField = { key: string; name: string; type: string; value: string; label?: string; color?: string }

export type Location = {
  id: string
  name: string
  /** `approximate`: the geocoder placed it only at its postcode or town (directions go to the address). */
  coordinates: { lat: number; lng: number; approximate?: true }
  address: { formatted: string; city?: string; country?: string }
  contact: { phone: string; email: string; website: string }
  hours: Record<string, string>
  timezone: string
  tags: Record<string, { name: string; items: Tag[] }>
  customFields: CustomField[]
  open_now: boolean | null
  next_change: string | null
  /** The hours text of the store's local date (special hours that date, else its weekday's). */
  hours_today: string | null
  distance?: { value: number; unit: 'km' | 'miles' }
}

export type FilterGroup = {
  id: string
  label: string
  singleSelect: boolean
  inline: boolean
  hidden: boolean
  tags: Tag[]
}

export type LocationsAnswer = {
  data: {
    locations: Location[]
    pagination: { offset: number; limit: number; total: number; hasMore: boolean }
  }
  meta: { query?: { center?: { lat: number; lng: number; label?: string }; radius?: number; unit?: 'km' | 'miles' } }
}

/** GET /filters: the locator's filter groups; its default radius, unit and store pages' language. */
export type FiltersAnswer = {
  data: { filters: FilterGroup[] }
  meta?: { radius: number; unit: 'km' | 'miles'; language?: string }
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** GET `path` under the locator's Query API, with `params` (repeated keys as arrays). */
export async function query<T>(
  api: string,
  token: string,
  path: string,
  params: [string, string][],
  signal?: AbortSignal,
): Promise<T> {
  const search = new URLSearchParams(params).toString()
  const url = `${api}/public/v1/${encodeURIComponent(token)}/${path}${search ? `?${search}` : ''}`
  let response: Response
  try {
    response = await fetch(url, { signal, credentials: 'omit' })
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    throw new ApiError('NETWORK', (e as Error).message)
  }
  type Answer = { success?: boolean; error?: { code?: string; message?: string } }
  // A request aborted while its body comes is aborted, not failed.
  const body = (await response.json().catch((e) => {
    if (signal?.aborted) throw e
    return null
  })) as Answer | null
  if (!response.ok || !body?.success) {
    const error = body?.error ?? {}
    // A proxy's own 429 (its limit on each address) is the rate limit to a visitor all the same.
    const code = error.code ?? (response.status === 429 ? 'RATE_LIMITED' : `HTTP_${response.status}`)
    throw new ApiError(code, error.message ?? response.statusText)
  }
  return body as unknown as T
}
