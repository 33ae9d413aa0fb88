import { describe } from 'vitest';
import { eventStoreContract } from '../contract';
import { createEsdbEventStore } from './esdb-event-store';

const url = process.env.EVENTSTORE_URL;

// Runs only against a live EventStoreDB: EVENTSTORE_URL="esdb://localhost:2113?tls=false".
describe.runIf(url)('EventStoreDB adapter', () => {
  eventStoreContract('EventStoreDB', async () => {
    const store = createEsdbEventStore({ connectionString: url! });
    return { store, dispose: () => store.close() };
  });
});
