import type { ReservedSql, Sql } from 'postgres';

/**
 * Reads in one repeatable-read, read-only snapshot, in as few trips to the database as the reads
 * allow: `begin` and the statements `read` sends at once go down one reserved connection
 * together, and the answer does not wait for the `commit` (`sql.begin` waits for its `begin`
 * before the first statement, and for its `commit` before it returns: two more trips). Under a
 * heavy command load every trip waits its turn, in this process's event loop and in the
 * database's scheduler, so a read's trips are much of what a person waiting for their own write
 * waits for (docs/architecture.md §6.1). `read` should send its statements together
 * (`Promise.all`); one it sends after awaiting another still reads the same snapshot, a trip later.
 */
export async function inOneSnapshot<T>(sql: Sql, read: (db: ReservedSql) => Promise<T>): Promise<T> {
  const db = await sql.reserve();
  // A statement goes to the connection when it is first awaited: `begin` is handed over before
  // `read` hands over any of its own.
  const begun = db`begin isolation level repeatable read read only`.execute();
  let value: T;
  try {
    [, value] = await Promise.all([begun, read(db)]);
  } catch (error) {
    // A failed statement aborts the transaction; statements still on their way fail with it.
    await db`rollback`.catch(() => undefined);
    db.release();
    throw error;
  }
  // A read-only transaction's commit changes nothing: the answer goes out while it finishes, and
  // the connection returns to the pool after it.
  db`commit`.then(
    () => db.release(),
    () => db.release(),
  );
  return value;
}
