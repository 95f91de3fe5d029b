// Deliberately empty. Without a hook of its own, a Next app inside this workspace picks up
// the shop's instrumentation.ts from the workspace root (the server guard, the outbox drain
// with its database), and the reference would no longer be a bare app.
export function register() {}
