import { logger } from './logger';

/**
 * A warning (the server's log) that speaks at most once a minute: for failures that only
 * cost speed (a page rendered instead of served as kept) and could otherwise repeat on every
 * request.
 */
export function warnSometimes(say: (message: string) => void = (message) => logger().warn(message)): (message: string) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (message) => {
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    say(message);
  };
}

/** What failed, for such a warning: the error's message, never a stack. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : 'error';
}
