import 'server-only';
import { answerInProcess } from '@/app/site/v1/_routes';

/**
 * A call to the API of this same deployment, answered by its route handler in this process:
 * the same Request → Response path (credential, limits, contract parsing), without a socket.
 * A serverless function has no loopback port to call, and going out to the public URL would
 * send every render's reads out of the platform and back in.
 */
export function sendInProcess(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<Response> {
  return answerInProcess(new Request(url, init));
}
