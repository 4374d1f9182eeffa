// The items of a header weighted by q-values (Accept, Accept-Encoding; RFC 9110 12.4.2).

/** Each item of `header`, lower-cased, with its weight: 1 without a q, NaN for one unreadable. */
export function weighted(header: string | null): { item: string; q: number }[] {
  return (header ?? '').split(',').map((part) => {
    const [item = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    return { item, q: q === undefined ? 1 : Number(q.slice(2)) }
  })
}
