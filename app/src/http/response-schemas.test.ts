import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createCommandService } from '@shiftcover/command-api';
import {
  auditPageViewSchema,
  colleagueViewSchema,
  completedShiftViewSchema,
  credentialTypeViewSchema,
  credentialViewSchema,
  dashboardStatsViewSchema,
  dropRequestViewSchema,
  easternInstant,
  eligibilityViewSchema,
  emailModeViewSchema,
  emailQueueStatusViewSchema,
  errorAnswer,
  inProgressShiftViewSchema,
  managedUserViewSchema,
  myShiftsViewSchema,
  notificationsViewSchema,
  outboxMailViewSchema,
  parkedEventViewSchema,
  pendingShiftViewSchema,
  residenceViewSchema,
  shiftHistoryEntryViewSchema,
  shiftViewSchema,
  timeOffViewSchema,
  transferAnswer,
  transferRequestViewSchema,
  unreadCountViewSchema,
  userViewSchema,
  workingTimeRulesViewSchema,
  writtenResidenceViewSchema,
  writtenShiftViewSchema,
} from '@shiftcover/domain';
import { settleDueShifts } from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Client, startTestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type ApiDocument = { paths: Record<string, Record<string, Operation>> };

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

const server = perFile(() => startTestServer({ clock: () => clock }));
let developer: Client & { userId: string };
let superAdmin: Client & { userId: string };
let staff: Client & { userId: string };
let colleague: Client & { userId: string };
let clock = easternInstant('2026-03-01', '09:00');
const ids: Record<string, string> = {};

async function postShift(date: string, startTime = '08:00', endTime = '16:00') {
  const reply = await developer.post('/api/shifts', aShiftForm({ date, startTime, endTime }));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  expect(writtenShiftViewSchema.safeParse(reply.body).error).toBeUndefined();
  return reply.body.id as string;
}

beforeAll(async () => {
  developer = await server.signedIn('developer');
  superAdmin = await server.signedIn('admin', { superAdmin: true });
  staff = await server.signedIn('staff');
  colleague = await server.signedIn('staff');
  const residence = await developer.post('/api/residences', { name: 'Maple House', address: '1 Maple Road' });
  expect(writtenResidenceViewSchema.safeParse(residence.body).error).toBeUndefined();
  // The night and the day shift of Mar 2 are one person's, back to back: the rules allow no rest.
  const rules = { minRestHours: 0, maxHoursPerWeek: 60, maxConsecutiveDays: 6 };
  expect((await developer.put('/api/working-time-rules', rules)).status).toBe(200);
  await developer.post('/api/credential-types', { name: 'CPR' });
  await developer.post(`/api/users/${staff.userId}/credentials`, { name: 'CPR', expiresOn: '2027-01-31' });
  await staff.post('/api/my-time-off', { startDate: '2026-04-01', endDate: '2026-04-03' });
  ids.completed = await postShift('2026-03-02', '00:00', '08:00');
  ids.working = await postShift('2026-03-02', '08:00', '16:00');
  ids.pending = await postShift('2026-03-04');
  ids.dropping = await postShift('2026-03-05');
  ids.transfer = await postShift('2026-03-06');
  await postShift('2026-03-07');
  for (const id of [ids.completed, ids.working, ids.dropping, ids.transfer]) {
    await staff.post(`/api/shifts/${id}/claim`);
    await developer.post(`/api/shifts/${id}/approve`);
  }
  await colleague.post(`/api/shifts/${ids.pending}/claim`);
  await staff.post(`/api/shifts/${ids.dropping}/request-drop`);
  const transfer = await staff.post(`/api/shifts/${ids.transfer}/transfer-request`, {
    toUserId: colleague.userId,
    message: 'Swap?',
  });
  expect(transferAnswer.safeParse(transfer.body).error).toBeUndefined();
  // A day on: the night shift ended over an hour ago and is completed; the day shift is being worked.
  clock = easternInstant('2026-03-02', '09:30');
  const positions = new Positions(server.runtime.sql);
  await positions.waitFor(await server.runtime.store.headPosition(), ['shifts']);
  const service = createCommandService(server.runtime.handler, server.runtime.vault);
  await settleDueShifts({ sql: server.runtime.sql, service, clock: () => clock });
  await positions.waitFor(await server.runtime.store.headPosition(), ['completed_shifts', 'notifications']);
});

const documentOf = async () =>
  (await server.anonymous().get('/api/docs/json')).body as unknown as ApiDocument;

