import { createCommandService } from '@shiftcover/command-api';
import { DEFAULT_ESCALATION_POLICY, easternInstant } from '@shiftcover/domain';
import { escalateUnfilledShifts } from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { perFile } from '@shiftcover/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';

let clock = easternInstant('2026-03-01', '09:00');
const server = perFile(() => startTestServer({ clock: () => clock }));
let admin: Client & { userId: string };
let superAdmin: Client & { userId: string };
let staff: Client & { userId: string };
let positions: Positions;

beforeAll(async () => {
  admin = await server.signedIn('admin');
  superAdmin = await server.signedIn('admin', { superAdmin: true });
  staff = await server.signedIn('staff');
  positions = new Positions(server.runtime.sql);
});
afterAll(() => positions.close());

const readModels = ['outreach', 'shifts', 'users', 'system_config'];

/** One sweep of the timers' ladder on read models caught up with the log, then read models caught up with it. */
async function sweep() {
  const { runtime } = server;
  await positions.waitFor(await runtime.store.headPosition(), readModels);
  const service = createCommandService(runtime.handler, runtime.vault);
  await escalateUnfilledShifts({ sql: runtime.sql, service, clock: () => clock });
  await positions.waitFor(await runtime.store.headPosition(), readModels);
}

describe('the escalation policy over HTTP (docs/product.md §11)', () => {
  it('super admins read the default ladder and set their own; others may not; bad steps are 400', async () => {
    expect((await superAdmin.get('/api/escalation-policy')).body).toEqual({
      ...DEFAULT_ESCALATION_POLICY,
      version: 0,
    });
    expect((await admin.get('/api/escalation-policy')).status).toBe(403);
    const steps = [
      { hoursBeforeStart: null, audience: 'eligible_staff', mark: null },
      { hoursBeforeStart: 72, audience: 'all_staff', mark: null },
      { hoursBeforeStart: 12, audience: 'super_admins', mark: 'emergency' },
    ];
    expect(await admin.put('/api/escalation-policy', { steps })).toMatchObject({
      status: 403,
      body: { message: 'Only super admins and developers can change the escalation policy' },
    });
    const refused = [
      [[steps[1], steps[0]], /^Steps must be in order/],
      [
        [{ ...steps[1], hoursBeforeStart: 721 }],
        /^Hours before the start must be a whole number between 0 and 720/,
      ],
      [[{ ...steps[1], audience: 'everyone' }], /^Audience must be/],
    ] as const;
    for (const [bad, message] of refused) {
      const reply = await superAdmin.put('/api/escalation-policy', { steps: bad });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(message);
    }
    expect(await superAdmin.put('/api/escalation-policy', { steps })).toMatchObject({
      status: 200,
      body: { steps, version: 1, message: 'Escalation policy saved' },
    });
    expect((await superAdmin.put('/api/escalation-policy', { steps })).body.message).toBe(
      'Nothing to change',
    );
    expect((await superAdmin.get('/api/escalation-policy')).body).toEqual({ steps, version: 1 });
  });

  it('the outreach of a shift: who was told, when, how and at which step; in its history too', async () => {
    const posted = await admin.post('/api/shifts', {
      location: 'Maple House',
      type: 'AM',
      date: '2026-03-04',
      startTime: '08:00',
      endTime: '16:00',
    });
    const shiftId = posted.body.id as string;
    await sweep();
    // 2026-03-03 20:00 is 12 hours before the start: the last step marks it emergency.
    clock = easternInstant('2026-03-03', '20:00');
    await sweep();

    const outreach = await admin.get(`/api/shifts/${shiftId}/outreach`);
    expect(outreach.status).toBe(200);
    const rows = outreach.body as unknown as Array<Record<string, unknown>>;
    const told = rows.map((n) => `${n.step} ${n.audience} ${n.userId} ${n.channel}`);
    expect(told).toEqual(
      expect.arrayContaining([
        `posting eligible_staff ${staff.userId} in_app`,
        `posting eligible_staff ${staff.userId} email`,
        `72h all_staff ${staff.userId} in_app`,
        `12h super_admins ${superAdmin.userId} in_app`,
      ]),
    );
    expect(rows.find((n) => n.step === '12h')).toMatchObject({
      stepLabel: '12 h before the start',
      mark: 'emergency',
      userName: 'Test admin',
      sentAt: clock.toISOString(),
    });
    expect((await superAdmin.get(`/api/shifts/${shiftId}/outreach`)).status).toBe(200);
    expect((await staff.get(`/api/shifts/${shiftId}/outreach`)).status).toBe(403);
    // Once residences have admins, only Maple House's read its shifts' outreach.
    const maple = await superAdmin.post('/api/residences', { name: 'Maple House' });
    const oak = await superAdmin.post('/api/residences', { name: 'Oak Lodge' });
    const oakAdmin = await server.signedIn('admin');
    await superAdmin.post(`/api/users/${admin.userId}/assign-residence`, { residenceId: maple.body.id });
    await superAdmin.post(`/api/users/${oakAdmin.userId}/assign-residence`, { residenceId: oak.body.id });
    expect((await admin.get(`/api/shifts/${shiftId}/outreach`)).status).toBe(200);
    expect(await oakAdmin.get(`/api/shifts/${shiftId}/outreach`)).toMatchObject({
      status: 403,
      body: { message: 'Only the admins of this residence can see whom its shifts were sent to' },
    });
    expect((await admin.get('/api/shifts/no-such-shift/outreach')).status).toBe(404);

    const [shift] = await server.runtime.sql`select status from rm_shifts where id = ${shiftId}`;
    expect(shift!.status).toBe('emergency');
    const history = (await admin.get(`/api/shifts/${shiftId}/history`)).body as unknown as Array<{
      type: string;
      detail: string | null;
    }>;
    const escalations = history.filter((e) => e.type === 'ShiftEscalated');
    expect(escalations.map((e) => e.detail?.split(':')[0])).toEqual([
      'At posting, eligible staff',
      '72 h before the start, all staff',
      '12 h before the start, super admins',
    ]);
    expect(escalations[2]!.detail).toMatch(/: 1 person told: 1 in the app/);
  });
});
