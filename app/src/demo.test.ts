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

it('shows the rules at work: credentials, one lapsed, time off, and a claim refused on the record', async () => {
  const { runtime } = server;
  const events = await runtime.store.readAll(0n, 100_000);
  const ofType = (type: string) => events.filter((event) => event.type === type);
  const names = ofType('CredentialTypeAdded').map((event) => (event.data as { name: string }).name);
  expect(names).toEqual(expect.arrayContaining(['Medication administration', 'CPR', 'Driver']));
  expect(ofType('CredentialRecorded').length).toBeGreaterThan(3);
  expect(ofType('TimeOffRecorded').length).toBeGreaterThan(0);
  const [refusal] = ofType('ShiftRefused');
  expect(refusal?.data).toMatchObject({ code: 'missing_credential' });
  expect(JSON.stringify(refusal?.data)).toMatch(/Medication administration/);
});
