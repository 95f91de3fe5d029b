import { processSlot } from '@/lib/process-state';

export type DatabaseLogLevel = 'info' | 'warn' | 'error';
/** One event for the operator: a level, a few fields (codes, counts, names; never SQL values), a message. */
export type DatabaseLog = (level: DatabaseLogLevel, fields: Record<string, unknown>, message: string) => void;

/**
 * How db/ tells the operator something (a storage fault, the checkpoint worker stopping).
 * db/ sits below lib/ and never imports it, so the process's logger is handed in from above:
 * the server wires its structured logger here when it starts (lib/server/start.ts). A script
 * or a test that never wires one gets a plain line on stderr.
 */
const holder = processSlot<{ log?: DatabaseLog }>('databaseLog', () => ({}));

export function setDatabaseLog(log: DatabaseLog): void {
  holder.log = log;
}

export function logDatabase(level: DatabaseLogLevel, fields: Record<string, unknown>, message: string): void {
  if (holder.log) holder.log(level, fields, message);
  else console.error(`[db] ${message}`);
}
