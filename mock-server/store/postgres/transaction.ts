// Transactions on the postgres:// engine's pool: BEGIN … COMMIT on one connection, rolled back
// when the work throws.
import type { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on `client`: committed when it resolves, rolled back when it throws. */
export async function transactionOn<T>(client: PoolClient, work: (client: PoolClient) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Runs `work` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await transactionOn(client, work);
  } finally {
    client.release();
  }
}
