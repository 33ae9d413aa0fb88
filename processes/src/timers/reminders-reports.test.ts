import { randomUUID } from 'node:crypto';
import { type Actor, easternInstant, type ShiftCommand } from '@shiftcover/domain';
import { addressSubject } from '@shiftcover/eventstore';
import { aShift, openProcessWorld, perFile, registerPerson, subjectOf } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { planNextBatch } from '../mail/runner';
import { deliverDue } from '../mail/sender';
import { smtpTransport } from '../mail/smtp';
import { remindHolders } from './reminders';
import { reportCompletedShifts, sendDueReports } from './reports';
import { settleDueShifts } from './shift-timers';

const world = perFile(() => openProcessWorld({ readModels: true, smtp: true }));
let clock = easternInstant('2026-03-01', '09:00');
const people: Record<string, { userId: string; actor: Actor }> = {};
const timers = () => ({ sql: world.sql, service: world.service, clock: () => clock });

beforeAll(async () => {
  const register = async (name: string, role: 'staff' | 'admin' | 'developer', superAdmin = false) => {
    const actor = await registerPerson(world.service, name, { role, superAdmin, now: clock });
    people[name] = { userId: actor.userId, actor };
  };
  await register('sue', 'admin', true);
  await register('mia', 'admin');
  await register('sam', 'staff');
  await register('kai', 'staff');
  await register('dev', 'developer');
  // The store's history before this point is not mailed.
  await world.sql`insert into process_checkpoints (name, position) values ('email', ${(await world.store.headPosition()).toString()})`;
});

