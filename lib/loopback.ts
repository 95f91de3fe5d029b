const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a URL's host is this machine (as URL spells it: IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname);
}
