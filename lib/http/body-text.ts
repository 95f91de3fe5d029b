/**
 * The exact body text of a Response this service made, so a wrapper that needs it (the
 * idempotency store) does not read the body stream back and build a second Response.
 */
export const bodyTextOf = new WeakMap<Response, string>();
