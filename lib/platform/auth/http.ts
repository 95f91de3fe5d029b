import 'server-only';
import { db } from '@/lib/db';
import { HttpFailure } from '@/lib/http/failure';
import { problemResponse } from '@/lib/contract/problem-answers';
import { authenticateCredential, type SiteContext } from './credentials';

/**
 * What one request's credential lookup found, handed by a caller in this process to its next
 * requests (app/site/v1/_routes.ts, answerInProcess): the calls one page render makes to the
 * API in-process then read the credential once, not once a call. Opaque to the caller.
 */
export type CredentialCheck = { readonly token: string; readonly context: SiteContext; readonly at: number };

/**
 * A check is handed on for this long at most: the calls of one render. A revocation or a
 * catalog change still counts from the next request, as every lookup's does.
 */
const HANDED_FOR_MS = 2000;

/**
 * Requests made in this process (never from outside: only a holder of the Request object can
 * set it) that carry a check (a CredentialCheck) or ask for theirs to be noted (null).
 */
const handed = new WeakMap<Request, CredentialCheck | null>();

/** `req` is answered with `check` when it is for the same credential and fresh; else its own lookup is noted for the caller. */
export function handCredentialCheck(req: Request, check: CredentialCheck | null): void {
  handed.set(req, check);
}

/** The check a request asked to have noted (handCredentialCheck), once it has been answered. */
export function credentialCheckOf(req: Request): CredentialCheck | null {
  return handed.get(req) ?? null;
}

/**
 * The credential of a request (`Authorization: Bearer …`, one or more spaces), or a 401
 * problem with `WWW-Authenticate`, thrown for the route wrapper to send.
 */
export async function authenticate(req: Request, requestId: string): Promise<SiteContext> {
  const header = req.headers.get('authorization');
  const match = header ? /^Bearer +(\S+)$/i.exec(header.trim()) : null;
  const token = match?.[1];
  const given = handed.get(req);
  if (given && given.token === token && performance.now() - given.at <= HANDED_FOR_MS) return given.context;
  const context = token ? await authenticateCredential(db(), token) : null;
  if (!context) {
    throw new HttpFailure(
      problemResponse({
        code: 'unauthorized',
        detail: header ? 'The credential is not valid.' : 'Send a Site credential as "Authorization: Bearer <credential>".',
        requestId,
        headers: { 'WWW-Authenticate': 'Bearer realm="site"' },
      }),
    );
  }
  if (given !== undefined) handed.set(req, { token: token!, context, at: performance.now() });
  return context;
}
