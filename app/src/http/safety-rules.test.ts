import { easternInstant, type ShiftView } from '@shiftcover/domain';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';

const clock = easternInstant('2026-03-01', '09:00');
const server = perFile(() => startTestServer({ clock: () => clock }));
let admin: Client & { userId: string };
let superAdmin: Client & { userId: string };
let staff: Client & { userId: string };

beforeAll(async () => {
  admin = await server.signedIn('admin');
  superAdmin = await server.signedIn('admin', { superAdmin: true });
  staff = await server.signedIn('staff');
});

async function postShift(
  date: string,
  startTime: string,
  endTime: string,
  extra: Record<string, unknown> = {},
) {
  const reply = await admin.post('/api/shifts', {
    location: 'Maple House',
    type: 'AM',
    date,
    startTime,
    endTime,
    ...extra,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

async function listCredential(name: string) {
  const reply = await admin.post('/api/credential-types', { name });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

describe('credentials over HTTP (docs/product.md §10.1)', () => {
  it('admins keep the list of credential names; staff read it and may not change it', async () => {
    const id = await listCredential('Driver');
    expect(await admin.post('/api/credential-types', { name: 'driver' })).toMatchObject({
      status: 409,
      body: { code: 'already_exists' },
    });
    expect((await staff.post('/api/credential-types', { name: 'Forklift' })).status).toBe(403);
    expect((await staff.get('/api/credential-types')).body).toEqual(
      expect.arrayContaining([{ id, name: 'Driver' }]),
    );
    expect(await admin.delete(`/api/credential-types/${id}`)).toMatchObject({
      status: 200,
      body: { message: 'Credential removed from the list' },
    });
    expect(await admin.post('/api/credential-types', { name: '' })).toMatchObject({ status: 400 });
  });

  it('records a listed credential with its expiry; staff read their own, not another’s', async () => {
    await listCredential('CPR');
    const person = await server.signedIn('staff');
    expect(await admin.post(`/api/users/${person.userId}/credentials`, { name: 'Juggling' })).toMatchObject({
      status: 400,
      body: { message: 'Juggling is not on the list of credentials: add it to the list first' },
    });
    expect(
      await admin.post(`/api/users/${person.userId}/credentials`, { name: 'CPR', expiresOn: '2026-02-30' }),
    ).toMatchObject({ status: 400 });
    const recorded = await admin.post(`/api/users/${person.userId}/credentials`, {
      name: 'cpr',
      expiresOn: '2026-06-30',
    });
    expect(recorded).toMatchObject({
      status: 201,
      body: { name: 'CPR', expiresOn: '2026-06-30', expired: false, message: 'Credential recorded' },
    });
    expect((await person.get(`/api/users/${person.userId}/credentials`)).body).toEqual([
      expect.objectContaining({ id: recorded.body.id, name: 'CPR', expiresOn: '2026-06-30' }),
    ]);
    expect((await staff.get(`/api/users/${person.userId}/credentials`)).status).toBe(403);
    expect((await person.post(`/api/users/${person.userId}/credentials`, { name: 'CPR' })).status).toBe(403);
    expect(await admin.delete(`/api/users/${person.userId}/credentials/${recorded.body.id}`)).toMatchObject({
      status: 200,
      body: { message: 'Credential removed' },
    });
    expect((await person.get(`/api/users/${person.userId}/credentials`)).body).toEqual([]);
  });

  it('a claim without a required credential: 422 missing_credential, the same reason before, recorded after', async () => {
    await listCredential('Medication administration');
    const shiftId = await postShift('2026-03-10', '08:00', '16:00', {
      requiredCredentials: ['medication administration'],
    });
    const reason = {
      code: 'missing_credential',
      message: 'This shift needs the Medication administration credential, which you do not have',
    };
    expect((await staff.get(`/api/shifts/${shiftId}/eligibility`)).body).toEqual({
      eligible: false,
      reasons: [reason],
    });
    expect(await staff.post(`/api/shifts/${shiftId}/claim`)).toMatchObject({ status: 422, body: reason });

    const history = await admin.get(`/api/shifts/${shiftId}/history`);
    expect(history.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'ShiftRefused',
          actorId: staff.userId,
          detail: `Refused claim by ${staff.userId}: ${reason.message} (missing_credential, rules version 0)`,
        }),
      ]),
    );
    const audit = await superAdmin.get('/api/audit-logs?action=shift_refused');
    expect(JSON.stringify(audit.body)).toContain(reason.message);

    await admin.post(`/api/users/${staff.userId}/credentials`, { name: 'Medication administration' });
    expect((await staff.get(`/api/shifts/${shiftId}/eligibility`)).body).toEqual({
      eligible: true,
      reasons: [],
    });
    expect((await staff.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
  });

  it('the shift list names the credentials a shift requires, and an edit from the list keeps them', async () => {
    await listCredential('Driver');
    const shiftId = await postShift('2026-03-11', '08:00', '16:00', { requiredCredentials: ['Driver'] });
    const listed = async () => {
      const reply = await admin.get('/api/shifts?from=2026-03-11&to=2026-03-11');
      return (reply.body as unknown as ShiftView[]).find((shift) => shift.id === shiftId)!;
    };
    const shift = await listed();
    expect(shift.requiredCredentials).toEqual(['Driver']);

    const { location, date, startTime, endTime, type, requirements, requiredCredentials } = shift;
    const edit = await admin.put(`/api/shifts/${shiftId}`, {
      ...{ location, date, startTime, endTime, type, requirements, requiredCredentials },
      notes: 'Van keys at the front desk',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await listed()).toMatchObject({
      requiredCredentials: ['Driver'],
      notes: 'Van keys at the front desk',
    });
  });

  it('a required credential not on the list is refused when the shift is posted', async () => {
    const reply = await admin.post('/api/shifts', {
      location: 'Maple House',
      type: 'AM',
      date: '2026-03-10',
      startTime: '08:00',
      endTime: '16:00',
      requiredCredentials: ['Astronaut'],
    });
    expect(reply).toMatchObject({
      status: 400,
      body: { message: 'Astronaut is not on the list of credentials' },
    });
  });
});

describe('working-time rules over HTTP (docs/product.md §10.2, §10.3)', () => {
  it('super admins read the defaults and set new rules, each change a version; admins may not', async () => {
    expect((await superAdmin.get('/api/working-time-rules')).body).toEqual({
      minRestHours: 8,
      maxHoursPerWeek: 60,
      maxConsecutiveDays: 6,
      version: 0,
    });
    expect((await admin.get('/api/working-time-rules')).status).toBe(403);
    expect(
      (
        await admin.put('/api/working-time-rules', {
          minRestHours: 8,
          maxHoursPerWeek: 60,
          maxConsecutiveDays: 6,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await superAdmin.put('/api/working-time-rules', {
          minRestHours: -1,
          maxHoursPerWeek: 60,
          maxConsecutiveDays: 6,
        })
      ).status,
    ).toBe(400);
    const same = await superAdmin.put('/api/working-time-rules', {
      minRestHours: 8,
      maxHoursPerWeek: 60,
      maxConsecutiveDays: 6,
    });
    expect(same.body).toMatchObject({ version: 0, message: 'Nothing to change' });
  });

  it('a claim leaving too little rest: 422 rest_too_short with the figures', async () => {
    const person = await server.signedIn('staff');
    const late = await postShift('2026-03-17', '15:00', '23:00');
    const early = await postShift('2026-03-18', '05:00', '13:00');
    expect((await person.post(`/api/shifts/${late}/claim`)).status).toBe(200);
    const message =
      'You would have 6 h of rest between the shift ending Tue 11:00 PM and this one starting Wed 5:00 AM; the minimum is 8 h';
    expect((await person.get(`/api/shifts/${early}/eligibility`)).body).toEqual({
      eligible: false,
      reasons: [{ code: 'rest_too_short', message }],
    });
    expect(await person.post(`/api/shifts/${early}/claim`)).toMatchObject({
      status: 422,
      body: { code: 'rest_too_short', message },
    });
  });

  it('an assignment over the weekly hours: 422, then with a reason it goes through, shown in history and audit', async () => {
    const person = await server.signedIn('staff');
    for (const date of ['2026-03-22', '2026-03-23', '2026-03-24', '2026-03-25', '2026-03-26']) {
      const id = await postShift(date, '08:00', '19:00');
      expect((await admin.post(`/api/shifts/${id}/assign`, { staffId: person.userId })).status).toBe(200);
    }
    const saturday = await postShift('2026-03-28', '08:00', '16:00');
    const eligibility = await admin.get(`/api/shifts/${saturday}/eligibility?userId=${person.userId}`);
    expect(eligibility.body).toMatchObject({ eligible: false, reasons: [{ code: 'weekly_hours_exceeded' }] });
    expect((await staff.get(`/api/shifts/${saturday}/eligibility?userId=${person.userId}`)).status).toBe(403);
    const refused = await admin.post(`/api/shifts/${saturday}/assign`, { staffId: person.userId });
    expect(refused).toMatchObject({
      status: 422,
      body: {
        code: 'weekly_hours_exceeded',
        message:
          'This shift would bring their hours in the week of Sun, Mar 22, 2026 to 63 h; the maximum is 60 h',
      },
    });
    expect(
      (
        await admin.post(`/api/shifts/${saturday}/assign`, {
          staffId: person.userId,
          override: { reason: ' ' },
        })
      ).status,
    ).toBe(400);
    const overridden = await admin.post(`/api/shifts/${saturday}/assign`, {
      staffId: person.userId,
      override: { reason: 'Flu outbreak: no one else is free' },
    });
    expect(overridden).toMatchObject({
      status: 200,
      body: { assignedUserId: person.userId, status: 'approved' },
    });

    const history = (await admin.get(`/api/shifts/${saturday}/history`)).body as unknown as Array<{
      type: string;
      detail: string | null;
    }>;
    expect(history.map((e) => [e.type, e.detail])).toEqual([
      ['ShiftPosted', null],
      ['ShiftRefused', expect.stringContaining('(weekly_hours_exceeded, rules version 0)')],
      ['ShiftAssigned', 'Assigned against the working-time rules: Flu outbreak: no one else is free'],
    ]);
    const audit = await superAdmin.get('/api/audit-logs?action=shift_manually_assigned');
    expect(JSON.stringify(audit.body)).toContain('against the working-time rules: Flu outbreak');
  });

  it('the what-if replays the period under proposed rules, writing nothing', async () => {
    const before = await server.runtime.store.headPosition();
    const proposal = { maxHoursPerWeek: 40, from: '2026-03-01T00:00:00Z', until: '2026-04-01T00:00:00Z' };
    const reply = await superAdmin.post('/api/working-time-rules/what-if', proposal);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      rules: { minRestHours: 8, maxHoursPerWeek: 40, maxConsecutiveDays: 6 },
    });
    const violations = reply.body.violations as Array<{ code: string; userName: string }>;
    expect(violations.map((v) => v.code)).toContain('weekly_hours_exceeded');
    expect((reply.body.byRule as Record<string, number>).weekly_hours_exceeded).toBeGreaterThan(0);
    expect(await server.runtime.store.headPosition()).toBe(before);
    expect((await admin.post('/api/working-time-rules/what-if', {})).status).toBe(403);
    expect(
      (
        await superAdmin.post('/api/working-time-rules/what-if', {
          from: '2026-03-02T00:00:00Z',
          until: '2026-03-01T00:00:00Z',
        })
      ).status,
    ).toBe(400);
  });
});

describe('time off over HTTP (docs/product.md §10.4)', () => {
  it('staff record and cancel their time off; a claim inside it is 422 unavailable; admins see it', async () => {
    const person = await server.signedIn('staff');
    expect(
      (await person.post('/api/my-time-off', { startDate: '2026-04-10', endDate: '2026-04-09' })).status,
    ).toBe(400);
    const off = await person.post('/api/my-time-off', {
      startDate: '2026-04-08',
      endDate: '2026-04-10',
      note: 'Wedding',
    });
    expect(off).toMatchObject({
      status: 201,
      body: { startDate: '2026-04-08', endDate: '2026-04-10', note: 'Wedding', message: 'Time off recorded' },
    });
    expect((await person.get('/api/my-time-off')).body).toEqual([
      expect.objectContaining({ id: off.body.id }),
    ]);
    expect((await admin.get(`/api/users/${person.userId}/time-off`)).body).toEqual([
      expect.objectContaining({ id: off.body.id }),
    ]);
    expect((await staff.get(`/api/users/${person.userId}/time-off`)).status).toBe(403);

    const shiftId = await postShift('2026-04-09', '08:00', '16:00');
    const claim = await person.post(`/api/shifts/${shiftId}/claim`);
    expect(claim).toMatchObject({
      status: 422,
      body: {
        code: 'unavailable',
        message: 'You are off from Apr 8, 2026 to Apr 10, 2026: this shift falls in that time off',
      },
    });
    expect(await admin.post(`/api/shifts/${shiftId}/assign`, { staffId: person.userId })).toMatchObject({
      status: 422,
      body: { code: 'unavailable' },
    });
    expect((await staff.delete(`/api/my-time-off/${off.body.id}`)).status).toBe(404);
    expect((await person.delete(`/api/my-time-off/${off.body.id}`)).status).toBe(200);
    expect((await person.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
  });

  it('an accepted transfer is held to the rules too', async () => {
    const giver = await server.signedIn('staff');
    const taker = await server.signedIn('staff');
    const shiftId = await postShift('2026-04-20', '08:00', '16:00');
    await admin.post(`/api/shifts/${shiftId}/assign`, { staffId: giver.userId });
    await taker.post('/api/my-time-off', { startDate: '2026-04-20', endDate: '2026-04-20' });
    const offer = await giver.post(`/api/shifts/${shiftId}/transfer-request`, { toUserId: taker.userId });
    expect(offer.status).toBe(201);
    const accept = await taker.patch(`/api/transfer-requests/${offer.body.id}`, { status: 'accepted' });
    expect(accept).toMatchObject({ status: 422, body: { code: 'unavailable' } });
  });

  it('a claim made right after the rules changed is held to the new rules, and again after they change back', async () => {
    const person = await server.signedIn('staff');
    const evening = await postShift('2026-04-07', '12:00', '20:00');
    const morning = await postShift('2026-04-08', '05:00', '13:00');
    expect((await person.post(`/api/shifts/${evening}/claim`)).status).toBe(200);
    const rules = (minRestHours: number) =>
      superAdmin.put('/api/working-time-rules', { minRestHours, maxHoursPerWeek: 60, maxConsecutiveDays: 6 });
    expect((await rules(10)).status).toBe(200);
    try {
      expect(await person.post(`/api/shifts/${morning}/claim`)).toMatchObject({
        status: 422,
        body: {
          code: 'rest_too_short',
          message:
            'You would have 9 h of rest between the shift ending Tue 8:00 PM and this one starting Wed 5:00 AM; the minimum is 10 h',
        },
      });
    } finally {
      expect((await rules(8)).status).toBe(200);
    }
    expect((await person.post(`/api/shifts/${morning}/claim`)).status).toBe(200);
  });
});
