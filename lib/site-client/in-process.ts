import 'server-only';
import { answerInProcess, credentialCheckOf, type CredentialCheck } from '@/app/site/v1/_routes';
import { processSlot } from '@/lib/process-state';

type ScopeSource = () => object | null;
const holder = processSlot<{ source?: ScopeSource }>('siteClientRenderScope', () => ({}));
/** The credential check each render's calls share, by the render's scope object. */
const checks = new WeakMap<object, CredentialCheck>();

/**
 * How the client finds the render a call is made in (an object that lives as long as the
 * render, null outside one); a front end sets it once. The in-process calls of one render
 * then read the credential once: the first call's check is handed to the next ones (for a
 * moment: app/site/v1/_routes.ts), so a page's second and later reads cost the database
 * nothing for the credential. Over HTTP every call is checked on its own.
 */
export function shareChecksWithin(source: ScopeSource): void {
  holder.source = source;
}

/**
 * A call to the API of this same deployment, answered by its route handler in this process:
 * the same Request → Response path (credential, limits, contract parsing), without a socket.
 * A serverless function has no loopback port to call, and going out to the public URL would
 * send every render's reads out of the platform and back in.
 */
export async function sendInProcess(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<Response> {
  const request = new Request(url, init);
  const scope = holder.source?.() ?? null;
  if (!scope) return answerInProcess(request);
  const response = await answerInProcess(request, checks.get(scope) ?? null);
  const check = credentialCheckOf(request);
  if (check) checks.set(scope, check);
  return response;
}
