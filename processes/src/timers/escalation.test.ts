import { randomUUID } from 'node:crypto';
import { type Actor, easternInstant } from '@shiftcover/domain';
import { aShift, openProcessWorld, perFile, registerPerson, subjectOf } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { planNextBatch } from '../mail/runner';
import { deliverDue } from '../mail/sender';
import { smtpTransport } from '../mail/smtp';
import { escalateUnfilledShifts } from './escalation';
import { ShiftTimers } from './shift-timers';

const world = perFile(() => openProcessWorld({ readModels: true, smtp: true }));
let clock = easternInstant('2026-03-05', '09:00');
const timers = () => ({ sql: world.sql, service: world.service, clock: () => clock });
let admin: Extract<Actor, { kind: 'user' }>;
let cam: Extract<Actor, { kind: 'user' }>;
let bob: Extract<Actor, { kind: 'user' }>;
let shiftId: string;

beforeAll(async () => {
  admin = await registerPerson(world.service, 'ada', { role: 'admin', now: clock });
  await registerPerson(world.service, 'sue', { role: 'admin', superAdmin: true, now: clock });
  cam = await registerPerson(world.service, 'cam', { role: 'staff', now: clock });
  bob = await registerPerson(world.service, 'bob', { role: 'staff', now: clock });
  // Bob is off that day, so the eligibility check leaves Bob out of the step for eligible staff.
  await world.service.safety.schedule(
    {
      type: 'RecordTimeOff',
      data: {
        userId: bob.userId,
        timeOffId: randomUUID(),
        startDate: '2026-03-10',
        endDate: '2026-03-10',
        note: null,
      },
    },
    { actor: bob, now: clock },
    { commandId: randomUUID() },
  );
  await world.sql`insert into process_checkpoints (name, position) values ('email', ${(await world.store.headPosition()).toString()})`;
  shiftId = randomUUID();
  await world.service.shift(
    {
      type: 'PostShift',
      data: aShift({ shiftId, date: '2026-03-10', startTime: '08:00', endTime: '16:00' }),
    },
    { actor: admin, now: clock },
    { commandId: randomUUID() },
  );
});

