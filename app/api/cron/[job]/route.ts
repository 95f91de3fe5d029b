import { createHash, timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/env';
import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { endpoint, toProblem, type RouteHandler } from '@/lib/api/route';
import { jobNamed, runJobOnce } from '@/lib/jobs';
import { logger } from '@/lib/platform/observability/logger';

export const dynamic = 'force-dynamic';
/** Seconds a platform lets this function run (Vercel reads it); a pass stops starting work before. */
export const maxDuration = 60;
const PASS_BUDGET_MS = 50_000;

// GET /api/cron/{job} — one pass of a background job, for a platform's cron (Vercel Cron sends
// `Authorization: Bearer $CRON_SECRET`). Not part of the API: no Site credential, no OpenAPI.
const runFromCron: RouteHandler = async (req, ctx) => {
  const requestId = requestIdFor(req);
  const headers = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  const secret = env().CRON_SECRET;
  const { job: name } = (await ctx.params) as { job: string };
  const job = jobNamed(name);
  // Without a secret the routes do not exist; without the secret nobody learns the job names.
  if (!secret) return problemResponse({ code: 'not_found', detail: 'No such path.', requestId, headers });
  if (!authorized(req, secret)) {
    return problemResponse({
      code: 'unauthorized',
      detail: 'A cron call needs Authorization: Bearer with the CRON_SECRET.',
      requestId,
      headers: { ...headers, 'WWW-Authenticate': 'Bearer' },
    });
  }
  if (!job)
    return problemResponse({
      code: 'not_found',
      detail: `There is no job named ${JSON.stringify(name.slice(0, 64))}.`,
      requestId,
      headers,
    });
  const started = Date.now();
  try {
    const summary = await runJobOnce(job, { deadline: started + PASS_BUDGET_MS, frontDoor: new URL(req.url).origin });
    return Response.json({ job: job.name, ...summary, ms: Date.now() - started }, { headers });
  } catch (error) {
    const trail = { error: undefined as unknown };
    const problem = toProblem(error, requestId, headers, trail);
    logger().error(
      { requestId, job: job.name, status: problem.status, ...(trail.error === undefined ? {} : { err: trail.error }) },
      'job pass failed',
    );
    return problem;
  }
};

/** Compared as digests, so the time taken says nothing about the secret or its length. */
function authorized(req: Request, secret: string): boolean {
  const given = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(secret));
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({ GET: runFromCron });
