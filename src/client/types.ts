// The Management API's bodies and answers as the client sees them. Written out here, not imported
// from the server, so the client builds to plain JS with a .d.ts that needs nothing else;
// test/client/types-match.ts fails the type check when they drift from the server's schemas.

export type Day = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'

/** How a location's point was found: the geocoder's precision and source (`reverse` for sent coordinates). */
export type Geocoding = { precision: string; source: string }

/** A location as the Management API answers it: every field, always. */
export type AdminLocation = {
  id: string
  external_id: string | null
  name: string
  address: string
  coordinates: { lat: number; lng: number }
  description: string
  tags: string[]
  contact: { phone: string; email: string; website: string }
  social: { instagram: string; facebook: string; twitter: string }
  hours: Record<Day, string>
  special_hours: Record<string, string>
  timezone: string
  /** The days and dates whose hours text could not be read. */
  hours_unread: string[]
  custom_fields: Record<string, string>
  image_url: string
  status: 'published' | 'draft'
  geocoding: Geocoding | null
  created_at: string
  updated_at: string
}

/** POST /locations: name and address required. `status` also takes draft's aliases (hidden, inactive...). */
export type CreateLocationBody = {
  external_id?: string | null
  name: string
  address: string
  coordinates?: { lat: number; lng: number }
  description?: string
  tags?: string[]
  contact?: { phone?: string; email?: string; website?: string }
  social?: { instagram?: string; facebook?: string; twitter?: string }
  hours?: Partial<Record<Day, string>>
  special_hours?: Record<string, string>
  timezone?: string | null
  custom_fields?: Record<string, string>
  image_url?: string
  status?: string
}

/** POST /locations/{id}: only the fields sent change. */
export type UpdateLocationBody = Partial<CreateLocationBody>

/** A location in a bulk request: a create or update body, with `id` or `external_id` to match (null: as left out). */
export type BulkLocation = UpdateLocationBody & { id?: string | null; delete?: false }

/**
 * A bulk request's delete item: the location with this `id`, else this `external_id`, and nothing
 * else; the other may be null, as an export's row has it. One naming no location is no error: its
 * result's action is `absent`. `if_updated_at`: the location's `updated_at` as read; changed since,
 * the request is refused with `precondition_failed` and nothing is written.
 */
export type BulkDelete = { delete: true; if_updated_at?: string | null } & (
  | { id: string; external_id?: string | null }
  | { external_id: string; id?: string | null }
)

/** `absent`: a delete item naming no location of the locator (deleted already): nothing to delete. */
export type BulkAction = 'created' | 'updated' | 'unchanged' | 'deleted' | 'absent'

export type BulkResult = {
  /** The item's position in the request; null for a location delete_missing deleted. */
  index: number | null
  /** The line of the item's row, when it was a CSV row. */
  line?: number
  /** null for a location a dry run would create. */
  id: string | null
  external_id: string | null
  /** A deleted location's name: a delete item or delete_missing names it by id or external_id only. */
  name?: string
  action: BulkAction
  /** An update's fields that change ("name", "coordinates", "hours.monday"); only with `updated`. */
  changes?: string[]
  /** What geocoding gave the item's address; null when it was not geocoded. */
  geocoding: Geocoding | null
  warnings: string[]
}

export type BulkReport = {
  dry_run: boolean
  created: number
  updated: number
  unchanged: number
  deleted: number
  absent: number
  results: BulkResult[]
  /** What is said of the request as a whole: locations without an external_id that repeat stored ones. */
  notes?: string[]
}

export type LocationPage = {
  locations: AdminLocation[]
  pagination: {
    page: number
    limit: number
    total: number
    total_pages: number
    next: string | null
    previous: string | null
  }
}

export type CustomField = { id: string; name: string; type: string }

/** The locator a key writes (GET /admin/v1/locator). */
export type Locator = { id: string; name: string }

/**
 * What a StorelocError's `code` may be: the Management API's error codes (docs/management-api.md,
 * Errors), but `method_not_allowed`, which no call of the client meets, and the client's own two:
 * `network_error` (no try was answered) and `invalid_response` (an answer that is not JSON).
 */
export type ErrorCode =
  | 'invalid_request'
  | 'limit_exceeded'
  | 'Authentication failed'
  | 'error'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'idempotency_answer_not_kept'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'geocoding_failed'
  | 'validation_error'
  | 'unavailable'
  | 'database_damaged'
  | 'network_error'
  | 'invalid_response'

/**
 * A CSV file as a script has it: its text, or its bytes (a Blob or File, a Uint8Array or Buffer,
 * an ArrayBuffer), or a stream of them (a fetch body's ReadableStream, Node's fs.createReadStream).
 * Bytes are sent as they are: the service reads a byte order mark, and a File's type with a
 * charset ("text/csv; charset=windows-1252") is sent as the Content-Type.
 */
export type CsvBody =
  | string
  | Blob
  | ArrayBuffer
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>

/** The flags of a bulk upsert, as the body or the query string gives them. */
export type BulkFlags = { dry_run?: boolean; delete_missing?: boolean; max_delete?: number | null }

/**
 * A CSV bulk upsert's flags, and `charset`: the encoding of the body's bytes (`windows-1252`), sent
 * as `text/csv; charset=...`; when not given, a File's or Blob's own charset, else none (UTF-8).
 */
export type BulkCsvFlags = BulkFlags & { charset?: string }

/** Which locations an export holds: both (the default), or those of one status. */
export type ExportQuery = { status?: 'published' | 'draft' }

/** A CSV export: its cells apart by `,` (the default), `;` (coordinates then with a decimal comma, for Excel) or a tab. */
export type CsvExportQuery = ExportQuery & { format: 'csv'; separator?: ',' | ';' | 'tab' }
