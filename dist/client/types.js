// The Management API's bodies and answers as the client sees them. Written out here, not imported
// from the server, so the client builds to plain JS with a .d.ts that needs nothing else;
// test/client/types-match.ts fails the type check when they drift from the server's schemas.
export {};
