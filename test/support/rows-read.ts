import type { Client, ResultSet, Transaction } from '@libsql/client';

/**
 * Counts every row SQLite hands to JavaScript through the client, whichever query asked: by
 * itself, in a batch, or in a transaction (a read transaction's statements go through its own
 * object, not the client's execute). Returns the running count.
 */
export function countRowsRead(client: Client): () => number {
  let rows = 0;
  const counted = <T extends ResultSet | ResultSet[]>(result: T): T => {
    for (const set of [result].flat()) rows += set.rows.length;
    return result;
  };
  const wrap = (target: Client | Transaction) => {
    const execute = target.execute.bind(target) as (...args: unknown[]) => Promise<ResultSet>;
    const batch = target.batch.bind(target) as (...args: unknown[]) => Promise<ResultSet[]>;
    Object.assign(target, {
      execute: async (...args: unknown[]) => counted(await execute(...args)),
      batch: async (...args: unknown[]) => counted(await batch(...args)),
    });
  };
  wrap(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (async (...args: Parameters<Client['transaction']>) => {
    const tx = await transaction(...args);
    wrap(tx);
    return tx;
  }) as Client['transaction'];
  return () => rows;
}