/** Runs the ladder, then plans and delivers its mail: the steps run, and what arrived as "recipient | subject". */
async function sweep(run = () => escalateUnfilledShifts(timers())) {
  await world.project();
  const ran = await run();
  await world.project();
  const before = world.smtp.inbox.length;
  while ((await planNextBatch(world.mailPlanner())) > 0) {}
  await deliverDue(world.sql, smtpTransport(world.smtp.url), 'Shift Coverage <shifts@example.org>');
  const mailed = world.smtp.inbox
    .slice(before)
    .map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`)
    .sort();
  return { ran, mailed };
}

const stepsRun = async () =>
  (
    await world.sql<{ step: string }[]>`
    select data->'step'->>'hoursBeforeStart' as step from events where type = 'ShiftEscalated' order by position`
  ).map((e) => e.step ?? 'posting');

describe('the escalation ladder (docs/product.md §11)', () => {
  it("finds the eligible staff as each one's own eligibility check would", async () => {
    const ids = [cam.userId, bob.userId, admin.userId];
    const oneByOne = [];
    for (const id of ids)
      if ((await world.service.safety.eligibility(shiftId, id, true, clock))?.eligible) oneByOne.push(id);
    // Bob is off that day; the staff audience is drawn from staff only, but the check itself is not.
    expect(oneByOne).toEqual([cam.userId, admin.userId]);
    for (const atOnce of [1, 2, 4])
      expect(await world.service.safety.eligibleAmong(shiftId, ids, clock, atOnce)).toEqual(oneByOne);
    // Once the shift has ended nobody may take it; an unknown shift has no answer.
    expect(
      await world.service.safety.eligibleAmong(shiftId, ids, easternInstant('2026-03-10', '16:00')),
    ).toEqual([]);
    expect(await world.service.safety.eligibleAmong(randomUUID(), ids, clock)).toBeNull();
  });

  it('tells eligible staff at posting, once, across a restart', async () => {
    expect(await sweep()).toEqual({
      ran: [`${shiftId}:posting`],
      mailed: [
        'bob@example.org | New shift available: Maple House, 2026-03-10',
        'cam@example.org | New shift available: Maple House, 2026-03-10',
        'cam@example.org | Shift open to you: Maple House, 2026-03-10',
      ],
    });
    // A restarted timer's first sweep, and another sweep, find nothing left to do.
    const restarted = new ShiftTimers(timers());
    await restarted.start();
    await restarted.stop();
    const again = await sweep();
    expect(again.ran).toEqual([]);
    expect(again.mailed.filter((m) => m.includes('Maple House'))).toEqual([]);
    expect(await stepsRun()).toEqual(['posting']);
  });

  it('two runners sweeping at once run the 48-hour step once, for all staff', async () => {
    clock = easternInstant('2026-03-08', '08:00');
    const both = await sweep(async () =>
      (await Promise.all([1, 2].map(() => escalateUnfilledShifts(timers())))).flat(),
    );
    // Both may see their append accepted (the second repeats the first's events, derived from the
    // same command id, and the store keeps one copy): the step is in the log once, mailed once.
    expect(both).toEqual({
      ran: expect.arrayContaining([`${shiftId}:48h`]),
      mailed: [
        'bob@example.org | Shift still open: Maple House, 2026-03-10',
        'cam@example.org | Shift still open: Maple House, 2026-03-10',
      ],
    });
    expect(await stepsRun()).toEqual(['posting', '48']);
  });

  it('stops when the shift is claimed and starts over when it is open again', async () => {
    await world.service.shift(
      { type: 'ClaimShift', data: { shiftId } },
      { actor: cam, now: clock },
      { commandId: randomUUID() },
    );
    clock = easternInstant('2026-03-09', '08:30');
    expect((await sweep()).ran).toEqual([]);

    await world.service.shift(
      { type: 'DenyClaim', data: { shiftId } },
      { actor: admin, now: clock },
      { commandId: randomUUID() },
    );
    const reopened = await sweep();
    // Open again a day before: the ladder starts over at posting and where it stands (24 hours),
    // the 48-hour step being more than a day behind.
    expect(reopened.ran).toEqual([`${shiftId}:posting`, `${shiftId}:24h`]);
    expect(reopened.mailed).toEqual(
      expect.arrayContaining([
        'ada@example.org | Urgent coverage needed: Maple House, 2026-03-10',
        'sue@example.org | Urgent coverage needed: Maple House, 2026-03-10',
      ]),
    );
    // The mark is the step's: staff are not told of it by the urgent-coverage announcement.
    expect(reopened.mailed.filter((m) => m.startsWith('bob@'))).toEqual([]);
    const [shift] = await world.sql`select status from rm_shifts where id = ${shiftId}`;
    expect(shift!.status).toBe('urgent');

    clock = easternInstant('2026-03-10', '00:00');
    expect(await sweep()).toEqual({
      ran: [`${shiftId}:8h`],
      mailed: ['sue@example.org | Emergency coverage needed: Maple House, 2026-03-10'],
    });
    const inApp = await world.sql`
      select title from rm_notifications where user_id = ${await superAdminId()} and shift_id = ${shiftId} order by created_at`;
    expect(inApp.map((n) => n.title)).toEqual(['Urgent coverage needed', 'Emergency coverage needed']);
    expect(await stepsRun()).toEqual(['posting', '48', 'posting', '24', '8']);
  });

  it('in mailing-list mode tells the list once, and the people in the app', async () => {
    const developer: Actor = { kind: 'user', userId: 'dev-1', role: 'developer', superAdmin: false };
    await world.service.config(
      {
        type: 'SetEmailNotificationMode',
        data: { mode: 'mailing_list', mailingListAddress: 'team@example.org' },
      },
      { actor: developer, now: clock },
      { commandId: randomUUID() },
    );
    const listed = randomUUID();
    await world.service.shift(
      {
        type: 'PostShift',
        data: aShift({ shiftId: listed, date: '2026-03-12', startTime: '08:00', endTime: '16:00' }),
      },
      { actor: admin, now: clock },
      { commandId: randomUUID() },
    );
    expect(await sweep()).toEqual({
      ran: [`${listed}:posting`],
      mailed: [
        'team@example.org | New shift available: Maple House, 2026-03-12',
        'team@example.org | Shift open to you: Maple House, 2026-03-12',
      ],
    });
    const told = await world.sql`
      select user_id, channel from rm_shift_outreach where shift_id = ${listed} order by channel`;
    // Cam and Bob (not off that day) in the app, and the list with nobody named.
    expect(told.map((n) => n.channel)).toEqual(['in_app', 'in_app', 'mailing_list']);
    expect(told.map((n) => n.user_id)).toEqual(expect.arrayContaining([cam.userId, null]));
  });
});

const superAdminId = async () =>
  ((await world.sql`select id from rm_users where super_admin`)[0] as { id: string }).id;
