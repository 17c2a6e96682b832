// Whether the PostgreSQL server still answers, asked when a connection of the holder failed: a
// server stopped, restarting or cut off ends every session, the hold's among them, and the mock
// then stops saying the database went away rather than that a replica holds the sandbox.
import type { Pool } from 'pg';

/** How long the server has to answer before it counts as gone. */
const answerWithinMs = 2000;

/** Why the server cannot be reached now (one statement on a pooled connection); undefined when it answers. */
export async function unreachableBecause(pool: Pool): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${answerWithinMs / 1000} s`), answerWithinMs);
  });
  const asked = pool.query('SELECT 1').then(
    () => undefined,
    (error: Error) => error.message,
  );
  try {
    return await Promise.race([asked, silent]);
  } finally {
    clearTimeout(timer);
  }
}
