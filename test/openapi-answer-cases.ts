// The requests of openapi-answers.test.ts, one or more per operation of the document, each with
// the status it must get: the Management API's in openapi-cases-admin.ts, the Query API's and the
// probes' in openapi-cases-public.ts. `other` holds what the test's beforeAll makes for them.

/** A real request, the operation it is for, and the status it must get. `sent`: its JSON body. */
export type Case = {
  name: string
  op: string
  status: number
  request: () => Request | Promise<Request>
  sent?: unknown
}

/** Locators, a key and locations the test's beforeAll makes. */
export const other = {} as {
  off: string
  picky: string
  tight: string
  switchedOffKey: string
  doomed: string
  updated: string
}
