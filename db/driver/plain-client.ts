import { createClient, type Client } from '@libsql/client';

/**
 * A plain connection to a database, without the app's write queue, checkpoints or time
 * limits: it stands for another process (an admin tool, a test looking at what the servers
 * wrote). It waits its turn for the lock, as such a tool would, instead of failing at once.
 */
export type Connection = Pick<Client, 'execute' | 'batch' | 'transaction' | 'executeMultiple' | 'close' | 'closed'>;

export function openConnection(url: string, options: { authToken?: string; busyTimeoutMs?: number } = {}): Connection {
  return createClient({ url, authToken: options.authToken, concurrency: 1, timeout: options.busyTimeoutMs ?? 10_000 });
}
