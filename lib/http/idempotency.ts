// Issue #3 fills this in: Idempotency-Key records in the database, per credential.
export type IdempotencyInput = { credentialId: string; key: string | null; method: string; path: string; bodyText: string };

export async function withIdempotency(
  input: IdempotencyInput,
  run: () => Promise<Response>,
  baseHeaders: Record<string, string>,
): Promise<Response> {
  void input;
  void baseHeaders;
  return run();
}
