// Issue #4 fills this in: per-credential fixed-window budgets counted in the database.
export type RateLimitInput = { credentialId: string; kind: 'read' | 'write'; buyerIp: string | null };

/** Counts the request and answers the RateLimit headers; throws rate_limited past the budget. */
export async function applyRateLimit(input: RateLimitInput): Promise<Record<string, string>> {
  void input;
  return {};
}
