import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, easternSlot, startTestServer } from '../testing/http';

let clockOffsetMs = 0;
const server = perFile(() => startTestServer({ clock: () => new Date(Date.now() + clockOffsetMs) }));
let admin: Client & { userId: string };
let staff: Client & { userId: string };
let colleague: Client & { userId: string };

beforeAll(async () => {
  admin = await server.signedIn('admin');
  staff = await server.signedIn('staff');
  colleague = await server.signedIn('staff');
});

/** A shift starting `hoursFromNow` from now, in Eastern wall-clock terms. */
function slot(hoursFromNow: number, hours = 8) {
  return easternSlot(new Date(Date.now() + hoursFromNow * 3_600_000), hours);
}

async function postShift(when = slot(48), extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await admin.post('/api/shifts', { location: 'Maple House', type: 'AM', ...when, ...extra });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

describe('a shift from posting to approval, and every rejection in docs/product.md §8’s forms', () => {
  it('staff claims, the admin approves, each answer carrying its global position', async () => {
    const id = await postShift();
    const claim = await staff.post(`/api/shifts/${id}/claim`);
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({
      status: 'pending',
      assignedUserId: staff.userId,
      needsApproval: true,
    });
    expect(claim.headers.get('x-position')).toBe(claim.body.position);
    const approve = await admin.post(`/api/shifts/${id}/approve`);
    expect(approve.body).toMatchObject({ status: 'approved', approved: true, needsApproval: false });
    expect(BigInt(approve.body.position!)).toBeGreaterThan(BigInt(claim.body.position!));
  });

  it('a claim that overlaps a shift one holds: 409 "Scheduling conflict: …"', async () => {
    const when = slot(72);
    const first = await postShift(when);
    const second = await postShift(when);
    expect((await colleague.post(`/api/shifts/${first}/claim`)).status).toBe(200);
    const conflict = await colleague.post(`/api/shifts/${second}/claim`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toMatch(/^Scheduling conflict: /);
    expect(conflict.body).toMatchObject({ code: 'shift_conflict', errorType: 'shift_conflict' });
  });

  it('a claim of a shift someone else holds: 409', async () => {
    const id = await postShift(slot(96));
    await staff.post(`/api/shifts/${id}/claim`);
    expect(await colleague.post(`/api/shifts/${id}/claim`)).toMatchObject({
      status: 409,
      body: { code: 'not_claimable' },
    });
  });

  it('a drop with under 4 hours notice: insufficient_notice; once started: shift_started', async () => {
    const id = await postShift(slot(5));
    await staff.post(`/api/shifts/${id}/claim`);
    await admin.post(`/api/shifts/${id}/approve`);
    clockOffsetMs = 2 * 3_600_000;
    const late = await staff.post(`/api/shifts/${id}/request-drop`);
    expect(late).toMatchObject({ status: 422, body: { code: 'insufficient_notice' } });
    expect(late.body.message).toMatch(/less than 4 hours/);
    clockOffsetMs = 6 * 3_600_000;
    const started = await staff.post(`/api/shifts/${id}/request-drop`);
    expect(started).toMatchObject({ status: 422, body: { code: 'shift_started' } });
    expect(started.body.message).toMatch(/already started/);
    clockOffsetMs = 0;
  });

  it('a drop request approved opens the shift again; denied keeps the assignee', async () => {
    const id = await postShift(slot(120));
    await staff.post(`/api/shifts/${id}/claim`);
    await admin.post(`/api/shifts/${id}/approve`);
    expect((await staff.post(`/api/shifts/${id}/request-drop`)).body).toMatchObject({ dropRequested: true });
    const approved = await admin.post(`/api/admin/drop-requests/${id}/approve`);
    expect(approved.body).toMatchObject({ status: 'open', assignedUserId: null });

    await colleague.post(`/api/shifts/${id}/claim`);
    await admin.post(`/api/shifts/${id}/approve`);
    await colleague.post(`/api/shifts/${id}/request-drop`);
    const denied = await admin.post(`/api/admin/drop-requests/${id}/deny`);
    expect(denied.body).toMatchObject({
      status: 'approved',
      assignedUserId: colleague.userId,
      dropRequested: false,
    });
  });

  it('manual assignment of a conflicting staff member: errorType shift_conflict', async () => {
    const when = slot(144);
    const held = await postShift(when);
    await staff.post(`/api/shifts/${held}/claim`);
    const other = await postShift(when);
    const reply = await admin.post(`/api/shifts/${other}/assign`, { staffId: staff.userId });
    expect(reply).toMatchObject({ status: 409, body: { errorType: 'shift_conflict' } });
    expect((await admin.post(`/api/shifts/${other}/assign`, {})).body).toMatchObject({
      message: 'No Staff Selected',
    });
  });

  it('a transfer is sent and accepted: the shift joins the recipient’s schedule', async () => {
    const id = await postShift(slot(168));
    await staff.post(`/api/shifts/${id}/claim`);
    await admin.post(`/api/shifts/${id}/approve`);
    const sent = await staff.post(`/api/shifts/${id}/transfer-request`, {
      toUserId: colleague.userId,
      message: 'Family event',
    });
    expect(sent.status).toBe(201);
    const again = await staff.post(`/api/shifts/${id}/transfer-request`, { toUserId: colleague.userId });
    expect(again.body.code).toBe('transfer_pending');
    expect((await staff.patch(`/api/transfer-requests/${sent.body.id}`, { status: 'accepted' })).status).toBe(
      403,
    );
    expect(
      (await colleague.patch(`/api/transfer-requests/${sent.body.id}`, { status: 'accepted' })).status,
    ).toBe(200);
    const state = await admin.put(`/api/shifts/${id}`, {
      location: 'Maple House',
      type: 'AM',
      ...slot(168),
      status: 'open',
    });
    expect(state.body.assignedUserId).toBe(colleague.userId);
    expect((await staff.post(`/api/shifts/${id}/transfer-request`, {})).body.message).toBe(
      'Please select a staff member to transfer the shift to',
    );
  });

  it('unknown ids are 404', async () => {
    expect((await staff.post('/api/shifts/no-such-shift/claim')).status).toBe(404);
    expect((await admin.delete('/api/users/no-such-user')).status).toBe(404);
    expect((await colleague.delete('/api/transfer-requests/nothing')).status).toBe(404);
  });
});

describe('retries and races over HTTP', () => {
  it('a retried mutation with the same Idempotency-Key returns the first result and writes nothing new', async () => {
    const key = { 'idempotency-key': 'create-morning-shift-1' };
    const body = { location: 'Cedar Grove', type: 'AM', ...slot(200) };
    const first = await admin.post('/api/shifts', body, key);
    const head = await server.runtime.store.headPosition();
    const again = await admin.post('/api/shifts', body, key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.position).toBe(first.body.position);
    expect(await server.runtime.store.headPosition()).toBe(head);
  });

  it('20 staff claim one shift at once: exactly one wins', async () => {
    const id = await postShift(slot(220));
    const crowd = await Promise.all(Array.from({ length: 20 }, () => server.signedIn('staff')));
    const replies = await Promise.all(crowd.map((c) => c.post(`/api/shifts/${id}/claim`)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
  });
});
