// Compile-time only: the client's own types (src/client/types.ts) are the server's, field for
// field. tsc (`npm run check`, test/typecheck.test.ts) fails when one side drifts.
import type { ADMIN_ERRORS } from '../../src/api/admin/errors'
import type { StorelocError } from '../../src/client'
import type * as client from '../../src/client/types'
import type { BulkReport } from '../../src/locations/bulk'
import type { CreateLocationBody, UpdateLocationBody } from '../../src/locations/model'
import type { AdminLocation } from '../../src/locations/service'

/** Exactly the same type, optional and readonly markers included. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
/** Compares object types member by member, so nested optional fields count too. */
type Deep<T> = T extends object ? { [K in keyof T]: Deep<T[K]> } : T
type Same<A, B> = Equal<Deep<A>, Deep<B>>

/**
 * The codes of the Management API's answers a call of the client can meet (a 405 answers a method
 * no route takes: the client sends each route's own), as test/client/error-table.test.ts has the
 * docs' table name them, and the client's own two.
 */
type Answered = (typeof ADMIN_ERRORS)[Exclude<keyof typeof ADMIN_ERRORS, 'method_not_allowed'>]['error']

export const checks: [
  Same<client.AdminLocation, AdminLocation>,
  Same<client.CreateLocationBody, CreateLocationBody>,
  Same<client.UpdateLocationBody, UpdateLocationBody>,
  Same<client.BulkReport, BulkReport>,
  Equal<client.ErrorCode, Answered | 'network_error' | 'invalid_response'>,
  // Each of them, and another's (a newer service's code), is a StorelocError's code.
  client.ErrorCode extends StorelocError['code'] ? true : false,
  string extends StorelocError['code'] ? true : false,
] = [true, true, true, true, true, true, true]

/** The bulk items an export's rows make, which the server takes: a null beside the other name. */
export const items: (client.BulkLocation | client.BulkDelete)[] = [
  { id: 'loc_0000000000000001', external_id: null, delete: true },
  { id: null, external_id: 'S1', delete: true },
  { id: null, external_id: 'S2', name: 'New' },
]
