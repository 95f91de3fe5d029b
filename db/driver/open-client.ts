import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Client } from '@libsql/client';
import { createLocalClient } from './local-client';
import { createRemoteClient } from './remote-client';
import { tracedClient } from './traced-client';

export type ClientConfig = {
  url: string;
  authToken?: string;
  busyTimeoutMs: number;
  timeoutMs?: number;
  statementTimeoutMs?: number;
  checkpointIntervalMs?: number;
  traced: boolean;
};

/**
 * The client for a database URL. What differs by URL is decided here and in the clients
 * themselves (local-client.ts and remote-client.ts each list their differences):
 *
 * - A local file (`file:`): its folder is created if missing (libSQL does not), and it gets
 *   the client that queues this process's writes, retries a taken lock without blocking the
 *   event loop, and checkpoints on a worker (local-client.ts).
 * - Anything else is a server (`libsql://`, `https://`, `http://`): the client whose every
 *   request has a time limit (remote-client.ts). The server orders the writes.
 */
export function openClient({
  url,
  authToken,
  busyTimeoutMs,
  timeoutMs,
  statementTimeoutMs,
  checkpointIntervalMs,
  traced,
}: ClientConfig): Client {
  const folder = databaseFolder(url);
  if (folder) mkdirSync(folder, { recursive: true });
  const plain = url.startsWith('file:')
    ? createLocalClient({ url, authToken, timeout: busyTimeoutMs, statementTimeoutMs, checkpointIntervalMs })
    : createRemoteClient({ url, authToken, timeoutMs });
  return traced ? tracedClient(plain) : plain;
}

/**
 * The folder of a local database file (files that belong beside it go there: mail written
 * as .eml); null for an in-memory database or a server, which has no folder of ours.
 */
export function databaseFolder(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const path = url.slice('file:'.length).split('?')[0] ?? '';
  return path && path !== ':memory:' ? dirname(resolve(/*turbopackIgnore: true*/ path)) : null;
}