describe('the OpenAPI document', () => {
  it('declares, for every operation, the schema of its success answer and of its errors', async () => {
    const operations = Object.entries((await documentOf()).paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    expect(operations.length).toBeGreaterThan(50);
    const undescribed = operations.filter(({ operation }) => {
      const responses = operation.responses ?? {};
      const success = Object.keys(responses).find((status) => status.startsWith('2'));
      const content = success ? responses[success]?.content : undefined;
      return !content || Object.values(content).some((media) => !media.schema) || !responses['4XX'];
    });
    expect(undescribed.map(({ route }) => route)).toEqual([]);
  });

  it('passes the spectral:oas ruleset without errors or warnings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(await documentOf()));
      const spectral = join(root, 'node_modules/.bin/spectral');
      const ruleset = join(root, '.spectral.yaml');
      // Spectral prints nothing but the errors and warnings, and exits non-zero when there is one.
      const findings = await run(
        spectral,
        ['lint', file, '--ruleset', ruleset, '--fail-severity', 'warn', '--display-only-failures'],
        { cwd: root },
      ).then(
        () => '',
        (failure: { stdout?: string }) => failure.stdout ?? String(failure),
      );
      expect(findings).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('real answers match their schemas', () => {
  const matches = async (who: Client, path: string, schema: z.ZodType) => {
    const reply = await who.get(path);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const parsed = schema.safeParse(reply.body);
    expect(parsed.error?.issues ?? [], path).toEqual([]);
    return reply.body as unknown;
  };

  it('the shift lists, as an administrator and as staff', async () => {
    for (const who of [developer, staff]) {
      const list = (await matches(who, '/api/shifts', z.array(shiftViewSchema))) as unknown[];
      expect(list.length).toBeGreaterThan(0);
      await matches(who, '/api/my-shifts', myShiftsViewSchema);
      await matches(who, '/api/dashboard/stats', dashboardStatsViewSchema);
      await matches(who, '/api/transfer-requests', z.array(transferRequestViewSchema));
      await matches(who, '/api/notifications', notificationsViewSchema);
      await matches(who, '/api/notifications/unread-count', unreadCountViewSchema);
    }
    expect(await matches(developer, '/api/shifts/pending', z.array(pendingShiftViewSchema))).toHaveLength(1);
    expect(
      await matches(developer, '/api/shifts/in-progress', z.array(inProgressShiftViewSchema)),
    ).toHaveLength(1);
    expect(await matches(developer, '/api/admin/drop-requests', z.array(dropRequestViewSchema))).toHaveLength(
      1,
    );
    await matches(developer, `/api/users/${staff.userId}/shifts`, z.array(shiftViewSchema));
    await matches(developer, `/api/shifts/${ids.transfer}/history`, z.array(shiftHistoryEntryViewSchema));
  });

  it('people, residences, records and settings', async () => {
    await matches(staff, '/api/auth/user', userViewSchema);
    await matches(developer, '/api/users', z.array(managedUserViewSchema));
    expect(await matches(staff, '/api/users', z.array(colleagueViewSchema))).not.toEqual([]);
    expect(await matches(staff, '/api/residences', z.array(residenceViewSchema))).toHaveLength(1);
    expect(
      await matches(superAdmin, '/api/completed-shifts', z.array(completedShiftViewSchema)),
    ).toHaveLength(1);
    const audit = (await matches(developer, '/api/audit-logs', auditPageViewSchema)) as { logs: unknown[] };
    expect(audit.logs.length).toBeGreaterThan(0);
    await matches(staff, '/api/system-config/email-notification-mode', emailModeViewSchema);
    await matches(developer, '/api/email-queue/status', emailQueueStatusViewSchema);
    await matches(developer, '/api/email-outbox', z.array(outboxMailViewSchema));
    await matches(developer, '/api/parked-events', z.array(parkedEventViewSchema));
  });

  it('credentials, time off, the working-time rules and eligibility', async () => {
    expect(await matches(staff, '/api/credential-types', z.array(credentialTypeViewSchema))).toHaveLength(1);
    const credentials = `/api/users/${staff.userId}/credentials`;
    expect(await matches(staff, credentials, z.array(credentialViewSchema))).toHaveLength(1);
    expect(await matches(staff, '/api/my-time-off', z.array(timeOffViewSchema))).toHaveLength(1);
    await matches(developer, `/api/users/${staff.userId}/time-off`, z.array(timeOffViewSchema));
    await matches(developer, '/api/working-time-rules', workingTimeRulesViewSchema);
    await matches(colleague, `/api/shifts/${ids.transfer}/eligibility`, eligibilityViewSchema);
  });

  it('refusals', async () => {
    const refused = await staff.get('/api/audit-logs');
    expect(refused.status).toBe(403);
    expect(errorAnswer.parse(refused.body)).toEqual(refused.body);
    const conflict = await colleague.post(`/api/shifts/${ids.working}/claim`);
    expect(conflict.status).toBeGreaterThanOrEqual(400);
    expect(errorAnswer.parse(conflict.body)).toEqual(conflict.body);
  });
});
