import { createCommandService } from '@shiftcover/command-api';
import { sendDueReports } from '@shiftcover/processes';
import { perFile } from '@shiftcover/testing';
import { expect, it } from 'vitest';
import { StoreNotEmpty, seedDemo } from './demo';
import { startTestServer } from './testing/http';

const server = perFile(startTestServer);

it('fills a store that only holds the first start’s report records, and refuses a second time', async () => {
  const { runtime } = server;
  // The first `npm start` on an empty store records the month's and the week's reports at once.
  const service = createCommandService(runtime.handler, runtime.vault);
  expect(await sendDueReports({ sql: runtime.sql, service })).not.toEqual([]);
  expect(await runtime.store.headPosition()).toBeGreaterThan(0n);

  const people = await seedDemo(runtime);
  expect(people.length).toBeGreaterThan(0);
  await expect(seedDemo(runtime)).rejects.toBeInstanceOf(StoreNotEmpty);
});