/** Plans and sends everything so far: the mails that arrived, as "recipient | subject". */
async function deliver(): Promise<string[]> {
  const before = world.smtp.inbox.length;
  while ((await planNextBatch(world.mailPlanner())) > 0) {}
  await deliverDue(world.sql, smtpTransport(world.smtp.url), 'Shift Coverage <shifts@example.org>');
  return world.smtp.inbox
    .slice(before)
    .map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`)
    .sort();
}

const lastMailTo = (address: string) =>
  world.smtp.inbox
    .filter((m) => m.to.includes(address))
    .at(-1)!
    .raw.replace(/=\r?\n/g, '');

async function heldShift(holder: string, date: string, startTime: string, endTime: string, location: string) {
  const shiftId = randomUUID();
  const run = (command: ShiftCommand, actor: Actor) =>
    world.service.shift(
      command,
      { actor, now: easternInstant('2026-03-01', '09:00') },
      { commandId: randomUUID() },
    );
  const type = endTime <= startTime ? 'Overnight' : 'AM';
  await run(
    {
      type: 'PostShift',
      data: aShift({ shiftId, location, date, startTime, endTime, type }),
    },
    people.mia!.actor,
  );
  await run({ type: 'ClaimShift', data: { shiftId } }, people[holder]!.actor);
  await run({ type: 'ApproveClaim', data: { shiftId } }, people.mia!.actor);
  return shiftId;
}

describe('reminders before a held shift starts', () => {
  it('reach the holder 12 hours before the start, by e-mail and in the app, exactly once', async () => {
    const shiftId = await heldShift('sam', '2026-03-10', '08:00', '16:00', 'Maple House');
    await world.project();
    await deliver();

    clock = easternInstant('2026-03-09', '19:59');
    expect(await remindHolders(timers())).toEqual([]);
    clock = easternInstant('2026-03-09', '20:00');
    expect(await remindHolders(timers())).toEqual([shiftId]);
    // Again, before and after the read model catches up, as after a restart: nothing more.
    expect(await remindHolders(timers())).toEqual([]);
    await world.project();
    clock = easternInstant('2026-03-10', '07:00');
    expect(await remindHolders(timers())).toEqual([]);

    expect(await deliver()).toEqual(['sam@example.org | Reminder: your shift at Maple House, 2026-03-10']);
    expect(lastMailTo('sam@example.org')).toContain('Tue, Mar 10, 2026, 8:00 AM');
    const notes =
      await world.sql`select type, title from rm_notifications where user_id = ${people.sam!.userId} and type = 'reminder'`;
    expect(notes.map((n) => n.title)).toEqual(['Shift reminder']);
  });
});

describe('the monthly report', () => {
  it('is caught up after downtime exactly once, to the super admins, and archives what it reported', async () => {
    const overnight = await heldShift('kai', '2026-03-20', '22:00', '06:00', 'Oak Lodge');
    const april = await heldShift('sam', '2026-04-02', '08:00', '12:00', 'Maple House');
    await world.project();
    await deliver();
    clock = easternInstant('2026-03-21', '08:00');
    expect((await settleDueShifts(timers())).completed).toHaveLength(2);
    // Down from March 25 until April 3: the report due on April 1 at 00:00 was missed.
    clock = easternInstant('2026-04-03', '10:00');
    await world.project();
    expect((await settleDueShifts(timers())).completed).toEqual([april]);
    await world.project();

    expect(await sendDueReports(timers())).toEqual(['monthly-report-2026-03', 'weekly-audit-2026-W14']);
    expect(await sendDueReports(timers())).toEqual([]);
    await world.project();
    expect(await sendDueReports(timers())).toEqual([]);

    const records =
      await world.sql`select original_shift_id, reported, reported_at, archived from rm_completed_shifts order by shift_completed_at`;
    expect(records.map((r) => [r.reported, r.archived])).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(records.find((r) => r.original_shift_id === overnight)!.reported_at).toEqual(clock);

    const mails = await deliver();
    expect(mails).toEqual([
      'sue@example.org | Audit report: Mar 23 to Mar 30, 2026',
      'sue@example.org | Completed shifts report: March 2026',
    ]);
    const report = world.smtp.inbox.find((m) => subjectOf(m.raw).startsWith('Completed shifts report'))!.raw;
    const [row] =
      await world.sql`select text_body, attachments from email_deliveries where kind = 'monthly_report'`;
    expect(row!.text_body).toContain('2 completed shifts, 16.00 hours worked (March 2026)');
    expect(row!.text_body).toContain('sam Test | 1 | 8.00');
    expect(row!.text_body).toContain('Oak Lodge | 1 | 8.00');
    expect(row!.attachments[0].filename).toBe('completed-shifts-march-2026.csv');
    expect(row!.attachments[0].content).toContain('2026-03-20,22:00,06:00,Overnight,Oak Lodge,kai Test,8.00');
    expect(report).toMatch(/filename="?completed-shifts-march-2026\.csv/);
    expect(report).toMatch(/Content-Type: text\/csv/i);

    // On May 1 at 00:00 the April record is reported, once.
    clock = easternInstant('2026-04-30', '23:59');
    expect(await sendDueReports(timers())).toEqual(['weekly-audit-2026-W18']);
    clock = easternInstant('2026-05-01', '00:00');
    expect(await sendDueReports(timers())).toEqual(['monthly-report-2026-04']);
    await world.project();
    const [left] = await world.sql`select count(*)::int as n from rm_completed_shifts where not archived`;
    expect(left!.n).toBe(0);
  });
});

describe('in mailing-list mode', () => {
  it('reminders go to the shared address; reports and test mails still go to the people named', async () => {
    await world.service.config(
      {
        type: 'SetEmailNotificationMode',
        data: { mode: 'mailing_list', mailingListAddress: 'team@example.org' },
      },
      { actor: people.dev!.actor, now: clock },
      { commandId: randomUUID() },
    );
    await heldShift('kai', '2026-05-02', '08:00', '16:00', 'Maple House');
    await world.project();
    await deliver();
    clock = easternInstant('2026-05-01', '21:00');
    expect(await remindHolders(timers())).toHaveLength(1);
    await reportCompletedShifts(timers(), {
      operationId: 'manual-1',
      actor: people.sue!.actor,
      period: 'shifts completed up to May 1, 2026',
    });
    await world.service.operation(
      'test-1',
      {
        type: 'SendTestEmail',
        data: {
          personalSubject: addressSubject('ops@example.org'),
          personal: { email: 'ops@example.org', subject: 'Hello', message: 'Is mail working?' },
        },
      },
      { actor: people.dev!.actor, now: clock },
      { commandId: randomUUID() },
    );
    expect(await deliver()).toEqual([
      'ops@example.org | Hello',
      'sue@example.org | Completed shifts report: shifts completed up to May 1, 2026',
      'team@example.org | Reminder: your shift at Maple House, 2026-05-02',
    ]);
    expect(lastMailTo('ops@example.org')).toContain('Is mail working?');
  });
});

describe("the completed-shifts report's CSV", () => {
  it('neutralises names and locations a spreadsheet would run as formulas', async () => {
    const userId = randomUUID();
    await world.service.users.register(
      {
        userId,
        role: 'staff',
        superAdmin: false,
        emailNotificationsEnabled: false,
        personal: {
          username: 'formula',
          email: 'formula@example.org',
          firstName: '=HYPERLINK("http://x","y")',
          lastName: 'Test',
          passwordHash: 'scrypt$x',
        },
      },
      { actor: { kind: 'system', name: 'test' }, now: clock },
      { commandId: randomUUID() },
    );
    people.formula = { userId, actor: { kind: 'user', userId, role: 'staff', superAdmin: false } };
    // Three short shifts four hours apart in one day: the rules must allow that little rest.
    await world.service.safety.setRules(
      { type: 'SetWorkingTimeRules', data: { minRestHours: 4, maxHoursPerWeek: 60, maxConsecutiveDays: 6 } },
      { actor: people.sue!.actor, now: clock },
      { commandId: randomUUID() },
    );
    await heldShift('formula', '2026-05-10', '00:00', '04:00', '+Plus House');
    await heldShift('formula', '2026-05-10', '08:00', '12:00', '-Minus House');
    await heldShift('formula', '2026-05-10', '16:00', '20:00', '@At House');
    await world.project();
    clock = easternInstant('2026-05-11', '08:00');
    await settleDueShifts(timers());
    await world.project();
    await reportCompletedShifts(timers(), {
      operationId: 'manual-formula',
      actor: people.sue!.actor,
      period: 'shifts completed up to May 11, 2026',
    });
    await deliver();

    const [row] = await world.sql`select attachments from email_deliveries
      where kind = 'monthly_report' order by id desc limit 1`;
    const lines = (row!.attachments[0].content as string).split('\r\n');
    const name = `"'=HYPERLINK(""http://x"",""y"") Test"`;
    const held = lines.filter((line) => line.startsWith('2026-05-10,'));
    expect(held).toHaveLength(3);
    expect(held[0]).toContain(`,AM,'+Plus House,${name},4.00,`);
    expect(held[1]).toContain(`,AM,'-Minus House,${name},4.00,`);
    expect(held[2]).toContain(`,AM,'@At House,${name},4.00,`);
  });
});
