import 'server-only';
import { db } from '@/lib/db';
import { HttpFailure } from '@/lib/http/failure';
import { problemResponse } from '@/lib/contract/problem-answers';
import { authenticateCredential, type SiteContext } from './credentials';

/**
 * The credential of a request (`Authorization: Bearer …`, one or more spaces), or a 401
 * problem with `WWW-Authenticate`, thrown for the route wrapper to send.
 */
export async function authenticate(req: Request, requestId: string): Promise<SiteContext> {
  const header = req.headers.get('authorization');
  const match = header ? /^Bearer +(\S+)$/i.exec(header.trim()) : null;
  const context = match?.[1] ? await authenticateCredential(db(), match[1]) : null;
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
  return context;
}
