import { connect } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { eventStoreContract } from '../contract';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  const sql = connect(db.url);
  await migrateEventStore(sql);
  const store = createPostgresEventStore({ sql, pollIntervalMs: 50 });
  return {
    store,
    async dispose() {
      await store.close();
      await sql.end();
      await db.drop();
    },
  };
});
